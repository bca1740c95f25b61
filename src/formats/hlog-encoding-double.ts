// DoubleHistogram payloads (`DHIST…`), mapped into the app's integer histograms.
//
// Format facts from HdrHistogram Java's DoubleHistogram (encodeIntoByteBuffer,
// encodeIntoCompressedByteBuffer, constructHistogramFromBuffer), all big-endian:
//
//   cookie(4)  0x0c72124e plain, 0x0c72124f compressed
//   numberOfSignificantValueDigits(4)
//   configuredHighestToLowestValueRatio(8)
//   then the wrapped integer histogram, encoded as any integer histogram is (plain after the
//   plain cookie, compressed after the compressed one); its V1/V2 header's
//   integerToDoubleValueConversionRatio field holds the ratio r: integer value i stands for
//   the double i * r. Java insists the wrapped histogram has lowestDiscernibleValue 1 and the
//   same digits. r = lowestValueInAutoRange / subBucketHalfCount, a power of two in every
//   histogram Java writes (auto-ranging shifts by binary orders of magnitude).
//
// A DoubleHistogram's values have no unit of their own: they are taken to be seconds and
// recorded as integer nanoseconds (x 1e9), into a layout one significant digit finer than the
// log's, so that every source bucket lands in a target bucket at most a fifth as wide (the
// decimal scale moves the binary bucket edges, so equal digits could merge two source
// buckets). Each bucket's count is placed at the value Java reports for it
// (highestEquivalentValue * r), so a percentile read here is Java's DoubleHistogram value
// rounded up to the target's resolution (relative 2^-14 at 3 digits; none finer exists for
// 5-digit logs, which then keep 5 digits).

import { pow2, subBucketCountMagnitude, valueAtIndex } from "../core/counts-layout";

export const DHIST_ENCODING = 0x0c72124e;
export const DHIST_COMPRESSED = 0x0c72124f;
export const DHIST_HEADER_SIZE = 16;
/** Double value 1.0 (taken as a second) is this many recorded units (ns). */
export const DOUBLE_TO_RECORDED = 1e9;
/** Beyond this a value's index could leave int32 and its float64 lose integers long before. */
const MAX_TARGET_VALUE = 2 ** 62;

export interface DoubleInfo {
  /** integerToDoubleValueConversionRatio of the wrapped histogram. */
  ratio: number;
  /** The log's own precision (the target layout has one digit more, up to 5). */
  digits: number;
}

export function targetDigitsFor(digits: number): number {
  return Math.min(5, digits + 1);
}

/** Counts-array index of an integer value in the layout lowest = 1, sub-bucket magnitude `subMag` (Java: countsArrayIndex). */
export function indexForValue(value: number, subMag: number): number {
  const half = subMag - 1;
  if (value < pow2(subMag)) return value;
  let lg = Math.floor(Math.log2(value));
  while (pow2(lg) > value) lg--;
  while (pow2(lg + 1) <= value) lg++;
  const bucket = lg + 1 - subMag;
  const sub = Math.floor(value / pow2(bucket));
  return (bucket + 1) * pow2(half) + (sub - pow2(half));
}

/** The value Java's integer histogram reports for a counts-array index (highestEquivalentValue, lowest = 1). */
export function highestEquivalentAt(index: number, half: number): number {
  const bucket = Math.max(0, (index >> half) - 1);
  return valueAtIndex(index, 0, half) + pow2(bucket) - 1;
}

/**
 * Rewrites `n` sparse (index, count) pairs of the wrapped histogram (layout lowest 1, `digits`)
 * in place into the target layout (lowest 1, targetDigitsFor(digits)), values x ratio x 1e9.
 * Returns how many pairs remain, or a reason.
 */
export function requantizeInPlace(indices: Int32Array, counts: Float64Array, n: number, digits: number, ratio: number): number | string {
  const half = subBucketCountMagnitude(digits) - 1;
  const targetMag = subBucketCountMagnitude(targetDigitsFor(digits));
  let m = 0;
  for (let k = 0; k < n; k++) {
    const value = Math.floor(highestEquivalentAt(indices[k]!, half) * ratio * DOUBLE_TO_RECORDED);
    if (!(value <= MAX_TARGET_VALUE)) {
      return `DoubleHistogram value ${(highestEquivalentAt(indices[k]!, half) * ratio).toPrecision(3)} is beyond what this reader can record in ns`;
    }
    const index = indexForValue(value, targetMag);
    // The mapping is monotone, so equal target indices are adjacent.
    if (m > 0 && indices[m - 1] === index) counts[m - 1]! += counts[k]!;
    else {
      indices[m] = index;
      counts[m] = counts[k]!;
      m++;
    }
  }
  return m;
}

/** Highest trackable value of the target layout for the wrapped histogram's highest. */
export function targetHighest(innerHighest: number, ratio: number): number {
  return Math.min(MAX_TARGET_VALUE, Math.max(2, Math.ceil(innerHighest * ratio * DOUBLE_TO_RECORDED)));
}
