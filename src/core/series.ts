// The loaded-data model: a series is one (file, tag) pair with all its intervals merged.
// Intervals are kept compact: their payloads as the log's own base64 text (decoded again only
// for a time-range query) and their summaries in columnar typed arrays.
import type { Histogram } from "./histogram";
import type { Unit } from "./types";
import type { RangeSums } from "./blocks";

export interface TableColumns {
  n: number;
  offsets: Float64Array;
  lengths: Float64Array;
  maxes: Float64Array;
  counts: Float64Array;
  maxColumn: Float64Array;
  p50: Float64Array;
  /**
   * Where each payload is in the text the rows were read from (characters from its start) and
   * how long it is. The payloads themselves do not travel as strings: the reader sends the
   * bytes it read (transferred, not copied), and the joining worker cuts payloads out of them
   * when asked for. Posting half a 24-hour log's payloads as text meant joining, serialising
   * and deserialising them, all on the load's critical path.
   */
  payloadAt: Float64Array;
  payloadLength: Float64Array;
}

/** Bytes given a range at a time: a Uint8Array, or a file read back when asked (the command line's). */
export interface PayloadBytes {
  readonly length: number;
  subarray(from: number, to: number): Uint8Array;
}

/**
 * What appended rows' payloads are cut from: the text they were read from, or its bytes when
 * every byte of them was one character (so character positions are byte positions).
 */
export type PayloadSource = string | PayloadBytes;

interface AppendedPayloads {
  from: number;
  n: number;
  source: PayloadSource;
  at: Float64Array;
  length: Float64Array;
}

// Appended rows' payloads were decoded as base64 by the reader that sent them, so their bytes
// are ASCII, which every decoder reads alike; this one does not validate UTF-8.
const asciiDecoder = new TextDecoder("latin1");

/** Growable columnar table of per-interval summaries. */
export class IntervalTable {
  n = 0;
  /** Seconds since the log's StartTime (the meaning of HistogramLogProcessor's -start/-end). */
  offsets = new Float64Array(64);
  lengths = new Float64Array(64);
  /** Max decoded from the histogram (highest equivalent value), in the recorded unit. */
  maxes = new Float64Array(64);
  counts = new Float64Array(64);
  /** The log's Interval_Max column, unit unstated: used only to infer the unit. */
  maxColumn = new Float64Array(64);
  /** Per-interval median (lowest equivalent value), for the saturation detector. */
  p50 = new Float64Array(64);
  /** Where each pushed row's payload is in the text it was read from (-1: not known), and its length. */
  private payloadAt = new Float64Array(64);
  private payloadLength = new Float64Array(64);
  /**
   * Payloads of the rows pushed here, in order (appended rows come after all of them); "" for a
   * row pushed by pushPlaced, whose payload is in `ownBytes`.
   */
  private readonly payloads: string[] = [];
  /** The bytes rows pushed by pushPlaced were read from (their payloadAt are positions in it). */
  private ownBytes: PayloadBytes | null = null;
  private readonly appended: AppendedPayloads[] = [];

  /**
   * `keepPayloads` false: the payloads are only placed (payloadAt), not kept; the table is then
   * only good for toColumns(), as a part another worker joins with the part's bytes.
   */
  constructor(private readonly keepPayloads = true) {}

  push(offset: number, length: number, max: number, count: number, maxColumn: number, payload: string, p50 = 0, payloadAt = -1): void {
    this.row(offset, length, max, count, maxColumn, p50, payloadAt, payload.length);
    if (this.keepPayloads) this.payloads.push(payload);
  }

  /** A new row's columns (push and pushPlaced). */
  private row(offset: number, length: number, max: number, count: number, maxColumn: number, p50: number, payloadAt: number, payloadLength: number): void {
    // Appended rows keep their payloads apart (see payload()): a row pushed after them would
    // take the index of one of theirs.
    if (this.appended.length > 0) throw new Error("no rows can be pushed after appended ones");
    if (this.n === this.offsets.length) this.grow();
    const i = this.n++;
    this.p50[i] = p50;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.maxes[i] = max;
    this.counts[i] = count;
    this.maxColumn[i] = maxColumn;
    this.payloadAt[i] = payloadAt;
    this.payloadLength[i] = payloadLength;
  }

