// Percentiles of merged sparse counts, read as HdrHistogram reads them, without building a
// histogram: the timeline's columns, the heatmap's and the windows' use it.
import { countAtPercentile } from "../core/bucket-lookup";
import type { Sparse } from "../core/blocks";
import { lowestDiscernibleValueOf, type Histogram } from "../core/histogram";
import { subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../core/counts-layout";

/** A series' layout: what turns a counts-array index into a value. */
export interface Layout {
  readonly lowest: number;
  readonly digits: number;
  readonly histogram: Histogram;
  readonly unit: number;
  readonly half: number;
}

export function layoutOf(h: Histogram): Layout {
  const lowest = lowestDiscernibleValueOf(h);
  const digits = h.numberOfSignificantValueDigits;
  return { lowest, digits, histogram: h, unit: unitMagnitudeOf(lowest), half: subBucketCountMagnitude(digits) - 1 };
}

/**
 * The highest value equivalent to index i's bucket (highestEquivalent of its value), from the
 * layout's arithmetic: the next index's value less one. Read without the histogram, which a
 * series kept as its counts would make again (core/lazy-histogram.ts).
 */
export function highestAtIndex(layout: Layout, i: number): number {
  return valueAtIndex(i + 1, layout.unit, layout.half) - 1;
}

export function totalOf(sum: Sparse): number {
  let n = 0;
  for (let k = 0; k < sum.counts.length; k++) n += sum.counts[k]!;
  return n;
}

/**
 * HdrHistogram's getValueAtPercentile on merged counts, at the log's own precision: the
 * highest value equivalent to the first bucket whose cumulative count reaches the percentile's
 * count; 100 gives the max (the highest equivalent value of the last bucket). 0 without values.
 * For 0 < p ≤ 100 (Java takes p0 at the bucket's low end).
 */
export function percentileOfSparse(sum: Sparse, p: number, layout: Layout, total = totalOf(sum)): number {
  const n = sum.indices.length;
  if (n === 0 || total === 0) return 0;
  let k = n - 1;
  if (p < 100) {
    const target = countAtPercentile(total, p);
    let run = 0;
    for (k = 0; k < n - 1; k++) {
      run += sum.counts[k]!;
      if (run >= target) break;
    }
  }
  return highestAtIndex(layout, sum.indices[k]!);
}
