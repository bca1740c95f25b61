// One table's intervals as every query reads them: one interval's counts, the sum of any range
// of them, rows appended while the series is shown, and the memory let go with the series. It
// alone chooses where counts come from: the bytes kept from the load (kept.ts), the table's
// pre-merged blocks, or a decode (the kernel, else the JavaScript reader and its cache:
// decode.ts). The queries' own caches of what they derived from the counts live here too, so
// they go when the table grows or its series goes.
import type { IntervalTable, SeriesModel, TableColumns } from "../../core/series";
import type { Sparse } from "../../core/blocks";
import { addInto, coarsestLayout, countsLengthOf, highestEquivalent, lowestDiscernibleValueOf, newHistogram, sparseOf, type Histogram } from "../../core/histogram";
import { addDecodedInto, valueFromIndex, type DecodedHistogram } from "../../formats/hlog-encoding";
import { decodePayload, inflatedCache, medianOf } from "./decode";
import { keptFits, keptSparse, type KeptCounts } from "./kept";
import { GrownBlocks } from "./grown-blocks";
import { SparseIntervalTable } from "./sparse-rows";
import { SlidingWindows, type WindowCounts } from "./window-counts";

/** A row appended to a loaded table: a log line a run followed live wrote after the load. */
export interface AppendedRow {
  /** Seconds since the series' StartTime, as the load placed the rows before it. */
  offset: number;
  /** Seconds the interval lasted. */
  length: number;
  /** The log's Interval_Max column. */
  maxColumn: number;
  /** The interval's base64 histogram payload. */
  payload: string;
}

/** An appended row that cannot be read: which row (0-based) and why, for its caller to name its line. */
export class AppendedRowError extends Error {
  constructor(
    readonly row: number,
    readonly reason: string,
  ) {
    super(`appended row ${row + 1}: ${reason}`);
  }
}

const EMPTY: Sparse = { indices: new Int32Array(0), counts: new Float64Array(0) };

export class IntervalSource {
  private series: SeriesModel | null = null;
  private keptCounts: KeptCounts | null = null;
  /** keptCounts when they serve the series as it is now (see kept()); found again at every bind and change. */
  private keptNow: KeptCounts | null = null;
  /** A histogram in the series' layout, for an interval recorded in another (a merge's). */
  private converter: Histogram | null = null;
  private readonly memo = new Map<string, unknown>();
  /** Interval i's counts in the series' layout: what block sums read their edges with. */
  private readonly countsAt = (i: number): Sparse | null => this.counts(i);

  constructor(readonly table: IntervalTable) {}

  /** The series this table belongs to (the registry binds it: index.ts). */
  bind(s: SeriesModel): this {
    this.series = s;
    this.keptNow = this.keptServing();
    return this;
  }

  /** Counts kept from the load for this table (the load's last step). */
  keep(k: KeptCounts): void {
    this.keptCounts = k;
    this.keptNow = this.keptServing();
  }

