// Merging series: a sum of histograms, never an average. The page's "merge selected" (Store.merge)
// and the command line's `--merge` of many files (merged in batches, shares of them on helper
// threads) both add through here.
import type { LoadProblem, Unit } from "../core/types";
import { addInto, coarsestLayout, lowestDiscernibleValueOf, newHistogram, type Histogram, type SparseHistogram } from "../core/histogram";
import type { TimeRange } from "./protocol";
import { forEachRead } from "../core/lazy-histogram";

/**
 * Adds `parts` into `into` (null: into a new histogram) and returns the histogram that holds the
 * sum. The one layout rule of every merge: into the coarsest layout among them all
 * (coarsestLayout), never below what any part recorded; a finer part's bucket lies inside one
 * coarse bucket, which reports its top. When `into` is finer than that, a new histogram in
 * that layout takes its counts first, so merging a stream of batches one at a time ends where
 * merging them all at once does.
 */
export function mergeHistograms(parts: readonly Histogram[], into: Histogram | null = null): Histogram {
  const all = into ? [into, ...parts] : parts;
  const { digits, lowest } = coarsestLayout(all);
  let target = into;
  if (!target || !inLayout(target, digits, lowest)) {
    target = newHistogram(digits, lowest, Math.max(...all.map((h) => h.highestTrackableValue)));
    if (into) addInto(target, into);
  }
  const sum = target;
  // A part kept as its counts is read through one scratch histogram per layout (lazy-histogram.ts).
  forEachRead(parts, (h, counts) => {
    // One layout: counts add by index (fast, and what the library's add gives); else each at its value.
    if (inLayout(h, sum.numberOfSignificantValueDigits, lowestDiscernibleValueOf(sum))) {
      if (counts === null || !addCountsAsLibrary(sum, h, counts)) addHistogram(sum, h);
    } else addInto(sum, h);
  });
  return target;
}

/** Whether `h` has the layout of `digits` and `lowest` (the same buckets: its lowest value's power of two). */
function inLayout(h: Histogram, digits: number, lowest: number): boolean {
  return h.numberOfSignificantValueDigits === digits && Math.floor(Math.log2(lowestDiscernibleValueOf(h))) === Math.floor(Math.log2(lowest));
}

export type SeriesKind = "response" | "service" | "";

/** What a merged group of files is, and the layout its counts are in: the same on every thread. */
export interface GroupFields {
  name: string;
  config: string;
  throughput: number | null;
  kind: SeriesKind;
  tag: string;
  unit: Unit;
  /** The layout the group's histogram is in. */
  digits: number;
  lowest: number;
  highest: number;
  /** Whether every file added had that layout (then its counts add by index, in any order). */
  uniform: boolean;
  files: number;
  startTime: number | null;
}

/** A group as another thread sends it: its histogram as sparse counts. */
export interface SentGroup extends GroupFields {
  key: string;
  counts: SparseHistogram;
  sources: string[];
  firstSource: string;
  starts: Float64Array;
  ends: Float64Array;
  maxes: Float64Array;
}

/**
 * A share of the files merged on one thread. `sequential` when it must be merged again in
 * order on the main thread to give exactly what one thread gives (files of one series that
 * cannot be merged, or of different layouts).
 */
export interface MergedShare {
  groups: SentGroup[];
  problems: LoadProblem[];
  sequential: boolean;
}

/** Threads that merge a share of the files each (the command line's helper threads). */
export interface MergeHelpers {
  readonly count: number;
  merge(helper: number, paths: readonly string[], range: TimeRange): Promise<MergedShare>;
}

/** The parts of hdr-histogram-js's JsHistogram (3.x) that addHistogram reads and writes. */
interface JsInternals {
  _counts?: unknown;
  autoResize: boolean;
  maxValue: number;
  countsArrayLength: number;
  bucketCount: number;
  subBucketCount: number;
  unitMagnitude: number;
  subBucketHalfCountMagnitude: number;
  startTimeStampMsec: number;
  endTimeStampMsec: number;
  highestEquivalentValue(v: number): number;
  valueFromIndex(i: number): number;
  countsArrayIndex(v: number): number;
  getCountAtIndex(i: number): number;
  addToCountAtIndex(i: number, c: number): void;
  handleRecordException(c: number, v: number): void;
  updateMinAndMax(v: number): void;
  addToTotalCount(c: number): void;
  setTotalCount(c: number): void;
  updatedMaxValue(v: number): void;
  updateMinNonZeroValue(v: number): void;
  resize(v: number): void;
  add(other: unknown): void;
}

