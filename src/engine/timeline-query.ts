// Max and percentiles over time: per pixel column, the max of the intervals' maxes and the
// percentiles of their merged histogram (never averaged percentiles).
import { valueAtPercentile } from "../core/histogram";
import { BLOCK_SIZES } from "../core/blocks";
import { layoutOf, percentileOfSparse, totalOf } from "./sparse-percentile";
import type { IntervalTable, SeriesModel } from "../core/series";
import { bucketIntervals, snapToBlocks, type Bucket } from "../core/timeline-buckets";
import { addDecodedInto } from "../formats/hlog-encoding";
import { intervalsOf } from "./intervals";
import { originOf, zeroColumns } from "./answer-columns";
import { sameShape } from "./window-query";
import type { TimelineQuery, TimelineResult, TimelineSeries } from "./protocol";
import type { Sparse } from "../core/blocks";
import type { IntervalSource } from "./intervals";
import type { Layout } from "./sparse-percentile";

/** A shared series' coarse max-over-time as timeline buckets (no percentiles: they were not shared). */
function coarseSeries(s: SeriesModel, c: { t0: number; t1: number; max: number[] }, t0: number, t1: number, percentiles: readonly number[]): TimelineSeries {
  const w = (c.t1 - c.t0) / Math.max(1, c.max.length);
  const keep = c.max.map((m, k) => ({ m, a: c.t0 + k * w })).filter((b) => Number.isFinite(b.m) && b.a + w >= t0 && b.a <= t1);
  const r: TimelineSeries = {
    ...originOf(s),
    t0: Float64Array.from(keep, (b) => b.a),
    t1: Float64Array.from(keep, (b) => b.a + w),
    max: Float64Array.from(keep, (b) => b.m),
    count: new Float64Array(keep.length),
    percentiles: {},
  };
  for (const p of percentiles) r.percentiles[String(p)] = new Float64Array(keep.length);
  return r;
}

/** Max per equal-width bucket over [t0, t1] (NaN where no interval starts): what a link carries. */
export function coarseOf(s: SeriesModel, buckets: number): { t0: number; t1: number; max: number[] } | null {
  if (s.coarseTimeline) return s.coarseTimeline;
  const t = s.intervals;
  if (!t || t.n === 0) return null;
  let t0 = Infinity;
  let t1 = -Infinity;
  for (let i = 0; i < t.n; i++) {
    t0 = Math.min(t0, t.offsets[i]!);
    t1 = Math.max(t1, t.offsets[i]! + t.lengths[i]!);
  }
  const n = Math.max(1, Math.min(buckets, t.n));
  const max = new Array<number>(n).fill(Number.NaN);
  const w = (t1 - t0) / n || 1;
  for (let i = 0; i < t.n; i++) {
    const k = Math.min(n - 1, Math.floor((t.offsets[i]! - t0) / w));
    max[k] = Number.isNaN(max[k]!) ? t.maxes[i]! : Math.max(max[k]!, t.maxes[i]!);
  }
  return { t0, t1, max };
}

function maxLength(t: IntervalTable): number {
  let m = 0;
  for (let i = 0; i < t.n; i++) m = Math.max(m, t.lengths[i]!);
  return m;
}

/**
 * From the first interval's start to the last one's end over every series with intervals
 * (seconds since StartTime), or null when none has any: the timeline's extent.
 */
export function extentOf(series: readonly SeriesModel[]): [number, number] | null {
  let first = Infinity;
  let last = -Infinity;
  for (const s of series) {
    const t = s.intervals;
    if (s.coarseTimeline && !t) {
      first = Math.min(first, s.coarseTimeline.t0);
      last = Math.max(last, s.coarseTimeline.t1);
    }
    if (!t) continue;
    for (let i = 0; i < t.n; i++) {
      first = Math.min(first, t.offsets[i]!);
      last = Math.max(last, t.offsets[i]! + t.lengths[i]!);
    }
  }
  return Number.isFinite(first) ? [first, last] : null;
}

/**
 * The timeline of every series with intervals over [t0, t1], at most `columns` buckets each.
 * A bucket of one interval reports that interval; a bucket of several reports the max of
 * their maxes and the percentiles of their merged histogram.
 */
