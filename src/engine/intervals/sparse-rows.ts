// A table whose intervals are held as sparse counts (counts-array index and count, columnar per
// table) rather than a compressed payload each: a Prometheus step is a few buckets, and a fleet
// of a day at a one-minute step is over a million of them, each of which a payload would make
// the load encode and every query inflate again. The interval source (source.ts) reads a row's
// counts straight from these columns; a payload is encoded only when something asks for one
// (an interval log's export, a link), and it is the payload the row's histogram encodes to.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { IntervalTable, type SeriesModel } from "../../core/series";
import { newHistogram } from "../../core/histogram";
import { subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../../core/counts-layout";
import type { DecodedHistogram } from "../../formats/hlog-encoding";
import type { SparseIntervals } from "../../formats/source";

/** The columns a sparse table keeps (rows in table order). */
interface Rows {
  digits: number;
  lowest: number;
  /** What a histogram of each row declares (what its payload says). */
  highest: number;
  /** Row i's counts are at [rowStart[i], rowStart[i + 1]) of indices and counts. */
  rowStart: Int32Array;
  /** Each index less `base`: 16-bit when a table's indices span fewer than 2^16. */
  indices: Int32Array | Uint16Array;
  base: number;
  /** Whole counts: 8, 16 or 32-bit when every count fits, else float64 (up to 2^53). */
  counts: Counts;
}

type Counts = Uint8Array | Uint16Array | Uint32Array | Float64Array;

function lowestOf(rowStart: Int32Array, indices: Int32Array | Uint16Array): number {
  let x = Infinity;
  for (let i = 0; i + 1 < rowStart.length; i++) if (rowStart[i + 1]! > rowStart[i]! && indices[rowStart[i]!]! < x) x = indices[rowStart[i]!]!;
  return x;
}

function highestOf(rowStart: Int32Array, indices: Int32Array | Uint16Array): number {
  let x = -1;
  for (let i = 0; i + 1 < rowStart.length; i++) if (rowStart[i + 1]! > rowStart[i]! && indices[rowStart[i + 1]! - 1]! > x) x = indices[rowStart[i + 1]! - 1]!;
  return x;
}

/** Adds indices/counts [a, b) into acc at base + index, noting in touched each cell it makes non-zero; returns touched's new length. */
function addRow(acc: Float64Array, touched: Int32Array, m: number, indices: Int32Array | Uint16Array, counts: Counts, a: number, b: number, base: number): number {
  for (let k = a; k < b; k++) {
    const c = counts[k]!;
    if (c === 0) continue;
    const at = base + indices[k]!;
    if (acc[at] === 0) touched[m++] = at;
    acc[at]! += c;
  }
  return m;
}

function grow<T extends Int32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

const ulp = (x: number) => Math.pow(2, Math.floor(Math.log2(x)) - 52);

/** Output arrays of decodedRow, grown as rows need (a thread reads one row at a time). */
let scratchCounts = new Float64Array(256);

/** The counts in the narrowest whole type every one fits (a fleet's steps hold millions of small counts). */
function narrowed(counts: Counts): Counts {
  let top = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k]! > top) top = counts[k]!;
  if (top <= 0xff) return counts instanceof Uint8Array ? counts : Uint8Array.from(counts);
  if (top <= 0xffff) return counts instanceof Uint16Array ? counts : Uint16Array.from(counts);
  if (top <= 0xffffffff) return counts instanceof Uint32Array ? counts : Uint32Array.from(counts);
  return counts;
}

/** The indices less their lowest, 16-bit when they span fewer than 2^16 (a series' buckets lie within a few powers of two). */
function narrowedIndices(indices: Int32Array | Uint16Array, base = 0): { indices: Int32Array | Uint16Array; base: number } {
  // A reader's may be narrowed already (formats/prometheus-api.ts).
  if (indices instanceof Uint16Array || indices.length === 0) return { indices, base };
  let low = indices[0]!;
  let top = low;
  for (let k = 1; k < indices.length; k++) {
    const x = indices[k]!;
    if (x < low) low = x;
    if (x > top) top = x;
  }
  if (top - low > 0xffff) return { indices, base };
  const out = new Uint16Array(indices.length);
  for (let k = 0; k < indices.length; k++) out[k] = indices[k]! - low;
  return { indices: out, base: base + low };
}