  /**
   * push() for a row read from bytes in which every byte so far was one character: its payload
   * is not given as text but placed, `payloadLength` bytes at `payloadAt` of `source`, which a
   * table that keeps its payloads keeps (the same bytes for every such row).
   */
  pushPlaced(
    offset: number,
    length: number,
    max: number,
    count: number,
    maxColumn: number,
    payloadLength: number,
    p50: number,
    payloadAt: number,
    source: PayloadBytes | null,
  ): void {
    if (this.keepPayloads) {
      if (source === null || (this.ownBytes !== null && this.ownBytes !== source)) throw new Error("a row's payload must be in the table's own bytes");
      this.ownBytes = source;
    }
    this.row(offset, length, max, count, maxColumn, p50, payloadAt, payloadLength);
    if (this.keepPayloads) this.payloads.push("");
  }

  /** Row i's base64 histogram payload. */
  payload(i: number): string {
    if (i < this.payloads.length) {
      const p = this.payloads[i]!;
      if (p !== "" || this.ownBytes === null) return p;
      const at = this.payloadAt[i]!;
      return asciiDecoder.decode(this.ownBytes.subarray(at, at + this.payloadLength[i]!));
    }
    for (const a of this.appended) {
      const k = i - a.from;
      if (k < 0 || k >= a.n) continue;
      const at = a.at[k]!;
      const end = at + a.length[k]!;
      return typeof a.source === "string" ? a.source.slice(at, end) : asciiDecoder.decode(a.source.subarray(at, end));
    }
    throw new RangeError(`row ${i}'s payload is not kept (table of ${this.n})`);
  }

  /** Every row's payload, in order (tests and checks). */
  allPayloads(): string[] {
    return Array.from({ length: this.n }, (_, i) => this.payload(i));
  }

  /**
   * Appends rows given as columns (another worker's part of the same log); `source` is what that
   * worker read them from, where their payloads are.
   */
  appendColumns(c: TableColumns, source: PayloadSource): void {
    if (c.n === 0) return;
    if (!this.keepPayloads) throw new Error("rows can only be appended to a table that keeps its payloads");
    const outside = firstOutside(c, source.length);
    if (outside >= 0) throw new Error(`row ${outside}'s payload is not inside the part's text`);
    this.grow(this.n + c.n);
    const at = this.n;
    this.offsets.set(c.offsets.subarray(0, c.n), at);
    this.lengths.set(c.lengths.subarray(0, c.n), at);
    this.maxes.set(c.maxes.subarray(0, c.n), at);
    this.counts.set(c.counts.subarray(0, c.n), at);
    this.maxColumn.set(c.maxColumn.subarray(0, c.n), at);
    this.p50.set(c.p50.subarray(0, c.n), at);
    this.payloadAt.fill(-1, at, at + c.n);
    this.payloadLength.set(c.payloadLength.subarray(0, c.n), at);
    this.appended.push({ from: at, n: c.n, source, at: c.payloadAt, length: c.payloadLength });
    this.n += c.n;
  }

  /** The rows as trimmed columns, ready to be transferred to another worker. */
  toColumns(): TableColumns {
    const n = this.n;
    return {
      n,
      offsets: this.offsets.slice(0, n),
      lengths: this.lengths.slice(0, n),
      maxes: this.maxes.slice(0, n),
      counts: this.counts.slice(0, n),
      maxColumn: this.maxColumn.slice(0, n),
      p50: this.p50.slice(0, n),
      payloadAt: this.payloadAt.slice(0, n),
      payloadLength: this.payloadLength.slice(0, n),
    };
  }

