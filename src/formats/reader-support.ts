// Shared machinery of the load-generator readers (samples, JMeter, Gatling, k6, Vegeta): exact
// decimal parsing, timestamps, CSV fields, a capped problem list, and the collector that turns
// (label, value, time) samples into series of histograms without ever keeping the samples.
import type { Histogram } from "../core/histogram";
import { newHistogram } from "../core/histogram";
import type { LoadProblem, Unit } from "../core/types";
import type { ParsedInterval, ParsedSeries } from "./source";

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

export const NANOS: Record<Unit, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

/** Latencies above one hour are refused: a bad value, and one would widen every histogram. */
export const MAX_LATENCY_NS = 3600e9;

export function maxLatencyIn(unit: Unit): number {
  return MAX_LATENCY_NS / NANOS[unit];
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

/** File name without folders and extension (a trailing .gz too): the series' base name. */
export function baseName(file: string): string {
  let base = file.replace(/^.*[\\/]/, "").replace(/\.gz$/i, "");
  const cut = base.lastIndexOf(".");
  if (cut > 0) base = base.slice(0, cut);
  return base || file;
}

// ---------------------------------------------------------------------------------------------
// Series collection

/** Labels kept as their own series; samples of further labels go to one "(other labels)" series. */
export const MAX_SERIES = 200;
export const OTHER_LABELS = "(other labels)";
/** Samples further than this from the first timestamp are refused (a bad timestamp). */
export const MAX_SPAN_SEC = 366 * 24 * 3600;
/** Memory for per-interval histograms; past it, intervals are merged in pairs (length doubles). */
export const INTERVAL_BUDGET_BYTES = 192 * 1024 * 1024;
/** Above this many back-filled values per sample, coordinated-omission correction is done per bucket. */
const BACKFILL_LOOP_LIMIT = 4096;

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
}

interface SeriesState {
  label: string;
  histogram: Histogram;
  intervals: Map<number, IntervalSlot>;
  failures: number;
}

interface BucketMath {
  lowestEquivalentValue(v: number): number;
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
    s = { label, histogram: newHistogram(), intervals: new Map(), failures: 0 };
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
    this.recordInto(s.histogram, value);
    if (index !== null) {
      if (index < this.minIndex) this.minIndex = index;
      let slot = s.intervals.get(index);
      if (!slot) {
        // Sized for the previous interval's max: one allocation instead of a resize per new max.
        const prev = s.intervals.get(index - 1);
        const h = newHistogram(3, 1, prev ? Math.max(2, prev.h.maxValue) : 2);
        slot = { h, bytes: h.estimatedFootprintInBytes, top: h.highestTrackableValue };
        s.intervals.set(index, slot);
        this.intervalBytes += slot.bytes;
      }
      this.recordInto(slot.h, value);
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

  private recordInto(h: Histogram, value: number): void {
    const e = this.expected;
    if (e <= 0 || value < 2 * e) {
      h.recordValue(value);
      return;
    }
    if (value / e <= BACKFILL_LOOP_LIMIT) {
      h.recordValueWithExpectedInterval(value, e);
      return;
    }
    // The library's loop would run value/e times; record the same back-filled values bucket by
    // bucket instead (each bucket gets the count of values it would have received).
    h.recordValue(value);
    const math = h as unknown as BucketMath;
    let cur = value - e;
    while (cur >= e) {
      const lo = Math.max(e, math.lowestEquivalentValue(cur));
      const k = Math.floor((cur - lo) / e) + 1;
      h.recordValueWithCount(cur, k);
      cur -= k * e;
    }
  }

  /** Doubles the interval length, merging interval pairs, until the intervals fit the budget. */
  private coarsen(): void {
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
    const base = baseName(this.options.file);
    const labels = this.order;
    const single = labels.length === 1 && labels[0] === "";
    const hasIntervals = this.timed > 0 && this.minIndex !== Infinity;
    if (this.timed > 0 && this.untimed > 0) {
      this.problems.once("untimed", null, `${this.untimed} samples have no timestamp: they are in the totals but in no interval`);
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