/** Index scratch of decodedRow (rows of 16-bit indices are widened into it). */
let scratchIndices = new Int32Array(256);

/**
 * A column of n zeros, one per length: sparse rows have no max column (an interval log's), and
 * a fleet's thousand tables of one length share it. Nothing writes into a table's columns in
 * place (a row added copies them first).
 */
const zeroColumns = new Map<number, Float64Array<ArrayBuffer>>();
function zeros(n: number): Float64Array<ArrayBuffer> {
  let z = zeroColumns.get(n);
  if (z === undefined) {
    if (zeroColumns.size >= 16) zeroColumns.clear();
    zeroColumns.set(n, (z = new Float64Array(n)));
  }
  return z;
}

export class SparseIntervalTable extends IntervalTable {
  /**
   * `sources`: the rows' columns; a merge's table holds its parts' (row i is row rowOf[i] of
   * sources[partOf[i]]), a reader's its own (partOf and rowOf null: row i is row i).
   */
  private constructor(
    private readonly sources: readonly Rows[],
    private readonly partOf: Int32Array | null,
    private readonly rowOf: Int32Array | null,
    private readonly rowsN: number,
  ) {
    super();
  }

  /** The table of a reader's sparse intervals: each row's count, max and median from its counts. */
  static of(sp: SparseIntervals): SparseIntervalTable {
    const n = sp.n;
    const rows: Rows = {
      digits: sp.digits,
      lowest: sp.lowest,
      highest: sp.highest,
      rowStart: sp.rowStart,
      ...narrowedIndices(sp.indices, sp.base),
      counts: narrowed(sp.counts),
    };
    const t = new SparseIntervalTable([rows], null, null, n);
    t.n = n;
    t.offsets = sp.starts;
    t.lengths = sp.lengths;
    t.maxes = new Float64Array(n);
    t.counts = new Float64Array(n);
    t.maxColumn = zeros(n);
    t.p50 = new Float64Array(n);
    t.summarise(rows);
    return t;
  }

  /**
   * The rows of several sparse tables in one (a merge): row i of parts[p] goes to row
   * at[p][i], at `offsets` (in the merged table's order). Their counts are not copied but read
   * where they are; their columns (max, count, median) are theirs. Null when the tables are not
   * all sparse in one layout.
   */
  static joined(parts: readonly IntervalTable[], at: readonly Int32Array[], offsets: Float64Array<ArrayBuffer>): SparseIntervalTable | null {
    if (!parts.every((p): p is SparseIntervalTable => p instanceof SparseIntervalTable && p.sparseN === p.n)) return null;
    const first = parts[0]!.sources[0]!;
    if (parts.some((p) => p.sources.some((r) => r.digits !== first.digits || r.lowest !== first.lowest))) return null;
    // A part that is itself a merge is read through to its own parts.
    const sources: Rows[] = [];
    const index = new Map<Rows, number>();
    const sourceOf = parts.map((p) =>
      Int32Array.from(p.sources, (r) => {
        let k = index.get(r);
        if (k === undefined) {
          k = sources.length;
          sources.push(r);
          index.set(r, k);
        }
        return k;
      }),
    );
    const n = offsets.length;
    const part = new Int32Array(n);
    const row = new Int32Array(n);
    const t = new SparseIntervalTable(sources, part, row, n);
    t.n = n;
    t.offsets = offsets;
    const lengths = (t.lengths = new Float64Array(n));
    const maxes = (t.maxes = new Float64Array(n));
    const counts = (t.counts = new Float64Array(n));
    const maxColumn = (t.maxColumn = new Float64Array(n));
    const p50 = (t.p50 = new Float64Array(n));
    // Part by part, each column read in order.
    parts.forEach((p, q) => {
      const to = at[q]!;
      const src = sourceOf[q]!;
      const pp = p.partOf;
      const pr = p.rowOf;
      const [l, m, c, x, h] = [p.lengths, p.maxes, p.counts, p.maxColumn, p.p50];
      for (let i = 0; i < p.n; i++) {
        const k = to[i]!;
        part[k] = src[pp === null ? 0 : pp[i]!]!;
        row[k] = pr === null ? i : pr[i]!;
        lengths[k] = l[i]!;
        maxes[k] = m[i]!;
        counts[k] = c[i]!;
        // Sparse rows have no max column (it stays 0): pages of the new column left untouched stay unallocated.
        if (x[i] !== 0) maxColumn[k] = x[i]!;
        p50[k] = h[i]!;
      }
    });
    return t;
  }

