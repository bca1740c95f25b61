// Max over time (and chosen percentiles) per series, drawn on a canvas so long logs stay
// smooth; axes, the selected window, the brush and the hover are a light SVG on top.
// Drag to select a time window; wheel to zoom; double-click to zoom out.
// Values are placed in ns whatever the display unit, so a unit change relabels the y axis and
// leaves the canvas as drawn.
import { useEffect, useLayoutEffect, useMemo, useRef, type ReactElement } from "react";
import { formatCountOf, formatValue, middleEllipsis, shortNames, UNIT_LABEL } from "../../core/format";
import { formatMoment, timeTicks, wallTickLabels } from "../../core/time-format";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../../core/types";
import type { TimelineSeries } from "../../engine/store";
import { bucketAtTime, drawSlices, formatSeconds, lanes, spacedTicks, TL_MARGIN, xScaleFor, type Lane } from "./layout";
import { yScalesOf } from "./y-scales";
import { useTimeBrush, type TimeChartProps } from "../time-brush";
import { clearedContext } from "../canvas";
import { SpanRect } from "../span-rect";
import type { TimeBands } from "../../ui/state/time-state";

/** A tick label's character width, about, at the axis' font (for keeping labels inside the drawing). */
const TICK_CHAR_PX = 7.5;

export interface TimelineLine {
  id: string;
  name: string;
  color: string;
  dash: string;
  data: TimelineSeries;
}

interface Props extends TimeChartProps {
  lines: TimelineLine[];
  unit: Unit;
  percentiles: readonly number[];
  perLane: boolean;
  wallClock: boolean;
  yLog: boolean;
  height: number;
  /** Per series id: windows that fail (shaded) or pass, and intervals holding the tail (ticks). */
  bands?: Map<string, TimeBands>;
  /** One lane per series, all on one scale (the slides: a 6 ms spike must not look as tall as a 160 ms stall). */
  sharedScale?: boolean;
  /** +1 while lines drawn over several tasks are not all on the canvas yet, −1 when they are (the page's busy flag). */
  onBusy?: (d: 1 | -1) => void;
}

/** Points stroked per task (see drawSlices): fifty logs of a minute (3000 points) are drawn at once. */
const SLICE_POINTS = 3200;

/** Per line and chosen percentiles: its highest value and lowest positive one, in ns (Infinity: none). */
// Module-level functions and loops on the redraw path, not closures made per render: V8 drops the
// optimised code of short-lived closures at every major collection.
const nameOf = (l: TimelineLine) => l.name;

/** Saves the context and clips it to the plot's columns; the caller restores it. */
function clipToPlot(ctx: CanvasRenderingContext2D, width: number, height: number) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(TL_MARGIN.left, 0, width - TL_MARGIN.left - TL_MARGIN.right, height);
  ctx.clip();
}

/** The points each line strokes: its intervals times its strokes (its max, and each percentile it has). */
function strokedPoints(lines: readonly TimelineLine[], percentiles: readonly number[]): number[] {
  const out: number[] = [];
  for (const l of lines) {
    let strokes = 1;
    for (const p of percentiles) if (l.data.percentiles[String(p)]) strokes++;
    out.push(l.data.max.length * strokes);
  }
  return out;
}

function dashArray(d: string): number[] {
  return d ? d.split(/\s+/).map(Number) : [];
}

