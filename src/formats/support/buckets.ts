// Histograms that arrive as bucket counts (fio's bins, OpenTelemetry and Prometheus buckets):
// each bucket's values are recorded at its upper bound, so a percentile read back is never below
// the true one and at most one bucket width above it. A stated exact min and max move the
// smallest and the largest values to where they were really recorded.
import type { Histogram } from "../../core/histogram";

/** Largest count of one bucket a reader takes: far above any real file, and sums of them stay exact. */
export const MAX_BUCKET_COUNT = 1e12;

export interface CountedBucket {
  /** Lowest value the bucket can hold (inclusive or not: only used to place min and max). */
  lower: number;
  /** Highest value it can hold, an integer in the recorded unit; Infinity for an open-ended last bucket. */
  upper: number;
  count: number;
}

export interface BucketsRecorded {
  total: number;
  /** Values in an open-ended bucket with no stated max: recorded at its lower bound, below their true values. */
  unbounded: number;
  /** That bucket's lower bound. */
  unboundedFrom: number;
}

/**
 * Records `buckets` (in ascending order of bounds) into `h`. With `min`, one value of the first
 * non-empty bucket is recorded at it; with `max`, the values of the buckets that reach past it are
 * recorded at it (every value is at most the max). Both only when they lie inside their bucket.
 */
export function recordBuckets(h: Histogram, buckets: readonly CountedBucket[], min?: number | null, max?: number | null): BucketsRecorded {
  let first = -1;
  let last = -1;
  for (let i = 0; i < buckets.length; i++) {
    if (buckets[i]!.count > 0) {
      if (first < 0) first = i;
      last = i;
    }
  }
  const out: BucketsRecorded = { total: 0, unbounded: 0, unboundedFrom: 0 };
  if (first < 0) return out;
  for (let i = first; i <= last; i++) {
    const b = buckets[i]!;
    let n = b.count;
    if (n <= 0) continue;
    out.total += n;
    const maxInside = max !== undefined && max !== null && max >= b.lower && max <= b.upper;
    let at = maxInside ? max : b.upper;
    if (!Number.isFinite(at)) {
      at = b.lower;
      out.unbounded += n;
      out.unboundedFrom = b.lower;
    }
    if (i === first && min !== undefined && min !== null && min >= b.lower && min <= at) {
      h.recordValue(min);
      n--;
    }
    if (n > 0) h.recordValueWithCount(at, n);
  }
  return out;
}

/** A relative width as a short percentage for messages ("1.6 %", "0.0066 %"). */
export function percentText(fraction: number): string {
  const p = fraction * 100;
  return `${p >= 1 ? p.toFixed(1) : Number(p.toPrecision(2))} %`;
}
