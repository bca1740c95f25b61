// A narrow, typed view of hdr-histogram-js: the library is the reference for histogram math
// (percentiles, equivalent-value ranges, merging). Everything that reads a histogram goes
// through here, so the places where we depend on library internals are in one file.
import { subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "./counts-layout";
import { addDecodedInto } from "./counts-add";
// The package's index, not a deep import of its builder: in the page the index resolves to the
// library's ES bundle, and a histogram built by the CommonJS builder module is not an instance
// of that bundle's classes (its encoder then refuses it: "Unsupported Histogram implementation").
import { build, type Histogram } from "hdr-histogram-js";

/** The library's JsHistogram methods that exist at runtime but are not in its public typings. */
interface JsInternals {
  _counts?: unknown;
  unitMagnitude: number;
  subBucketHalfCountMagnitude: number;
  countsArrayIndex(value: number): number;
  valueFromIndex(index: number): number;
  getCountAtIndex(index: number): number;
  highestEquivalentValue(value: number): number;
  lowestEquivalentValue(value: number): number;
  countsArrayLength: number;
  lowestDiscernibleValue: number;
}

export type { Histogram };

function internals(h: Histogram): JsInternals {
  return h as unknown as JsInternals;
}

/**
 * A histogram with 64-bit (float64) counters. The library's default is 32-bit counters,
 * which wrap silently on long logs (2^31 counts is a few hours at 200k ops/s).
 */
/** Counts-array length a histogram of these parameters starts with (HdrHistogram's layout). */
export function declaredCountsLength(sig: number, lowest: number, highest: number): number {
  const subBucketCount = 2 ** Math.ceil(Math.log2(2 * 10 ** sig));
  const unitMagnitude = Math.floor(Math.log2(Math.max(1, lowest)));
  let smallestUntrackable = subBucketCount * 2 ** unitMagnitude;
  let buckets = 1;
  while (smallestUntrackable <= highest && buckets < 64) {
    smallestUntrackable *= 2;
    buckets++;
  }
  return (buckets + 1) * (subBucketCount / 2);
}

/** Largest counts array a declared range may start with (16 MB of float64); larger ones grow with the data instead. */
export const MAX_DECLARED_COUNTS = 1 << 21;

export function newHistogram(numberOfSignificantValueDigits = 3, lowestDiscernibleValue = 1, highestTrackableValue = 2 * lowestDiscernibleValue): Histogram {
  // A payload's header may declare any range (2^62 at 5 digits is 49 MB of counts from a 52-byte
  // payload: found by fuzzing); beyond MAX_DECLARED_COUNTS, start small and let the data size it.
  if (declaredCountsLength(numberOfSignificantValueDigits, lowestDiscernibleValue, highestTrackableValue) > MAX_DECLARED_COUNTS) {
    highestTrackableValue = 2 * lowestDiscernibleValue;
  }
  return build({
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue,
    // A log's histograms declare their range; keeping it keeps the bucket count that
    // HistogramLogProcessor prints. Auto-resize covers anything larger.
    highestTrackableValue: Math.max(highestTrackableValue, 2 * lowestDiscernibleValue),
    numberOfSignificantValueDigits: numberOfSignificantValueDigits as 1 | 2 | 3 | 4 | 5,
  });
}

/**
 * The max as HdrHistogram Java reports it (getMaxValue): the highest value equivalent to the
 * largest recorded value. Read from the counts, not from the library's `maxValue` field: that
 * field is sometimes the raw value, sometimes the bucket top, and after decoding or adding
 * histograms whose lowestDiscernibleValue is above 1 it drifts past the bucket (the library
 * adds the unit mask where Java ORs it), which would name the next bucket.
 */
export function maxOf(h: Histogram): number {
  if (h.totalCount === 0) return 0;
  const js = internals(h);
  for (let i = js.countsArrayLength - 1; i >= 0; i--) {
    if (js.getCountAtIndex(i) > 0) return js.highestEquivalentValue(js.valueFromIndex(i));
  }
  return 0;
}

/** Value at percentile (0..100), Java semantics; 100 gives the max. */
export function valueAtPercentile(h: Histogram, percentile: number): number {
  if (h.totalCount === 0) return 0;
  if (percentile >= 100) return maxOf(h);
  return h.getValueAtPercentile(percentile);
}

/**
 * Non-empty buckets in ascending order: the exact shape of the distribution.
 * values[i] is the highest value equivalent to bucket i (what HdrHistogram prints),
 * cumulative[i] the count of all values up to and including bucket i.
 */
export interface Buckets {
  values: Float64Array;
  cumulative: Float64Array;
  totalCount: number;
  /** Mean and standard deviation over the buckets' median equivalent values, as the library
   * computes them, but in one pass (its iterator allocates per bucket: seconds on 5-digit histograms). */
  mean: number;
  stdDeviation: number;
}

export function bucketsOf(h: Histogram): Buckets {
  const js = internals(h);
  const total = h.totalCount;
  if (total === 0) return { values: new Float64Array(0), cumulative: new Float64Array(0), totalCount: 0, mean: 0, stdDeviation: 0 };
  const last = js.countsArrayLength - 1; // not maxValue: that field drifts (see maxOf)
  // Fast path for our float64 histograms: counts read from the array and bucket bounds from the
  // layout arithmetic (a bucket's highest equivalent value is the next index's value minus
  // one), instead of four library calls per index (which made views of 100 series slow).
  const fast = js._counts instanceof Float64Array && Number.isInteger(js.unitMagnitude) && Number.isInteger(js.subBucketHalfCountMagnitude);
  if (!fast) return bucketsFromWalk(bucketWalk(js, last), total);
  // Only the counted indices are walked: a histogram sized for hours of latency counts a few
  // thousand of its tens of thousands of slots, and a followed run asks for its spectrum every second.
  const counts = js._counts as Float64Array;
  let lo = 0;
  let hi = last;
  while (lo < hi && !(counts[lo]! > 0)) lo++;
  while (hi > lo && !(counts[hi]! > 0)) hi--;
  return bucketsFromWalk(bucketWalkFast(counts, hi, js.unitMagnitude, js.subBucketHalfCountMagnitude, lo), total);
}

/**
 * bucketsOf a histogram of this layout whose counts array is `counts` (dense, index → count, with
 * `total` their sum): a window's counts kept as they are (engine/intervals/source.ts windowCounts).
 * Only indices [first, last] are read: every count outside them is 0.
 */
export function bucketsOfDense(counts: Float64Array, total: number, lowest: number, digits: number, first = 0, last = counts.length - 1): Buckets {
  if (total === 0) return { values: new Float64Array(0), cumulative: new Float64Array(0), totalCount: 0, mean: 0, stdDeviation: 0 };
  return bucketsFromWalk(bucketWalkFast(counts, last, unitMagnitudeOf(lowest), subBucketCountMagnitude(digits) - 1, first), total);
}

/**
 * bucketsOf a histogram of this layout holding only these counts (indices ascending, each
 * count above 0): what a histogram kept as its non-zero counts reads without making one.
 */
export function bucketsOfCounts(indices: ArrayLike<number>, counts: ArrayLike<number>, lowest: number, digits: number): Buckets {
  const unit = unitMagnitudeOf(lowest);
  const half = subBucketCountMagnitude(digits) - 1;
  let m = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k]! > 0) m++;
  if (m === 0) return { values: new Float64Array(0), cumulative: new Float64Array(0), totalCount: 0, mean: 0, stdDeviation: 0 };
  const w: BucketWalk = { values: new Float64Array(m), cumulative: new Float64Array(m), medians: new Float64Array(m), sum: 0 };
  let j = 0;
  let running = 0;
  for (let k = 0; k < indices.length; k++) {
    const c = counts[k]!;
    if (!(c > 0)) continue;
    const i = indices[k]!;
    const low = valueAtIndex(i, unit, half);
    const high = valueAtIndex(i + 1, unit, half) - 1;
    const median = low + Math.floor((high - low + 1) / 2);
    running += c;
    w.values[j] = high;
    w.cumulative[j] = running;
    w.medians[j] = median;
    w.sum += median * c;
    j++;
  }
  return bucketsFromWalk(w, running);
}

