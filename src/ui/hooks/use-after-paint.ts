import { useCallback, useEffect, useRef, useState } from "react";

/**
 * `value`, but while `defer()` says so a change is handed on only after the browser has painted
 * the frame in which it happened: the caller renders the old value in that frame, and the new
 * one in a task after it.
 *
 * Used for the percentile table on a unit change, while the table is off screen. With 50
 * series its 350 relabelled cells cost more than the chart (React, text layout, a repaint of
 * the page's root layer) and put the chart's repaint over a frame. The chart
 * and the timeline now repaint first; the table, wholly in the old unit (its caption too, so it
 * never mixes units), follows in the next frame. On screen, the table changes with the chart,
 * in one frame: nobody should see the two disagree. `stale` is true meanwhile: the app stays
 * busy (data-busy) until it is false, since that flag promises every chart and table reflects
 * the current state.
 */
export function useAfterNextPaint<T>(value: T, defer: () => boolean): { value: T; stale: boolean } {
  const [shown, setShown] = useState(value);
  // Decided once per change of value, on the render that first sees it.
  const deferred = useRef<{ value: T; defer: boolean } | null>(null);
  const changed = !Object.is(shown, value);
  if (changed && (deferred.current === null || !Object.is(deferred.current.value, value))) deferred.current = { value, defer: defer() };
  const stale = changed && deferred.current!.defer;
  useEffect(() => {
    if (!changed) return;
    if (!stale) {
      // Shown at once (not deferred): remember it so that a later change compares with it.
      setShown(() => value);
      return;
    }
    let live = true;
    // rAF runs just before the frame is drawn; a message posted from it is handled after it.
    const raf = requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (live) setShown(() => value);
        ch.port1.close();
      };
      ch.port2.postMessage(0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(raf);
    };
  }, [value, stale, changed]);
  return { value: stale ? shown : value, stale };
}

/** A ref callback, and whether its element is (at least partly) in the viewport now. */
export function useOnScreen<E extends Element>(): [(el: E | null) => void, () => boolean] {
  const on = useRef(true);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback((el: E | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) on.current = e.isIntersecting;
    });
    io.observe(el);
    observer.current = io;
  }, []);
  return [ref, useCallback(() => on.current, [])];
}
