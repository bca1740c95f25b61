// The page's start (see startup.ts): a share link or #src= link opens what it names, a reload
// restores the saved session, otherwise the first screen is the demo: System A vs System B at
// several throughputs. A restored view is put on screen here.
import { useEffect, useRef } from "react";
import { parseExpectedInterval } from "../../core/interval";
import { parseRequirement, type Requirement } from "../../core/requirements";
import type { EngineClient } from "../../engine/client";
import type { SharedCompare } from "../../share/schema";
import type { RemoteQuestion } from "../panels/RemoteConsent";
import { mayOpenOnDemo, startApp } from "../state/startup";
import { preloadPanelsWhenIdle, TimeAnalysis } from "../panels/lazy-panels";
import { srcUrls } from "../../engine/remote";
import { HISTORY_PREFIX } from "../../share/history-prefix";
import type { SharedTimeInfo } from "../state/time-state";
import type { EngineState } from "./use-engine";
import type { useSeriesEdits } from "./use-series-edits";
import type { useSession } from "./use-session";
import type { useViewState } from "./use-view-state";
import type { RestoredView } from "../state/view-state";

// Effects run twice under React's StrictMode in development: start once.
let started = false;

interface Deps {
  engine: EngineClient;
  eng: EngineState;
  vs: ReturnType<typeof useViewState>;
  edits: ReturnType<typeof useSeriesEdits>;
  sess: ReturnType<typeof useSession>;
  restoreCompare: (c: SharedCompare) => void;
  setHidden: (h: Set<string>) => void;
  setSharedTime: (t: SharedTimeInfo | null) => void;
  askRemote: (q: RemoteQuestion) => void;
}

/** Starts the page; returns the demo's requirement ("Clear all" drops it with the demo unless the user changed it). */
export function useRestore(d: Deps): { current: Requirement | null } {
  const demoRequirement = useRef<Requirement | null>(null);
  const { engine, eng, vs, edits, sess } = d;

  /** Puts a restored view (from a share link or the saved session) on screen. */
  const applyView = async ({ view: v, log, sharedTime, hidden }: RestoredView) => {
    vs.restore(v);
    eng.setRange(v.range); // the views asked for below, and by the run that restores, use it
    d.setSharedTime(sharedTime ?? null);
    if (v.compare) d.restoreCompare(v.compare);
    if (v.coInterval) {
      // Only what the field accepted was saved; a session edited by hand is checked again.
      const ns = parseExpectedInterval(v.coInterval);
      if (ns !== null && !Number.isNaN(ns)) {
        await engine.setCoInterval(ns);
        vs.setCoText(v.coInterval);
      }
    }
    await edits.replay(log);
    const all = await engine.views(eng.rangeRef.current);
    d.setHidden(new Set(all.filter((x, i) => hidden(x.name, i)).map((x) => x.id)));
  };

  useEffect(() => {
    if (started) return;
    started = true;
    // The demo's logs have intervals: its first screen shows the time analysis, whose chunk is
    // fetched beside the logs rather than once their spectra are drawn.
    if (mayOpenOnDemo()) TimeAnalysis.preload();
    void eng
      .run(() =>
        startApp({
          engine,
          setProgress: eng.setProgress,
          applyView,
          session: sess.session,
          onSessionReady: () => {
            sess.ready.current = true;
          },
          onDemoRequirement: (text) => {
            const r = parseRequirement(text);
            if (r.ok) {
              vs.setRequirement(r.value);
              demoRequirement.current = r.value;
            }
          },
          askRemote: (hosts, answer) => d.askRemote({ hosts, answer }),
        }),
      )
      .then(() =>
        // What the first screen does not need waits for it: the helper workers (a log of the
        // person's starts them at once) and the idle panels' chunks.
        requestAnimationFrame(() =>
          setTimeout(() => {
            engine.startHelpers();
            preloadPanelsWhenIdle();
          }, 0),
        ),
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [eng.run]);
  useOpenPastedLinks();
  return demoRequirement;
}

/** Whether a fragment is one of the page's links (a share link, #src=, a history link). */
export function isPageLink(hash: string): boolean {
  return /(^#|&)s=/.test(hash) || srcUrls(hash).length > 0 || hash.startsWith(HISTORY_PREFIX);
}

/**
 * A link pasted into the address bar of a tab already showing the page changes only the
 * fragment, and the browser loads nothing: the page opens it as it would in a new tab.
 */
function useOpenPastedLinks() {
  useEffect(() => {
    const onHash = () => {
      if (isPageLink(window.location.hash)) window.location.reload();
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
}
