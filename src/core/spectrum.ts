// What the charts and the table need from one histogram: plot-ready arrays and the headline
// percentiles. Computed from the (merged) histogram only: nothing here averages percentiles.
import { bucketsOf, bucketsOfDense, type Buckets, type Histogram } from "./histogram";
import { subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "./counts-layout";

import { TABLE_PERCENTILES } from "./types";
import { valueAtFromBuckets } from "./bucket-lookup";

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
  /** Values known exactly at some percentiles (bucket-lookup.ts BucketView): an opened share link's. */
  exact?: Readonly<Record<string, number>>;
}

/**
 * Whether a spectrum's arrays have gone to another thread (the engine hands a view's arrays to
 * the page): a kept spectrum is then made anew rather than answered with empty arrays. Where
 * ArrayBuffer.prototype.detached is missing, an empty buffer counts as gone (made anew: cheap).
 */
export function handedAway(sp: Spectrum): boolean {
  return isDetached(sp.values.buffer) || isDetached(sp.cumulative.buffer);
}

function isDetached(b: ArrayBufferLike): boolean {
  const d = (b as { detached?: boolean }).detached;
  return d ?? b.byteLength === 0;
}

/**
 * `buckets`: bucketsOf(h), and `max`: maxOf(h), when the caller has them already. The max is the
 * last bucket's highest value, which is what maxOf finds, without its second walk down every slot.
 */
export function spectrumOf(h: Histogram, buckets: Buckets = bucketsOf(h), max = lastValue(buckets)): Spectrum {
  return spectrumOfBuckets(buckets, h.totalCount, max, h.totalCount === 0 ? 0 : h.minNonZeroValue);
}

function lastValue(b: Buckets): number {
  return b.values.length > 0 ? b.values[b.values.length - 1]! : 0;
}

function spectrumOfBuckets(b: Buckets, totalCount: number, max: number, min: number): Spectrum {
  const percentiles: Record<string, number> = {};
  // From the buckets: the same rule as the library's getValueAtPercentile (property-tested in
  // bucket-lookup's tests) without a scan of the whole counts array per percentile.
  for (const p of TABLE_PERCENTILES) percentiles[String(p)] = valueAtFromBuckets({ values: b.values, cumulative: b.cumulative, totalCount: b.totalCount, max }, p);
  return { totalCount, max, min, percentiles, values: b.values, cumulative: b.cumulative, mean: b.mean, stdDeviation: b.stdDeviation };
}

export { valueAtFromBuckets };

/**
 * spectrumOf a histogram of this layout whose counts array is `counts` (dense, `total` their sum),
 * without making one: a window's counts as the engine keeps them, non-zero only within [lo, hi]
 * (none counted: hi < lo). Null when a histogram's least value would come from elsewhere than its
 * counts (only zeros recorded): spectrumOf answers that.
 */
export function spectrumOfDense(counts: Float64Array, total: number, lowest: number, digits: number, lo = 0, hi = counts.length - 1): Spectrum | null {
  let first = 0;
  for (let i = Math.max(1, lo); i <= hi; i++)
    if (counts[i]! > 0) {
      first = i;
      break;
    }
  if (total > 0 && first === 0) return null;
  const b = bucketsOfDense(counts, total, lowest, digits, lo, hi);
  // The least value as the library keeps it: the first non-zero index's (a multiple of its unit).
  const min = total > 0 ? valueAtIndex(first, unitMagnitudeOf(lowest), subBucketCountMagnitude(digits) - 1) : 0;
  return spectrumOfBuckets(b, total, total > 0 ? b.values[b.values.length - 1]! : 0, min);
}
