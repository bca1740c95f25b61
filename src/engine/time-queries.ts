// Time-resolved queries on the loaded data: each window's values for the requirement in every
// window, and how many values above a threshold each interval holds (the latency heatmap is
// heatmap-query.ts). Windows of several intervals merge their histograms (the store's pre-merged
// blocks when there are any), never average them.
// Percentiles here are read at each log's own precision, as HistogramLogProcessor reads them.
import { highestEquivalent, lowestDiscernibleValueOf, newHistogram, sparseOf, type Histogram } from "../core/histogram";
import { countAtPercentile } from "../core/bucket-lookup";
import { BLOCK_SIZES, grownDense, type Sparse } from "../core/blocks";
import { layoutOf as layoutOfHistogram, percentileOfSparse, totalOf, type Layout } from "./sparse-percentile";
import type { IntervalTable, SeriesModel } from "../core/series";
import { cutWindows, windowOrigin } from "../core/windows";
import { summariseTail, type TailInterval } from "../core/tail";
import { NANOS_PER_UNIT } from "../core/types";
import { addDecodedInto, valueFromIndex, type DecodedHistogram } from "../formats/hlog-encoding";
import { decodePayload } from "./payload";
import type { HeatmapQuery, HeatmapResult, HeatmapSeries, TailQuery, TailSeries, WindowQuery, WindowSeries } from "./query-types";

export { percentileOfSparse };
// The heatmap is a module of its own; importers still find it here.
export { heatmapQuery } from "./heatmap-query";
export type { HeatmapQuery, HeatmapResult, HeatmapSeries, TailQuery, TailSeries, WindowQuery, WindowSeries };

const layoutOf = (s: SeriesModel): Layout => layoutOfHistogram(s.histogram);

/** Decodes interval i (transient: valid until the next decode). */
function decodeInterval(t: IntervalTable, i: number): DecodedHistogram | null {
  const d = decodePayload(t.payload(i));
  return d.ok ? d.value : null;
}

/** Intervals in time order: the table's own order when it is sorted (always, with blocks). */
function timeOrder(t: IntervalTable): Int32Array | null {
  for (let i = 1; i < t.n; i++) {
    if (t.offsets[i]! < t.offsets[i - 1]!) {
      const order = new Int32Array(t.n);
      for (let k = 0; k < t.n; k++) order[k] = k;
      order.sort((a, b) => t.offsets[a]! - t.offsets[b]!);
      return order;
    }
  }
  return null;
}

/**
 * The merged counts of intervals [first, last] (positions in time order), in the series' own
 * layout: whole pre-merged blocks and decoded edges when the series has blocks, else every
 * interval added into a histogram of that layout.
 */
function sumOf(s: SeriesModel, order: Int32Array | null, first: number, last: number): Sparse {
  const t = s.intervals!;
  if (s.blocks && order === null) {
    return s.blocks.sumRange(first, last, (i) => {
      const d = decodeInterval(t, i);
      return d ? { indices: d.indices, counts: d.counts } : null;
    }).sum;
  }
  const h = newHistogram(s.histogram.numberOfSignificantValueDigits, lowestDiscernibleValueOf(s.histogram), s.histogram.highestTrackableValue);
  for (let j = first; j <= last; j++) {
    const d = decodeInterval(t, order ? order[j]! : j);
    if (d) addDecodedInto(h, d);
  }
  const sp = sparseOf(h);
  return { indices: sp.indices, counts: sp.counts };
}

/**
 * One window's merged counts, dense over counts-array indices, with a bitmap of the indices
 * touched: percentiles are read walking the bitmap from the highest index down (a tail
 * percentile stops near the top), and the accumulator is cleared through the list of indices
 * added, not by sweeping the whole span (a window of a day log spans tens of thousands of
 * indices but touches a few hundred).
 */
class WindowAccumulator {
  private dense = new Float64Array(1 << 12);
  private bits = new Int32Array((1 << 12) >> 5);
  private touched = new Int32Array(1 << 12);
  private nTouched = 0;
  private hi = -1;
  total = 0;

  private grow(top: number): void {
    [this.dense, this.bits] = grownDense(this.dense, this.bits, top);
  }

  private clear(): void {
    const { dense, bits, touched } = this;
    for (let k = 0; k < this.nTouched; k++) {
      const i = touched[k]!;
      dense[i] = 0;
      bits[i >> 5] = 0;
    }
    this.nTouched = 0;
    this.hi = -1;
    this.total = 0;
  }

  /**
   * Adds intervals [first, last] (positions in time order). False, leaving nothing added,
   * when one of them is in another layout than the series' (the caller sums those the
   * general way, which converts them).
   */
  sum(s: SeriesModel, order: Int32Array | null, first: number, last: number, layout: Layout): boolean {
    this.clear();
    const t = s.intervals!;
    for (let j = first; j <= last; j++) {
      const d = decodeInterval(t, order ? order[j]! : j);
      if (!d) continue;
      if (d.lowestDiscernibleValue !== layout.lowest || d.numberOfSignificantValueDigits !== layout.digits) {
        this.clear();
        return false;
      }
      const n = d.indices.length;
      if (n === 0) continue;
      const top = d.indices[n - 1]!;
      if (top >= this.dense.length) this.grow(top);
      if (this.nTouched + n > this.touched.length) {
        const g = new Int32Array(Math.max(this.touched.length * 2, this.nTouched + n));
        g.set(this.touched.subarray(0, this.nTouched));
        this.touched = g;
      }
      const { dense, bits, touched } = this;
      let m = this.nTouched;
      let total = this.total;
      for (let k = 0; k < n; k++) {
        const i = d.indices[k]!;
        const c = d.counts[k]!;
        dense[i]! += c;
        bits[i >> 5]! |= 1 << (i & 31);
        touched[m++] = i;
        total += c;
      }
      this.nTouched = m;
      this.total = total;
      if (top > this.hi) this.hi = top;
    }
    return true;
  }

