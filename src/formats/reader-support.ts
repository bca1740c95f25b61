// Shared machinery of the load-generator readers (samples, JMeter, Gatling, k6, Vegeta): exact
// decimal parsing, timestamps, CSV fields, a capped problem list, and the collector that turns
// (label, value, time) samples into series of histograms without ever keeping the samples.
import type { Histogram } from "../core/histogram";
import { newHistogram } from "../core/histogram";
import { NANOS_PER_UNIT, type LoadProblem, type Unit } from "../core/types";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedInterval, ParsedSeries, ParsedSource, SampleOptions } from "./source";

// ---------------------------------------------------------------------------------------------
// Problems

/** Bad lines listed one by one; past this, one summary problem with their number. */
export const MAX_LINE_PROBLEMS = 20;

export class Problems {
  private readonly listed: LoadProblem[] = [];
  private readonly fileLevel: LoadProblem[] = [];
  private readonly onceKeys = new Set<string>();
  /** Lines that were skipped (or partly skipped) because of a problem. */
  skipped = 0;

  constructor(readonly file: string) {}

  /** A bad line: listed while fewer than MAX_LINE_PROBLEMS were, counted always. */
  line(lineNo: number, reason: string): void {
    this.skipped++;
    if (this.listed.length < MAX_LINE_PROBLEMS) this.listed.push({ file: this.file, line: lineNo, reason });
  }

  /** A problem about the whole file (or a line, but not a skipped one), reported once per key. */
  once(key: string, line: number | null, reason: string): void {
    if (this.onceKeys.has(key)) return;
    this.onceKeys.add(key);
    this.fileLevel.push({ file: this.file, line, reason });
  }

  list(): LoadProblem[] {
    const out = [...this.fileLevel, ...this.listed];
    if (this.skipped > MAX_LINE_PROBLEMS) {
      out.push({ file: this.file, line: null, reason: `${this.skipped} lines skipped (the first ${MAX_LINE_PROBLEMS} are listed)` });
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Exact decimals

export type Scaled = { ok: true; value: number } | { ok: false; reason: string };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,6}))?$/;

/**
 * The decimal text × 10^scaleDigits as an integer digit string, rounded half up, computed on the
 * digits (no floating point: "12.3455" at 3 digits is 12346, where 12.3455 * 1000 is 12345.4999…).
 * null for text that is not a plain decimal number.
 */
export function scaleDecimalDigits(text: string, scaleDigits: number): { negative: boolean; digits: string } | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const int = m[2] ?? "";
  const frac = m[3] ?? "";
  if (int.length + frac.length === 0) return null;
  let all = int + frac;
  let point = int.length + Number(m[4] ?? 0) + scaleDigits; // digits before the decimal point
  const lead = all.length - all.replace(/^0+/, "").length;
  all = all.slice(lead);
  point -= lead;
  if (all === "") return { negative: false, digits: "0" };
  if (point > 40) return { negative: m[1] === "-", digits: "9".repeat(41) }; // far beyond any bound
  let intPart: string;
  let roundDigit: number;
  if (point <= 0) {
    intPart = "0";
    roundDigit = point === 0 ? all.charCodeAt(0) - 48 : 0;
  } else if (point >= all.length) {
    intPart = all + "0".repeat(point - all.length);
    roundDigit = 0;
  } else {
    intPart = all.slice(0, point);
    roundDigit = all.charCodeAt(point) - 48;
  }
  if (roundDigit >= 5) intPart = incrementDigits(intPart);
  return { negative: m[1] === "-" && /[1-9]/.test(intPart), digits: intPart };
}

function incrementDigits(s: string): string {
  const d = s.split("");
  let i = d.length - 1;
  while (i >= 0) {
    if (d[i] === "9") {
      d[i] = "0";
      i--;
    } else {
      d[i] = String.fromCharCode(d[i]!.charCodeAt(0) + 1);
      return d.join("");
    }
  }
  return "1" + d.join("");
}

/** Decimal places written in a number's text ("12.50" → 2, "1e-3" → 3, "7" → 0). */
export function decimalsOf(text: string): number {
  const m = DECIMAL.exec(text);
  if (!m) return 0;
  return Math.max(0, (m[3] ?? "").replace(/0+$/, "").length - Number(m[4] ?? 0));
}

/**
 * A latency as an integer in the unit 10^-scaleDigits of the written one, checked: a number,
 * not negative, at most `max`. `what` names the value in the reasons.
 */
