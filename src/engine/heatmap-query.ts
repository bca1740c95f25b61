// The latency heatmap: per pixel column, the merged histogram of the intervals in it, counted
// by row of a log latency axis. Columns of many intervals are whole pre-merged blocks, whose rows
// are computed once and kept (by the table's interval source, which lets them go when the table
// grows or its series goes), so zooming and panning add short row lists. Kept apart from the
// window and tail queries (time-queries.ts) so each file stays one subject.
import { highestEquivalent, sparseOf } from "../core/histogram";
import { BLOCK_SIZES, indexRange } from "../core/blocks";
import { layoutOf as layoutOfHistogram, type Layout } from "./sparse-percentile";
import type { IntervalTable, SeriesModel } from "../core/series";
import { bucketIntervals } from "../core/timeline-buckets";
import { valueFromIndex } from "../formats/hlog-encoding";
import { intervalsOf, type IntervalSource } from "./intervals";
import { originOf, zeroColumns } from "./answer-columns";
import type { HeatmapQuery, HeatmapResult, HeatmapSeries } from "./query-types";

export type { HeatmapQuery, HeatmapResult, HeatmapSeries };

const layoutOf = (s: SeriesModel): Layout => layoutOfHistogram(s.histogram);

/**
 * A series' latency axis: the row of each counts-array index, and `spread[r]`, how many rows the
 * buckets whose counts land in row r cover (0 for a row no bucket starts in).
 */
interface Axis {
  lo: number;
  hi: number;
  rows: number;
  rowOf: Int16Array;
  spread: Int16Array;
  /** ends[r]: the first counts-array index in a later row than r (rows never decrease with the index). */
  ends: Int32Array;
}

/** A series' latency axis, kept by its interval source for the last number of rows asked. */
function axisOf(s: SeriesModel, rows: number): Axis {
  const kept = intervalsOf(s).cached("heatmap-axis", (): { axis: Axis | null } => ({ axis: null }));
  const cached = kept.axis;
  if (cached && cached.rows === rows) return cached;
  const layout = layoutOf(s);
  const sp = sparseOf(s.histogram);
  const n = sp.indices.length;
  let lo = 1;
  let hi = 10;
  if (n > 0) {
    const firstNonZero = sp.indices[0]! === 0 && n > 1 ? sp.indices[1]! : sp.indices[0]!;
    lo = Math.max(layout.lowest, valueFromIndex(firstNonZero, layout.lowest, layout.digits), 1);
    hi = highestEquivalent(s.histogram, valueFromIndex(sp.indices[n - 1]!, layout.lowest, layout.digits)) + 1;
    if (hi <= lo * 1.01) hi = lo * 10;
  }
  const top = n > 0 ? sp.indices[n - 1]! : 0;
  const rowOf = new Int16Array(top + 1);
  const span = Math.log(hi / lo);
  for (let i = 0; i <= top; i++) {
    const v = valueFromIndex(i, layout.lowest, layout.digits);
    const r = v <= lo ? 0 : Math.floor((rows * Math.log(v / lo)) / span);
    rowOf[i] = Math.min(rows - 1, Math.max(0, r));
  }
  // Near the axis' low end a bucket can be wider than a row (unit-wide buckets on a log axis):
  // its count lands in its first row and the rows above it, which no bucket starts in, would be
  // drawn empty, in stripes. Such a bucket's count is spread evenly over every row it covers
  // (up to the next row a bucket starts in; the top bucket up to the axis' end, hi).
  const spread = new Int16Array(rows);
  const starts = new Uint8Array(rows);
  if (n > 0) for (let i = 0; i <= top; i++) starts[rowOf[i]!] = 1;
  for (let r = 0; r < rows;) {
    let next = r + 1;
    while (next < rows && !starts[next]) next++;
    if (starts[r]) spread[r] = next - r;
    r = next;
  }
  const axis = { lo, hi, rows, rowOf, spread, ends: rowEnds(rowOf, rows) };
  kept.axis = axis;
  return axis;
}

/**
 * For rows that never decrease with the index (`rowOf`, over the indices of a table): the first
 * index of a later row than r, for each row r that an index of the table is in; an index past
 * the table is in the last row, so the table's top row ends where the table does.
 */