  /**
   * The rows of tables that share every row's time and length (a fleet asked over one range at
   * one step), summed step by step into one sparse row each: a merge's step holds what every
   * part observed in it, as the parts' rows at one time always fall in one timeline column,
   * heatmap column and window together. Null when the tables are not all sparse in one layout.
   */
  static summed(tables: readonly IntervalTable[], offsets: Float64Array<ArrayBuffer>, lengths: Float64Array<ArrayBuffer>): SparseIntervalTable | null {
    if (!tables.every((p) => p instanceof SparseIntervalTable && p.sparseN === p.n && p.n === offsets.length)) return null;
    const parts = tables as readonly SparseIntervalTable[];
    const first = parts[0]!.sources[0]!;
    let highest = 0;
    let low = Infinity;
    let top = -1;
    for (const p of parts)
      for (const r of p.sources) {
        if (r.digits !== first.digits || r.lowest !== first.lowest) return null;
        highest = Math.max(highest, r.highest);
        // Each row's indices ascend: its first and last are its extent.
        low = Math.min(low, r.base + lowestOf(r.rowStart, r.indices));
        top = Math.max(top, r.base + highestOf(r.rowStart, r.indices));
      }
    const n = offsets.length;
    if (top < 0) low = 0;
    const range = Math.max(1, top - low + 1);
    // A chunk of steps at a time, each part's rows of the chunk read in order (its arrays front
    // to back, not a thousand parts' few counts per step): the chunk's sums by step and index,
    // in at most 2 MB, as the page's worker holds them beside everything else it holds.
    const chunk = Math.max(1, Math.min(n, Math.floor((1 << 18) / range)));
    const acc = new Float64Array(chunk * range);
    let touched = new Int32Array(1024);
    const rowStart = new Int32Array(n + 1);
    let indices = new Int32Array(Math.max(16, n * 8));
    let counts = new Float64Array(indices.length);
    let len = 0;
    for (let i0 = 0; i0 < n; i0 += chunk) {
      const i1 = Math.min(n, i0 + chunk);
      let m = 0;
      for (const p of parts) {
        for (let i = i0; i < i1; i++) {
          const r = p.rowsAt(i);
          const j = p.rowOf === null ? i : p.rowOf[i]!;
          const a = r.rowStart[j]!;
          const b = r.rowStart[j + 1]!;
          if (m + b - a > touched.length) touched = grow(touched, Math.max(m + b - a, touched.length * 2));
          m = addRow(acc, touched, m, r.indices, r.counts, a, b, (i - i0) * range - low + r.base);
        }
      }
      // In order of step, then index.
      const cells = touched.subarray(0, m).sort();
      if (len + m > indices.length) {
        const size = Math.max(len + m, indices.length * 2);
        indices = grow(indices, size);
        counts = grow(counts, size);
      }
      let k = 0;
      for (let i = i0; i < i1; i++) {
        const end = (i - i0 + 1) * range;
        for (; k < m && cells[k]! < end; k++) {
          const at = cells[k]!;
          indices[len] = at - (i - i0) * range + low;
          counts[len++] = acc[at]!;
          acc[at] = 0;
        }
        rowStart[i + 1] = len;
      }
    }
    return SparseIntervalTable.of({
      n,
      starts: offsets,
      lengths,
      rowStart,
      indices: indices.slice(0, len),
      counts: counts.slice(0, len),
      digits: first.digits,
      lowest: first.lowest,
      highest,
    });
  }

  /** Rows held as sparse counts (rows appended later, if any, have payloads). */
  get sparseN(): number {
    return this.rowsN;
  }