  /**
   * Writes the value at each percentile into out[p][k], as percentileOfSparse reads it: the
   * highest equivalent value of the bucket holding the value of rank countAtPercentile(total, p)
   * (from the bottom), found here counting from the top; 0 without values.
   */
  percentiles(ps: readonly number[], layout: Layout, out: Float64Array[], k: number): void {
    const total = this.total;
    // The bucket holding rank r from the bottom is the highest one with more than total − r
    // values at or above it (exact for any counts, whole or not).
    const over = ps.map((p) => (p >= 100 ? 0 : total - countAtPercentile(total, p)));
    const idx = ps.map(() => -1);
    let deepest = 0;
    for (const x of over) deepest = Math.max(deepest, x);
    let lowestSeen = -1;
    let above = 0;
    const { dense, bits } = this;
    if (total > 0 && this.hi >= 0) {
      walk: for (let w = this.hi >> 5; w >= 0; w--) {
        let word = bits[w]!;
        while (word !== 0) {
          const b = 31 - Math.clz32(word);
          word &= ~(1 << b);
          const i = (w << 5) | b;
          const c = dense[i]!;
          if (c === 0) continue;
          lowestSeen = i;
          above += c;
          for (let q = 0; q < over.length; q++) if (idx[q]! < 0 && above > over[q]!) idx[q] = i;
          if (above > deepest) break walk;
        }
      }
    }
    for (let q = 0; q < ps.length; q++) {
      // Every rank is reached by the bottom (countAtPercentile is at least 1); -1 only without values.
      const i = idx[q]! >= 0 ? idx[q]! : lowestSeen;
      out[q]![k] = total > 0 && i >= 0 ? highestEquivalent(layout.histogram, valueFromIndex(i, layout.lowest, layout.digits)) : 0;
    }
  }
}

const windowAcc = new WindowAccumulator();

// ---------------------------------------------------------------------------------------------
// Windows

/** Every series with intervals, cut into windows, with each window's count and values. */
export function windowQuery(series: readonly SeriesModel[], q: WindowQuery): WindowSeries[] {
  const out: WindowSeries[] = [];
  if (!(q.length > 0)) return out;
  for (const s of series) {
    const t = s.intervals;
    if (!t || t.n === 0) continue;
    const order = timeOrder(t);
    const starts = order ? Float64Array.from(order, (i) => t.offsets[i]!) : t.offsets;
    const origin = windowOrigin(q.length, s.startTime, q.wallClock);
    const spans = cutWindows(starts, t.n, q.length, origin);
    let runStart = Infinity;
    let runEnd = -Infinity;
    for (let i = 0; i < t.n; i++) {
      runStart = Math.min(runStart, t.offsets[i]!);
      runEnd = Math.max(runEnd, t.offsets[i]! + t.lengths[i]!);
    }
    const n = spans.length;
    const r: WindowSeries = {
      id: s.id,
      recordedUnit: s.recordedUnit,
      startTime: s.startTime,
      start: new Float64Array(n),
      end: new Float64Array(n),
      count: new Float64Array(n),
      covered: new Float64Array(n),
      values: {},
    };
    for (const p of q.percentiles) r.values[String(p)] = new Float64Array(n);
    const layout = layoutOf(s);
    const columns = q.percentiles.map((p) => r.values[String(p)]!);
    const wide = BLOCK_SIZES[0] * 2;
    spans.forEach((w, k) => {
      r.start[k] = w.start;
      r.end[k] = w.end;
      r.covered[k] = Math.max(0, Math.min(w.end, runEnd) - Math.max(w.start, runStart));
      if (w.first > w.last) return;
      // Short windows (most of a day's 10 s windows hold no whole block): each interval decoded
      // once and added into a dense accumulator, read from the top down. Long ones, or intervals
      // in another layout than the series': pre-merged blocks and decoded edges.
      const viaBlocks = !!s.blocks && order === null && w.last - w.first + 1 >= wide;
      if (!viaBlocks && windowAcc.sum(s, order, w.first, w.last, layout)) {
        r.count[k] = windowAcc.total;
        windowAcc.percentiles(q.percentiles, layout, columns, k);
        return;
      }
      const sum = sumOf(s, order, w.first, w.last);
      const total = totalOf(sum);
      r.count[k] = total;
      for (const p of q.percentiles) r.values[String(p)]![k] = percentileOfSparse(sum, p, layout, total);
    });
    out.push(r);
  }
  return out;
}

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
    const decodeOne = (i: number) => {
      const d = decodeInterval(t, i);
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
