// The latency heatmap: time across, latency up on a log axis, each cell coloured by how many
// values it holds (log colour scale, cividis), one lane per series shown, all on one latency
// axis when their ranges overlap (as the deck's slide: layout.ts lanesOnAxis); the max of each
// column drawn over it. Cells are painted into a bitmap of one pixel per column and row and
// scaled onto a <canvas>; axes, window, brush and hover are a light SVG on top. A wheel step
// redraws at once from the bitmap already here, scaled to the new span, while the engine
// computes the new columns. Shares the time window and the zoom with the timeline.
import { memo, useEffect, useMemo, useRef } from "react";
import { formatCount, formatValue, middleEllipsis, shortNames, UNIT_LABEL } from "../../core/format";
import { formatMoment, timeTicks, wallTickLabels } from "../../core/time-format";
import { unitFactor, type Unit } from "../../core/types";
import type { HeatmapSeries } from "../../engine/time-queries";
import { bucketAtTime, formatSeconds } from "../timeline/layout";
import { useTimeBrush, type TimeChartProps } from "../time-brush";
import { clearedContext } from "../canvas";
import { SpanRect } from "../span-rect";
import { colourIndex, DARK_FLOOR, lanesOnAxis, logTicks, lutCss, paintColumns, rowValue, valueRow } from "./layout";
import { useDarkTheme } from "../theme";

export const HM_MARGIN = { top: 8, right: 86, bottom: 34, left: 72 };

export interface HeatmapLane {
  id: string;
  name: string;
  color: string;
  data: HeatmapSeries;
  /** Intervals holding values above the tail threshold (s since StartTime). */
  marks?: { start: Float64Array; end: Float64Array } | null;
  /** Windows judged against the requirement (s since StartTime) and whether each passes. */
  windows?: { start: Float64Array; end: Float64Array; pass: boolean[] } | null;
}

interface Props extends TimeChartProps {
  lanes: HeatmapLane[];
  unit: Unit;
  laneHeight: number;
  /** Label time on the clock (UTC, from the first lane's StartTime) rather than since StartTime. */
  wallClock?: boolean;
}

/** With several lanes, each has a header row above it for its name (never drawn over the cells). */
const LANE_HEADER = 18;
const LANE_GAP = 8;
const MARK_STRIP = 5;
const WINDOW_STRIP = 4;