  /** Bytes the sparse columns hold, those read from other tables (a merge's parts') included (benchmarks). */
  get sparseBytes(): number {
    let b = (this.partOf?.byteLength ?? 0) + (this.rowOf?.byteLength ?? 0);
    for (const r of this.sources) b += r.rowStart.byteLength + r.indices.byteLength + r.counts.byteLength;
    return b;
  }

  private rowsAt(i: number): Rows {
    return this.sources[this.partOf === null ? 0 : this.partOf[i]!]!;
  }

  /**
   * Each row's total, max (the highest value equivalent to its top count, as maxOf) and median
   * (as valueAtPercentile(h, 50): the library's rank rule), from its counts.
   */
  private summarise(rows: Rows): void {
    const { rowStart, indices, counts, digits, lowest, base } = rows;
    const unit = unitMagnitudeOf(lowest);
    const half = subBucketCountMagnitude(digits) - 1;
    for (let i = 0; i < this.n; i++) {
      const a = rowStart[i]!;
      const b = rowStart[i + 1]!;
      let total = 0;
      for (let k = a; k < b; k++) total += counts[k]!;
      this.counts[i] = total;
      if (total === 0) continue;
      this.maxes[i] = valueAtIndex(base + indices[b - 1]! + 1, unit, half) - 1;
      const fp = 0.5 * total;
      const rank = Math.max(Math.ceil(fp - ulp(fp)), 1);
      let run = 0;
      for (let k = a; k < b; k++) {
        run += counts[k]!;
        if (run >= rank) {
          this.p50[i] = valueAtIndex(base + indices[k]! + 1, unit, half) - 1;
          break;
        }
      }
    }
  }

  /**
   * Row i's counts as a decoded payload would give them (indices a view or a scratch copy, counts a scratch copy:
   * valid until the next call), or null when row i has a payload instead.
   */
  decodedRow(i: number): DecodedHistogram | null {
    if (!(i >= 0 && i < this.rowsN)) return null;
    const r = this.rowsAt(i);
    const j = this.rowOf === null ? i : this.rowOf[i]!;
    const a = r.rowStart[j]!;
    const b = r.rowStart[j + 1]!;
    if (b - a > scratchCounts.length) scratchCounts = new Float64Array(Math.max(b - a, scratchCounts.length * 2));
    for (let k = a; k < b; k++) scratchCounts[k - a] = r.counts[k]!;
    let indices: Int32Array;
    if (r.indices instanceof Int32Array && r.base === 0) indices = r.indices.subarray(a, b);
    else {
      if (b - a > scratchIndices.length) scratchIndices = new Int32Array(Math.max(b - a, scratchIndices.length * 2));
      for (let k = a; k < b; k++) scratchIndices[k - a] = r.base + r.indices[k]!;
      indices = scratchIndices.subarray(0, b - a);
    }
    return {
      version: 2,
      numberOfSignificantValueDigits: r.digits,
      lowestDiscernibleValue: r.lowest,
      highestTrackableValue: r.highest,
      indices,
      counts: scratchCounts.subarray(0, b - a),
      totalCount: this.counts[i]!,
    };
  }

  /** Row i's payload: its histogram encoded when asked (an export, a link), as a load would have kept it. */
  override payload(i: number): string {
    if (i >= this.rowsN) return super.payload(i);
    const r = this.rowsAt(i);
    const j = this.rowOf === null ? i : this.rowOf[i]!;
    const h = newHistogram(r.digits, r.lowest, r.highest);
    const unit = unitMagnitudeOf(r.lowest);
    const half = subBucketCountMagnitude(r.digits) - 1;
    for (let k = r.rowStart[j]!; k < r.rowStart[j + 1]!; k++) h.recordValueWithCount(valueAtIndex(r.base + r.indices[k]!, unit, half), r.counts[k]!);
    return encodeIntoCompressedBase64(h);
  }
}

/**
 * The intervals of several series in one table placed by absolute time (Store.merge's rule: each
 * row keeps its own counts, rows in time order, ties in the parts' order), without a payload
 * decoded or encoded; null when not every part's table is sparse in one layout.
 */
