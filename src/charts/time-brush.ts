// Pointer handling shared by the time charts (timeline, heatmap): drag to select a time window,
// wheel to zoom around the pointer (shift or a sideways wheel pans), double-click to zoom out,
// and the pointer's position for hover read-outs.
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { TimeRange } from "../engine/store";
import { sameSpan, wheelSpan } from "./timeline/layout";

/** What a time chart takes for its window and zoom. */
export interface TimeChartProps {
  /** The span the engine answered for (s since StartTime). */
  domain: [number, number];
  /** The selected time window, shaded. */
  range: TimeRange;
  width: number;
  onBrush: (start: number, end: number) => void;
  onZoom: (domain: [number, number] | null) => void;
}

interface Options extends Pick<TimeChartProps, "domain" | "onBrush" | "onZoom"> {
  /** The plot's horizontal extent in px; the pointer is clamped to it. */
  left: number;
  right: number;
  /** Where in the plot's width (0 to 1) a wheel event at x (px, unclamped) zooms around. */
  wheelAt: (x: number) => number;
}

export function useTimeBrush(o: Options) {
  const svgRef = useRef<SVGSVGElement>(null);
  /** The pointer (x clamped to the plot, y), px in the chart. */
  const [hover, setHover] = useState<[number, number] | null>(null);
  const [drag, setDrag] = useState<[number, number] | null>(null);
  const { domain } = o;

  // A wheel zoom or pan is drawn at once over the new span from the data already here
  // (coarser when zooming in, missing where the span moved past it) while the engine
  // computes the new span; its answer then refines the same view. The spans asked for are
  // kept until the answer to the last one arrives, so intermediate answers (fast wheel
  // events each send a span) do not pull the view back.
  const [asked, setAsked] = useState<[number, number] | null>(null);
  const askedList = useRef<[number, number][]>([]);
  useLayoutEffect(() => {
    const list = askedList.current;
    const i = list.findIndex((s) => sameSpan(s, domain));
    if (i >= 0 && i < list.length - 1) askedList.current = list.slice(i + 1);
    else {
      // The answer to the last span asked, or a span set elsewhere (zoom out, a load).
      askedList.current = [];
      setAsked(null);
    }
  }, [domain]);
  const view: [number, number] = asked ?? domain;
  const viewRef = useRef(view);
  viewRef.current = view;

  // Computed from the span last asked for (not the last drawn: several wheel events can come
  // within one frame).
  const onWheel = (e: WheelEvent) => {
    const pan = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
    const at = o.wheelAt(e.clientX - svgRef.current!.getBoundingClientRect().left);
    const next = wheelSpan(viewRef.current, { pan, direction: pan ? e.deltaX || e.deltaY : e.deltaY, at });
    viewRef.current = next;
    askedList.current.push(next);
    setAsked(next);
    o.onZoom(next);
  };
  const wheelRef = useRef(onWheel);
  wheelRef.current = onWheel;
  // A native listener, not React's (passive) onWheel: zooming must not also scroll the page,
  // which moved the chart away from under the pointer.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const h = (e: WheelEvent) => {
      e.preventDefault();
      wheelRef.current(e);
    };
    svg.addEventListener("wheel", h, { passive: false });
    return () => svg.removeEventListener("wheel", h);
  }, []);

  const pos = (e: { clientX: number; clientY: number }): [number, number] => {
    const r = svgRef.current!.getBoundingClientRect();
    return [Math.min(o.right, Math.max(o.left, e.clientX - r.left)), e.clientY - r.top];
  };
  /** The svg's mouse handlers; `fromX` turns a px position into time (s since StartTime). */
  const handlers = (fromX: (px: number) => number) => ({
    onMouseDown: (e: { button: number; clientX: number; clientY: number }) => {
      if (e.button !== 0) return;
      const [p] = pos(e);
      setDrag([p, p]);
    },
    onMouseMove: (e: { clientX: number; clientY: number }) => {
      const p = pos(e);
      setHover(p);
      if (drag) setDrag([drag[0], p[0]]);
    },
    onMouseUp: () => {
      if (drag && Math.abs(drag[1] - drag[0]) > 3) {
        const a = fromX(Math.min(drag[0], drag[1]));
        const b = fromX(Math.max(drag[0], drag[1]));
        o.onBrush(Number(a.toFixed(3)), Number(b.toFixed(3)));
      }
      setDrag(null);
    },
    onMouseLeave: () => {
      setHover(null);
      setDrag(null);
    },
    onDoubleClick: () => {
      askedList.current = [];
      setAsked(null);
      o.onZoom(null);
    },
  });
  return { svgRef, view, hover, drag, handlers };
}