export function rowEnds(rowOf: Int16Array, rows: number): Int32Array {
  const ends = new Int32Array(rows).fill(0x7fffffff);
  const top = rowOf.length - 1;
  for (let i = top; i >= 1; i--) if (rowOf[i - 1]! < rowOf[i]!) ends[rowOf[i - 1]!] = i;
  if (top >= 0 && rowOf[top]! < rows - 1) ends[rowOf[top]!] = top + 1;
  return ends;
}

/** Columns hold whole blocks when there are at least this many intervals per column. */
const BLOCK_ROWS_FROM = 16;

/** One interval's (or block's) counts by heatmap row. */
interface RowEntries {
  rows: Int16Array;
  counts: Float64Array;
}

const EMPTY_ROWS: RowEntries = { rows: new Int16Array(0), counts: new Float64Array(0) };

/** toRows' output before it is copied out (a row list is at most as long as the axis), grown as axes need. */
const scratch = { rows: new Int16Array(256), sums: new Float64Array(256) };

/** One interval's or block's counts by row (`axis.ends` from rowEnds; an index past the table is in the last row). */
export function toRows(indices: Int32Array, counts: Float64Array, axis: Pick<Axis, "rows" | "rowOf" | "ends">): RowEntries {
  // Indices come in ascending order and rows never decrease with the index, so a row's counts
  // are one run: its end (the first index of a later row) is looked up once per row, and the
  // run is added up comparing indices alone (this runs for every block after a load, over
  // every entry of every block).
  const rowOf = axis.rowOf;
  const ends = axis.ends;
  const lastRow = axis.rows - 1;
  if (scratch.rows.length <= lastRow) {
    scratch.rows = new Int16Array(lastRow + 1);
    scratch.sums = new Float64Array(lastRow + 1);
  }
  const rows = scratch.rows;
  const sums = scratch.sums;
  const table = rowOf.length;
  const n = indices.length;
  let m = 0;
  let k = 0;
  let prev = -1;
  while (k < n) {
    const idx = indices[k]!;
    if (idx <= prev) return toRowsUnordered(indices, counts, rowOf, lastRow);
    const r = idx < table ? rowOf[idx]! : lastRow;
    const end = ends[r]!;
    let sum = counts[k]!;
    prev = idx;
    for (k++; k < n; k++) {
      const j = indices[k]!;
      if (j >= end || j <= prev) break;
      prev = j;
      sum += counts[k]!;
    }
    rows[m] = r;
    sums[m++] = sum;
  }
  return { rows: rows.slice(0, m), counts: sums.slice(0, m) };
}

/** The same for indices in any order. */
function toRowsUnordered(indices: Int32Array, counts: Float64Array, rowOf: Int16Array, lastRow: number): RowEntries {
  const acc = new Map<number, number>();
  for (let k = 0; k < indices.length; k++) {
    const idx = indices[k]!;
    const row = idx < rowOf.length ? rowOf[idx]! : lastRow;
    acc.set(row, (acc.get(row) ?? 0) + counts[k]!);
  }
  const out: RowEntries = { rows: new Int16Array(acc.size), counts: new Float64Array(acc.size) };
  let j = 0;
  for (const [row, c] of acc) {
    out.rows[j] = row;
    out.counts[j++] = c;
  }
  return out;
}

/** At most this many intervals' rows are kept per series (then the cache starts over). */
const MAX_CACHED_INTERVALS = 200_000;

interface RowCache {
  rows: number;
  interval(i: number): RowEntries;
  /** The rows of the stored level-0 block starting at interval `start` (see storedBlockAt). */
  block(start: number): RowEntries;
}

/**
 * Where stored level-0 blocks lie: on multiples of the block size from the log's first
 * interval, however the log was read (core/blocks.ts), so one run from 0 to the table's end.
 */
interface BlockGrid {
  /** The run holding interval i: where it starts, and where it ends (exclusive). */
  partOf(i: number): { from: number; to: number };
}

function blockGridOf(s: SeriesModel): BlockGrid | null {
  if (!s.blocks || !s.intervals) return null;
  const count = intervalsOf(s).n;
  return { partOf: () => ({ from: 0, to: count }) };
}