export function mergedSparse(parts: readonly SeriesModel[], startTime: number | null): SparseIntervalTable | null {
  const tables = parts.map((p) => p.intervals!);
  if (!tables.every((t) => t instanceof SparseIntervalTable)) return null;
  let n = 0;
  for (const t of tables) n += t.n;
  const shifts = parts.map((p) => (startTime !== null && p.startTime !== null ? p.startTime - startTime : 0));
  // Each part's rows in time order (a reader's are): merged part by part, taking from the
  // earliest and, on a tie, the first part, as a stable sort of all rows would.
  const sorted = tables.every((t) => {
    for (let i = 1; i < t.n; i++) if (!(t.offsets[i]! >= t.offsets[i - 1]!)) return false;
    return true;
  });
  const at = tables.map((t) => new Int32Array(t.n));
  const offsets = new Float64Array(n);
  if (sorted && aligned(tables, shifts)) {
    // Every part's steps at the same times and of the same lengths: one row per step, the parts' counts summed.
    const first = tables[0]!;
    if (tables.every((t) => t.lengths.subarray(0, t.n).every((l, i) => l === first.lengths[i]))) {
      const starts = Float64Array.from(first.offsets.subarray(0, first.n), (o) => o + shifts[0]!);
      const summed = SparseIntervalTable.summed(tables, starts, Float64Array.from(first.lengths.subarray(0, first.n)));
      if (summed !== null) return summed;
    }
    // A fleet asked over one range at one step: every part has a row at each time, so the
    // order is row by row, part by part.
    const parts = tables.length;
    tables.forEach((t, p) => {
      const to = at[p]!;
      const o = t.offsets;
      const shift = shifts[p]!;
      for (let i = 0; i < t.n; i++) {
        const k = i * parts + p;
        to[i] = k;
        offsets[k] = o[i]! + shift;
      }
    });
  } else if (sorted) {
    const next = new Int32Array(tables.length);
    // A binary heap of parts keyed by (their next row's time, part).
    const heap: number[] = [];
    const key = (p: number) => tables[p]!.offsets[next[p]!]! + shifts[p]!;
    const less = (a: number, b: number) => key(a) < key(b) || (key(a) === key(b) && a < b);
    const push = (p: number) => {
      let c = heap.length;
      heap.push(p);
      while (c > 0) {
        const up = (c - 1) >> 1;
        if (!less(heap[c]!, heap[up]!)) break;
        [heap[c], heap[up]] = [heap[up]!, heap[c]!];
        c = up;
      }
    };
    const down = () => {
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        const r = l + 1;
        let s = c;
        if (l < heap.length && less(heap[l]!, heap[s]!)) s = l;
        if (r < heap.length && less(heap[r]!, heap[s]!)) s = r;
        if (s === c) return;
        [heap[c], heap[s]] = [heap[s]!, heap[c]!];
        c = s;
      }
    };
    tables.forEach((t, p) => t.n > 0 && push(p));
    for (let k = 0; k < n; k++) {
      const p = heap[0]!;
      at[p]![next[p]!] = k;
      offsets[k] = key(p);
      if (++next[p]! < tables[p]!.n) down();
      else {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
        down();
      }
    }
  } else {
    const all: { at: number; p: number; i: number }[] = [];
    tables.forEach((t, p) => {
      for (let i = 0; i < t.n; i++) all.push({ at: t.offsets[i]! + shifts[p]!, p, i });
    });
    all.sort((a, b) => a.at - b.at);
    all.forEach((r, k) => {
      at[r.p]![r.i] = k;
      offsets[k] = r.at;
    });
  }
  return SparseIntervalTable.joined(tables, at, offsets);
}

/** Whether every table has the same row times (after its shift), each table's strictly ascending. */
function aligned(tables: readonly IntervalTable[], shifts: readonly number[]): boolean {
  const first = tables[0]!;
  const o0 = first.offsets;
  const s0 = shifts[0]!;
  for (let i = 1; i < first.n; i++) if (!(o0[i]! > o0[i - 1]!)) return false;
  for (let p = 1; p < tables.length; p++) {
    const t = tables[p]!;
    if (t.n !== first.n) return false;
    const o = t.offsets;
    const shift = shifts[p]!;
    for (let i = 0; i < t.n; i++) if (o[i]! + shift !== o0[i]! + s0) return false;
  }
  return true;
}