export function parseLatency(text: string, scaleDigits: number, max: number, what = "latency"): Scaled {
  const t = text.trim();
  if (t === "") return { ok: false, reason: `${what} is empty` };
  const s = scaleDecimalDigits(t, scaleDigits);
  if (!s) {
    if (/^[+-]?(nan|inf|infinity)$/i.test(t)) return { ok: false, reason: `${what} ${JSON.stringify(t)} is not a finite number` };
    return { ok: false, reason: `${what} ${JSON.stringify(clip(t))} is not a number` };
  }
  if (s.negative) return { ok: false, reason: `${what} ${clip(t)} is negative` };
  if (s.digits.length > 16 || Number(s.digits) > max) return { ok: false, reason: `${what} ${clip(t)} is too large (limit ${describeLimit(max, scaleDigits)})` };
  return { ok: true, value: Number(s.digits) };
}

function describeLimit(max: number, scaleDigits: number): string {
  return scaleDigits === 0 ? String(max) : `${max / 10 ** scaleDigits}`;
}

/** Short form of user text for a problem message. */
export function clip(text: string, n = 40): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

// ---------------------------------------------------------------------------------------------
// Units and limits

/** Latencies above one hour are refused: a bad value, and one would widen every histogram. */
export const MAX_LATENCY_NS = 3600e9;

export function maxLatencyIn(unit: Unit): number {
  return MAX_LATENCY_NS / NANOS_PER_UNIT[unit];
}

/** The unit 10^-3·k of `unit`, k steps finer (capped at ns), and the steps actually taken. */
export function finerUnit(unit: Unit, steps: number): { unit: Unit; steps: number } {
  const order: Unit[] = ["s", "ms", "us", "ns"];
  const from = order.indexOf(unit);
  const to = Math.min(order.length - 1, from + Math.max(0, steps));
  return { unit: order[to]!, steps: to - from };
}

// ---------------------------------------------------------------------------------------------
// Time

/** A point in time: whole seconds and nanoseconds (exact for 19-digit epoch nanoseconds). */
export interface Instant {
  sec: number;
  ns: number;
}

export type TimeUnit = "s" | "ms" | "us" | "ns";
const TIME_DIGITS: Record<TimeUnit, number> = { s: 9, ms: 6, us: 3, ns: 0 };

export type TimeResult = { ok: true; at: Instant } | { ok: false; reason: string };

const PER_SECOND: Record<TimeUnit, number> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };
const PLAIN_INTEGER = /^\d{1,15}$/;

/** A numeric timestamp in `unit` since the epoch (or since some start), exactly. */
export function parseNumericTime(text: string, unit: TimeUnit): TimeResult {
  if (PLAIN_INTEGER.test(text)) {
    // the common case, exact in floating point: whole s, ms or µs (ns epochs have 19 digits)
    const v = Number(text);
    const per = PER_SECOND[unit];
    const sec = Math.floor(v / per);
    return { ok: true, at: { sec, ns: (v - sec * per) * (1e9 / per) } };
  }
  const s = scaleDecimalDigits(text.trim(), TIME_DIGITS[unit]);
  if (!s) return { ok: false, reason: `timestamp ${JSON.stringify(clip(text.trim()))} is not a number` };
  if (s.negative) return { ok: false, reason: `timestamp ${clip(text.trim())} is negative` };
  if (s.digits.length > 21) return { ok: false, reason: `timestamp ${clip(text.trim())} is too large` };
  const d = s.digits;
  const sec = d.length > 9 ? Number(d.slice(0, d.length - 9)) : 0;
  const ns = Number(d.length > 9 ? d.slice(d.length - 9) : d);
  return { ok: true, at: { sec, ns } };
}

/** Unit of an epoch timestamp guessed from its magnitude (up to year 5000 in each unit). */
export function guessEpochUnit(text: string): TimeUnit {
  const v = Math.abs(Number(text.trim()));
  if (!(v < 1e11)) {
    if (v < 1e14) return "ms";
    if (v < 1e17) return "us";
    return "ns";
  }
  return "s";
}

const DATE_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

let lastDateKey = "";
let lastDateSec = 0;

/** RFC 3339 / ISO 8601 date-times ("2026-01-02T03:04:05.123456789+02:00"); no zone means UTC. */
export function parseDateTime(text: string): TimeResult {
  // Consecutive lines mostly share the second: reuse it when only the fraction differs.
  const t = text.trim();
  const dot = t.length > 20 && t.charCodeAt(19) === 46 ? 19 : -1;
  if (dot > 0) {
    let end = dot + 1;
    while (end < t.length && t.charCodeAt(end) >= 48 && t.charCodeAt(end) <= 57) end++;
    const key = t.slice(0, dot) + t.slice(end);
    if (key === lastDateKey && end > dot + 1) return { ok: true, at: { sec: lastDateSec, ns: Number((t.slice(dot + 1, end) + "000000000").slice(0, 9)) } };
  }
  const r = parseDateTimeUncached(t);
  if (r.ok && dot > 0) {
    let end = dot + 1;
    while (end < t.length && t.charCodeAt(end) >= 48 && t.charCodeAt(end) <= 57) end++;
    lastDateKey = t.slice(0, dot) + t.slice(end);
    lastDateSec = r.at.sec;
  }
  return r;
}

