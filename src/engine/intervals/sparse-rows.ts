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
  /** What a histogram of each row declares (a merge's rows keep their own series' value). */
  highest: Float64Array;
  /** Row i's counts are at [rowStart[i], rowStart[i + 1]) of indices and counts. */
  rowStart: Float64Array;
  indices: Int32Array;
  /** Whole counts: 32-bit when every count fits, else float64 (up to 2^53). */
  counts: Uint32Array | Float64Array;
}

const ulp = (x: number) => Math.pow(2, Math.floor(Math.log2(x)) - 52);

/** Output arrays of decodedRow, grown as rows need (a thread reads one row at a time). */
let scratchCounts = new Float64Array(256);

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
    let fits = true;
    for (let k = 0; k < sp.counts.length && fits; k++) fits = sp.counts[k]! <= 0xffffffff;
    const rows: Rows = {
      digits: sp.digits,
      lowest: sp.lowest,
      highest: new Float64Array(n).fill(sp.highest),
      rowStart: Float64Array.from(sp.rowStart),
      indices: sp.indices,
      counts: fits ? Uint32Array.from(sp.counts) : sp.counts,
    };
    const t = new SparseIntervalTable([rows], null, null, n);
    t.n = n;
    t.offsets = sp.starts;
    t.lengths = sp.lengths;
    t.maxes = new Float64Array(n);
    t.counts = new Float64Array(n);
    t.maxColumn = new Float64Array(n);
    t.p50 = new Float64Array(n);
    t.summarise(rows);
    return t;
  }

  /**
   * The rows of several sparse tables in one (a merge), placed by `order`: entry k is row
   * rowOf[k] of table partOf[k], at `offsets[k]`. Their counts are not copied but read where
   * they are; their columns (max, count, median) are theirs. Null when the tables are not all
   * sparse in one layout.
   */
  static joined(parts: readonly IntervalTable[], partOf: Int32Array, rowOf: Int32Array, offsets: Float64Array<ArrayBuffer>): SparseIntervalTable | null {
    if (!parts.every((p): p is SparseIntervalTable => p instanceof SparseIntervalTable && p.sparseN === p.n)) return null;
    const first = parts[0]!.sources[0]!;
    if (parts.some((p) => p.sources.some((r) => r.digits !== first.digits || r.lowest !== first.lowest))) return null;
    // A part that is itself a merge is read through to its own parts.
    const sources: Rows[] = [];
    const at = new Map<Rows, number>();
    const sourceOf = parts.map((p) =>
      p.sources.map((r) => {
        let k = at.get(r);
        if (k === undefined) {
          k = sources.length;
          sources.push(r);
          at.set(r, k);
        }
        return k;
      }),
    );
    const n = partOf.length;
    const part = new Int32Array(n);
    const row = new Int32Array(n);
    const t = new SparseIntervalTable(sources, part, row, n);
    t.n = n;
    t.offsets = offsets;
    t.lengths = new Float64Array(n);
    t.maxes = new Float64Array(n);
    t.counts = new Float64Array(n);
    t.maxColumn = new Float64Array(n);
    t.p50 = new Float64Array(n);
    const { lengths, maxes, counts, maxColumn, p50 } = t;
    for (let k = 0; k < n; k++) {
      const p = parts[partOf[k]!]!;
      const i = rowOf[k]!;
      part[k] = sourceOf[partOf[k]!]![p.partOf === null ? 0 : p.partOf[i]!]!;
      row[k] = p.rowOf === null ? i : p.rowOf[i]!;
      lengths[k] = p.lengths[i]!;
      maxes[k] = p.maxes[i]!;
      counts[k] = p.counts[i]!;
      maxColumn[k] = p.maxColumn[i]!;
      p50[k] = p.p50[i]!;
    }
    return t;
  }

  /** Rows held as sparse counts (rows appended later, if any, have payloads). */
  get sparseN(): number {
    return this.rowsN;
  }

  /** Bytes the sparse columns hold, those read from other tables (a merge's parts') included (benchmarks). */
  get sparseBytes(): number {
    let b = (this.partOf?.byteLength ?? 0) + (this.rowOf?.byteLength ?? 0);
    for (const r of this.sources) b += r.highest.byteLength + r.rowStart.byteLength + r.indices.byteLength + r.counts.byteLength;
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
    const { rowStart, indices, counts, digits, lowest } = rows;
    const unit = unitMagnitudeOf(lowest);
    const half = subBucketCountMagnitude(digits) - 1;
    for (let i = 0; i < this.n; i++) {
      const a = rowStart[i]!;
      const b = rowStart[i + 1]!;
      let total = 0;
      for (let k = a; k < b; k++) total += counts[k]!;
      this.counts[i] = total;
      if (total === 0) continue;
      this.maxes[i] = valueAtIndex(indices[b - 1]! + 1, unit, half) - 1;
      const fp = 0.5 * total;
      const rank = Math.max(Math.ceil(fp - ulp(fp)), 1);
      let run = 0;
      for (let k = a; k < b; k++) {
        run += counts[k]!;
        if (run >= rank) {
          this.p50[i] = valueAtIndex(indices[k]! + 1, unit, half) - 1;
          break;
        }
      }
    }
  }

  /**
   * Row i's counts as a decoded payload would give them (indices a view, counts a scratch copy:
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
    return {
      version: 2,
      numberOfSignificantValueDigits: r.digits,
      lowestDiscernibleValue: r.lowest,
      highestTrackableValue: r.highest[j]!,
      indices: r.indices.subarray(a, b),
      counts: scratchCounts.subarray(0, b - a),
      totalCount: this.counts[i]!,
    };
  }

  /** Row i's payload: its histogram encoded when asked (an export, a link), as a load would have kept it. */
  override payload(i: number): string {
    if (i >= this.rowsN) return super.payload(i);
    const r = this.rowsAt(i);
    const j = this.rowOf === null ? i : this.rowOf[i]!;
    const h = newHistogram(r.digits, r.lowest, r.highest[j]!);
    const unit = unitMagnitudeOf(r.lowest);
    const half = subBucketCountMagnitude(r.digits) - 1;
    for (let k = r.rowStart[j]!; k < r.rowStart[j + 1]!; k++) h.recordValueWithCount(valueAtIndex(r.indices[k]!, unit, half), r.counts[k]!);
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
  const partOf = new Int32Array(n);
  const rowOf = new Int32Array(n);
  const offsets = new Float64Array(n);
  if (sorted && aligned(tables, shifts)) {
    // A fleet asked over one range at one step: every part has a row at each time, so the
    // order is row by row, part by part.
    const parts = tables.length;
    for (let k = 0; k < n; k++) {
      const p = k % parts;
      const i = (k - p) / parts;
      partOf[k] = p;
      rowOf[k] = i;
      offsets[k] = tables[p]!.offsets[i]! + shifts[p]!;
    }
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
      partOf[k] = p;
      rowOf[k] = next[p]!;
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
      partOf[k] = r.p;
      rowOf[k] = r.i;
      offsets[k] = r.at;
    });
  }
  return SparseIntervalTable.joined(tables, partOf, rowOf, offsets);
}

/** Whether every table has the same row times (after its shift), each table's strictly ascending. */
function aligned(tables: readonly IntervalTable[], shifts: readonly number[]): boolean {
  const first = tables[0]!;
  for (const t of tables) if (t.n !== first.n) return false;
  for (let i = 0; i < first.n; i++) {
    const at = first.offsets[i]! + shifts[0]!;
    if (i > 0 && !(at > first.offsets[i - 1]! + shifts[0]!)) return false;
    for (let p = 1; p < tables.length; p++) if (tables[p]!.offsets[i]! + shifts[p]! !== at) return false;
  }
  return true;
}