export function timelineQuery(series: readonly SeriesModel[], q: TimelineQuery): TimelineResult {
  const extent = extentOf(series);
  if (!extent) return { extent: [0, 1], domain: [0, 1], series: [] };
  const [first, last] = extent;
  const t0 = q.t0 ?? first;
  const t1 = Math.max(q.t1 ?? last, t0 + 1e-3);
  const out: TimelineSeries[] = [];
  // Series whose columns span the same times (a fleet asked over one range) share one array of
  // each: the page receives it once, not a copy per series.
  const times: Float64Array[] = [];
  for (const s of series) {
    const t = s.intervals;
    if (!t && s.coarseTimeline) {
      out.push(coarseSeries(s, s.coarseTimeline, t0, t1, q.percentiles));
      continue;
    }
    if (!t || t.n === 0) continue;
    const r = seriesTimeline(s, t, t0, t1, q);
    r.t0 = shared(times, r.t0);
    r.t1 = shared(times, r.t1);
    out.push(r);
  }
  return { extent: [first, last], domain: [t0, t1], series: out };
}

// Module-level functions and loops here, not closures made per query: V8 drops the optimised code
// of short-lived closures at every major collection.
function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (b.length !== a.length) return false;
  for (let i = 0; i < a.length; i++) if (b[i] !== a[i]) return false;
  return true;
}

/** `a`, or an array of the same values among `times` (the 8 last different ones kept, the newest first). */
function shared(times: Float64Array[], a: Float64Array): Float64Array {
  for (const b of times) if (sameValues(a, b)) return b;
  times.unshift(a);
  if (times.length > 8) times.pop();
  return a;
}

const positive = (p: number): boolean => p > 0;

/** What a column's percentiles are read from and written to (seriesTimeline's). */
interface ColumnOf {
  s: SeriesModel;
  src: IntervalSource;
  order: Int32Array;
  q: TimelineQuery;
  r: TimelineSeries;
  layout: Layout;
  sparsePercentiles: boolean;
}

function seriesTimeline(s: SeriesModel, t: IntervalTable, t0: number, t1: number, q: TimelineQuery): TimelineSeries {
  const src = intervalsOf(s);
  // A bucket holds the intervals that start in it; include the one straddling t0.
  const grouped = bucketIntervals(t, t0 - maxLength(t), t1, q.columns);
  const order = grouped.order;
  let buckets = grouped.buckets;
  // Columns of many intervals are moved onto block boundaries: a column's merged histogram
  // is then whole pre-merged blocks (percentile lines on a 24-hour log took over a second
  // per query when every column decoded its intervals).
  if (src.hasBlocks && buckets.length > 1 && (buckets[buckets.length - 1]!.first + buckets[buckets.length - 1]!.count - buckets[0]!.first) / buckets.length >= BLOCK_SIZES[0]) {
    buckets = snapToBlocks(t, buckets, BLOCK_SIZES[0]);
  }
  const n = buckets.length;
  const r: TimelineSeries = { ...originOf(s), ...zeroColumns(n, ["t0", "t1", "max", "count"]), percentiles: {} };
  for (const p of q.percentiles) r.percentiles[String(p)] = new Float64Array(n);
  const layout = layoutOf(s.histogram);
  // percentileOfSparse reads 0 < p ≤ 100 (p0 is the bucket's low end, as the histogram reads it).
  const sparsePercentiles = q.percentiles.every(positive);
  const known = keptColumns(s, t, order, layout, q.percentiles);
  const kept = new Map<string, number[]>();
  const c: ColumnOf = { s, src, order, q, r, layout, sparsePercentiles };
  for (let k = 0; k < buckets.length; k++) {
    const b = buckets[k]!;
    r.t0[k] = b.t0;
    r.t1[k] = b.t1;
    r.max[k] = b.max;
    let count = 0;
    for (let j = b.first; j < b.first + b.count; j++) count += t.counts[order[j]!]!;
    r.count[k] = count;
    if (q.percentiles.length === 0) continue;
    const key = `${b.first}:${b.count}`;
    const was = known?.get(key);
    if (was) {
      for (let i = 0; i < q.percentiles.length; i++) r.percentiles[String(q.percentiles[i]!)]![k] = was[i]!;
      kept.set(key, was);
      continue;
    }
    column(c, b, k);
    if (!known) continue;
    const values: number[] = [];
    for (const p of q.percentiles) values.push(r.percentiles[String(p)]![k]!);
    kept.set(key, values);
  }
  if (known) columnsKept.set(s, { table: t, n: t.n, layout: layoutKey(layout), percentiles: q.percentiles.join(","), columns: kept });
  return r;
}