function parseDateTimeUncached(text: string): TimeResult {
  const m = DATE_TIME.exec(text);
  if (!m) return { ok: false, reason: `timestamp ${JSON.stringify(clip(text.trim()))} is not a date-time` };
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return { ok: false, reason: `timestamp ${clip(text.trim())} is not a valid date-time` };
  }
  let offsetSec = 0;
  if (zone && zone !== "Z" && zone !== "z" && zone !== "UTC") {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    offsetSec = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 3600 + Number(z[3] ?? 0) * 60);
  }
  const ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  if (!Number.isFinite(ms)) return { ok: false, reason: `timestamp ${clip(text.trim())} is not a valid date-time` };
  const sec = ms / 1000 - offsetSec;
  if (sec < 0) return { ok: false, reason: `timestamp ${clip(text.trim())} is before 1970` };
  const ns = frac ? Number((frac + "000000000").slice(0, 9)) : 0;
  return { ok: true, at: { sec, ns } };
}

/** Seconds from `a` to `b`. */
export function secondsBetween(a: Instant, b: Instant): number {
  return b.sec - a.sec + (b.ns - a.ns) / 1e9;
}

/** Epoch seconds of an instant, or null when it is not plausibly an epoch (before 1973). */
export function epochSeconds(at: Instant): number | null {
  return at.sec >= 1e8 ? at.sec + at.ns / 1e9 : null;
}

// ---------------------------------------------------------------------------------------------
// CSV

/**
 * Splits one CSV record (RFC 4180 quoting: "a ""b""" is `a "b"`). Returns null when a quoted
 * field is still open at the end of the text: the record continues on the next line.
 */