/** Whether a whole stored level-0 block starts at interval i. */
function storedBlockAt(grid: BlockGrid, i: number): boolean {
  const size = BLOCK_SIZES[0];
  const { from, to } = grid.partOf(i);
  return (i - from) % size === 0 && i + size <= to;
}

/**
 * What every query of a table walks all its intervals for, found once per table: its extent,
 * its longest interval, whether it is in time order, and each stored level-0 block's end and
 * max (a column of whole blocks takes these instead of its intervals'). A table is not changed
 * once loaded; a grown one has new arrays, and `n` and the arrays are checked.
 */
interface TableFacts {
  n: number;
  offsets: Float64Array;
  first: number;
  last: number;
  longest: number;
  ordered: boolean;
  /** Per stored level-0 block, by its first interval: the latest end and the highest max in it. */
  blocks: Map<number, { t1: number; max: number }> | null;
}

function factsOf(src: IntervalSource, grid: BlockGrid | null): TableFacts {
  const t = src.table;
  const kept = src.cached("heatmap-facts", (): { facts: TableFacts | null } => ({ facts: null }));
  let f = kept.facts;
  if (!f || f.n !== t.n || f.offsets !== t.offsets) {
    f = { n: t.n, offsets: t.offsets, ...spanOf(t), blocks: null };
    kept.facts = f;
  }
  if (grid && !f.blocks) f.blocks = blockFacts(t, grid);
  return f;
}

// factsOf's passes over every interval are functions of their own, so that V8's optimising
// compiler, when a pass runs long, compiles the pass and not everything around it.

function spanOf(t: IntervalTable): { first: number; last: number; longest: number; ordered: boolean } {
  let first = Infinity;
  let last = -Infinity;
  let longest = 0;
  let ordered = true;
  for (let i = 0; i < t.n; i++) {
    const o = t.offsets[i]!;
    first = Math.min(first, o);
    last = Math.max(last, o + t.lengths[i]!);
    longest = Math.max(longest, t.lengths[i]!);
    if (i > 0 && o < t.offsets[i - 1]!) ordered = false;
  }
  return { first, last, longest, ordered };
}

function blockFacts(t: IntervalTable, grid: BlockGrid): Map<number, { t1: number; max: number }> {
  const size = BLOCK_SIZES[0];
  const blocks = new Map<number, { t1: number; max: number }>();
  for (let i = 0; i < t.n;) {
    const { from, to } = grid.partOf(i);
    for (let a = from; a + size <= Math.min(to, t.n); a += size) blocks.set(a, blockFact(t, a, a + size));
    i = Math.max(to, i + 1);
  }
  return blocks;
}

function blockFact(t: IntervalTable, a: number, b: number): { t1: number; max: number } {
  let t1 = -Infinity;
  let max = 0;
  for (let k = a; k < b; k++) {
    t1 = Math.max(t1, t.offsets[k]! + t.lengths[k]!);
    max = Math.max(max, t.maxes[k]!);
  }
  return { t1, max };
}

/**
 * Per series and axis: each interval's and each block's counts by row, computed when first
 * asked and kept (by the interval source), so that zooming and panning add small row lists
 * instead of decoding again.
 */
function rowCacheOf(s: SeriesModel, axis: Pick<Axis, "rows" | "rowOf" | "ends">): RowCache {
  const src = intervalsOf(s);
  const kept = src.cached("heatmap-rows", (): { rows: RowCache | null } => ({ rows: null }));
  const hit = kept.rows;
  if (hit && hit.rows === axis.rows) return hit;
  let intervals = new Map<number, RowEntries>();
  const blocks = new Map<number, RowEntries>();
  const size = BLOCK_SIZES[0];
  const c: RowCache = {
    rows: axis.rows,
    interval(i) {
      let e = intervals.get(i);
      if (!e) {
        // In the series' layout (an interval of a merge recorded in another is converted).
        const c = src.counts(i);
        e = c ? toRows(c.indices, c.counts, axis) : EMPTY_ROWS;
        if (intervals.size >= MAX_CACHED_INTERVALS) intervals = new Map();
        intervals.set(i, e);
      }
      return e;
    },
    block(start) {
      let e = blocks.get(start);
      if (!e) {
        // The stored block itself when there is one (no copy through an accumulator).
        const sum = src.storedBlock(start) ?? src.sum(start, start + size - 1, true);
        e = toRows(sum.indices, sum.counts, axis);
        blocks.set(start, e);
      }
      return e;
    },
  };
  kept.rows = c;
  return c;
}

