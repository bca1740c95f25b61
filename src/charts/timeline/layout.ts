// Pure layout of the timeline chart: lanes, scales and ticks. The per-pixel downsampling is
// done by the engine (src/core/timeline-buckets.ts); this only places what it returns.
import { scaleLinear, scaleLog, scaleUtc, type ScaleContinuousNumeric } from "d3";

export const TL_MARGIN = { top: 10, right: 20, bottom: 34, left: 72 };

export interface Lane {
  top: number;
  bottom: number;
}

/** One lane for all series (overlay), or one lane per series stacked. */
export function lanes(count: number, height: number, perLane: boolean): Lane[] {
  const top = TL_MARGIN.top;
  const bottom = height - TL_MARGIN.bottom;
  if (!perLane || count <= 1) return Array.from({ length: Math.max(1, count) }, () => ({ top, bottom }));
  const gap = 12;
  const h = (bottom - top - gap * (count - 1)) / count;
  return Array.from({ length: count }, (_, i) => ({ top: top + i * (h + gap), bottom: top + i * (h + gap) + h }));
}

export function yScaleFor(maxValue: number, minValue: number, log: boolean, lane: Lane): ScaleContinuousNumeric<number, number> {
  const range = [lane.bottom, lane.top];
  if (log) {
    const lo = minValue > 0 ? minValue : Math.max(maxValue / 1e4, 1e-6);
    return scaleLog()
      .domain([lo, Math.max(maxValue, lo * 10)])
      .range(range)
      .nice();
  }
  return scaleLinear()
    .domain([0, maxValue > 0 ? maxValue * 1.08 : 1])
    .range(range)
    .nice();
}

/** x in seconds since StartTime, or wall-clock time (ms since epoch) when `wallClockBase` is set. */
export function xScaleFor(t0: number, t1: number, width: number, wallClockBase: number | null) {
  const range = [TL_MARGIN.left, width - TL_MARGIN.right];
  const span = t1 > t0 ? [t0, t1] : [t0, t0 + 1];
  if (wallClockBase === null) return { scale: scaleLinear().domain(span).range(range), wall: false as const };
  const d = scaleUtc()
    .domain([new Date((wallClockBase + span[0]!) * 1000), new Date((wallClockBase + span[1]!) * 1000)])
    .range(range);
  return { scale: d, wall: true as const };
}

/** Axis and duration notation: from the one time formatter (core/time-format.ts). */
export { formatSeconds } from "../../core/time-format";

/** Index of the bucket whose span holds t (binary search over ascending starts), or -1. */
export function bucketAtTime(t0: ArrayLike<number>, t1: ArrayLike<number>, n: number, t: number): number {
  let lo = 0;
  let hi = n - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t0[mid]! <= t) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best >= 0 && t < t1[best]!) return best;
  return -1;
}

/** Two spans equal up to float noise (a span goes to the engine and comes back as its domain). */
export function sameSpan(a: readonly [number, number], b: readonly [number, number]): boolean {
  const tol = 1e-9 * Math.max(1, Math.abs(a[0]), Math.abs(a[1]));
  return Math.abs(a[0] - b[0]) <= tol && Math.abs(a[1] - b[1]) <= tol;
}

/**
 * The span after one wheel step: a pan by a tenth of the span (shift or a sideways wheel),
 * or a zoom by 0.8 (in) or 1.25 (out) around the time under the pointer, `at` being the
 * pointer's position across the plot (0 left edge, 1 right edge).
 */
export function wheelSpan(span: readonly [number, number], step: { pan: boolean; direction: number; at: number }): [number, number] {
  const [v0, v1] = span;
  const w = v1 - v0;
  if (step.pan) {
    const d = Math.sign(step.direction) * w * 0.1;
    return [v0 + d, v1 + d];
  }
  const t = v0 + Math.min(1, Math.max(0, step.at)) * w;
  const k = step.direction > 0 ? 1.25 : 0.8;
  return [t - (t - v0) * k, t + (v1 - t) * k];
}

/**
 * The canvas' lines in slices drawn one task each, so that drawing many series (a hundred logs
 * dropped at once) is no single long task: Chromium rasterises a software canvas at the end of
 * the task that drew on it, at a cost that grows with the points stroked. `points[i]` is what
 * line i strokes (its intervals times its strokes); a slice holds whole lines, in order, up to
 * `budget` points (a longer line is a slice of its own). Returns [first, end) index pairs.
 */
export function drawSlices(points: readonly number[], budget: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (i > start && sum + p > budget) {
      out.push([start, i]);
      start = i;
      sum = 0;
    }
    sum += p;
  }
  if (points.length > start) out.push([start, points.length]);
  return out;
}

/**
 * Latency ticks whose labels do not overlap: `y` maps a tick to its pixel row. On a log axis d3
 * gives every 1…9 × 10^k, which a lane of 200 px cannot label apart; powers of ten come first,
 * then 5 and 2 × 10^k, then the rest, each kept only where it stands `gap` px from those kept.
 */
export function spacedTicks(ticks: readonly number[], y: (v: number) => number, gap = 14): number[] {
  const order = ticks.slice();
  order.sort(byRank);
  const kept: number[] = [];
  for (const t of order) if (standsApart(kept, t, y, gap)) kept.push(t);
  return kept.sort(ascending);
}

// Module-level functions, not closures made per call: V8 drops the optimised code of
// short-lived closures at every major collection, and these run on every redraw.
function rank(t: number): number {
  const m = Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9));
  return m === 1 ? 0 : m === 5 ? 1 : m === 2 ? 2 : 3;
}

function byRank(a: number, b: number): number {
  return rank(a) - rank(b) || a - b;
}

function ascending(a: number, b: number): number {
  return a - b;
}

/** Whether `t` stands `gap` px or more from every tick kept. */
function standsApart(kept: readonly number[], t: number, y: (v: number) => number, gap: number): boolean {
  for (const k of kept) if (!(Math.abs(y(k) - y(t)) >= gap)) return false;
  return true;
}
