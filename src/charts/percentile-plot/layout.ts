// Pure layout of the percentile-distribution plot: scales, ticks, legend and labels (the step
// paths are curve.ts').
// x is 1/(1-p) on a log scale, so 90%, 99%, 99.9% … are evenly spaced and the tail gets the
// room it deserves; y is latency. Nothing here touches the DOM.
import { scaleLinear, scaleLog, type ScaleContinuousNumeric } from "d3";
import type { CurveInput } from "./curve";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";

// Loops and module-level functions here, not closures made per call: V8 drops the optimised code
// of short-lived closures at every major collection, and these run on every redraw.

// The curves' path data (curve.ts), here with the rest of the plot's layout.
export {
  curveSplits,
  CURVE_PART_PX,
  fastScale,
  inverseTail,
  perColumn,
  pixelMapOf,
  scaledInput,
  simplify,
  simplifyPx,
  SIMPLIFY_PX,
  stepPath,
  stepPathParts,
  stepPoints,
  type CurveInput,
  type Mapping,
  type PathPart,
  type PixelMap,
} from "./curve";

export interface Size {
  width: number;
  height: number;
}

export const MARGIN = { top: 16, right: 110, bottom: 44, left: 72 };

/** Label of an x tick at 1/(1-p) = 10^k: 0%, 90%, 99%, 99.9% … */
export function percentileLabel(decade: number): string {
  if (decade === 0) return "0%";
  return `${(100 - 100 / 10 ** decade).toFixed(Math.max(0, decade - 2))}%`;
}

/**
 * x domain end: the decade that holds the last finite point of every curve. The last bucket
 * below 100% of a series of N values sits at 1/(1-p) ≤ N, so 10^ceil(log10 N) covers it.
 * At least 99.9% so a small run still shows where the tail would be.
 */
export function xDomainEnd(curves: readonly CurveInput[]): number {
  let n = 1000;
  for (const c of curves) n = Math.max(n, c.totalCount);
  return 10 ** Math.ceil(Math.log10(n) - 1e-9);
}

/**
 * Which x ticks get a label: every `step`-th counted back from the last (the deepest percentile
 * reached matters most), with `step` the fewest decades whose spacing fits the longest label.
 * Labels grow with depth ("99.9999999%"), so a fixed spacing rule let deep ones overlap.
 */
export function labelledTicks(labels: readonly string[], spacingPx: number, charPx = 6.8): boolean[] {
  const n = labels.length;
  const needed = longestLength(labels) * charPx + 10;
  const step = Math.max(1, Math.ceil(needed / Math.max(1, spacingPx)));
  const out: boolean[] = [];
  for (let i = 0; i < n; i++) out.push((n - 1 - i) % step === 0);
  return out;
}

/** The length of the longest label (0 when there is none). */
function longestLength(labels: readonly string[]): number {
  let m = 0;
  for (const l of labels) m = Math.max(m, l.length);
  return m;
}

export function xTicks(end: number): { value: number; label: string }[] {
  const top = Math.round(Math.log10(end));
  const out: { value: number; label: string }[] = [];
  for (let k = 0; k <= top; k++) out.push({ value: 10 ** k, label: percentileLabel(k) });
  return out;
}

export function makeXScale(end: number, size: Size) {
  return scaleLog()
    .domain([1, end])
    .range([MARGIN.left, size.width - MARGIN.right]);
}

export function makeYScale(maxValue: number, minValue: number, log: boolean, size: Size): ScaleContinuousNumeric<number, number> {
  const range = [size.height - MARGIN.bottom, MARGIN.top];
  if (log) {
    const lo = minValue > 0 ? minValue : 1e-3;
    const hi = Math.max(maxValue, lo * 10);
    return scaleLog()
      .domain([lo / 1.2, hi * 1.2])
      .range(range)
      .nice();
  }
  return scaleLinear()
    .domain([0, maxValue > 0 ? maxValue * 1.05 : 1])
    .range(range)
    .nice();
}