/**
 * Intervals [firstInView, lastEnd) (in time order) grouped into columns of `perColumn` whole
 * level-0 blocks, from the block holding the first interval to the one holding the last. Columns start on the
 * stored blocks' boundaries, part by part (a part's last column may be shorter).
 */
function wholeBlocks(src: IntervalSource, grid: BlockGrid, firstInView: number, lastEnd: number, perColumn: number) {
  const size = BLOCK_SIZES[0];
  const blocks = factsOf(src, grid).blocks!;
  const t = src.table;
  const out: { t0: number; t1: number; first: number; count: number; max: number }[] = [];
  let a = firstInView;
  {
    const { from } = grid.partOf(a);
    a = from + Math.floor((a - from) / size) * size;
  }
  while (a < lastEnd && a < t.n) {
    const { from, to } = grid.partOf(a);
    const partEnd = Math.min(to, t.n);
    const end = Math.min(partEnd, from + Math.ceil((lastEnd - from) / size) * size);
    for (; a < end; a += size * perColumn) {
      const z = Math.min(end, a + size * perColumn);
      const bk = { t0: t.offsets[a]!, t1: t.offsets[a]! + t.lengths[a]!, first: a, count: z - a, max: 0 };
      for (let i = a; i < z;) {
        const whole = i + size <= z ? blocks.get(i) : undefined;
        if (whole) {
          bk.t1 = Math.max(bk.t1, whole.t1);
          bk.max = Math.max(bk.max, whole.max);
          i += size;
        } else {
          bk.t1 = Math.max(bk.t1, t.offsets[i]! + t.lengths[i]!);
          bk.max = Math.max(bk.max, t.maxes[i]!);
          i++;
        }
      }
      out.push(bk);
    }
    a = partEnd;
  }
  return out;
}

function isIdentity(order: Int32Array): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/** Rows a heatmap query is given: at least one, at most 4000. */
const clampRows = (rows: number) => Math.max(1, Math.min(4000, Math.floor(rows)));

/**
 * Computes and keeps the rows of every stored level-0 block of `s` on an axis of `rows` rows:
 * the pass over every block's entries that the first heatmap of a long log spends most of its
 * time on, done ahead so that a heatmap asked later adds the kept rows (heatmap-prefetch.ts).
 * The rows are those a query computes: the same cache holds them.
 */
export function prepareBlockRows(s: SeriesModel, rows: number): number {
  const grid = blockGridOf(s);
  const t = s.intervals;
  if (!grid || !t) return 0;
  const cache = rowCacheOf(s, axisOf(s, clampRows(rows)));
  const size = BLOCK_SIZES[0];
  let blocks = 0;
  for (let i = 0; i < t.n;) {
    const { from, to } = grid.partOf(i);
    let a = from;
    for (; a + size <= to; a += size, blocks++) cache.block(a);
    // A part's last intervals, short of a whole block, are added one by one: their rows too.
    for (; a < Math.min(to, t.n); a++) cache.interval(a);
    i = Math.max(to, i + 1);
  }
  // And what the query walks every interval for (its extent, the columns' ends and maxima).
  factsOf(intervalsOf(s), grid);
  return blocks;
}

function extentOf(series: readonly SeriesModel[]): [number, number] | null {
  let first = Infinity;
  let last = -Infinity;
  for (const s of series) {
    const t = s.intervals;
    if (!t) continue;
    const f = factsOf(intervalsOf(s), null);
    first = Math.min(first, f.first);
    last = Math.max(last, f.last);
  }
  return Number.isFinite(first) ? [first, last] : null;
}