// Memoised: its panel renders again with every new spectrum (a run followed live), the lanes
// and window only with their own answers.
export const Heatmap = memo(function Heatmap({ lanes, unit, domain, range, width, laneHeight, onBrush, onZoom, wallClock = false }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const floor = useDarkTheme() ? DARK_FLOOR : 0;
  // Lanes whose ranges overlap on one latency axis: the same height is the same latency in each.
  // `drawn` is each lane's cells as drawn, `original` the engine's, which the pointer reads.
  const placed = useMemo(
    () =>
      lanesOnAxis(
        lanes.map((l) => l.data),
        laneHeight,
      ),
    [lanes, laneHeight],
  );
  const drawn = placed.lanes.map((p) => p.data);
  // One colour scale for every lane, the legend's: a colour means the same count in each lane.
  const maxCell = Math.max(1, ...drawn.map((d) => d.maxCell));
  const header = lanes.length > 1 ? LANE_HEADER : 0;
  const pitch = header + laneHeight + LANE_GAP;
  const height = HM_MARGIN.top + lanes.length * pitch - LANE_GAP + HM_MARGIN.bottom;
  const plotW = Math.max(10, width - HM_MARGIN.left - HM_MARGIN.right);
  const laneTop = (i: number) => HM_MARGIN.top + i * pitch + header;
  const labels = shortNames(
    lanes.map((l) => l.name),
    Math.max(20, Math.floor(plotW / 7.2)),
  );
  const wallBase = wallClock ? (lanes[0]?.data.startTime ?? null) : null;

  const brush = useTimeBrush({ domain, left: HM_MARGIN.left, right: HM_MARGIN.left + plotW, wheelAt: (x) => (x - HM_MARGIN.left) / plotW, onBrush, onZoom });
  const { view, hover, drag } = brush;
  const toX = (t: number) => HM_MARGIN.left + ((t - view[0]) / (view[1] - view[0] || 1)) * plotW;
  const fromX = (px: number) => view[0] + ((px - HM_MARGIN.left) / plotW) * (view[1] - view[0]);

  // One bitmap per lane at the engine's columns (one pixel per plot pixel and per row).
  const bitmaps = useMemo(() => {
    if (typeof document === "undefined") return [];
    return placed.lanes.map(({ data: d }) => {
      const c = document.createElement("canvas");
      c.width = plotW;
      c.height = Math.max(1, d.rows);
      const ctx = c.getContext("2d");
      if (ctx) {
        const px = paintColumns(d, domain[0], domain[1], plotW, floor, maxCell);
        const img = new ImageData(new Uint8ClampedArray(px.buffer as ArrayBuffer), plotW, d.rows);
        ctx.putImageData(img, 0, 0);
      }
      return c;
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [placed, domain[0], domain[1], plotW, floor, maxCell]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = clearedContext(canvas, width, height);
    if (!ctx) return;
    ctx.imageSmoothingEnabled = false;
    const [d0, d1] = domain;
    const [v0, v1] = view;
    // The part of the bitmap (domain) that the view shows, and where it goes.
    const a = Math.max(d0, v0);
    const b = Math.min(d1, v1);
    lanes.forEach((l, i) => {
      const top = laneTop(i);
      const bm = bitmaps[i];
      if (bm && b > a) {
        const sx = ((a - d0) / (d1 - d0)) * plotW;
        const sw = ((b - a) / (d1 - d0)) * plotW;
        const dx = toX(a);
        const dw = toX(b) - dx;
        ctx.drawImage(bm, sx, 0, Math.max(0.01, sw), bm.height, dx, top, dw, laneHeight);
      }
      // The max of each column over the cells: a white line edged in black, readable on every colour.
      const d = drawn[i]!;
      const yOf = (v: number) => top + laneHeight - (Math.min(d.rows, valueRow(v, d.lo, d.hi, d.rows)) / d.rows) * laneHeight;
      ctx.save();
      ctx.beginPath();
      ctx.rect(HM_MARGIN.left, top, plotW, laneHeight);
      ctx.clip();
      ctx.beginPath();
      for (let k = 0; k < d.t0.length; k++) {
        const x0 = toX(d.t0[k]!);
        const x1 = Math.max(toX(d.t1[k]!), x0 + 0.5);
        const y = yOf(d.max[k]!);
        if (k === 0) ctx.moveTo(x0, y);
        else ctx.lineTo(x0, y);
        ctx.lineTo(x1, y);
      }
      ctx.strokeStyle = "rgba(0,0,0,0.75)";
      ctx.lineWidth = 3;
      ctx.stroke();
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 1.2;
      ctx.stroke();
      ctx.restore();
      // Windows judged against the requirement, as on the timeline: failing ones washed over
      // the cells, and a strip at the lane's top (green passes, vermillion fails).
      const w = l.windows;
      if (w && w.start.length > 0) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(HM_MARGIN.left, top, plotW, laneHeight);
        ctx.clip();
        for (let k = 0; k < w.start.length; k++) {
          const x0 = toX(w.start[k]!);
          const x1 = toX(w.end[k]!);
          if (x1 < HM_MARGIN.left || x0 > HM_MARGIN.left + plotW) continue;
          if (!w.pass[k]) {
            ctx.fillStyle = "rgba(213, 94, 0, 0.22)";
            ctx.fillRect(x0, top, x1 - x0, laneHeight);
          }
          ctx.fillStyle = w.pass[k] ? "rgba(0, 158, 115, 0.9)" : "rgba(213, 94, 0, 0.95)";
          ctx.fillRect(x0 + 0.5, top, Math.max(1, x1 - x0 - 1), WINDOW_STRIP);
        }
        ctx.restore();
      }
      // Intervals holding values above the tail threshold: ticks in a strip under the lane.
      const m = l.marks;
      if (m && m.start.length > 0) {
        ctx.fillStyle = "#d55e00";
        for (let k = 0; k < m.start.length; k++) {
          const x0 = toX(m.start[k]!);
          if (x0 < HM_MARGIN.left - 1 || x0 > HM_MARGIN.left + plotW + 1) continue;
          ctx.fillRect(x0, top + laneHeight + 1, Math.max(1.5, toX(m.end[k]!) - x0), MARK_STRIP);
        }
      }
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bitmaps, placed, lanes, view[0], view[1], width, height, laneHeight]);

  const shade: [number, number] | null =
    range.start !== null || range.end !== null ? [toX(Math.max(view[0], range.start ?? view[0])), toX(Math.min(view[1], range.end ?? view[1]))] : null;
  const xTicks = timeTicks(view[0], view[1], Math.max(2, Math.floor(plotW / 110)));
  const xLabels =
    wallBase === null
      ? xTicks.map(formatSeconds)
      : wallTickLabels(
          xTicks.map((t) => wallBase + t),
          wallBase + view[0],
          wallBase + view[1],
        );

  // Hover: the column and cell under the pointer.
  let hoverText: string[] | null = null;
  if (hover && !drag) {
    const li = lanes.findIndex((_, i) => hover[1] >= laneTop(i) && hover[1] < laneTop(i) + laneHeight);
    const l = lanes[li];
    if (l) {
      // The latency under the pointer on the axis drawn, and the engine's own cell holding it:
      // its range and count, never a re-binned row's.
      const d = drawn[li]!;
      const o = placed.lanes[li]!.original;
      const t = fromX(hover[0]);
      const k = bucketAtTime(o.t0, o.t1, o.t0.length, t);
      if (k >= 0) {
        const v = rowValue(((laneTop(li) + laneHeight - hover[1]) / laneHeight) * d.rows, d.lo, d.hi, d.rows);
        const row = Math.min(o.rows - 1, Math.floor(valueRow(v, o.lo, o.hi, o.rows)));
        const f = unitFactor(o.recordedUnit, unit);
        hoverText = [
          middleEllipsis(labels[li] ?? l.name, 36),
          `${formatMoment(o.t0[k]!, o.startTime)}, ${formatSeconds(o.t1[k]! - o.t0[k]!)} long: max ${formatValue(o.max[k]! * f, unit)}`,
          v >= o.hi
            ? `above ${formatValue(o.hi * f, unit)}: no values`
            : // The bottom row also holds what lies below the axis (zeros, as jHiccup records).
              `${row === 0 ? "up to " : `${formatValue(rowValue(row, o.lo, o.hi, o.rows) * f, unit)}–`}${formatValue(rowValue(row + 1, o.lo, o.hi, o.rows) * f, unit)}: ${formatCount(o.cells[k * o.rows + row]!)} values`,
        ];
      }
    }
  }

  const legendTicks = logTicks(1, maxCell, 5);
  const legendH = Math.min(160, Math.max(60, lanes.length * pitch - LANE_GAP - header));
  const legendX = width - HM_MARGIN.right + 14;

  return (
    <div className="heatmap" style={{ position: "relative", width, height }}>
      <canvas ref={canvasRef} style={{ width, height, position: "absolute", left: 0, top: 0 }} aria-hidden="true" />
      <svg
        ref={brush.svgRef}
        data-testid="heatmap"
        data-domain-start={String(view[0])}
        data-domain-end={String(view[1])}
        data-lanes={lanes.length}
        data-shared-axis={placed.axisNs ? "true" : "false"}
        data-colour-floor={floor}
        data-failing-windows={lanes.reduce((n, l) => n + (l.windows ? l.windows.pass.filter((x) => !x).length : 0), 0)}
        data-tail-marks={lanes.reduce((n, l) => n + (l.marks ? l.marks.start.length : 0), 0)}
        role="img"
        aria-label={`Latency heatmap over time for ${lanes.map((l) => l.name).join(", ")}: colour is the count of values in each cell (log scale), the white line the max of each column; drag to select a time window`}
        width={width}
        height={height}
        className="timeline-overlay heatmap-overlay"
        style={{ position: "absolute", left: 0, top: 0 }}
        {...brush.handlers(fromX)}
      >
        <SpanRect span={shade} top={HM_MARGIN.top} bottom={height - HM_MARGIN.bottom} className="window heatmap-window" />
        {lanes.map((l, i) => {
          const d = drawn[i]!;
          const top = laneTop(i);
          const f = unitFactor(d.recordedUnit, unit);
          const ticks = logTicks(d.lo, d.hi, Math.max(2, Math.floor(laneHeight / 28)));
          return (
            <g key={l.id} className="axis y-axis">
              <line x1={HM_MARGIN.left} x2={HM_MARGIN.left} y1={top} y2={top + laneHeight} />
              {ticks.map((t) => (
                <text key={t} x={HM_MARGIN.left - 6} y={top + laneHeight - (valueRow(t, d.lo, d.hi, d.rows) / d.rows) * laneHeight} dy="0.32em" textAnchor="end">
                  {Number((t * f).toPrecision(4))}
                </text>
              ))}
              {lanes.length > 1 ? (
                <g className="heatmap-lane-header" data-testid="heatmap-lane-label" data-series={l.name}>
                  <title>{l.name}</title>
                  <line x1={HM_MARGIN.left} x2={HM_MARGIN.left + 18} y1={top - header / 2} y2={top - header / 2} stroke={l.color} strokeWidth={3} />
                  <text x={HM_MARGIN.left + 24} y={top - header / 2} dy="0.32em" className="heatmap-lane-label">
                    {labels[i]}
                  </text>
                </g>
              ) : null}
            </g>
          );
        })}
        <g className="axis x-axis">
          <line x1={HM_MARGIN.left} x2={HM_MARGIN.left + plotW} y1={height - HM_MARGIN.bottom} y2={height - HM_MARGIN.bottom} />
          {xTicks.map((t, i) => (
            <text key={t} x={toX(t)} y={height - HM_MARGIN.bottom + 16} textAnchor="middle">
              {xLabels[i]}
            </text>
          ))}
          <text x={HM_MARGIN.left + plotW / 2} y={height - 3} textAnchor="middle" className="axis-label">
            {wallBase === null ? "Time since StartTime" : lanes.length > 1 ? `Wall-clock time (UTC) of ${labels[0]}'s StartTime` : "Wall-clock time (UTC)"}
          </text>
        </g>
        <text transform={`translate(14 ${HM_MARGIN.top + (height - HM_MARGIN.top - HM_MARGIN.bottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          Latency ({UNIT_LABEL[unit]}, log)
        </text>
        <g className="heatmap-legend" data-testid="heatmap-legend" transform={`translate(${legendX} ${HM_MARGIN.top})`}>
          <text x={0} y={-1} className="legend-title" dy="0.8em">
            values
          </text>
          {Array.from({ length: 32 }, (_, k) => (
            <rect key={k} x={0} y={14 + ((31 - k) / 32) * legendH} width={12} height={legendH / 32 + 0.5} fill={lutCss(floor + (k / 31) * (255 - floor))} />
          ))}
          {legendTicks.map((t) => {
            const ci = colourIndex(t, maxCell, floor);
            const y = 14 + legendH - ((ci - floor) / (255 - floor)) * legendH;
            return (
              <text key={t} x={16} y={y} dy="0.32em">
                {formatCount(t)}
              </text>
            );
          })}
        </g>
        <SpanRect span={drag} top={HM_MARGIN.top} bottom={height - HM_MARGIN.bottom} className="brush" />
        {hoverText && hover ? (
          <g pointerEvents="none" data-testid="heatmap-hover" transform={`translate(${hover[0] + 302 > width ? hover[0] - 308 : hover[0] + 8} ${HM_MARGIN.top + 4})`}>
            <rect width={300} height={54} rx={4} className="hover-box" />
            {hoverText.map((s, k) => (
              <text key={k} x={8} y={16 + k * 15}>
                {s}
              </text>
            ))}
          </g>
        ) : null}
      </svg>
    </div>
  );
});
