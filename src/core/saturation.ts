// Saturation: when offered load exceeds capacity, a queue builds for the whole run and every
// request waits longer than the one before. The per-interval median then climbs steadily from
// start to end. Occasional stalls do not look like that: they are spikes on a flat median.
import { medianOf } from "./median";

export interface SaturationVerdict {
  saturated: boolean;
  /**
   * Spearman rank correlation between time and the per-interval median (−1..1); NaN when the
   * rise alone rules saturation out (it is not computed then: this runs on the load's critical
   * path).
   */
  trend: number;
  /** Median of the last quarter's medians over the first quarter's. */
  rise: number;
}

/** Thresholds: a steady trend (rank correlation) and a real rise (several times the start). */
export const SATURATION_MIN_TREND = 0.8;
export const SATURATION_MIN_RISE = 3;
export const SATURATION_MIN_INTERVALS = 8;

/**
 * Ranks (1-based, ties share their average rank). Per-interval medians are bucket values, so
 * there are few distinct values: a numeric typed-array sort and one rank per distinct value
 * (an index sort with a comparator was slow on a 24-hour log, on the load's critical path).
 */
function ranks(v: ArrayLike<number>): Float64Array {
  const n = v.length;
  const sorted = Float64Array.from(v).sort();
  const rankOf = new Map<number, number>();
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && sorted[j + 1] === sorted[i]) j++;
    rankOf.set(sorted[i]!, (i + j) / 2 + 1);
    i = j + 1;
  }
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) r[i] = rankOf.get(v[i]!)!;
  return r;
}

/** Ranks of values already in ascending order (times): one walk over the tie runs. */
function ranksOfAscending(v: ArrayLike<number>): Float64Array {
  const n = v.length;
  const r = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && v[j + 1] === v[i]) j++;
    for (let k = i; k <= j; k++) r[k] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function isAscending(v: ArrayLike<number>): boolean {
  for (let i = 1; i < v.length; i++) if (v[i]! < v[i - 1]!) return false;
  return true;
}

export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  const rb = ranks(b);
  const m = (n + 1) / 2; // the mean of ranks 1..n, ties or not
  let num = 0;
  let db = 0;
  if (isStrictlyAscending(a)) {
    // Times of a log: rank i + 1 each, and Σ(rank − m)² in closed form. One pass instead of
    // building a's ranks (this runs on the load's critical path, before it is optimised).
    for (let i = 0; i < n; i++) {
      const d = rb[i]! - m;
      num += (i + 1 - m) * d;
      db += d * d;
    }
    const da = (n * (n * n - 1)) / 12;
    return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
  }
  const ra = isAscending(a) ? ranksOfAscending(a) : ranks(a);
  let da = 0;
  for (let i = 0; i < n; i++) {
    const x = ra[i]! - m;
    const y = rb[i]! - m;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
}

function isStrictlyAscending(v: ArrayLike<number>): boolean {
  for (let i = 1; i < v.length; i++) if (!(v[i]! > v[i - 1]!)) return false;
  return true;
}

// The passes over every interval are functions of their own: a loop that runs tens of
// thousands of times inside detectSaturation made V8 compile all of it, and what it inlines,
// with its optimising compiler during the load, for a pass made once per series.

function countNonEmpty(counts: ArrayLike<number>, n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (counts[i]! > 0) k++;
  return k;
}

/** The non-empty intervals' starts and medians into t and ms; whether the starts are in order. */
function gatherNonEmpty(offsets: ArrayLike<number>, p50: ArrayLike<number>, counts: ArrayLike<number>, n: number, t: Float64Array, ms: Float64Array): boolean {
  let sorted = true;
  for (let i = 0, j = 0; i < n; i++) {
    if (counts[i]! > 0) {
      t[j] = offsets[i]!;
      ms[j] = p50[i]!;
      if (j > 0 && t[j]! < t[j - 1]!) sorted = false;
      j++;
    }
  }
  return sorted;
}

/** offsets: interval starts; p50: per-interval medians; counts: per-interval counts (empty intervals are ignored). */
export function detectSaturation(offsets: ArrayLike<number>, p50: ArrayLike<number>, counts: ArrayLike<number>, n: number): SaturationVerdict {
  const k = countNonEmpty(counts, n);
  if (k < SATURATION_MIN_INTERVALS) return { saturated: false, trend: 0, rise: 1 };
  let t = new Float64Array(k);
  let ms = new Float64Array(k);
  const sorted = gatherNonEmpty(offsets, p50, counts, n, t, ms);
  if (!sorted) {
    // Logs are in time order; merged or shuffled input is put in order first.
    const order = Array.from({ length: k }, (_, i) => i).sort((a, b) => t[a]! - t[b]!);
    t = Float64Array.from(order, (i) => t[i]!);
    ms = Float64Array.from(order, (i) => ms[i]!);
  }
  const q = Math.max(2, Math.floor(k / 4));
  const first = medianOf(ms.subarray(0, q));
  const last = medianOf(ms.subarray(k - q));
  const rise = first > 0 ? last / first : last > 0 ? Infinity : 1;
  if (!(rise >= SATURATION_MIN_RISE)) return { saturated: false, trend: Number.NaN, rise };
  const trend = spearman(t, ms);
  return { saturated: trend >= SATURATION_MIN_TREND && rise >= SATURATION_MIN_RISE, trend, rise };
}
