// The panels most pages do not need at first (the heatmap and time analysis, the A vs B panel,
// the presentation) are their own chunks, off the script the page starts with: fetched when
// first shown, or when the browser is idle after start, whichever comes first (so keys pressed
// right after "Present" are not lost to a chunk still on its way). While a chunk a panel on
// screen needs loads, useChunksLoading() is true and the page says it is busy (data-busy).
import { lazy, Suspense, useLayoutEffect, useSyncExternalStore, type ComponentProps, type ComponentType, type JSX } from "react";

let pending = 0;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** True while a lazy panel's chunk is being fetched for a panel on screen. */
export function useChunksLoading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending > 0,
    () => false,
  );
}

/** Shown until the chunk is there: holds the page busy from its first commit (before paint). */
function Loading() {
  useLayoutEffect(() => {
    pending++;
    notify();
    return () => {
      pending--;
      notify();
    };
  }, []);
  return null;
}

function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> & { preload: () => void } {
  let loaded: { default: ComponentType<P> } | null = null;
  let started: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () =>
    (started ??= load().then((c) => {
      loaded = { default: c };
      return loaded;
    }));
  // Already fetched when first rendered: a thenable that answers at once, so React.lazy does not
  // suspend for a moment (keys pressed meanwhile, right after "Present", were lost).
  const Lazy = lazy(() => {
    const now = loaded;
    return now ? ({ then: (done: (m: { default: ComponentType<P> }) => void) => done(now) } as unknown as Promise<{ default: ComponentType<P> }>) : start();
  });
  const Panel = (props: P) => (
    <Suspense fallback={<Loading />}>
      <Lazy {...(props as P & JSX.IntrinsicAttributes)} />
    </Suspense>
  );
  return Object.assign(Panel, { preload: () => void start() });
}

export const TimeAnalysis = lazyPanel<ComponentProps<typeof import("./TimeAnalysis").TimeAnalysis>>(() => import("./TimeAnalysis").then((m) => m.TimeAnalysis));
export const ComparePanel = lazyPanel<ComponentProps<typeof import("./ComparePanel").ComparePanel>>(() => import("./ComparePanel").then((m) => m.ComparePanel));
export const HistoryPanel = lazyPanel<ComponentProps<typeof import("./HistoryPanel").HistoryPanel>>(() => import("./HistoryPanel").then((m) => m.HistoryPanel));
export const Presentation = lazyPanel<ComponentProps<typeof import("../deck/Presentation").Presentation>>(() => import("../deck/Presentation").then((m) => m.Presentation));

/** Fetches every panel's chunk (once). */
export function preloadPanels(): void {
  for (const p of [TimeAnalysis, ComparePanel, HistoryPanel, Presentation]) p.preload();
}

/**
 * Fetches every panel's chunk once the browser is idle: called after the page's start (its
 * first screen, the demo's on the page as it opens), whose own fetches they would only delay.
 */
export function preloadPanelsWhenIdle(): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(preloadPanels, { timeout: 2000 });
  else setTimeout(preloadPanels, 500);
}
