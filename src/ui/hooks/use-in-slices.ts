import { useLayoutEffect, useReducer, useRef } from "react";

/**
 * How many of `total` items to render: at most `step` more than the last commit showed, the
 * rest a slice per frame, each after the browser has painted the one before. A list that grows
 * by a few items (a series shown again) renders them at once; a hundred logs dropped at once
 * are laid out a slice per task instead of in one long task (the style and layout of a hundred
 * series rows, each with its controls, held the page for over a frame).
 *
 * While items are left to render, `onBusy(1)` holds the page's busy flag (data-busy promises
 * everything is drawn); `onBusy(-1)` lets it go. Both run in layout effects, so the flag is up
 * before the browser (or a test) sees the first slice.
 */
export function useInSlices(total: number, step: number, onBusy?: (d: 1 | -1) => void): number {
  const drawn = useRef(0);
  const [, next] = useReducer((n: number) => n + 1, 0);
  const count = Math.min(total, drawn.current + step);
  const onBusyRef = useRef(onBusy);
  onBusyRef.current = onBusy;
  useLayoutEffect(() => {
    drawn.current = count;
    if (count >= total) return;
    const busy = onBusyRef.current;
    busy?.(1);
    let live = true;
    // rAF runs just before the frame is drawn; a message posted from it is handled after it.
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      if (live) next();
    };
    const raf = requestAnimationFrame(() => ch.port2.postMessage(0));
    return () => {
      live = false;
      cancelAnimationFrame(raf);
      ch.port1.close();
      busy?.(-1);
    };
  }, [count, total]);
  return count;
}