/** Spreads each column's rows over the rows their buckets cover (Axis.spread); returns the highest cell. */
function spreadRows(cells: Float64Array, columns: number, spread: Int16Array): number {
  const rows = spread.length;
  let maxCell = 0;
  for (let k = 0; k < columns; k++) {
    const base = k * rows;
    for (let r = 0; r < rows; r++) {
      const w = spread[r]!;
      if (w > 1 && cells[base + r]! > 0) {
        const share = cells[base + r]! / w;
        cells[base + r] = share;
        for (let j = r + 1; j < r + w; j++) cells[base + j]! += share;
      }
      if (cells[base + r]! > maxCell) maxCell = cells[base + r]!;
    }
  }
  return maxCell;
}

/**
 * The heatmap of the asked series over [t0, t1], at most `columns` columns of `rows` rows. A
 * column is the intervals that start in it (the one straddling t0 included, as the timeline
 * does), moved onto block boundaries when columns hold many intervals, so their merged
 * histogram is whole pre-merged blocks.
 */
export function heatmapQuery(all: readonly SeriesModel[], q: HeatmapQuery): HeatmapResult {
  // Open ends fit the asked series (a short log beside a long one fills the heatmap's width).
  const extent = extentOf(all.filter((s) => q.ids.includes(s.id))) ?? extentOf(all);
  if (!extent) return { domain: [0, 1], series: [] };
  const t0 = q.t0 ?? extent[0];
  const t1 = Math.max(q.t1 ?? extent[1], t0 + 1e-3);
  const rows = clampRows(q.rows);
  const out: HeatmapSeries[] = [];
  for (const id of q.ids) {
    const s = all.find((x) => x.id === id);
    const t = s?.intervals;
    if (!s || !t || t.n === 0) continue;
    const src = intervalsOf(s);
    const longest = factsOf(src, null).longest;
    const columns = Math.max(1, Math.floor(q.columns));
    const axis = axisOf(s, rows);
    const cache = rowCacheOf(s, axis);
    // Many intervals per pixel: columns of whole pre-merged blocks (each block's rows are
    // computed once), drawn over the span they cover; otherwise each interval's rows (decoded
    // once, then kept) added per column. With blocks the table is in time order, so the
    // intervals in view are one index range: found by bisection, not by bucketing every interval.
    const grid = blockGridOf(s);
    let blockCols = false;
    let order: Int32Array | null = null;
    let buckets: readonly { t0: number; t1: number; first: number; count: number; max: number }[] = [];
    if (grid && factsOf(src, grid).ordered) {
      const [first, last] = indexRange(t.offsets, t.n, t0 - longest, t1);
      const inView = Math.max(0, last - first + 1);
      if (inView / columns >= BLOCK_ROWS_FROM) {
        blockCols = true;
        buckets = wholeBlocks(intervalsOf(s), grid, first, first + inView, Math.max(1, Math.round(inView / columns / BLOCK_SIZES[0])));
      }
    }
    if (!blockCols) {
      const grouped = bucketIntervals(t, t0 - longest, t1, columns);
      order = isIdentity(grouped.order) ? null : grouped.order;
      buckets = grouped.buckets;
    }
    const n = buckets.length;
    const r: HeatmapSeries = { ...originOf(s), lo: axis.lo, hi: axis.hi, rows, ...zeroColumns(n, ["t0", "t1", "max"]), cells: new Float64Array(n * rows), maxCell: 0 };
    const addRows = (e: RowEntries, base: number) => {
      for (let k = 0; k < e.rows.length; k++) r.cells[base + e.rows[k]!]! += e.counts[k]!;
    };
    const size = BLOCK_SIZES[0];
    buckets.forEach((b, k) => {
      r.t0[k] = b.t0;
      r.t1[k] = b.t1;
      r.max[k] = b.max;
      const base = k * rows;
      const end = b.first + b.count; // exclusive
      let i = b.first;
      if (blockCols) {
        for (; i + size <= end && storedBlockAt(grid!, i); i += size) addRows(cache.block(i), base);
      }
      for (; i < end; i++) addRows(cache.interval(order ? order[i]! : i), base);
    });
    r.maxCell = spreadRows(r.cells, n, axis.spread);
    out.push(r);
  }
  return { domain: [t0, t1], series: out };
}
