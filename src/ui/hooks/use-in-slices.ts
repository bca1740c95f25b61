import { useCallback, useLayoutEffect, useReducer, useRef, useState } from "react";

/** Work a slice may take (its render, commit, style, layout and paint) before the next frame. */
export const SLICE_BUDGET_MS = 40;

/** How much a slice may grow over the one before, so one misjudged slice cannot hold the page for long. */
const MAX_GROWTH = 4;

/**
 * The next slice's size: as many items as `budgetMs` holds at the cost per item the last slice
 * took (`workMs` for `added` items), never below `min` and never more than MAX_GROWTH times the
 * last slice.
 */
export function nextSliceSize(added: number, workMs: number, min: number, budgetMs = SLICE_BUDGET_MS): number {
  if (!(added > 0)) return min;
  const perItem = Math.max(workMs, 0.01) / added;
  return Math.max(min, Math.min(Math.floor(budgetMs / perItem), added * MAX_GROWTH));
}

/**
 * How many of `total` items to render: at most `step` more than the last commit showed, then
 * the rest a slice per frame, each after the browser has painted the one before, each slice as
 * large as SLICE_BUDGET_MS holds at the cost per item the one before took. A list that grows by
 * a few items (a series shown again) renders them at once; a thousand series arriving at once
 * are laid out in a few slices instead of in one long task (the style and layout of a hundred
 * series rows, each with its controls, held the page for over a frame), and not in fifty frames
 * of a fixed twenty rows either, when rows are cheap.
 *
 * While items are left to render, `onBusy(1)` holds the page's busy flag (data-busy promises
 * everything is drawn); `onBusy(-1)` lets it go. Both run in layout effects, so the flag is up
 * before the browser (or a test) sees the first slice.
 */
export function useInSlices(total: number, step: number, onBusy?: (d: 1 | -1) => void): number {
  const drawn = useRef(0);
  // The next slice's size, and when the slice being drawn was asked for (0: not by a slice).
  const size = useRef(step);
  const asked = useRef(0);
  const [, next] = useReducer((n: number) => n + 1, 0);
  const count = Math.min(total, drawn.current + size.current);
  const onBusyRef = useRef(onBusy);
  onBusyRef.current = onBusy;
  useLayoutEffect(() => {
    const added = count - drawn.current;
    drawn.current = count;
    // Rendered and committed: the first part of this slice's work.
    const committed = performance.now();
    const rendering = asked.current > 0 ? committed - asked.current : 0;
    asked.current = 0;
    if (count >= total) {
      size.current = step;
      return;
    }
    const busy = onBusyRef.current;
    busy?.(1);
    let live = true;
    let framed = 0;
    // rAF runs just before the frame is drawn; a message posted from it is handled after it
    // (after the style, layout and paint of this slice: the second part of its work).
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      if (!live) return;
      const now = performance.now();
      if (rendering > 0) size.current = nextSliceSize(added, rendering + (now - framed), step);
      asked.current = now;
      next();
    };
    const raf = requestAnimationFrame(() => {
      framed = performance.now();
      ch.port2.postMessage(0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(raf);
      ch.port1.close();
      busy?.(-1);
    };
  }, [count, total, step]);
  return count;
}

/**
 * Rows a long list shows at first, and how many more each time its end comes into view: a
 * fleet of a thousand series drew a thousand list rows and a thousand table rows before the
 * page was ready, when a screen shows a few dozen.
 */
export const ROWS_SHOWN = 100;

/** Lists up to this long show every row: a `series` row per series, as outside checks count them. */
export const LONG_LIST = 500;

/** How many of `total` rows a list shows: all up to LONG_LIST, else ROWS_SHOWN, more on `more()`, every one after `all()`. */
export function useRowsShown(total: number): { shown: number; more: () => void; all: () => void } {
  const [limit, setLimit] = useState(ROWS_SHOWN);
  const more = useCallback(() => setLimit((l) => l + ROWS_SHOWN), []);
  const all = useCallback(() => setLimit(Infinity), []);
  return { shown: total <= LONG_LIST ? total : Math.min(total, limit), more, all };
}
