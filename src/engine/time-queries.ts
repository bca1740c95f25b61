// Time-resolved queries on the loaded data: how many values above a threshold each interval
// holds. The latency heatmap is heatmap-query.ts, each window's values for the requirement
// window-values.ts; both are re-exported here for importers.
// Percentiles here are read at each log's own precision, as HistogramLogProcessor reads them.
import { sparseOf, type Histogram } from "../core/histogram";
import { layoutOf as layoutOfHistogram, percentileOfSparse, type Layout } from "./sparse-percentile";
import type { SeriesModel } from "../core/series";
import { summariseTail, type TailInterval } from "../core/tail";
import { NANOS_PER_UNIT } from "../core/types";
import { valueFromIndex } from "../formats/hlog-encoding";
import { intervalsOf } from "./intervals";
import type { HeatmapQuery, HeatmapResult, HeatmapSeries, TailQuery, TailSeries, WindowQuery, WindowSeries } from "./query-types";

export { percentileOfSparse };
export { windowQuery } from "./window-values";
export { heatmapQuery } from "./heatmap-query";
export type { HeatmapQuery, HeatmapResult, HeatmapSeries, TailQuery, TailSeries, WindowQuery, WindowSeries };

const layoutOf = (s: SeriesModel): Layout => layoutOfHistogram(s.histogram);

// ---------------------------------------------------------------------------------------------
// Tail

/** Values of a decoded interval whose bucket lies wholly above `threshold` (recorded unit). */
function aboveIn(indices: ArrayLike<number>, counts: ArrayLike<number>, lowest: number, digits: number, threshold: number): number {
  let n = 0;
  // Indices ascend, and so do their lowest equivalent values: walk down from the top.
  for (let k = indices.length - 1; k >= 0; k--) {
    if (!(valueFromIndex(indices[k]!, lowest, digits) > threshold)) break;
    n += counts[k]!;
  }
  return n;
}

/**
 * Per series with intervals: how many values lie above the threshold (a value counts when its
 * bucket's lowest equivalent value is above it) in each interval. Intervals whose max is not
 * above the threshold hold none and are not decoded.
 */
export function tailQuery(series: readonly SeriesModel[], q: TailQuery): TailSeries[] {
  const out: TailSeries[] = [];
  for (const s of series) {
    const t = s.intervals;
    if (!t || t.n === 0) continue;
    const threshold = q.thresholdNs / NANOS_PER_UNIT[s.recordedUnit];
    const layout = layoutOf(s);
    const counts = new Float64Array(t.n);
    const src = intervalsOf(s);
    const decodeOne = (i: number) => {
      const d = src.decoded(i);
      if (d) counts[i] = aboveIn(d.indices, d.counts, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits, threshold);
    };
    const whole = aboveIn(...sparseArgs(s.histogram), layout.lowest, layout.digits, threshold);
    if (whole > 0) {
      // An interval's max (the highest equivalent value of its top bucket's lowest value) at or
      // below the threshold means its top bucket, and so every bucket, is not wholly above it:
      // only the intervals whose max is above are decoded. NaN (unknown) is decoded too.
      for (let i = 0; i < t.n; i++) if (!(t.maxes[i]! <= threshold)) decodeOne(i);
    }
    const intervals: TailInterval[] = [];
    for (let i = 0; i < t.n; i++) if (counts[i]! > 0) intervals.push({ index: i, start: t.offsets[i]!, end: t.offsets[i]! + t.lengths[i]!, above: counts[i]! });
    const summary = summariseTail(intervals, q.keep);
    const marked =
      intervals.length > q.maxMarks
        ? [...intervals]
            .sort((a, b) => b.above - a.above)
            .slice(0, q.maxMarks)
            .sort((a, b) => a.start - b.start)
        : intervals;
    out.push({
      id: s.id,
      recordedUnit: s.recordedUnit,
      startTime: s.startTime,
      above: summary.above,
      intervalsWithAny: summary.intervalsWithAny,
      top: summary.top,
      named: summary.named,
      share: summary.share,
      marks: {
        start: Float64Array.from(marked, (m) => m.start),
        end: Float64Array.from(marked, (m) => m.end),
        above: Float64Array.from(marked, (m) => m.above),
      },
    });
  }
  return out;
}

function sparseArgs(h: Histogram): [Int32Array, Float64Array] {
  const sp = sparseOf(h);
  return [sp.indices, sp.counts];
}
