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
   * The payloads joined by "\n" (base64 never holds one). Posting one string to another worker
   * is a copy of its bytes; 43,200 strings of half a 24-hour log cost ~50 ms to serialise and
   * deserialise, on the load's critical path.
   */
  payloadText: string;
}

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
  payloads: string[] = [];

  push(offset: number, length: number, max: number, count: number, maxColumn: number, payload: string, p50 = 0): void {
    if (this.n === this.offsets.length) this.grow();
    const i = this.n++;
    this.p50[i] = p50;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.maxes[i] = max;
    this.counts[i] = count;
    this.maxColumn[i] = maxColumn;
    this.payloads.push(payload);
  }

  /** Appends rows given as columns (another worker's part of the same log). */
  appendColumns(c: TableColumns): void {
    if (c.n === 0) return;
    const payloads = c.payloadText.split("\n");
    if (payloads.length !== c.n) throw new Error(`columns hold ${payloads.length} payloads for ${c.n} rows`);
    while (this.offsets.length < this.n + c.n) this.grow();
    const at = this.n;
    this.offsets.set(c.offsets.subarray(0, c.n), at);
    this.lengths.set(c.lengths.subarray(0, c.n), at);
    this.maxes.set(c.maxes.subarray(0, c.n), at);
    this.counts.set(c.counts.subarray(0, c.n), at);
    this.maxColumn.set(c.maxColumn.subarray(0, c.n), at);
    this.p50.set(c.p50.subarray(0, c.n), at);
    // concat, not 43,200 pushes: this runs once, cold, on the load's critical path.
    this.payloads = this.payloads.concat(payloads);
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
      payloadText: this.payloads.join("\n"),
    };
  }

  private grow(): void {
    const size = this.offsets.length * 2;
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
  }
}

export type UnitSource = "interval-max" | "default" | "format" | "user";

export interface SeriesModel {
  id: string;
  name: string;
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
