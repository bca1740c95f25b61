// Draws the percentile spectrum. Only maps already-laid-out values to SVG; the math is in
// layout.ts.
//
// The geometry is laid out in nanoseconds, whatever the display unit: a unit change only
// relabels the axes (its scales and every curve's path stay the same objects, so nothing is
// recomputed or re-rendered but text). Each curve's path is cached per plot on its data and
// the scales, so hiding one series of fifty, or hovering, does not rebuild the other paths.
import { memo, useMemo, useRef, useState, type ReactElement } from "react";
import { line, type ScaleContinuousNumeric, type ScaleLogarithmic } from "d3";
import { formatCount, formatNumber, formatValue, middleEllipsis, shortNames, UNIT_LABEL } from "../../core/format";
import { noLineLegend } from "../../core/judge";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../../core/types";
import {
  bucketAt,
  fastScale,
  inverseTail,
  labelledMaxes,
  labelledTicks,
  legendLayout,
  dataExtentNs,
  makeXScale,
  readableTicks,
  makeYScale,
  MARGIN,
  stepPathParts,
  scaledInput,
  simplifyPx,
  curveSplits,
  type PathPart,
  xDomainEnd,
  xTicks,
  type CurveInput,
} from "./layout";
import { Legend, seriesKeys } from "./Legend";

export interface PlotSeries extends CurveInput {
  id: string;
  name: string;
  color: string;
  dash: string;
  /** The unit of `values`, `max` and `min`: the series' recorded unit (the arrays are the spectrum's own, never copied). */
  recordedUnit: Unit;
  max: number;
  min: number;
  /**
   * A histogram of buckets keeps no max: the top bucket holding a value, in ns ((low, high],
   * high Infinity when open). The label then says "max within [low, high]", not one value.
   */
  maxWithin?: { lowNs: number; highNs: number };
  /**
   * Why the series has no values and so no line (core/judge's noValuesText: "no successful
   * requests: 6 failed"): its legend entry says so beside a muted swatch.
   */
  noValues?: string | null;
}

/** A requirement step: limit (in ns) over percentiles (from, to]; the label is in the display unit. */
export interface PlotStep {
  from: number;
  to: number;
  limitNs: number;
  label: string;
}

type XScale = ScaleLogarithmic<number, number>;
type YScale = ScaleContinuousNumeric<number, number>;

interface CachedPath {
  cumulative: ArrayLike<number>;
  totalCount: number;
  nanos: number;
  x: XScale;
  y: YScale;
  xEnd: number;
  parts: PathPart[];
}

/** The scales and their plain-function equivalents (see fastScale) for the curves' hot loop, and where curves are cut into parts. */
interface Scales {
  x: XScale;
  y: YScale;
  fx: (v: number) => number;
  fy: (v: number) => number;
  splits: number[];
  /** How far a curve may pass from its pixel columns' points (simplify): half a pixel of this screen. */
  tol: number;
}

/** A curve's SVG path in parts (stepPathParts) in ns space, reused while its data and the scales are the same objects. */
function curveParts(cache: WeakMap<object, CachedPath>, s: PlotSeries, { x, y, fx, fy, splits, tol }: Scales, xEnd: number): PathPart[] {
  const nanos = NANOS_PER_UNIT[s.recordedUnit];
  const key = s.values as unknown as object;
  const c = cache.get(key);
  if (c && c.cumulative === s.cumulative && c.totalCount === s.totalCount && c.nanos === nanos && c.x === x && c.y === y && c.xEnd === xEnd) return c.parts;
  // On a log axis, values below its floor (zeros: jHiccup records 0 µs hiccups) are drawn at
  // the floor, so every curve is drawn whole; the chart says so under it.
  const floor = axisFloor(y);
  const parts = stepPathParts(s, fx, scaledInput(fy, nanos, floor), xEnd, splits, tol);
  cache.set(key, { cumulative: s.cumulative, totalCount: s.totalCount, nanos, x, y, xEnd, parts });
  return parts;
}

/** The screen's device pixels per CSS pixel (1 where there is no window: the server's markup). */
const screenDensity = () => (typeof window === "undefined" ? 1 : window.devicePixelRatio);

/** The lowest value a y scale can place: its domain's start on a log axis, none on a linear one. */
function axisFloor(y: YScale): number {
  return typeof (y as unknown as { base?: unknown }).base === "function" ? y.domain()[0]! : -Infinity;
}

