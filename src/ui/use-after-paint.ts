import { useEffect, useState } from "react";

/**
 * `value`, but a change is handed on only after the browser has painted the frame in which it
 * happened: the caller renders the old value in that frame, and the new one in a task after it.
 *
 * Used for the percentile table on a unit change. With 50 series the table's 350 relabelled
 * cells cost more than the chart (~3 ms of React, ~3 ms of text layout, repaint of the page's
 * root layer), and put the chart's repaint over a frame. The chart and the timeline now repaint
 * first; the table, wholly in the old unit (its caption too, so it never mixes units), follows
 * in the next frame. `stale` is true meanwhile: the app stays busy (data-busy) until it is false,
 * since that flag promises every chart and table reflects the current state.
 */
export function useAfterNextPaint<T>(value: T): { value: T; stale: boolean } {
  const [shown, setShown] = useState(value);
  const stale = !Object.is(shown, value);
  useEffect(() => {
    if (!stale) return;
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
  }, [value, stale]);
  return { value: stale ? shown : value, stale };
}