export function splitCsv(text: string, delimiter: string): string[] | null {
  if (text.indexOf('"') < 0) return text.split(delimiter);
  const out: string[] = [];
  const n = text.length;
  const d = delimiter.charCodeAt(0);
  let i = 0;
  for (;;) {
    if (i < n && text.charCodeAt(i) === 34) {
      // quoted field
      let field = "";
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return null;
        field += text.slice(i, q);
        if (q + 1 < n && text.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      // tolerate junk between the closing quote and the delimiter
      const next = text.indexOf(delimiter, i);
      if (next < 0) {
        out.push(field + text.slice(i));
        return out;
      }
      out.push(field + text.slice(i, next));
      i = next + 1;
    } else {
      let j = i;
      while (j < n && text.charCodeAt(j) !== d) j++;
      out.push(text.slice(i, j));
      if (j >= n) return out;
      i = j + 1;
    }
  }
}

/**
 * Whether a quoted field is still open at the end of `text`, read as splitCsv reads it, starting
 * inside a quoted field (`quoted`) or at the start of a field. One pass: the continuation lines of
 * an open record are each scanned once, never the record from its start again.
 */
export function quoteOpenAtEnd(text: string, delimiter: string, quoted: boolean): boolean {
  const n = text.length;
  let i = 0;
  // Each turn consumes text up to a quote or a delimiter found with indexOf: bounded by n.
  for (;;) {
    if (quoted) {
      const q = text.indexOf('"', i);
      if (q < 0) return true;
      if (q + 1 < n && text.charCodeAt(q + 1) === 34) {
        i = q + 2; // "" inside a quoted field
        continue;
      }
      // closed; as in splitCsv, anything up to the next delimiter belongs to this field
      const next = text.indexOf(delimiter, q + 1);
      if (next < 0) return false;
      i = next + 1;
      quoted = false;
    }
    if (i < n && text.charCodeAt(i) === 34) {
      quoted = true;
      i++;
      continue;
    }
    const next = text.indexOf(delimiter, i);
    if (next < 0) return false;
    i = next + 1;
  }
}

/** Longest CSV record we assemble across lines (a quoted field with line breaks). */
export const MAX_RECORD_CHARS = 1024 * 1024;
/** Most lines one record may span: a stray quote must not swallow the rest of a file. */
export const MAX_RECORD_LINES = 10_000;

/**
 * Assembles CSV records from lines: a quoted field may hold line breaks, so a record can span
 * lines. Returns the fields and the record's first line number, or null while a record is open.
 * The quote state is kept across lines (each line is scanned once) and an open record is bounded
 * (MAX_RECORD_CHARS, MAX_RECORD_LINES): past either it is dropped with a problem on the line
 * where its quote opened, and reading goes on with the next line as a new record.
 */
export class CsvRecords {
  private pending: string[] = [];
  private pendingChars = 0;
  private pendingLine = 0;

  constructor(
    private readonly delimiter: string,
    private readonly problems: Problems,
  ) {}

  /** A quoted field is open: the next line continues the record. */
  get open(): boolean {
    return this.pendingLine > 0;
  }

  /** Like push, but a blank line between records is skipped, not read as an empty record. */
  pushRow(text: string, lineNo: number): { fields: string[]; lineNo: number } | null {
    return !this.open && text.trim() === "" ? null : this.push(text, lineNo);
  }

  push(text: string, lineNo: number): { fields: string[]; lineNo: number } | null {
    if (this.pendingLine === 0) {
      const fields = splitCsv(text, this.delimiter);
      if (fields) return { fields, lineNo };
      this.pending = [text];
      this.pendingChars = text.length;
      this.pendingLine = lineNo;
      return this.checkBounds(lineNo);
    }
    // The record so far ends inside a quoted field, and so does the line break after it: only the
    // new line needs scanning to know whether the record ends here.
    this.pending.push(text);
    this.pendingChars += text.length + 1;
    if (quoteOpenAtEnd(text, this.delimiter, true)) return this.checkBounds(lineNo);
    const first = this.pendingLine;
    const record = this.pending.join("\n");
    this.reset();
    // Closed, so splitCsv gives fields (one pass over the record, once).
    const fields = splitCsv(record, this.delimiter);
    return fields ? { fields, lineNo: first } : null;
  }

  private checkBounds(lineNo: number): null {
    const lines = this.pending.length;
    if (this.pendingChars > MAX_RECORD_CHARS || lines >= MAX_RECORD_LINES) {
      const first = this.pendingLine;
      const limit = this.pendingChars > MAX_RECORD_CHARS ? `${MAX_RECORD_CHARS} characters` : `${MAX_RECORD_LINES} lines`;
      this.problems.line(first, `a quoted field opened on this line is not closed within ${limit}: lines ${first}–${lineNo} skipped, reading goes on at line ${lineNo + 1}`);
      this.reset();
    }
    return null;
  }

  private reset(): void {
    this.pending = [];
    this.pendingChars = 0;
    this.pendingLine = 0;
  }

  /** A record still open at the end of the input. */
  finish(): void {
    if (this.pendingLine > 0) this.problems.line(this.pendingLine, "the file ends inside a quoted field (opened on this line): last record skipped");
    this.reset();
  }
}

/** Guesses the delimiter of a header or data line: tab, comma or semicolon (most fields wins). */
export function guessDelimiter(line: string): "\t" | "," | ";" | null {
  let best: "\t" | "," | ";" | null = null;
  let bestCount = 0;
  for (const d of ["\t", ",", ";"] as const) {
    const f = splitCsv(line, d);
    const count = f ? f.length - 1 : 0;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Names

// ---------------------------------------------------------------------------------------------
// Series collection

/** Labels kept as their own series; samples of further labels go to one "(other labels)" series. */
export const MAX_SERIES = 200;
export const OTHER_LABELS = "(other labels)";
/** Samples further than this from the first timestamp are refused (a bad timestamp). */
export const MAX_SPAN_SEC = 366 * 24 * 3600;
/** Memory for per-interval histograms; past it, intervals are merged in pairs (length doubles). */
export const INTERVAL_BUDGET_BYTES = 192 * 1024 * 1024;
/** Values whose back-fill one histogram defers before it is added (memory, and cost per flush). */
const BACKFILL_BATCH = 1 << 16;
/** Deferred values all histograms of a collector hold together before all are flushed (32 MB). */
const BACKFILL_PENDING_LIMIT = 1 << 22;

export interface CollectorOptions {
  file: string;
  unit: Unit;
  /** Interval length in seconds (default 1). */
  intervalSec?: number;
  /** Expected interval between samples, in `unit`: recordValueWithExpectedInterval. */
  expectedInterval?: number;
  maxSeries?: number;
  intervalBudgetBytes?: number;
}

interface IntervalSlot {
  h: Histogram;
  bytes: number;
  top: number; // highestTrackableValue when `bytes` was read
  backfill: Backfill | null;
}

interface SeriesState {
  label: string;
  histogram: Histogram;
  intervals: Map<number, IntervalSlot>;
  failures: number;
  backfill: Backfill | null;
}

/** The library's JS histogram internals the back-fill uses (at runtime; not in its public typings). */
interface BucketMath {
  countsArrayIndex(v: number): number;
  valueFromIndex(index: number): number;
  /** What recordValueWithCount does, in parts: a count at an index, the total, min and max. */
  addToCountAtIndex?(index: number, count: number): void;
  addToTotalCount?(count: number): void;
  updateMinAndMax?(value: number): void;
}

/**
 * Coordinated-omission back-fill as HdrHistogram's recordValueWithExpectedInterval(v, e) does it
 * (v itself, then v - e, v - 2e, … down to the last value ≥ e), with the back-filled values of
 * many recorded values added together, bucket by bucket: the cost of a flush is the number of
 * buckets between e and the largest value (plus a log per value), not v/e per value (at e = 1 ns
 * a 100 ms value is 10^8 values, and even one call per bucket was thousands per value).
 *
 * The values v - je (j = 1 … q-1, where v = qe + r, 0 ≤ r < e) are r + je: per bucket [lo, hi]
 * their number is G(hi) - G(lo - 1) with G(x) = floor((x - r)/e) = floor(x/e) - [r > x mod e]
 * (for x ≥ r). Summed over the values that cover a bucket entirely that is
 * count·(floor(hi/e) - floor((lo-1)/e)) - #{r > hi mod e} + #{r > (lo-1) mod e}, counted with a
 * Fenwick tree over the residues; a value whose top (v - e) lies inside the bucket adds its own part.
 */
export class Backfill {
  private values = new Float64Array(64);
  private n = 0;

  constructor(readonly expected: number) {}

  get pending(): number {
    return this.n;
  }

  /** A value that was recorded (on its own) and still needs its back-fill; v ≥ 2e. */
  add(v: number): void {
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = v;
  }

  /** Adds the back-filled values of every pending value to `h` (which holds the values themselves) and empties. */
  flushInto(h: Histogram): void {
    const n = this.n;
    if (n === 0) return;
    const e = this.expected;
    const vals = this.values.slice(0, n).sort();
    this.n = 0;
    if (this.values.length > 4096) this.values = new Float64Array(64);
    // Residues, distinct and sorted: the Fenwick tree's positions.
    const residues = vals.map((v) => v % e).sort();
    let distinct = 0;
    for (let i = 0; i < n; i++) if (i === 0 || residues[i] !== residues[distinct - 1]) residues[distinct++] = residues[i]!;
    const uniq = residues.subarray(0, distinct);
    const tree = new Float64Array(distinct + 1);
    let active = 0;
    /** How many distinct residues are ≤ t: the tree prefix that counts active residues ≤ t. */
    const upper = (t: number): number => {
      let lo = 0;
      let hi = distinct;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (uniq[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const greater = (t: number): number => {
      let c = 0;
      for (let k = upper(t); k > 0; k -= k & -k) c += tree[k]!;
      return active - c;
    };
    const insert = (r: number): void => {
      for (let k = upper(r); k <= distinct; k += k & -k) tree[k]!++;
      active++;
    };
    // The smallest back-filled value is e + the smallest residue: recorded as itself, so the
    // histogram's min is what the library's loop would leave; other buckets at their lowest value.
    const smallest = e + uniq[0]!;
    const math = h as unknown as BucketMath;
    // Counts go straight into the counts array (the bucket indices are known; all lie below the
    // recorded v, so no resize), the total once: recordValueWithCount per bucket recomputed each
    // index from its value (~5× slower). Its public path if the internals differ.
    const direct = typeof math.addToCountAtIndex === "function" && typeof math.addToTotalCount === "function" && typeof math.updateMinAndMax === "function";
    let added = 0;
    let p = n - 1;
    const lowestIndex = math.countsArrayIndex(e);
    const topIndex = math.countsArrayIndex(vals[n - 1]! - e);
    // Buckets from the one holding the largest top (v - e) down to the one holding e: bounded by
    // the histogram's bucket count. Buckets are contiguous (one's top is the next one's lowest - 1)
    // and of one width per run of subBucketHalfCount indices (HdrHistogram's layout), so the
    // library's valueFromIndex (a pow per call: most of the time spent) runs once per run.
    const half = 2 ** (Math.ceil(Math.log2(2 * 10 ** h.numberOfSignificantValueDigits)) - 1);
    let above = math.valueFromIndex(topIndex + 1);
    let width = 0;
    for (let index = topIndex; index >= lowestIndex; index--) {
      if (index === topIndex || (index + 1) % half === 0) width = above - math.valueFromIndex(index);
      const lo = above - width;
      const hi = above - 1;
      above = lo;
      const from = Math.max(lo, e); // back-filled values are ≥ e
      let count = 0;
      if (active > 0) {
        // quotients and remainders without `%`: on values above 2^31 it is a floating-point fmod
        // call, which took most of the time per bucket
        const qHi = Math.floor(hi / e);
        const qFrom = Math.floor((from - 1) / e);
        const rHi = hi - qHi * e;
        const rFrom = from - 1 - qFrom * e;
        count += active * (qHi - qFrom);
        // one residue (always at e = 1): the counts of larger residues without the tree
        if (distinct === 1) count += (uniq[0]! > rFrom ? active : 0) - (uniq[0]! > rHi ? active : 0);
        else count += greater(rFrom) - greater(rHi);
      }
      const firstHere = p;
      while (p >= 0 && vals[p]! - e >= from) {
        const v = vals[p]!;
        const r = v % e;
        count += (v - r) / e - 1 - Math.floor((from - 1 - r) / e);
        p--;
      }
      // Those values cover every bucket below this one entirely.
      for (let k = firstHere; k > p; k--) insert(vals[k]! % e);
      if (count <= 0) continue;
      const at = Math.max(lo, smallest);
      if (direct) {
        math.addToCountAtIndex!(index, count);
        // per bucket, as recordValueWithCount(at) would: values within the unit mask leave the
        // min alone, so the lowest bucket alone does not decide it
        math.updateMinAndMax!(at);
        added += count;
      } else h.recordValueWithCount(at, count);
    }
    if (added > 0) math.addToTotalCount!(added);
  }
}

/**
 * Records samples into one histogram per label (and per interval when samples have times).
 * Values must already be integers in the collector's unit and within maxLatencyIn(unit).
 */
export class SeriesCollector {
  readonly unit: Unit;
  private readonly series = new Map<string, SeriesState>();
  private readonly order: string[] = [];
  private intervalSec: number;
  private readonly expected: number;
  private readonly maxSeries: number;
  private readonly budget: number;
  private first: Instant | null = null;
  private minIndex = Infinity;
  private intervalBytes = 0;
  private timed = 0;
  private untimed = 0;
  /** Values whose back-fill is deferred, over all histograms. */
  private pendingBackfill = 0;

  constructor(
    private readonly options: CollectorOptions,
    private readonly problems: Problems,
  ) {
    this.unit = options.unit;
    const iv = options.intervalSec;
    this.intervalSec = iv !== undefined && Number.isFinite(iv) && iv > 0 ? iv : 1;
    const e = options.expectedInterval;
    this.expected = e !== undefined && Number.isFinite(e) && e > 0 ? Math.max(1, Math.round(e)) : 0;
    this.maxSeries = options.maxSeries ?? MAX_SERIES;
    this.budget = options.intervalBudgetBytes ?? INTERVAL_BUDGET_BYTES;
  }

  get currentIntervalSec(): number {
    return this.intervalSec;
  }

  /**
   * The interval index of a time, fixing the time base on the first call. null (with a problem)
   * when the time is implausibly far from the first one.
   */
  private indexOf(at: Instant, lineNo: number): number | null {
    if (!this.first) this.first = at;
    const offset = secondsBetween(this.first, at);
    if (!(Math.abs(offset) <= MAX_SPAN_SEC)) {
      this.problems.line(lineNo, `timestamp is ${Math.round(offset / 86400)} days from the first one (limit ${MAX_SPAN_SEC / 86400} days): line skipped`);
      return null;
    }
    return Math.floor(offset / this.intervalSec);
  }

  /** Marks the start of the data even when the first samples are failures or unlabeled. */
  noteTime(at: Instant): void {
    if (!this.first) this.first = at;
  }

  private state(label: string): SeriesState {
    let s = this.series.get(label);
    if (s) return s;
    if (this.series.size >= this.maxSeries && label !== OTHER_LABELS) {
      this.problems.once("labels", null, `more than ${this.maxSeries} labels: samples of the others are merged into one series "${OTHER_LABELS}"`);
      return this.state(OTHER_LABELS);
    }
    s = { label, histogram: newHistogram(), intervals: new Map(), failures: 0, backfill: null };
    this.series.set(label, s);
    this.order.push(label);
    return s;
  }

  /** A successful sample. Returns false (after reporting) when the line had to be skipped. */
  record(label: string, value: number, at: Instant | null, lineNo: number): boolean {
    let index: number | null = null;
    if (at) {
      index = this.indexOf(at, lineNo);
      if (index === null) return false;
      this.timed++;
    } else this.untimed++;
    const s = this.state(label);
    this.recordInto(s.histogram, s, value);
    if (index !== null) {
      if (index < this.minIndex) this.minIndex = index;
      let slot = s.intervals.get(index);
      if (!slot) {
        // Sized for the previous interval's max: one allocation instead of a resize per new max.
        const prev = s.intervals.get(index - 1);
        const h = newHistogram(3, 1, prev ? Math.max(2, prev.h.maxValue) : 2);
        slot = { h, bytes: h.estimatedFootprintInBytes, top: h.highestTrackableValue, backfill: null };
        s.intervals.set(index, slot);
        this.intervalBytes += slot.bytes;
      }
      this.recordInto(slot.h, slot, value);
      if (slot.h.highestTrackableValue !== slot.top) {
        const bytes = slot.h.estimatedFootprintInBytes;
        this.intervalBytes += bytes - slot.bytes;
        slot.bytes = bytes;
        slot.top = slot.h.highestTrackableValue;
      }
      if (this.intervalBytes > this.budget) this.coarsen();
    }
    return true;
  }

  /** A failed request: counted for its label, not recorded as a latency. */
  fail(label: string, at: Instant | null, lineNo: number): boolean {
    if (at) {
      const index = this.indexOf(at, lineNo);
      if (index === null) return false;
    }
    this.state(label).failures++;
    return true;
  }

  /**
   * Records a value; with an expected interval e, its back-fill (recordValueWithExpectedInterval)
   * is deferred to `holder`'s Backfill and added in bulk (see Backfill). The value itself is
   * recorded now, so the histogram's range and max are right at once.
   */
  private recordInto(h: Histogram, holder: { backfill: Backfill | null }, value: number): void {
    h.recordValue(value);
    const e = this.expected;
    if (e <= 0 || value < 2 * e) return; // nothing to back-fill: v - e < e
    const b = (holder.backfill ??= new Backfill(e));
    b.add(value);
    this.pendingBackfill++;
    if (b.pending >= BACKFILL_BATCH) {
      this.pendingBackfill -= b.pending;
      b.flushInto(h);
    }
    if (this.pendingBackfill > BACKFILL_PENDING_LIMIT) this.flushBackfills();
  }

  /** Adds every deferred back-fill to its histogram. */
  private flushBackfills(): void {
    for (const s of this.series.values()) {
      s.backfill?.flushInto(s.histogram);
      for (const slot of s.intervals.values()) slot.backfill?.flushInto(slot.h);
    }
    this.pendingBackfill = 0;
  }

  /** Doubles the interval length, merging interval pairs, until the intervals fit the budget. */
  private coarsen(): void {
    // Merged histograms take their counts as they are: deferred back-fills go in first.
    this.flushBackfills();
    while (this.intervalBytes > this.budget && this.intervalSec < MAX_SPAN_SEC) {
      this.intervalSec *= 2;
      let bytes = 0;
      for (const s of this.series.values()) {
        const merged = new Map<number, IntervalSlot>();
        const keys = [...s.intervals.keys()].sort((a, b) => a - b);
        for (const k of keys) {
          const slot = s.intervals.get(k)!;
          const nk = Math.floor(k / 2);
          const into = merged.get(nk);
          if (into) {
            into.h.add(slot.h);
            into.bytes = into.h.estimatedFootprintInBytes;
            into.top = into.h.highestTrackableValue;
          } else merged.set(nk, slot);
        }
        s.intervals = merged;
        for (const slot of merged.values()) bytes += slot.bytes;
      }
      if (this.minIndex !== Infinity) this.minIndex = Math.floor(this.minIndex / 2);
      this.intervalBytes = bytes;
    }
    this.problems.once("coarsen", null, `too many intervals to keep in memory: intervals widened to ${this.intervalSec} s`);
  }

  /** How many series (labels) have been seen. */
  get labelCount(): number {
    return this.series.size;
  }

  finish(): ParsedSeries[] {
    this.flushBackfills();
    const base = fileBaseName(this.options.file);
    const labels = this.order;
    const single = labels.length === 1 && labels[0] === "";
    const hasIntervals = this.timed > 0 && this.minIndex !== Infinity;
    if (this.timed > 0 && this.untimed > 0) {
      this.problems.once(
        "untimed",
        null,
        this.untimed === 1
          ? "1 sample has no timestamp: it is in the totals but in no interval"
          : `${this.untimed} samples have no timestamp: they are in the totals but in no interval`,
      );
    }
    const shift = hasIntervals ? this.minIndex : 0;
    const startInstant = this.first ? { sec: this.first.sec + shift * this.intervalSec, ns: this.first.ns } : null;
    const startTime = startInstant ? epochSeconds(startInstant) : null;
    return labels.map((label) => {
      const s = this.series.get(label)!;
      let intervals: ParsedInterval[] | null = null;
      if (hasIntervals) {
        intervals = [...s.intervals.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([k, slot]) => ({ start: (k - shift) * this.intervalSec, length: this.intervalSec, histogram: slot.h }));
      }
      return {
        name: single || label === "" ? base : `${base} [${label}]`,
        tag: label,
        unit: this.unit,
        histogram: s.histogram,
        intervals,
        startTime,
        failures: s.failures,
      };
    });
  }
}

/**
 * What the load-generator readers (JMeter, Gatling, k6, Vegeta) share: per-line problems, one
 * series per label in a SeriesCollector, a count of the samples read (recorded or counted as
 * failed), a line that throws reported as an internal error on that line (the others still
 * read), and at the end "nothing found" when nothing was read and nothing skipped. A reader
 * implements readLine and emptyReason, calls record and fail, and may end what is still open
 * in finishRecords.
 */
export abstract class CollectingParser implements LineParser {
  protected readonly problems: Problems;
  protected readonly collector: SeriesCollector;
  /** Samples read: recorded or counted as failed. */
  protected counted = 0;

  constructor(
    private readonly format: string,
    options: CollectorOptions,
  ) {
    this.problems = new Problems(options.file);
    this.collector = new SeriesCollector(options, this.problems);
  }

  line(raw: string, lineNo: number): void {
    try {
      this.readLine(lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw, lineNo);
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  /** One line (the first without its byte-order mark). */
  protected abstract readLine(text: string, lineNo: number): void;

  /** What to say when the file held nothing to read; null: nothing (another problem said it). */
  protected abstract emptyReason(): string | null;

  /** Ends what the last lines left open (a CSV record). */
  protected finishRecords(): void {}

  /** A successful sample (an integer in the collector's unit). */
  protected record(label: string, value: number, at: Instant | null, lineNo: number): void {
    if (this.collector.record(label, value, at, lineNo)) this.counted++;
  }

  /** A failed request: counted, not recorded. */
  protected fail(label: string, at: Instant | null, lineNo: number): void {
    if (this.collector.fail(label, at, lineNo)) this.counted++;
  }

  /**
   * One request: counted when it failed, else its latency text (`scaleDigits` decimals finer
   * than `unit`, the collector's unit; `what` names it in a problem) parsed and recorded.
   */
  protected latencySample(label: string, failed: boolean, text: string, at: Instant | null, lineNo: number, latency: { scaleDigits: number; unit: Unit; what: string }): void {
    if (failed) {
      this.fail(label, at, lineNo);
      return;
    }
    const v = parseLatency(text, latency.scaleDigits, maxLatencyIn(latency.unit), latency.what);
    if (!v.ok) {
      this.problems.line(lineNo, v.reason);
      return;
    }
    this.record(label, v.value, at, lineNo);
  }

  /** A line's JSON value; undefined, with the problem said, when it does not parse. */
  protected parseJson(text: string, lineNo: number): unknown {
    try {
      return JSON.parse(text);
    } catch {
      this.problems.line(lineNo, "not valid JSON (a truncated line?)");
      return undefined;
    }
  }

  finish(): ParsedSource {
    try {
      this.finishRecords();
      const empty = this.counted === 0 && this.problems.skipped === 0 ? this.emptyReason() : null;
      if (empty !== null) this.problems.once("empty", null, empty);
      return { format: this.format, series: this.collector.finish(), problems: this.problems.list() };
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
      return { format: this.format, series: [], problems: this.problems.list() };
    }
  }
}

/** A reader of one parser class, found by its name (if it has a name match) or its content. */
export function readerOf(
  id: string,
  Parser: new (file: string, options: SampleOptions) => LineParser,
  contentMatch: (head: string) => boolean,
  nameMatch?: (name: string) => boolean,
): FormatReader {
  return {
    id,
    ...(nameMatch ? { nameMatch } : {}),
    detect: (name, head) => (nameMatch !== undefined && nameMatch(name)) || contentMatch(head),
    create: (name, options) => new Parser(name, options ?? {}),
  };
}

/** Which a line-oriented load-generator file is, by its first non-empty line: a JSON object per line, or CSV; null while only blank lines came. */
export function jsonOrCsv(firstLine: string): "json" | "csv" | null {
  const t = firstLine.trim();
  if (t === "") return null;
  return t.startsWith("{") ? "json" : "csv";
}