interface Props {
  series: PlotSeries[];
  requirement?: PlotStep[];
  unit: Unit;
  yLog: boolean;
  width: number;
  height: number;
  title?: string;
  /**
   * Keep the whole chart, legend included, within `height` (a slide): the plot gives up the
   * legend's rows. By default the chart grows by them instead.
   */
  fixedHeight?: boolean;
  /** Shared value range in ns, so side-by-side plots compare on one scale. */
  yExtent?: { max: number; min: number };
  /**
   * A click in the plot: the percentile under the pointer and the value there (ns) of the curve
   * nearest the pointer at that percentile: the curve the user pointed at.
   */
  onPick?: (pick: { percentile: number; valueNs: number; seriesId: string }) => void;
}

// Memoised: the app re-renders on every engine round trip (a timeline query, busy on and off);
// the plot only when its own inputs change.
export const PercentilePlot = memo(function PercentilePlot({ series, requirement = [], unit, yLog, width, height: outer, title, yExtent, onPick, fixedHeight = false }: Props) {
  // The legend goes under the chart (never over the curves), with names told apart by what
  // differs between them; the svg grows by its rows (or, fixedHeight, the plot shrinks).
  const { namesKey, noValuesKey } = seriesKeys(series);
  const labels = useMemo(() => {
    const short = shortNames(namesKey === "" ? [] : namesKey.split("\u0000"), Math.min(48, Math.max(16, Math.floor((width - MARGIN.left) / 6.6) - 8)));
    // A series without a line says why in its entry, in full: a swatch alone would promise one.
    const why = noValuesKey.split("\u0000");
    return short.map((l, i) => (why[i] ? noLineLegend(l, why[i]) : l));
  }, [namesKey, noValuesKey, width]);
  const legendRows = legendLayout(labels, width, 0).height;
  const height = fixedHeight ? Math.max(160, outer - legendRows - (yLog ? 18 : 0)) : outer;
  const [hoverX, setHoverX] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const pathCache = useRef(new WeakMap<object, CachedPath>());

  // The value range in ns: plain numbers, so the scales below keep their identity while the
  // data's extent does not change (a unit change, hiding a series below the max).
  const xEnd = useMemo(() => xDomainEnd(series), [series]);
  let { max: maxV, min: minV } = dataExtentNs(series);
  if (yExtent) {
    maxV = Math.max(maxV, yExtent.max);
    if (yExtent.min > 0) minV = Math.min(minV, yExtent.min);
  }
  // Show the requirement even above the data, but not so far that the data flattens.
  for (const r of requirement) {
    if (r.limitNs <= Math.max(maxV * 4, 0)) maxV = Math.max(maxV, r.limitNs);
    if (yLog) minV = Math.min(minV, r.limitNs);
  }
  // A log axis with no positive value starts at 0.001 of the display unit, as it always did
  // (the only case in which the geometry depends on the unit).
  const minNs = Number.isFinite(minV) ? minV : yLog ? 1e-3 * NANOS_PER_UNIT[unit] : 0;

  const { scales, ticks, yTicks } = useMemo(() => {
    const size = { width, height };
    const x = makeXScale(xEnd, size);
    const y = makeYScale(maxV, minNs, yLog, size);
    return {
      scales: { x, y, fx: fastScale(x), fy: fastScale(y), splits: curveSplits(MARGIN.left, width - MARGIN.right), tol: simplifyPx(screenDensity()) },
      ticks: xTicks(xEnd),
      yTicks: readableTicks(y.ticks(yLog ? 6 : 8), yLog),
    };
  }, [xEnd, maxV, minNs, yLog, width, height]);
  const { x, y } = scales;
  const floor = axisFloor(y);
  const yAt = (ns: number) => y(Math.max(ns, floor));
  // Series with values below the log axis' floor (drawn at it).
  const belowFloor = yLog ? series.filter((s) => s.totalCount > 0 && s.values.length > 0 && s.values[0]! * NANOS_PER_UNIT[s.recordedUnit] < floor) : [];

  const legend = useMemo(() => legendLayout(labels, width, height), [labels, width, height]);
  const noteH = belowFloor.length > 0 ? 18 : 0;
  const svgHeight = fixedHeight ? Math.max(outer, height + legend.height + noteH) : height + legend.height + noteH;

  const reqPath = useMemo(() => {
    // The requirement as a step line: flat over each entry's percentile range.
    const reqPts: [number, number][] = [];
    for (const r of requirement) {
      const x0 = x(inverseTail(r.from / 100, xEnd));
      const x1 = x(r.to >= 100 ? xEnd : inverseTail(r.to / 100, xEnd));
      const yy = Math.max(y.range()[1]!, y(r.limitNs));
      reqPts.push([x0, yy], [x1, yy]);
    }
    return reqPts.length ? (line()(reqPts) ?? "") : "";
  }, [requirement, x, y, xEnd]);

  const plotLeft = MARGIN.left;
  const plotRight = width - MARGIN.right;
  const tickLabels: string[] = [];
  for (const t of ticks) tickLabels.push(t.label);
  const tickLabelled = labelledTicks(tickLabels, ticks.length > 1 ? x(ticks[1]!.value) - x(ticks[0]!.value) : plotRight - plotLeft);
  const plotTop = MARGIN.top;
  const plotBottom = height - MARGIN.bottom;

  const hover = hoverX === null ? null : x.invert(hoverX);
  const hoverRows = hover === null ? [] : series.map((s) => ({ s, b: bucketAt(s, hover) })).filter((r) => r.b);

  // Ticks are in ns; their labels in the display unit.
  const perUnit = NANOS_PER_UNIT[unit];
  // Children built with loops, not closures made per render: V8 drops the optimised code of
  // short-lived closures at every major collection, and this redraws while a run is followed.
  const gridX: ReactElement[] = [];
  const tickX: (ReactElement | null)[] = [];
  for (let i = 0; i < ticks.length; i++) {
    const t = ticks[i]!;
    gridX.push(<line key={`gx${i}`} x1={x(t.value)} x2={x(t.value)} y1={plotTop} y2={plotBottom} />);
    tickX.push(
      tickLabelled[i] ? (
        <text key={`tx${i}`} x={x(t.value)} y={plotBottom + 16} textAnchor="middle">
          {t.label}
        </text>
      ) : null,
    );
  }
  const gridY: ReactElement[] = [];
  const tickY: ReactElement[] = [];
  for (let i = 0; i < yTicks.length; i++) {
    const t = yTicks[i]!;
    gridY.push(<line key={`gy${i}`} x1={plotLeft} x2={plotRight} y1={y(t)} y2={y(t)} />);
    tickY.push(
      <text key={`ty${i}`} x={plotLeft - 6} y={y(t)} dy="0.32em" textAnchor="end">
        {formatNumber(t / perUnit)}
      </text>,
    );
  }

  return (
    <svg
      ref={svgRef}
      data-testid="percentile-plot"
      data-y-scale={yLog ? "log" : "linear"}
      role="img"
      aria-label={`Percentile distribution of ${series.length} series, latency in ${UNIT_LABEL[unit]}; the table below lists the values`}
      width={width}
      height={svgHeight}
      viewBox={`0 0 ${width} ${svgHeight}`}
      className="plot"
      onMouseMove={(e) => {
        const r = svgRef.current?.getBoundingClientRect();
        if (!r) return;
        const px = e.clientX - r.left;
        setHoverX(px >= plotLeft && px <= plotRight ? px : null);
      }}
      onMouseLeave={() => setHoverX(null)}
      onClick={
        onPick
          ? (e) => {
              const r = svgRef.current?.getBoundingClientRect();
              if (!r) return;
              const px = e.clientX - r.left;
              const py = e.clientY - r.top;
              if (px < plotLeft || px > plotRight) return;
              const at = x.invert(px);
              let best: { percentile: number; valueNs: number; seriesId: string; d: number } | null = null;
              for (const s of series) {
                const b = bucketAt(s, at);
                if (!b) continue;
                const valueNs = b.value * NANOS_PER_UNIT[s.recordedUnit];
                const d = Math.abs(y(valueNs) - py);
                if (!best || d < best.d) best = { percentile: b.percentile, valueNs, seriesId: s.id, d };
              }
              if (best) onPick({ percentile: best.percentile, valueNs: best.valueNs, seriesId: best.seriesId });
            }
          : undefined
      }
      style={onPick ? { cursor: "crosshair" } : undefined}
    >
      {title ? (
        <text x={plotLeft} y={12} className="plot-title">
          {title}
        </text>
      ) : null}
      {/* Grid lines and tick labels are keyed by position, not value: a new time window moves
          the y ticks to new values, and keyed by value each one was a node removed and another
          created (about 40 per window); by position they are updated in place. */}
      <g className="grid">
        {gridX}
        {gridY}
      </g>
      <g className="axis x-axis">
        <line x1={plotLeft} x2={plotRight} y1={plotBottom} y2={plotBottom} />
        {tickX}
        <text x={(plotLeft + plotRight) / 2} y={height - 6} textAnchor="middle" className="axis-label">
          Percentile (log scale of 1/(1−p))
        </text>
      </g>
      <g className="axis y-axis">
        <line x1={plotLeft} x2={plotLeft} y1={plotTop} y2={plotBottom} />
        {tickY}
        <text transform={`translate(14 ${(plotTop + plotBottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          Latency ({UNIT_LABEL[unit]}){yLog ? ", log" : ""}
        </text>
      </g>
      {reqPath ? (
        <g className="requirement-line" data-testid="requirement-line">
          <path d={reqPath} fill="none" />
          {requirement.map((r) => {
            const xr = x(r.to >= 100 ? xEnd : inverseTail(r.to / 100, xEnd));
            const yy = Math.max(y.range()[1]! + 10, y(r.limitNs) - 5);
            return (
              <text key={`${r.from}-${r.to}`} x={xr - 4} y={yy} textAnchor="end">
                {r.label}
              </text>
            );
          })}
        </g>
      ) : null}
      <Curves series={series} scales={scales} xEnd={xEnd} cache={pathCache.current} />
      <MaxMarkers series={series} x={x} y={y} xEnd={xEnd} unit={unit} />
      <Legend series={series} labels={labels} items={legend.items} />
      {belowFloor.length > 0 ? (
        <text x={plotLeft} y={height + legend.height + 12} className="plot-note" data-testid="plot-floor-note">
          {`${belowFloor.length === 1 ? middleEllipsis(labels[series.indexOf(belowFloor[0]!)] ?? belowFloor[0]!.name, 40) + " has values" : `${belowFloor.length} series have values`} below ${formatValue(floor / perUnit, unit)} (zeros included): drawn at the log axis' floor`}
        </text>
      ) : null}
      {hoverX !== null && hoverRows.length > 0 ? (
        <g className="hover" pointerEvents="none">
          <line x1={hoverX} x2={hoverX} y1={plotTop} y2={plotBottom} />
          {hoverRows.map(({ s, b }) => (
            <circle key={s.id} cx={hoverX} cy={yAt(b!.value * NANOS_PER_UNIT[s.recordedUnit])} r={3} fill={s.color} />
          ))}
          <HoverBox
            x={hoverX}
            right={plotRight}
            top={plotTop}
            bottom={plotBottom}
            rows={hoverRows.map(({ s, b }) => ({ s, b: b!, label: labels[series.indexOf(s)] ?? s.name }))}
            unit={unit}
          />
        </g>
      ) : null}
    </svg>
  );
});