  /** Doubles the columns' room until it holds `rows` (by default, once), copying them once. */
  private grow(rows = this.offsets.length + 1): void {
    let size = this.offsets.length;
    while (size < rows) size *= 2;
    if (size === this.offsets.length) return;
    const g = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.offsets = g(this.offsets);
    this.lengths = g(this.lengths);
    this.maxes = g(this.maxes);
    this.counts = g(this.counts);
    this.maxColumn = g(this.maxColumn);
    this.p50 = g(this.p50);
    this.payloadAt = g(this.payloadAt);
    this.payloadLength = g(this.payloadLength);
  }
}

export type UnitSource = "interval-max" | "default" | "format" | "user";

export interface SeriesModel {
  id: string;
  name: string;
  /**
   * The name its file gave it, when the store renamed it to tell it from a loaded series of
   * the same name (two files with one stem): what a run's repeats are grouped by in a history.
   */
  givenName?: string;
  /** File name it came from. */
  source: string;
  /** Tag from the log, "" when untagged. */
  tag: string;
  recordedUnit: Unit;
  unitSource: UnitSource;
  /** All intervals merged (or the whole file for formats without intervals). */
  histogram: Histogram;
  intervals: IntervalTable | null;
  /** A coarse max-over-time (from a share link) when the intervals themselves are not known. */
  coarseTimeline?: { t0: number; t1: number; max: number[] } | null;
  /** Pre-merged blocks of the intervals, when they share one layout and are in time order. */
  blocks?: RangeSums | null;
  /** Log StartTime in seconds since epoch, when known. */
  startTime: number | null;
  /** What kind of input: "hlog", "hgrm", "wrk2", … */
  format: string;
  /** Configuration, throughput (ops/s) and kind: parsed from the name, editable. */
  config: string;
  throughput: number | null;
  kind: "response" | "service" | "";
  /** For a merged series: the names of the series it combines. */
  mergedFrom: string[];
  /** Requests that failed (load-generator formats): shown, never recorded as latencies. */
  failures: number;
  /**
   * Where a series asked from a server came from, in words (the address without credentials,
   * the range and the step): it travels in share links with the numbers.
   */
  origin?: string;
  /** A histogram of buckets that keeps no max: its top bucket and kind (the spectrum ends in "max within"). */
  bucketed?: { lowNs: number; highNs: number; detail: string };
}

/**
 * The first row whose payload is not inside `length` bytes (−1: none). Its own function, so
 * that the optimising compiler, when this pass over a part's rows runs long, compiles the pass
 * and not all of appendColumns.
 */
function firstOutside(c: TableColumns, length: number): number {
  for (let k = 0; k < c.n; k++) if (!(c.payloadAt[k]! >= 0 && c.payloadAt[k]! + c.payloadLength[k]! <= length)) return k;
  return -1;
}

/**
 * A log does not say its unit. The Interval_Max column is the interval's max divided by a
 * ratio (jHiccup and cassandra-stress write ns values with the column in ms: ratio 1e6;
 * hdr-histogram-js's writer defaults to 1e3). Taking the column to be in ms, the ratio between
 * the decoded max and the column names the recorded unit. Uses the largest maxima, where the
 * column's rounding to 3 decimals matters least.
 */
export function inferUnitFromIntervalMax(t: IntervalTable): Unit | null {
  let best = -1;
  for (let i = 0; i < t.n; i++) {
    if (t.maxColumn[i]! > 0 && t.maxes[i]! > 0 && (best < 0 || t.maxColumn[i]! > t.maxColumn[best]!)) best = i;
  }
  if (best < 0) return null;
  const ratio = t.maxes[best]! / t.maxColumn[best]!;
  const decades = Math.log10(ratio);
  const k = Math.round(decades / 3) * 3;
  // Allow for the histogram's resolution and the column's rounding, not for other ratios.
  if (Math.abs(decades - k) > 0.35) return null;
  switch (k) {
    case 6:
      return "ns";
    case 3:
      return "us";
    case 0:
      return "ms";
    case -3:
      return "s";
    default:
      return null;
  }
}