function column({ s, src, order, q, r, layout, sparsePercentiles }: ColumnOf, b: Bucket, k: number): void {
  if (src.hasBlocks) {
    // Sorted table: order is the identity and a bucket is a contiguous index range.
    // Percentiles straight off the block sum, valuing only the bucket each one lands in
    // (a histogram per column, allocated and walked from index 0, cost more than the sum).
    const sum = src.sum(b.first, b.first + b.count - 1);
    const total = totalOf(sum);
    for (const p of q.percentiles) r.percentiles[String(p)]![k] = percentileOfSparse(sum, p, layout, total);
    return;
  }
  // The column's intervals added as sparse counts (a fleet's merge has millions of rows and
  // a column of one or two: a histogram of the series' width per column cost seconds).
  const sum = sparsePercentiles ? columnSum(src, order, b.first, b.count, layout) : null;
  if (sum !== null) {
    const total = totalOf(sum);
    for (const p of q.percentiles) r.percentiles[String(p)]![k] = percentileOfSparse(sum, p, layout, total);
    return;
  }
  const h = sameShape(s.histogram);
  for (let j = b.first; j < b.first + b.count; j++) {
    const d = src.decoded(order[j]!);
    if (d) addDecodedInto(h, d);
  }
  for (const p of q.percentiles) r.percentiles[String(p)]![k] = valueAtPercentile(h, p);
}

/**
 * A series' column percentiles from its last timeline, by the intervals each column holds. A
 * table only grows (a run followed live appends to it) and its intervals never change, so a
 * column of the same intervals has the same percentiles: after an append only the columns
 * whose intervals changed are computed again. Kept while the series has the same table, layout
 * and percentiles asked, and only for a table in time order (a column is then an index range).
 */
interface KeptColumns {
  table: IntervalTable;
  n: number;
  layout: string;
  percentiles: string;
  /** By "first:count": the percentiles, in the order asked. */
  columns: Map<string, number[]>;
}
const columnsKept = new WeakMap<SeriesModel, KeptColumns>();

const layoutKey = (l: Layout) => `${l.lowest}:${l.digits}`;

/** The columns kept for this series' table as it is now, or null when nothing may be kept (out of time order). */
function keptColumns(s: SeriesModel, t: IntervalTable, order: Int32Array, layout: Layout, percentiles: readonly number[]): Map<string, number[]> | null {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return null;
  const k = columnsKept.get(s);
  if (!k || k.table !== t || t.n < k.n || k.layout !== layoutKey(layout) || k.percentiles !== percentiles.join(",")) return new Map();
  return k.columns;
}

/** Dense counts of one column being added, and the indices touched (cleared after each column). */
let columnCounts = new Float64Array(4096);
let touched = new Int32Array(256);

/**
 * The sum of a column's intervals as sparse counts in the series' layout, or null when one is
 * recorded in another layout (a merge of several: the histogram path converts it).
 */
function columnSum(src: IntervalSource, order: ArrayLike<number>, first: number, count: number, layout: Layout): Sparse | null {
  let m = 0;
  let ok = true;
  for (let j = first; j < first + count && ok; j++) {
    const d = src.decoded(order[j]!);
    if (!d) continue;
    if (d.numberOfSignificantValueDigits !== layout.digits || d.lowestDiscernibleValue !== layout.lowest) {
      ok = false;
      break;
    }
    const { indices, counts } = d;
    for (let e = 0; e < indices.length; e++) {
      const i = indices[e]!;
      if (i >= columnCounts.length) {
        const g = new Float64Array(Math.max(i + 1, columnCounts.length * 2));
        g.set(columnCounts);
        columnCounts = g;
      }
      if (columnCounts[i] === 0) {
        if (m === touched.length) {
          const g = new Int32Array(m * 2);
          g.set(touched);
          touched = g;
        }
        touched[m++] = i;
      }
      columnCounts[i]! += counts[e]!;
    }
  }
  const at = touched.subarray(0, m).sort();
  const sum = { indices: Int32Array.from(at), counts: Float64Array.from(at, (i) => columnCounts[i]!) };
  for (let e = 0; e < m; e++) columnCounts[at[e]!] = 0;
  return ok ? sum : null;
}