// The parts drawn per series are memoised: a hover or a unit change re-renders only what shows
// numbers (the max labels follow the unit; the curves and legend never do).
// A wide plot draws its curves in parts side by side, a group (a compositing layer, see
// styles.css) per part: see stepPathParts. The first part's path is the curve's element
// (`data-series`, its name as title); the others only draw.
const Curves = memo(function Curves({ series, scales, xEnd, cache }: { series: PlotSeries[]; scales: Scales; xEnd: number; cache: WeakMap<object, CachedPath> }) {
  const groups: ReactElement[] = [];
  for (let part = 0; part <= scales.splits.length; part++) {
    const curves: ReactElement[] = [];
    for (const s of series) curves.push(<Curve key={s.id} s={s} part={part} scales={scales} xEnd={xEnd} cache={cache} />);
    groups.push(
      <g className="curves" key={part}>
        {curves}
      </g>,
    );
  }
  return <>{groups}</>;
});

// One component per curve, its path computed in its own render: hiding one of fifty renders
// none of the others, and a hundred new curves are laid out one at a time, so a render that
// React slices (a transition) yields between them instead of running all in one task.
const Curve = memo(function Curve({ s, part, scales, xEnd, cache }: { s: PlotSeries; part: number; scales: Scales; xEnd: number; cache: WeakMap<object, CachedPath> }) {
  const p = curveParts(cache, s, scales, xEnd)[part]!;
  // A later part carries the dash pattern on from where the part before it ended.
  const offset = s.dash && part > 0 && p.offset > 0 ? Math.round(p.offset * 10) / 10 : undefined;
  return (
    <path d={p.d} fill="none" stroke={s.color} strokeWidth={2} strokeDasharray={s.dash || undefined} strokeDashoffset={offset} data-series={part === 0 ? s.name : undefined}>
      {part === 0 ? <title>{s.name}</title> : null}
    </path>
  );
});

