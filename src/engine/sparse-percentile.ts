// Percentiles of merged sparse counts, read as HdrHistogram reads them, without building a
// histogram: the timeline's columns, the heatmap's and the windows' use it.
import { countAtPercentile } from "../core/bucket-lookup";
import type { Sparse } from "../core/blocks";
import { highestEquivalent, lowestDiscernibleValueOf, type Histogram } from "../core/histogram";
import { valueFromIndex } from "../formats/hlog-encoding";

/** A series' layout: what turns a counts-array index into a value. */
export interface Layout {
  lowest: number;
  digits: number;
  histogram: Histogram;
}

export function layoutOf(h: Histogram): Layout {
  return { lowest: lowestDiscernibleValueOf(h), digits: h.numberOfSignificantValueDigits, histogram: h };
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
  return highestEquivalent(layout.histogram, valueFromIndex(sum.indices[k]!, layout.lowest, layout.digits));
}