function bucketsFromWalk(b: BucketWalk, total: number): Buckets {
  const { values, cumulative, medians, sum } = b;
  const mean = sum / total;
  let sq = 0;
  for (let k = 0; k < medians.length; k++) sq += (medians[k]! - mean) ** 2 * (cumulative[k]! - (k > 0 ? cumulative[k - 1]! : 0));
  return { values, cumulative, totalCount: total, mean, stdDeviation: Math.sqrt(sq / total) };
}

interface BucketWalk {
  values: Float64Array;
  cumulative: Float64Array;
  medians: Float64Array;
  sum: number;
}

// bucketsOf's pass over every index, the fast way and the library's way, each a function of its
// own: one loop holding both made V8's optimising compiler take the library's calls too, during
// the load, to run the fast way. The fast way counts the buckets first and writes them into
// arrays of that size: a run followed live asks for spectra a few times a second, and growing
// arrays to copy them made most of the engine's garbage.

/**
 * bucketWalkFast's medians, read only by bucketsFromWalk right after the walk (for the mean and
 * standard deviation): one array serves every walk, instead of an array made and dropped per spectrum.
 */
let medianScratch = new Float64Array(4096);

function bucketWalkFast(counts: Float64Array, last: number, unit: number, subHalf: number, first = 0): BucketWalk {
  let m = 0;
  for (let i = first; i <= last; i++) if (counts[i]! > 0) m++;
  if (medianScratch.length < m) medianScratch = new Float64Array(Math.max(m, 2 * medianScratch.length));
  const w: BucketWalk = { values: new Float64Array(m), cumulative: new Float64Array(m), medians: medianScratch.subarray(0, m), sum: 0 };
  let k = 0;
  let running = 0;
  for (let i = first; i <= last; i++) {
    const c = counts[i]!;
    if (c > 0) {
      const low = valueAtIndex(i, unit, subHalf);
      const high = valueAtIndex(i + 1, unit, subHalf) - 1;
      running += c;
      const median = low + Math.floor((high - low + 1) / 2);
      w.values[k] = high;
      w.cumulative[k] = running;
      w.medians[k] = median;
      w.sum += median * c;
      k++;
    }
  }
  return w;
}

