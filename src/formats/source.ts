// What every line-based input reader produces. A reader takes one line at a time (the engine
// streams files through it and never holds a big file as one string) and, at the end, returns
// its series and the problems it met.
import type { Histogram } from "../core/histogram";
import type { LoadProblem, Unit } from "../core/types";

export interface ParsedInterval {
  /** Seconds since the source's start time. */
  start: number;
  length: number;
  histogram: Histogram;
}

export interface ParsedSeries {
  /** Display name; usually the file's base name, plus the label for multi-label files. */
  name: string;
  /** Label or tag within the file ("" when the file has one series). */
  tag: string;
  /** Unit the histogram's values are recorded in. */
  unit: Unit;
  /** All values of the series (64-bit counts). */
  histogram: Histogram;
  /** Per-interval histograms when the input has timestamps; null otherwise. */
  intervals: ParsedInterval[] | null;
  /** Start time, seconds since epoch, when known. */
  startTime: number | null;
  /** Requests that failed (JMeter success=false, Gatling KO, …): counted and shown, not recorded as latencies. */
  failures?: number;
  /** A histogram of buckets that keeps no max (Prometheus): where its top lies, and what it is. */
  bucketed?: Bucketed;
  /**
   * The same intervals as columns of recorded values (a step of a few buckets each): the load
   * keeps them as sparse counts instead of a compressed payload per interval.
   */
  sparse?: SparseIntervals;
}

/**
 * Intervals as columns: row i's counts are counts[rowStart[i] … rowStart[i + 1]) at the
 * ascending counts-array indices beside them, in HdrHistogram's layout for (digits, lowest);
 * `highest` is what a histogram of one row declares.
 */
export interface SparseIntervals {
  n: number;
  /** Seconds since the series' start time. */
  starts: Float64Array<ArrayBuffer>;
  lengths: Float64Array<ArrayBuffer>;
  rowStart: Int32Array;
  /** Counts-array indices, less `base` when 16-bit (a series' buckets span few powers of two). */
  indices: Int32Array | Uint16Array;
  base?: number;
  /** Whole counts in the narrowest type every one fits (a fleet's millions of them). */
  counts: Float64Array | Uint32Array | Uint16Array | Uint8Array;
  digits: number;
  lowest: number;
  highest: number;
}

/** The top bucket holding a value, (lowNs, highNs] (highNs Infinity: open), and the histogram's kind in words. */
export interface Bucketed {
  lowNs: number;
  highNs: number;
  detail: string;
}

export interface ParsedSource {
  /** Format id: "samples", "jmeter", "gatling", "k6", "vegeta", … */
  format: string;
  series: ParsedSeries[];
  problems: LoadProblem[];
}

export interface LineParser {
  line(text: string, lineNo: number): void;
  /** A reader that can take a line longer than the app holds in pieces (see LineSink.piece). */
  piece?(text: string, lineNo: number): void;
  /** With `piece`: the length past which a line comes in pieces (default: only past what the app holds). */
  readonly pieceFrom?: number;
  finish(): ParsedSource;
}

/** Options for raw samples (plain values or CSV/TSV): which columns, which units. */
export interface SampleOptions {
  /** Column (header name or 0-based index) holding the latency; default: guessed. */
  valueColumn?: string | number;
  timestampColumn?: string | number | null;
  labelColumn?: string | number | null;
  valueUnit?: Unit;
  /** Unit of timestamps: "s" or "ms" since epoch (or since start). */
  timestampUnit?: "s" | "ms" | "us" | "ns";
  /** Interval length in seconds for cutting timestamped samples (default 1). */
  intervalSec?: number;
  /** Expected interval between requests, in the value unit, for recordValueWithExpectedInterval (coordinated-omission correction); 0 or absent: none. */
  expectedInterval?: number;
}

export interface FormatReader {
  id: string;
  /**
   * A name that says what the file is whatever its first lines look like (.jtl, simulation.log).
   * Every format's name match is tried, in registry order (formats/detect.ts FORMATS), before
   * any content detection.
   */
  nameMatch?(name: string): boolean;
  /** By content (`head` is the first few KB of text); may look at the name too. */
  detect(name: string, head: string): boolean;
  create(name: string, options?: SampleOptions): LineParser;
}

/**
 * HdrHistogram's own formats: detected through the same registry as every reader, but read by
 * the engine's own sinks rather than a LineParser (an interval log keeps each payload's text for
 * later queries and is read in parts on helper workers; a percentile file is parsed whole).
 */
export interface HdrFormat {
  id: "hlog" | "percentiles";
  nameMatch(name: string): boolean;
  detect(name: string, head: string): boolean;
  create?: undefined;
}

/** Anything the registry can pick for a file. */
export type Format = FormatReader | HdrFormat;

/** A reader of a binary format: takes the file's bytes in chunks, in order. */
export interface BytesParser {
  push(bytes: Uint8Array): void;
  finish(): ParsedSource;
}

/**
 * A binary format (Gatling 3.13's simulation.log): told by its first bytes, read from bytes,
 * never from text (decoding as UTF-8 would lose them). Tried before any text format
 * (formats/detect.ts pickBytesReader).
 */
export interface FormatBytesReader {
  id: string;
  /** Whether the file's first bytes (at least BYTES_SNIFF_LENGTH of them, when it has that many) are this format's. */
  sniff(head: Uint8Array, name: string): boolean;
  create(name: string, options?: SampleOptions): BytesParser;
}