  private keptServing(): KeptCounts | null {
    const h = this.series?.histogram;
    return h && keptFits(this.keptCounts, this.table, h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h)) ? this.keptCounts : null;
  }

  /** The counts kept from the load, in whatever layout (tests and benchmarks; queries ask kept()). */
  keptFor(): KeptCounts | null {
    return this.keptCounts;
  }

  private get owner(): SeriesModel {
    if (this.series === null) throw new Error("an interval source is read before its series is known");
    return this.series;
  }

  get n(): number {
    return this.table.n;
  }

  /** Interval i decoded, in its own layout; null when its payload cannot be read. Transient: valid until the next decode. */
  decoded(i: number): DecodedHistogram | null {
    // A table of sparse counts has no payload to decode (sparse-rows.ts).
    if (this.table instanceof SparseIntervalTable) {
      const d = this.table.decodedRow(i);
      if (d !== null) return d;
    }
    return inflatedCache.decodeAt(this.table, i);
  }

  /** The counts kept from the load, when they are in the series' layout and cover every row (a row may still be not kept). */
  kept(): KeptCounts | null {
    return this.keptNow;
  }

  /**
   * Interval i's counts in the series' layout (an interval recorded in another, in a merge, is
   * added into one of the series' layout first); null when its payload cannot be read.
   * Transient: valid until the next call.
   */
  counts(i: number): Sparse | null {
    const k = this.keptNow;
    if (k !== null) {
      const c = keptSparse(k, i);
      if (c !== null) return c;
    }
    const d = this.decoded(i);
    if (d === null) return null;
    const h = this.owner.histogram;
    if (d.numberOfSignificantValueDigits === h.numberOfSignificantValueDigits && d.lowestDiscernibleValue === lowestDiscernibleValueOf(h)) return d;
    const c = (this.converter ??= newHistogram(h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h), h.highestTrackableValue));
    c.reset();
    addDecodedInto(c, d);
    const sp = sparseOf(c);
    return { indices: sp.indices, counts: sp.counts };
  }

  /** Whether the series has pre-merged blocks (its table is then in time order, in one layout). */
  get hasBlocks(): boolean {
    return !!this.owner.blocks;
  }

  /**
   * The sum of intervals [i0, i1] (table order) in the series' layout: whole pre-merged blocks
   * and the ragged ends' counts when the series has blocks, else every interval added.
   * `transient`: valid until the next sum.
   */
  sum(i0: number, i1: number, transient = false): Sparse {
    const b = this.owner.blocks;
    if (b) return b.sumRange(i0, i1, this.countsAt, transient).sum;
    const h = this.owner.histogram;
    const acc = newHistogram(h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h), h.highestTrackableValue);
    for (let i = Math.max(0, i0); i <= Math.min(i1, this.table.n - 1); i++) {
      const d = this.decoded(i);
      if (d) addDecodedInto(acc, d);
    }
    const sp = sparseOf(acc);
    return { indices: sp.indices, counts: sp.counts };
  }

  private readonly windows = new SlidingWindows(
    (i0, i1) => this.sum(i0, i1, true),
    (i) => this.counts(i),
  );

  /**
   * The counts of intervals [i0, i1] (rows that exist, i0 <= i1), dense in the series' layout:
   * a window a little later than one asked before (a run's last minute, followed live) is that
   * one moved, not summed again (window-counts.ts). Valid until the next call.
   */
  windowCounts(i0: number, i1: number): WindowCounts {
    const h = this.owner.histogram;
    return this.windows.window(i0, i1, h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h), countsLengthOf(h));
  }

  /** The stored first-level block of intervals [start, start + BLOCK_SIZES[0]) as kept (views), or null when none is exactly that range. */
  storedBlock(start: number): Sparse | null {
    return this.owner.blocks?.storedBlock(start) ?? null;
  }

  /**
   * What a query derived from this table's counts and keeps (the heatmap's rows, say): made
   * once, then kept until the table grows or the series goes.
   */
  cached<T>(key: string, make: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const v = make();
    this.memo.set(key, v);
    return v;
  }

  /**
   * Appends rows (a run followed live): the table, the series' histogram and its blocks grow as
   * a load of the whole log would have made them, so every answer after the last append is the
   * one that load gives. A row whose payload cannot be read throws, naming it, and leaves the
   * series as it was.
   */
  append(rows: readonly AppendedRow[]): void {
    if (rows.length === 0) return;
    const s = this.owner;
    const t = this.table;
    // Loops, not callbacks: a closure made per append loses its optimised code at every major
    // collection, and a followed run appends a few times a second.
    const decoded: DecodedHistogram[] = [];
    for (let k = 0; k < rows.length; k++) decoded.push(appendedRow(rows[k]!, k));
    const n0 = t.n;
    // The loaded blocks grow (see grown-blocks.ts); a row in another layout, or out of time
    // order, leaves the series without blocks, as a load of the whole log would.
    let blocks = s.blocks ? (s.blocks instanceof GrownBlocks ? s.blocks : new GrownBlocks(s.blocks, n0, this.countsAt)) : null;
    const m = rows.length;
    const c: TableColumns = {
      n: m,
      offsets: new Float64Array(m),
      lengths: new Float64Array(m),
      maxes: new Float64Array(m),
      counts: new Float64Array(m),
      maxColumn: new Float64Array(m),
      p50: new Float64Array(m),
      payloadAt: new Float64Array(m),
      payloadLength: new Float64Array(m),
    };
    let prev = n0 > 0 ? t.offsets[n0 - 1]! : -Infinity;
    let at = 0;
    const payloads: string[] = [];
    for (let k = 0; k < m; k++) {
      const r = rows[k]!;
      const d = decoded[k]!;
      let h = s.histogram;
      if (d.numberOfSignificantValueDigits !== h.numberOfSignificantValueDigits || d.lowestDiscernibleValue !== lowestDiscernibleValueOf(h)) {
        blocks = null;
        // Into the coarsest layout, as the load moves a series whose intervals differ.
        const layout = coarsestLayout([h, d]);
        if (layout.digits !== h.numberOfSignificantValueDigits || layout.lowest !== lowestDiscernibleValueOf(h)) {
          const coarser = newHistogram(layout.digits, layout.lowest, Math.max(h.highestTrackableValue, d.highestTrackableValue));
          addInto(coarser, h);
          s.histogram = h = coarser;
        }
      }
      if (r.offset < prev) blocks = null;
      prev = r.offset;
      addDecodedInto(h, d);
      const last = d.indices.length > 0 ? d.indices[d.indices.length - 1]! : -1;
      c.offsets[k] = r.offset;
      c.lengths[k] = r.length;
      c.maxes[k] = last >= 0 ? highestEquivalent(h, valueFromIndex(last, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits)) : 0;
      c.counts[k] = d.totalCount;
      c.maxColumn[k] = r.maxColumn;
      c.p50[k] = medianOf(d);
      c.payloadAt[k] = at;
      c.payloadLength[k] = r.payload.length;
      at += r.payload.length;
      payloads.push(r.payload);
      blocks?.add(d.indices.length > 0 ? d : EMPTY);
    }
    t.appendColumns(c, payloads.join(""));
    s.blocks = blocks;
    this.keptCounts?.append(null, m);
    this.keptNow = this.keptServing();
    this.converter = null;
    this.memo.clear();
  }

  /**
   * Lets everything held for this table go (its series is gone). What was handed out before
   * (a comparison's sub-blocks, read later) still reads the table, decoding.
   */
  dispose(): void {
    inflatedCache.forget(this.table);
    this.keptCounts?.drop();
    this.keptCounts = null;
    this.keptNow = null;
    this.converter = null;
    this.memo.clear();
    this.windows.clear();
  }
}

/** An appended row's histogram, read and checked (its arrays its own). */
function appendedRow(r: AppendedRow, k: number): DecodedHistogram {
  const d = decodePayload(r.payload);
  if (!d.ok) throw new AppendedRowError(k, `histogram payload: ${d.reason}`);
  const v = d.value;
  const n = v.indices.length;
  if (n > 0 && !(valueFromIndex(v.indices[n - 1]! + 1, v.lowestDiscernibleValue, v.numberOfSignificantValueDigits) - 1 <= Number.MAX_SAFE_INTEGER))
    throw new AppendedRowError(k, "histogram holds values above 2^53, which cannot be counted exactly");
  return { ...v, indices: v.indices.slice(), counts: v.counts.slice() };
}