/**
 * target.add(source) where the library adds index by index (one layout, counts arrays of one
 * length), from `counts`, the source's non-zero counts: what the library does, step for step,
 * without its walk over every index of the source. False (nothing added) on any other path.
 */
function addCountsAsLibrary(target: Histogram, source: Histogram, counts: SparseHistogram): boolean {
  const t = target as unknown as JsInternals;
  const o = source as unknown as JsInternals;
  if (!(t._counts instanceof Float64Array) || !(o._counts instanceof Float64Array)) return false;
  const highestRecordableValue = t.highestEquivalentValue(t.valueFromIndex(t.countsArrayLength - 1));
  if (highestRecordableValue < o.maxValue) {
    if (!t.autoResize) return false;
    t.resize(o.maxValue);
  }
  if (t.bucketCount !== o.bucketCount || t.subBucketCount !== o.subBucketCount || t.unitMagnitude !== o.unitMagnitude) return false;
  let observed = 0;
  for (let k = 0; k < counts.indices.length; k++) {
    const c = counts.counts[k]!;
    if (c > 0) {
      t.addToCountAtIndex(counts.indices[k]!, c);
      observed += c;
    }
  }
  t.setTotalCount(target.totalCount + observed);
  t.updatedMaxValue(Math.max(t.maxValue, o.maxValue));
  t.updateMinNonZeroValue(Math.min(target.minNonZeroValue, source.minNonZeroValue));
  t.startTimeStampMsec = Math.min(t.startTimeStampMsec, o.startTimeStampMsec);
  t.endTimeStampMsec = Math.max(t.endTimeStampMsec, o.endTimeStampMsec);
  return true;
}

/**
 * target.add(source), hdr-histogram-js's own add, step for step. Its path for counts arrays of
 * different lengths records each count at its value, finding the value's index again; when both
 * have one layout (unit magnitude and sub-bucket count) that index is the source's own, and
 * finding it was most of the time of merging thousands of small logs (profiled).
 */
export function addHistogram(target: Histogram, source: Histogram): void {
  const t = target as unknown as JsInternals;
  const o = source as unknown as JsInternals;
  if (
    !(t._counts instanceof Float64Array) ||
    !(o._counts instanceof Float64Array) ||
    t.unitMagnitude !== o.unitMagnitude ||
    t.subBucketHalfCountMagnitude !== o.subBucketHalfCountMagnitude ||
    t.subBucketCount !== o.subBucketCount ||
    t.bucketCount === o.bucketCount
  ) {
    target.add(source);
    return;
  }
  const highestRecordableValue = t.highestEquivalentValue(t.valueFromIndex(t.countsArrayLength - 1));
  if (highestRecordableValue < o.maxValue) {
    if (!t.autoResize) throw new Error("The other histogram includes values that do not fit in this histogram's range.");
    t.resize(o.maxValue);
  }
  if (t.bucketCount === o.bucketCount) {
    // Grown to the same length: the library's own path by index.
    target.add(source);
    return;
  }
  const record = (count: number, index: number) => {
    const value = o.valueFromIndex(index);
    if (index >= t.countsArrayLength) t.handleRecordException(count, value);
    else t.addToCountAtIndex(index, count);
    t.updateMinAndMax(value);
    t.addToTotalCount(count);
  };
  const otherMaxIndex = o.countsArrayIndex(o.maxValue);
  record(o.getCountAtIndex(otherMaxIndex), otherMaxIndex);
  for (let i = 0; i < otherMaxIndex; i++) {
    const c = o.getCountAtIndex(i);
    if (c > 0) record(c, i);
  }
  t.startTimeStampMsec = Math.min(t.startTimeStampMsec, o.startTimeStampMsec);
  t.endTimeStampMsec = Math.max(t.endTimeStampMsec, o.endTimeStampMsec);
}