/** "max 841 ms"; for a histogram of buckets "max within [771.1, 840.9] ms" (or "max ≤ …" when a window's top is another bucket). */
function maxLabel(s: PlotSeries, unit: Unit): string {
  const f = unitFactor(s.recordedUnit, unit);
  const w = s.maxWithin;
  if (!w) return `max ${formatNumber(s.max * f)} ${UNIT_LABEL[unit]}`;
  const maxNs = s.max * NANOS_PER_UNIT[s.recordedUnit];
  const per = NANOS_PER_UNIT[unit];
  if (!Number.isFinite(w.highNs)) return `max above ${formatNumber(w.lowNs / per)} ${UNIT_LABEL[unit]}`;
  if (Math.abs(maxNs / w.highNs - 1) > 2e-3) return `max ≤ ${formatNumber(s.max * f)} ${UNIT_LABEL[unit]}`;
  return `max within [${formatNumber(w.lowNs / per)}, ${formatNumber(w.highNs / per)}] ${UNIT_LABEL[unit]}`;
}

const MaxMarkers = memo(function MaxMarkers({ series, x, y, xEnd, unit }: { series: PlotSeries[]; x: XScale; y: YScale; xEnd: number; unit: Unit }) {
  const floor = axisFloor(y);
  const cy: number[] = [];
  const empty: boolean[] = [];
  for (const s of series) {
    cy.push(y(Math.max(s.max * NANOS_PER_UNIT[s.recordedUnit], floor)));
    empty.push(!(s.totalCount > 0));
  }
  const showLabel = labelledMaxes(cy, 13, empty);
  const cx = x(xEnd);
  const markers: (ReactElement | null)[] = [];
  for (let i = 0; i < series.length; i++) {
    const s = series[i]!;
    markers.push(
      s.totalCount > 0 ? (
        <g key={s.id} data-testid="max-marker" data-series={s.name}>
          <circle cx={cx} cy={cy[i]} r={4} fill={s.color} />
          {showLabel[i] ? (
            // "max within [a, b] ms" is too long for the room right of the plot: above the marker, ending at it.
            <text
              x={s.maxWithin ? cx - 4 : cx + 7}
              y={s.maxWithin ? cy[i]! - 10 : cy[i]}
              dy="0.32em"
              textAnchor={s.maxWithin ? "end" : undefined}
              className="max-label"
              fill={s.color}
            >
              {maxLabel(s, unit)}
            </text>
          ) : null}
        </g>
      ) : null,
    );
  }
  return <g className="max-markers">{markers}</g>;
});

