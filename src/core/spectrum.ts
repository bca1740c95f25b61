// What the charts and the table need from one histogram: plot-ready arrays and the headline
// percentiles. Computed from the (merged) histogram only: nothing here averages percentiles.
import { bucketsOf, maxOf, valueAtPercentile, type Histogram } from "./histogram";

import { TABLE_PERCENTILES } from "./types";

export interface Spectrum {
  totalCount: number;
  /** Highest equivalent of the largest recorded value, in the recorded unit. */
  max: number;
  /** Smallest recorded value's lowest equivalent. */
  min: number;
  /** TABLE_PERCENTILES → value, in the recorded unit. */
  percentiles: Record<string, number>;
  /** Non-empty buckets: values (highest equivalent) and cumulative counts. */
  values: Float64Array;
  cumulative: Float64Array;
  /** Details only: never headline numbers (latency is not normally distributed). */
  mean: number;
  stdDeviation: number;
}

export function spectrumOf(h: Histogram): Spectrum {
  const b = bucketsOf(h);
  const percentiles: Record<string, number> = {};
  for (const p of TABLE_PERCENTILES) percentiles[String(p)] = valueAtPercentile(h, p);
  const empty = h.totalCount === 0;
  return {
    totalCount: h.totalCount,
    max: maxOf(h),
    min: empty ? 0 : h.minNonZeroValue,
    percentiles,
    values: b.values,
    cumulative: b.cumulative,
    mean: empty ? 0 : h.mean,
    stdDeviation: empty ? 0 : h.stdDeviation,
  };
}

/**
 * Value at any percentile from a spectrum's buckets, with HdrHistogram's rule (the smallest
 * bucket whose cumulative count reaches ceil(p·N), at least the first): lets the UI judge a
 * requirement at p99.99999 without asking the engine. 100 gives the max.
 */
/** Percentile must be above 0. */
export function valueAtFromBuckets(s: Pick<Spectrum, "values" | "cumulative" | "totalCount" | "max">, percentile: number): number {
  const n = s.totalCount;
  if (n <= 0 || s.values.length === 0) return 0;
  if (percentile >= 100) return s.max;
  const fp = (Math.max(0, percentile) / 100) * n;
  // Same guard as the library: fp math can land one ulp above an exact integer count.
  const target = Math.max(1, Math.ceil(fp - ulp(fp)));
  let lo = 0;
  let hi = s.values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.cumulative[mid]! >= target) hi = mid;
    else lo = mid + 1;
  }
  return s.values[lo]!;
}

function ulp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const e = Math.floor(Math.log2(Math.abs(x)));
  return 2 ** (e - 52);
}