export function Timeline({ lines, unit, percentiles, perLane, wallClock, yLog, domain, range, width, height, onBrush, onZoom, bands, sharedScale = false, onBusy }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const plotRight = width - TL_MARGIN.right;
  const brush = useTimeBrush({
    domain,
    left: TL_MARGIN.left,
    right: plotRight,
    // Time and wall-clock scales are both linear in time over the plot's width.
    wheelAt: (x) => (Math.min(plotRight, Math.max(TL_MARGIN.left, x)) - TL_MARGIN.left) / Math.max(1, plotRight - TL_MARGIN.left),
    onBrush,
    onZoom,
  });
  const { view, drag } = brush;
  const hover = brush.hover ? brush.hover[0] : null; // px

  // Wall-clock mode places every log at its StartTime; the first visible log's StartTime is
  // the reference that turns a brushed time back into seconds since StartTime.
  const wallBase = wallClock ? (lines.find((l) => l.data.startTime !== null)?.data.startTime ?? null) : null;
  // On the clock, logs of different days each sit at their own StartTime: the axis spans them all.
  let lead = 0;
  let lag = 0;
  if (wallBase !== null)
    for (const l of lines) {
      if (l.data.startTime === null) continue;
      lead = Math.min(lead, l.data.startTime - wallBase);
      lag = Math.max(lag, l.data.startTime - wallBase);
    }
  const view0 = view[0] + lead;
  const view1 = view[1] + lag;
  const { scale: x } = useMemo(() => xScaleFor(view0, view1, width, wallBase), [view0, view1, width, wallBase]);
  const toX = (t: number, start: number | null) => (wallBase === null ? (x as (v: number) => number)(t) : (x as (v: Date) => number)(new Date(((start ?? wallBase) + t) * 1000)));
  const fromX = (px: number): number => {
    const v = (x as { invert(p: number): number | Date }).invert(px);
    return v instanceof Date ? v.getTime() / 1000 - (wallBase ?? 0) : v;
  };

  // Whether a drawn value is 0 (a log axis draws it at its floor, and says so).
  const hasZero = useMemo(() => {
    if (!yLog) return false;
    for (const l of lines) {
      for (let i = 0; i < l.data.max.length; i++) if (!(l.data.max[i]! > 0)) return true;
      for (const p of percentiles) {
        const arr = l.data.percentiles[String(p)];
        if (arr) for (let i = 0; i < arr.length; i++) if (!(arr[i]! > 0)) return true;
      }
    }
    return false;
  }, [lines, percentiles, yLog]);

  const laneList = useMemo(() => lanes(lines.length, height, perLane), [lines.length, height, perLane]);
  const yScales = useMemo(() => yScalesOf(lines, percentiles, perLane, yLog, laneList, sharedScale), [lines, percentiles, perLane, yLog, laneList, sharedScale]);

  // Whether the canvas is on screen, or near it (null until the observer first reports).
  const onScreen = useRef<boolean | null>(null);
  // A redraw put off while the canvas was off screen; run when it comes into view, or when idle.
  const pendingDraw = useRef<(() => void) | null>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver(
      (entries) => {
        onScreen.current = entries[entries.length - 1]!.isIntersecting;
        const draw = pendingDraw.current;
        if (onScreen.current && draw) {
          pendingDraw.current = null;
          draw();
        }
      },
      { rootMargin: "200px" },
    );
    io.observe(canvas);
    return () => io.disconnect();
  }, []);

  const slices = useMemo(() => drawSlices(strokedPoints(lines, percentiles), SLICE_POINTS), [lines, percentiles]);
  // Lines drawn over several tasks keep the page busy until the last is on the canvas. Held in
  // a layout effect: the flag is raised before the browser (or a test) sees the commit.
  const busyHeld = useRef(false);
  const onBusyRef = useRef(onBusy);
  onBusyRef.current = onBusy;
  const release = () => {
    if (!busyHeld.current) return;
    busyHeld.current = false;
    onBusyRef.current?.(-1);
  };
  // What the canvas was last drawn for, besides its lines; whether this change draws after the frame.
  const drawnFor = useRef<{ x: unknown; width: number; height: number; percentiles: readonly number[]; yLog: boolean; bands: unknown } | null>(null);
  const drawAfterFrame = useRef(false);
  useLayoutEffect(() => {
    const before = drawnFor.current;
    drawnFor.current = { x, width, height, percentiles, yLog, bands };
    // A series shown or hidden (the same scales, size and bands; other lines), on screen: drawn
    // after the frame (see the effect below).
    drawAfterFrame.current =
      onScreen.current !== false &&
      before !== null &&
      before.x === x &&
      before.width === width &&
      before.height === height &&
      before.percentiles === percentiles &&
      before.yLog === yLog &&
      before.bands === bands &&
      slices.length <= 1 &&
      onBusyRef.current !== undefined;
    if ((slices.length > 1 || drawAfterFrame.current) && onScreen.current !== false && !busyHeld.current && onBusyRef.current) {
      busyHeld.current = true;
      onBusyRef.current(1);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lines, yScales, x, width, height, percentiles, yLog, bands]);
  // Unmounted mid-draw: let the page go.
  useEffect(() => release, []);
  const nextSlice = useRef<number | null>(null);
  const cancelSlices = () => {
    if (nextSlice.current !== null) window.clearTimeout(nextSlice.current);
    nextSlice.current = null;
  };

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    cancelSlices();
    const draw = () => drawLines(canvas);
    // Off screen, the lines are drawn when the page is idle (or when the canvas comes into
    // view), not before the next frame: rasterising them (in software, in Chromium's FinalizeFrame
    // at the end of the task) held back the frame
    // that shows a hidden series gone from the plot, the list and the table. On screen (or
    // not known yet) they are drawn at once, in the same frame as the rest, unless only the
    // lines changed (below): all of them when they fit one slice (drawSlices), else the first
    // slice now and the others a task each.
    if (onScreen.current === false) {
      release();
      pendingDraw.current = draw;
      const run = () => {
        if (pendingDraw.current !== draw) return;
        pendingDraw.current = null;
        draw();
      };
      if (typeof window.requestIdleCallback === "function") {
        const id = window.requestIdleCallback(run, { timeout: 500 });
        return () => window.cancelIdleCallback(id);
      }
      const t = window.setTimeout(run, 50);
      return () => window.clearTimeout(t);
    }
    pendingDraw.current = null;
    // A series shown or hidden (the same scales, size and bands; other lines): on screen, the
    // lines are drawn in a task after the frame that shows the change in the plot, the list and
    // the table, not in the click's own task, where rasterising them (in software, in Chromium's
    // FinalizeFrame at the end of the task) held that frame back. The page stays busy until they
    // are drawn (raised in the layout effect above, before the browser sees the commit).
    // Anything that moves the axes (a zoom, a resize) is drawn at once, with them.
    if (drawAfterFrame.current) {
      let live = true;
      // rAF runs just before the frame is drawn; a message posted from it is handled after it.
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        if (live) draw();
      };
      const raf = requestAnimationFrame(() => ch.port2.postMessage(0));
      return () => {
        live = false;
        cancelAnimationFrame(raf);
        ch.port1.close();
        cancelSlices();
      };
    }
    draw();
    return cancelSlices;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lines, yScales, x, width, height, percentiles, yLog, bands]);

  /** Clears the canvas and draws the bands and the first slice of lines; the others follow, a task each. */
  function drawLines(canvas: HTMLCanvasElement) {
    cancelSlices();
    const ctx = clearedContext(canvas, width, height);
    if (!ctx) return release();
    if (bands && bands.size > 0) {
      clipToPlot(ctx, width, height);
      drawBands(ctx);
      ctx.restore();
    }
    const todo = [...slices];
    const step = () => {
      nextSlice.current = null;
      const [a, b] = todo.shift()!;
      clipToPlot(ctx, width, height);
      for (let li = a; li < b; li++) drawLine(ctx, li);
      ctx.restore();
      if (todo.length > 0) nextSlice.current = window.setTimeout(step, 0);
      else release();
    };
    if (todo.length > 0) step();
    else release();
  }

  /** Line li: its percentile lines, then its max. */
  function drawLine(ctx: CanvasRenderingContext2D, li: number) {
    const l = lines[li]!;
    const y = yScales[li]!;
    const f = NANOS_PER_UNIT[l.data.recordedUnit];
    const d = l.data;
    // k === percentiles.length is the max.
    for (let k = 0; k <= percentiles.length; k++) {
      const isMax = k === percentiles.length;
      const values = isMax ? d.max : d.percentiles[String(percentiles[k])];
      if (!values) continue;
      ctx.globalAlpha = isMax ? 1 : 0.35 + 0.1 * k;
      ctx.lineWidth = isMax ? 1.6 : 1;
      ctx.setLineDash(isMax ? dashArray(l.dash) : [3, 2]);
      ctx.strokeStyle = l.color;
      ctx.beginPath();
      for (let i = 0; i < values.length; i++) {
        const x0 = toX(d.t0[i]!, d.startTime);
        const x1 = toX(d.t1[i]!, d.startTime);
        const py = y(Math.max(values[i]! * f, yLog ? y.domain()[0]! : 0));
        if (i === 0) ctx.moveTo(x0, py);
        else ctx.lineTo(x0, py);
        ctx.lineTo(Math.max(x1, x0 + 0.5), py);
      }
      ctx.stroke();
    }
  }

  /**
   * Windows judged against the requirement: failing ones shaded across the lane, and a strip per
   * series at the lane's top (green passes, vermillion fails); intervals holding values above
   * the tail threshold as vermillion ticks in a strip per series at the lane's bottom.
   */
  function drawBands(ctx: CanvasRenderingContext2D) {
    lines.forEach((l, li) => {
      const b = bands?.get(l.id);
      if (!b) return;
      const lane = laneList[perLane ? li : 0]!;
      const row = perLane ? 0 : li;
      const w = b.windows;
      if (w) {
        for (let k = 0; k < w.start.length; k++) {
          const x0 = toX(w.start[k]!, l.data.startTime);
          const x1 = toX(w.end[k]!, l.data.startTime);
          if (!w.pass[k]) {
            ctx.fillStyle = "rgba(213, 94, 0, 0.10)";
            ctx.fillRect(x0, lane.top, x1 - x0, lane.bottom - lane.top);
          }
          ctx.fillStyle = w.pass[k] ? "rgba(0, 158, 115, 0.55)" : "rgba(213, 94, 0, 0.9)";
          ctx.fillRect(x0 + 0.5, lane.top + row * 4, Math.max(1, x1 - x0 - 1), 3);
        }
      }
      const t = b.tail;
      if (t) {
        ctx.fillStyle = "rgba(213, 94, 0, 0.9)";
        for (let k = 0; k < t.start.length; k++) {
          const x0 = toX(t.start[k]!, l.data.startTime);
          ctx.fillRect(x0, lane.bottom - 4 - row * 5, Math.max(1.5, toX(t.end[k]!, l.data.startTime) - x0), 4);
        }
      }
    });
  }

  // Whole steps (seconds, minutes, hours, days), so a 24-hour run is ticked at whole hours.
  const tickCount = Math.max(2, Math.floor(width / 110));
  const xTicks: (number | Date)[] = wallBase === null ? timeTicks(view0, view1, tickCount) : (x as { ticks(n: number): Date[] }).ticks(tickCount);
  const wallLabels =
    wallBase === null
      ? []
      : wallTickLabels(
          xTicks.map((t) => +t / 1000),
          wallBase + view0,
          wallBase + view1,
        );
  const tickTexts: ReactElement[] = [];
  for (let i = 0; i < xTicks.length; i++) {
    const t = xTicks[i]!;
    const xv = (x as (v: number | Date) => number)(t);
    const label = t instanceof Date ? wallLabels[i]! : formatSeconds(t);
    // A label centred on a tick near an edge would run past the drawing and be cut
    // ("1d 0:00:0"): it ends (or starts) at its tick there instead.
    const half = (label.length * TICK_CHAR_PX) / 2;
    const anchor = xv + half > width ? "end" : xv - half < 0 ? "start" : "middle";
    tickTexts.push(
      <text key={String(+t)} x={xv} y={height - TL_MARGIN.bottom + 16} textAnchor={anchor}>
        {label}
      </text>,
    );
  }
  const labels = shortNames(lines.map(nameOf), 40);

  // Hover: the interval (or bucket) under the pointer, per series.
  const hoverRows =
    hover === null
      ? []
      : lines
          .map((l) => {
            const t = wallBase === null || l.data.startTime === null ? fromX(hover) : fromX(hover) + wallBase - l.data.startTime;
            const i = bucketAtTime(l.data.t0, l.data.t1, l.data.t0.length, t);
            return i < 0 ? null : { l, i };
          })
          .filter((r): r is { l: TimelineLine; i: number } => r !== null);

  const rangeStart = range.start ?? null;
  const rangeEnd = range.end ?? null;
  const shade: [number, number] | null = rangeStart !== null || rangeEnd !== null ? [toX(rangeStart ?? view[0], null), toX(rangeEnd ?? view[1], null)] : null;

  return (
    <div className="timeline" style={{ position: "relative", width, height }}>
      <canvas ref={canvasRef} style={{ width, height, position: "absolute", left: 0, top: 0 }} aria-hidden="true" />
      <svg
        ref={brush.svgRef}
        data-testid="timeline"
        role="img"
        aria-label={`Max latency per interval over time for ${lines.length} series; drag to select a time window`}
        // The time span drawn (s since StartTime): lets tests and the benchmark see a redraw.
        data-domain-start={String(view[0])}
        data-domain-end={String(view[1])}
        width={width}
        height={height}
        style={{ position: "absolute", left: 0, top: 0 }}
        className="timeline-overlay"
        {...brush.handlers(fromX)}
      >
        <SpanRect span={shade} top={TL_MARGIN.top} bottom={height - TL_MARGIN.bottom} className="window" testId="timeline-window" />
        {/* Overlaid series share one lane and one scale: one axis (fifty copies of the same
            ticks on top of each other drew heavier text and cost a relayout per unit change). */}
        {(perLane ? laneList : laneList.slice(0, 1)).map((lane, i) => {
          const y = yScales[i] ?? yScales[0]!;
          return (
            <g key={i} className="axis y-axis">
              <line x1={TL_MARGIN.left} x2={TL_MARGIN.left} y1={lane.top} y2={lane.bottom} />
              {yTickTexts(y, lane, unit)}
              {perLane && lines[i] ? (
                <text x={TL_MARGIN.left + 6} y={lane.top + 12} className="lane-label" fill={lines[i]!.color}>
                  <title>{lines[i]!.name}</title>
                  {labels[i]}
                </text>
              ) : null}
            </g>
          );
        })}
        <g className="axis x-axis">
          <line x1={TL_MARGIN.left} x2={width - TL_MARGIN.right} y1={height - TL_MARGIN.bottom} y2={height - TL_MARGIN.bottom} />
          {tickTexts}
          <text x={(TL_MARGIN.left + width - TL_MARGIN.right) / 2} y={height - 3} textAnchor="middle" className="axis-label">
            {wallBase === null ? "Time since StartTime" : "Wall-clock time (UTC)"}
            {yLog && hasZero ? " · values of 0 drawn at the log axis' floor" : ""}
          </text>
        </g>
        <text transform={`translate(14 ${height / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          Max per interval ({UNIT_LABEL[unit]})
        </text>
        <SpanRect span={drag} top={TL_MARGIN.top} bottom={height - TL_MARGIN.bottom} className="brush" />
        {hover !== null && !drag && hoverRows.length > 0 ? (
          <g pointerEvents="none" data-testid="timeline-hover">
            <line x1={hover} x2={hover} y1={TL_MARGIN.top} y2={height - TL_MARGIN.bottom} className="hover-line" />
            <g transform={`translate(${hover + 310 > width ? hover - 316 : hover + 8} ${TL_MARGIN.top + 4})`}>
              <rect width={308} height={8 + hoverRows.length * 32} rx={4} className="hover-box" />
              {hoverRows.map(({ l, i }, k) => {
                const f = unitFactor(l.data.recordedUnit, unit);
                return (
                  <text key={l.id} x={8} y={18 + k * 32} fill={l.color}>
                    <tspan x={8}>{middleEllipsis(labels[lines.indexOf(l)] ?? l.name, 30)}</tspan>
                    <tspan
                      x={8}
                      dy={14}
                    >{`${formatMoment(l.data.t0[i]!, wallBase === null ? null : l.data.startTime)}: max ${formatValue(l.data.max[i]! * f, unit)}, ${formatCountOf(l.data.count[i]!, "value")}`}</tspan>
                  </text>
                );
              })}
            </g>
          </g>
        ) : null}
      </svg>
    </div>
  );
}

/** A lane's y-axis labels. A loop in a module-level function, not a callback made per render: that loses its optimised code at every major collection. */
function yTickTexts(y: ReturnType<typeof yScalesOf>[number], lane: Lane, unit: Unit): ReactElement[] {
  const out: ReactElement[] = [];
  for (const t of spacedTicks(y.ticks(Math.max(2, Math.floor((lane.bottom - lane.top) / 36))), y))
    out.push(
      <text key={t} x={TL_MARGIN.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
        {Number((t / NANOS_PER_UNIT[unit]).toPrecision(4))}
      </text>,
    );
  return out;
}