/** What the hover shows at a given 1/(1-p): the bucket holding that percentile. */
export function bucketAt(c: CurveInput, inv: number): { percentile: number; value: number; countAtOrBelow: number } | null {
  const n = c.values.length;
  if (n === 0 || c.totalCount <= 0) return null;
  const p = inv <= 1 ? 0 : 1 - 1 / inv;
  const target = p * c.totalCount;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.cumulative[mid]! >= target) hi = mid;
    else lo = mid + 1;
  }
  return { percentile: p * 100, value: c.values[lo]!, countAtOrBelow: c.cumulative[lo]! };
}

/**
 * Which max markers carry a label: where labels would collide, the highest max keeps its
 * label (the slowest request is what the chart is read for). `ys` are the markers' pixel
 * positions (smaller is higher); `skip[i]` leaves marker i out (an empty series).
 */
export function labelledMaxes(ys: readonly number[], gap = 13, skip: readonly boolean[] = []): boolean[] {
  const order: number[] = [];
  const out: boolean[] = [];
  for (let i = 0; i < ys.length; i++) {
    if (!skip[i]) order.push(i);
    out.push(false);
  }
  order.sort((a, b) => ys[a]! - ys[b]! || a - b);
  const placed: number[] = [];
  for (const i of order) {
    const y = ys[i]!;
    if (near(placed, y, gap)) continue;
    placed.push(y);
    out[i] = true;
  }
  return out;
}

/** Whether any of `placed` lies closer than `gap` to `y`. */
function near(placed: readonly number[], y: number, gap: number): boolean {
  for (const p of placed) if (Math.abs(p - y) < gap) return true;
  return false;
}

/** Y ticks that stay readable: on a log axis with many ticks keep 1, 2 and 5 × 10^k. */
export function readableTicks(ticks: number[], log: boolean): number[] {
  if (!log || ticks.length <= 10) return ticks;
  const keep = ticks.filter((t) => [1, 2, 5].includes(Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9))));
  return keep.length > 12 ? keep.filter((t) => Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9)) === 1) : keep;
}

/** The lowest value above zero of an ascending array (Infinity when there is none). */
export function lowestPositive(values: ArrayLike<number>): number {
  for (let i = 0; i < values.length; i++) if (values[i]! > 0) return values[i]!;
  return Infinity;
}

/**
 * The series' highest max and lowest value above zero, in ns (0 and Infinity when there are
 * none): the extent the plot's y scale starts from, and the one side-by-side plots share.
 */
export function dataExtentNs(series: readonly { recordedUnit: Unit; max: number; values: ArrayLike<number> }[]): { max: number; min: number } {
  let max = 0;
  let min = Infinity;
  for (const s of series) {
    const k = NANOS_PER_UNIT[s.recordedUnit];
    max = Math.max(max, s.max * k);
    min = Math.min(min, lowestPositive(s.values) * k);
  }
  return { max, min };
}

/** Where a legend entry goes: its swatch starts at (x, y); `width` is the room it has. */
export interface LegendItem {
  x: number;
  y: number;
  width: number;
}

export const LEGEND_ROW = 16;
const LEGEND_SWATCH = 28;

/**
 * The legend under the plot, never over the curves: entries in as many columns as the widest
 * label allows, rows below the x axis from `top`, the chart growing by `height`. Labels are
 * given already shortened (core/format's shortNames); `charPx` is an average glyph width.
 */
export function legendLayout(labels: readonly string[], width: number, top: number, charPx = 6.6): { items: LegendItem[]; height: number } {
  if (labels.length === 0) return { items: [], height: 0 };
  const left = MARGIN.left;
  const room = Math.max(60, width - left - 8);
  const longest = longestLength(labels);
  const itemW = Math.min(room, LEGEND_SWATCH + 6 + longest * charPx + 18);
  const cols = Math.max(1, Math.floor(room / itemW));
  const colW = room / cols;
  const items: LegendItem[] = [];
  for (let i = 0; i < labels.length; i++) items.push({ x: left + (i % cols) * colW, y: top + 8 + Math.floor(i / cols) * LEGEND_ROW, width: colW - 8 });
  return { items, height: Math.ceil(labels.length / cols) * LEGEND_ROW + 8 };
}