function bucketWalk(js: JsInternals, last: number): BucketWalk {
  const values: number[] = [];
  const cumulative: number[] = [];
  const medians: number[] = [];
  let running = 0;
  let sum = 0;
  for (let i = 0; i <= last; i++) {
    const c = js.getCountAtIndex(i);
    if (c > 0) {
      const low = js.valueFromIndex(i);
      const high = js.highestEquivalentValue(low);
      running += c;
      const median = low + Math.floor((high - low + 1) / 2);
      values.push(high);
      cumulative.push(running);
      medians.push(median);
      sum += median * c;
    }
  }
  return { values: Float64Array.from(values), cumulative: Float64Array.from(cumulative), medians: Float64Array.from(medians), sum };
}

/**
 * The layout (significant digits, lowest discernible value) that is at least as coarse as each
 * of `hs` at every value: the fewest digits and the largest unit. HdrHistogram's buckets are
 * power-of-two wide and aligned to their width (width at v: max(2^unitMagnitude,
 * 2^(floor(log2 v) − log2(subBucketCount) + 1))), so fewer digits or a larger unit only widen
 * them, and every bucket of a member lies inside one bucket of this layout.
 */
export function coarsestLayout(hs: readonly (Histogram | { numberOfSignificantValueDigits: number; lowestDiscernibleValue: number })[]): { digits: number; lowest: number } {
  let digits = Infinity;
  let lowest = 1;
  for (const h of hs) {
    digits = Math.min(digits, h.numberOfSignificantValueDigits);
    const l = (h as { lowestDiscernibleValue: number }).lowestDiscernibleValue;
    if (Math.floor(Math.log2(l)) > Math.floor(Math.log2(lowest)) || (Math.floor(Math.log2(l)) === Math.floor(Math.log2(lowest)) && l > lowest)) lowest = l;
  }
  return { digits: Number.isFinite(digits) ? digits : 3, lowest };
}

/**
 * Adds `source` into `target` (any layouts), walking every index of the source: not the
 * library's add, whose path for other layouts starts from the source's maxValue field, which
 * drifts (see maxOf). Each count is recorded at its bucket's lowest value, so when `target` is
 * as coarse as `source` (coarsestLayout) it lands in the target bucket that holds the whole
 * source bucket, and reads back as that bucket's top: at or above every value recorded there.
 */
export function addInto(target: Histogram, source: Histogram): void {
  addDecodedInto(target, { version: 2, ...sparseOf(source) });
}

/**
 * A new histogram holding the sum of the given ones (merging is the only honest way to
 * combine). Members of different precisions are merged into the coarsest layout among them
 * (coarsestLayout): a finer member's bucket lies inside one coarse bucket, which reports its
 * top, so no percentile of the sum is below a value any member recorded. (Merging into the
 * finest layout instead would record each coarse bucket at its lowest value: below what the
 * coarse member recorded, by up to its bucket's width.)
 */
export function mergeAll(hs: readonly Histogram[]): Histogram {
  const { digits, lowest } = coarsestLayout(hs);
  const out = newHistogram(digits, lowest);
  for (const h of hs) addInto(out, h);
  return out;
}

/** The highest value equivalent to `value` at the histogram's resolution. */
export function highestEquivalent(h: Histogram, value: number): number {
  return internals(h).highestEquivalentValue(value);
}

/** Length of the histogram's counts array (what it holds in memory, in 8-byte slots). */
export function countsLengthOf(h: Histogram): number {
  return internals(h).countsArrayLength;
}

export function lowestDiscernibleValueOf(h: Histogram): number {
  return internals(h).lowestDiscernibleValue;
}

/** A histogram's non-zero counts by index, with what is needed to add them elsewhere (another worker). */
export interface SparseHistogram {
  numberOfSignificantValueDigits: number;
  lowestDiscernibleValue: number;
  highestTrackableValue: number;
  indices: Int32Array;
  counts: Float64Array;
  totalCount: number;
}

export function sparseOf(h: Histogram): SparseHistogram {
  const js = internals(h);
  const idx: number[] = [];
  const cnt: number[] = [];
  let total = 0;
  // Our float64 histograms' counts read from the array (what getCountAtIndex returns), not by
  // a library call per index: a part of a log read in pieces sends its histogram this way.
  const counts = js._counts instanceof Float64Array ? js._counts : null;
  for (let i = 0; i < js.countsArrayLength; i++) {
    const c = counts !== null ? counts[i]! : js.getCountAtIndex(i);
    if (c > 0) {
      idx.push(i);
      cnt.push(c);
      total += c;
    }
  }
  return {
    numberOfSignificantValueDigits: h.numberOfSignificantValueDigits,
    lowestDiscernibleValue: js.lowestDiscernibleValue,
    highestTrackableValue: h.highestTrackableValue,
    indices: Int32Array.from(idx),
    counts: Float64Array.from(cnt),
    totalCount: total,
  };
}
