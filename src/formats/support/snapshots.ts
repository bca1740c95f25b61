// Histograms sent as snapshots of bucket counts (OpenTelemetry's cumulative data points,
// Prometheus' histogram series): what was observed between two snapshots is their increase,
// never their sum. A count that goes down is a counter reset (a restarted process): what the
// snapshot holds was then observed since the reset, and counts in full. Bounds are compared as
// the producer states them (in its unit, as floats); a snapshot whose buckets are coarser than the
// one before (an exponential histogram's scale went down) takes the finer buckets into its own.
import type { Histogram } from "../../core/histogram";
import { newHistogram } from "../../core/histogram";
import { recordBuckets, type BucketsRecorded, type CountedBucket } from "./buckets";

/** A bucket in the producer's unit: values in (lower, upper] (upper Infinity: open-ended). */
export interface FloatBucket {
  lower: number;
  upper: number;
  count: number;
}

export interface Snapshot {
  /** Epoch seconds of the snapshot. */
  at: number;
  /** Epoch seconds since which it counts (OpenTelemetry's start time), when stated. */
  from: number | null;
  /** Non-cumulative counts, in ascending order of bounds. */
  buckets: FloatBucket[];
  min: number | null;
  max: number | null;
}

export interface Increase {
  start: number;
  end: number;
  buckets: FloatBucket[];
  /** The smallest value, when it was observed in this increase. */
  min: number | null;
  /** A bound on every value of the increase (the max observed so far). */
  max: number | null;
  /** The snapshot counted in full: the first one, or the first after a reset. */
  whole: boolean;
}

const REL = 1e-9;
const within = (b: FloatBucket, outer: FloatBucket): boolean => outer.lower <= b.lower + Math.abs(b.lower) * REL && b.upper <= outer.upper + Math.abs(outer.upper) * REL;

/**
 * `prev` counted into `cur`'s buckets (each of prev's buckets inside one of cur's), or null
 * when a bucket of prev fits in none.
 */
function intoBuckets(prev: readonly FloatBucket[], cur: readonly FloatBucket[]): number[] | null {
  const out = new Array<number>(cur.length).fill(0);
  let j = 0;
  for (const b of prev) {
    if (b.count === 0) continue;
    while (j < cur.length && !within(b, cur[j]!)) {
      if (cur[j]!.lower > b.upper) return null;
      j++;
    }
    if (j >= cur.length) return null;
    out[j] = out[j]! + b.count;
  }
  return out;
}

/**
 * What each snapshot adds to the one before, in time order. `firstStart(s)` says where an
 * interval counted in full starts when the snapshot does not say (its `from`).
 */
export function increases(points: readonly Snapshot[], firstStart: (s: Snapshot, index: number) => number): Increase[] {
  const out: Increase[] = [];
  let prev: Snapshot | null = null;
  points.forEach((s, i) => {
    let whole = prev === null || (s.from !== null && prev.from !== null && s.from !== prev.from);
    let counts: number[] | null = null;
    if (!whole) {
      const before = intoBuckets(prev!.buckets, s.buckets);
      if (before === null) whole = true;
      else {
        counts = s.buckets.map((b, k) => b.count - before[k]!);
        if (counts.some((c) => c < 0)) whole = true;
      }
    }
    const buckets = whole ? s.buckets.map((b) => ({ ...b })) : s.buckets.map((b, k) => ({ ...b, count: counts![k]! }));
    const minNew = whole || (s.min !== null && (prev!.min === null || s.min < prev!.min));
    out.push({
      start: whole ? (s.from ?? firstStart(s, i)) : prev!.at,
      end: s.at,
      buckets,
      min: minNew ? s.min : null,
      max: s.max,
      whole,
    });
    prev = s;
  });
  return out;
}

/** A producer's value in its unit as integer ns at or above it (`perNs`: ns in the unit); null past the limit. */
export function ceilTo(value: number, perUnit: number, limit: number): number | null {
  if (!Number.isFinite(value)) return value > 0 ? Infinity : null;
  const v = value * perUnit;
  const r = Math.round(v);
  // A bound like 0.005 s is 5,000,000.000000001 ns in floating point: that is 5 ms.
  const out = Math.abs(v - r) <= 1e-7 * Math.max(1, Math.abs(v)) ? r : Math.ceil(v);
  return out > limit ? null : Math.max(0, out);
}

/** An increase recorded at its buckets' upper bounds, in ns; buckets past the limit are merged into an open-ended one. */
export function recordIncrease(
  inc: { buckets: readonly FloatBucket[]; min: number | null; max: number | null },
  perUnit: number,
  limit: number,
  h: Histogram = newHistogram(),
): { histogram: Histogram; recorded: BucketsRecorded } {
  const counted: CountedBucket[] = [];
  for (const b of inc.buckets) {
    const upper = ceilTo(b.upper, perUnit, limit);
    const lower = ceilTo(Math.max(0, b.lower), perUnit, limit);
    counted.push({ lower: lower ?? limit, upper: upper ?? Infinity, count: b.count });
  }
  const min = inc.min === null ? null : ceilTo(inc.min, perUnit, limit);
  const max = inc.max === null ? null : ceilTo(inc.max, perUnit, limit);
  const recorded = recordBuckets(h, counted, min, max);
  return { histogram: h, recorded };
}