function HoverBox({
  x,
  right,
  top,
  bottom,
  rows: all,
  unit,
}: {
  x: number;
  right: number;
  top: number;
  bottom: number;
  rows: { s: PlotSeries; b: NonNullable<ReturnType<typeof bucketAt>>; label: string }[];
  unit: Unit;
}) {
  const w = 300;
  const lineH = 16;
  // The box stays inside the plot: with more series than lines fit, it lists the highest
  // values at this percentile (the ones a comparison is about) and says how many it left out.
  const room = Math.max(2, Math.floor((bottom - top - 8 - 22) / lineH));
  const nanos = (r: (typeof all)[number]) => r.b.value * NANOS_PER_UNIT[r.s.recordedUnit];
  const rows = all.length <= room ? all : [...all].sort((a, b) => nanos(b) - nanos(a)).slice(0, room - 1);
  const left0 = all.length - rows.length;
  const h = 22 + (rows.length + (left0 > 0 ? 1 : 0)) * lineH;
  const left = x + 12 + w > right ? x - 12 - w : x + 12;
  const p = rows[0]!.b.percentile;
  return (
    <g transform={`translate(${left} ${top + 8})`} data-testid="plot-hover">
      <rect width={w} height={h} rx={4} className="hover-box" />
      <text x={8} y={15} className="hover-title">
        {`p = ${p >= 99 ? p.toPrecision(Math.min(12, Math.max(4, Math.ceil(-Math.log10(Math.max(1e-12, 100 - p))) + 3))) : p.toFixed(2)}%`}
      </text>
      {rows.map(({ s, b, label }, i) => (
        <text key={s.id} x={8} y={15 + (i + 1) * lineH} fill={s.color}>
          {`${middleEllipsis(label, 24)}: ${formatValue(b.value * unitFactor(s.recordedUnit, unit), unit)} (${formatCount(b.countAtOrBelow)} ≤)`}
        </text>
      ))}
      {left0 > 0 ? (
        <text x={8} y={15 + (rows.length + 1) * lineH} className="hover-title">
          {`+${left0} more, none higher`}
        </text>
      ) : null}
    </g>
  );
}
