// HdrHistogram interval log (.hlog) line reader, for log format versions 1.01 to 1.3.
// Follows HdrHistogram Java's HistogramLogReader/HistogramLogScanner: header comments
// `#[StartTime: …]` and `#[BaseTime: …]`, a legend line starting with `"StartTimestamp"`,
// then one interval a line: `[Tag=NAME,]start,length,max,payload`, fields split on commas
// or spaces. The reader is stateful and takes one line at a time so that a big file can be
// streamed through it without ever being one string.
import type { LoadProblem, Unit } from "../core/types";
import type { HdrFormat } from "./source";

export interface HlogInterval {
  /** Tag of the line, "" when untagged. */
  tag: string;
  /** Start of the interval in seconds as written in the log (relative or absolute). */
  rawStart: number;
  /** Interval length in seconds. Format 1.01's legend says "EndTimestamp" but it holds the length. */
  length: number;
  /** The Interval_Max column: a rounded copy of the interval's max, in an unstated unit. */
  maxColumn: number;
  /** The base64 histogram payload. */
  payload: string;
  /** Where the payload starts in the line as given to readLine. */
  payloadAt: number;
  /** 1-based line number in the file. */
  line: number;
}

export interface HlogHeader {
  startTime: number | null; // seconds since epoch, from #[StartTime:
  baseTime: number | null; // seconds since epoch, from #[BaseTime:
  formatVersion: string | null;
  /** The program that wrote the log, when a header comment names it (see PRODUCERS). */
  producer: string | null;
}

/**
 * Programs whose logs say who wrote them, and the unit they record values in (a log does not
 * state its unit; these producers fix it). From their sources:
 * - YCSB (site.ycsb.measurements.OneMeasurementHdrHistogram): outputComment("[Logging for: " +
 *   name + "]"), measure(int latencyInMicros): µs, Interval_Max with the writer's default ÷10⁶.
 * - jHiccup: "#[Logged with jHiccup version …]", hiccups in ns (Interval_Max in ms).
 * - cassandra-stress (org.apache.cassandra.stress StressMetrics / HdrLog): outputComment("Logging
 *   op latencies for Cassandra Stress"), latencies in ns.
 * - hdr-spectrum's demo data (scripts/make-demo.ts): "#[Demo data written by hdr-spectrum … (values
 *   in ns)]".
 */
export const PRODUCERS: readonly { name: string; pattern: RegExp; unit: Unit }[] = [
  { name: "YCSB", pattern: /^#\[Logging for: /, unit: "us" },
  { name: "jHiccup", pattern: /^#\[Logged with jHiccup version/, unit: "ns" },
  { name: "cassandra-stress", pattern: /^#Logging op latencies for Cassandra Stress/, unit: "ns" },
  // This project's demo generator (scripts/make-demo.ts): values in ns.
  { name: "hdr-spectrum demo", pattern: /^#\[Demo data written by hdr-spectrum\b/, unit: "ns" },
];

export function producerUnit(producer: string | null): Unit | null {
  // A loop, not a closure made per call: V8 drops the optimised code of short-lived closures at every major collection.
  for (const p of PRODUCERS) if (p.name === producer) return p.unit;
  return null;
}

export interface ReaderPart {
  header: HlogHeader;
  firstStart: number | null;
  problems: LoadProblem[];
  skippedLines: number;
}

const YEAR_SECONDS = 365 * 24 * 3600;
/**
 * Long.MAX_VALUE as a double (2^63). HistogramLogReader.nextIntervalHistogram() only returns
 * intervals whose absolute start lies in [0, Long.MAX_VALUE * 1.0] seconds; at a start above
 * it, it returns null, which its callers take for the end of the log.
 */
const JAVA_LATEST_START = 2 ** 63;

/**
 * A number as HdrHistogram Java's log reader reads the first three fields: java.util.Scanner's
 * nextDouble() with Locale.US (HistogramLogScanner): an optional sign, digits with an optional
 * fraction and exponent ("5.", ".5", "1e3"), a hexadecimal float with a point and a binary
 * exponent ("0x1.8p3"),
 * NaN or Infinity. Anything else ("0x10", "1_000", "", "1.0.0") makes Java's reader stop
 * there. Scanner also takes non-ASCII digits; this reader does not. Null when not a number.
 */
export function parseJavaDouble(text: string): number | null {
  const plain = plainDecimal(text);
  if (plain >= 0) return plain;
  if (DECIMAL.test(text)) return Number(text);
  const hex = HEX_FLOAT.exec(text);
  if (hex) {
    const [, sign, whole, fraction, exponent] = hex;
    const mantissa = parseInt((whole ?? "") + fraction!, 16) || 0;
    const v = mantissa * 2 ** (Number(exponent ?? 0) - 4 * fraction!.length);
    return sign === "-" ? -v : v;
  }
  const special = NON_NUMBER.exec(text);
  if (special) return special[2] === "NaN" ? NaN : special[1] === "-" ? -Infinity : Infinity;
  return null;
}
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
/** 10^k for k ≤ 15, each exact in a float64. */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * The value of an unsigned decimal of at most 15 digits ("12.345", "5.", ".5"), or -1 for
 * anything else (the general path). Exactly Number(text): the digits make an integer below
 * 2^53 and 10^k is exact, so their quotient is the correctly rounded value (Clinger's fast
 * path). Every line of a log has three such fields, and Number() on them was a visible share of
 * a load (profiled).
 */
function plainDecimal(text: string): number {
  const n = text.length;
  if (n === 0 || n > 16) return -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return -1;
    decimalScratch[i] = c;
  }
  return plainDecimalBytes(decimalScratch, 0, n);
}
const decimalScratch = new Uint8Array(16);
/** plainDecimal of the ASCII characters `bytes[start, end)` (a line read as bytes, or a field's text copied in). */
export function plainDecimalBytes(bytes: Uint8Array, start: number, end: number): number {
  const n = end - start;
  if (n <= 0 || n > 16) return -1;
  let m = 0;
  let digits = 0;
  let point = -1;
  for (let i = 0; i < n; i++) {
    const c = bytes[start + i]! - 48;
    if (c >= 0 && c <= 9) {
      m = m * 10 + c;
      digits++;
    } else if (c === -2 && point < 0) point = i;
    else return -1;
  }
  if (digits === 0 || digits > 15) return -1;
  return point < 0 ? m : m / POW10[n - 1 - point]!;
}

// Scanner's pattern makes the exponent optional, but it then hands the token to
// Double.parseDouble, which requires it: "0x1.0" is refused.
const HEX_FLOAT = /^([-+]?)0[xX]([0-9a-fA-F]*)\.([0-9a-fA-F]+)[pP]([-+]?\d+)$/;
const NON_NUMBER = /^([-+]?)(NaN|Infinity|\u221e)$/;
/** White space as the general field split sees it. */
const WHITE = /\s/;
/** What WHITE matches, but the line feed (tested against the pattern itself). */
export const WHITE_BUT_LINE_FEED = [..."\t\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"];

/**
 * Whether text holds white space other than line feeds: a log's chunk that holds none holds
 * lines that need no WHITE test each (see HlogReader.readLine). One search per character is
 * several times faster than the pattern on each line of the chunk (the search for a character
 * beyond Latin-1 in a Latin-1 string ends at once).
 */
export function holdsWhite(text: string): boolean {
  for (let k = 0; k < WHITE_BUT_LINE_FEED.length; k++) if (text.indexOf(WHITE_BUT_LINE_FEED[k]!) >= 0) return true;
  return false;
}

/** Does this look like an interval log? By name first, then by content. */
export function detectHlog(name: string, head: string): boolean {
  if (/\.(hlog|histogram|hiccup)(\.txt)?$/i.test(name)) return true;
  if (/^#\[(Histogram log format version|StartTime:|BaseTime:)/m.test(head)) return true;
  if (/^"StartTimestamp"/m.test(head)) return true;
  // Headerless logs: a data line whose last field is a histogram payload.
  return /^(Tag=[^,\s]*,)?[\d.]+[,\s]+[\d.]+[,\s]+[\d.]+[,\s]+D?HIST[A-Za-z0-9+/]/m.test(head);
}

/** The registry's entry for interval logs (formats/detect.ts); the engine reads them (engine/hlog-ingest.ts). */
export const hlogFormat: HdrFormat = {
  id: "hlog",
  nameMatch: (name) => /\.hlog$/i.test(name),
  detect: detectHlog,
};

export class HlogReader {
  readonly header: HlogHeader = { startTime: null, baseTime: null, formatVersion: null, producer: null };
  readonly problems: LoadProblem[] = [];
  /** Lines that held something but could not be read. */
  skippedLines = 0;
  private inferredBase: number | null = null;
  private firstStart: number | null = null;

  constructor(private readonly file: string) {}

  /**
   * Reads one line (without its line break). Returns the interval it holds, if any. `clean`:
   * the line is known to hold no white space (it came from a chunk that holds none).
   */
  readLine(raw: string, lineNo: number, clean = false): HlogInterval | null {
    const line = raw.trim();
    if (line === "") return null;
    if (line.startsWith("#")) {
      this.readComment(line);
      return null;
    }
    if (line.startsWith('"StartTimestamp"') || line.startsWith("StartTimestamp")) return null;
    const interval = this.readData(line, lineNo, clean);
    // readData placed the payload in the trimmed line; move it past what trim() cut in front.
    if (interval && line.length !== raw.length) interval.payloadAt += raw.length - raw.trimStart().length;
    return interval;
  }

  private readComment(line: string): void {
    for (const [word, key] of [
      ["StartTime", "startTime"],
      ["BaseTime", "baseTime"],
    ] as const) {
      const m = new RegExp(`^#\\[${word}:\\s*([-+\\d.eE]+)`).exec(line);
      if (!m) continue;
      const v = Number(m[1]);
      if (Number.isFinite(v)) this.header[key] = v;
      else this.noteProblem(null, `${word} "${clip(m[1] ?? "")}" is not a number: ignored`);
      return;
    }
    const version = /^#\[Histogram log format version ([\d.]+)/.exec(line);
    if (version) this.header.formatVersion = version[1] ?? null;
    else if (this.header.producer === null) this.header.producer = PRODUCERS.find((p) => p.pattern.test(line))?.name ?? null;
  }

  private fail(lineNo: number, reason: string): null {
    this.skippedLines++;
    // Keep the list readable: a file of garbage reports its first problems, then a count.
    if (this.problems.length < 20) this.problems.push({ file: this.file, line: lineNo, reason });
    return null;
  }

  private readData(line: string, lineNo: number, clean: boolean): HlogInterval | null {
    // The usual line, "start,length,max,HIST…" with single commas and no white space, is cut
    // by three indexOf calls; anything else goes the general way below, which gives the same
    // fields (and the reasons for lines it refuses).
    const c1 = line.indexOf(",");
    const c2 = c1 > 0 ? line.indexOf(",", c1 + 1) : -1;
    const c3 = c2 > c1 + 1 ? line.indexOf(",", c2 + 1) : -1;
    if (c3 > c2 + 1 && c3 < line.length - 1 && line.indexOf(",", c3 + 1) < 0 && (clean || !WHITE.test(line)) && !line.startsWith("Tag=")) {
      return this.fields(lineNo, "", line.slice(0, c1), line.slice(c1 + 1, c2), line.slice(c2 + 1, c3), line.slice(c3 + 1), c3 + 1);
    }
    let rest = line;
    let tag = "";
    if (rest.startsWith("Tag=")) {
      const cut = rest.search(/[,\s]/);
      if (cut < 0) return this.fail(lineNo, "a Tag= field with nothing after it");
      tag = rest.slice(4, cut);
      rest = rest.slice(cut + 1).trimStart();
    }
    const fields = rest.split(/[,\s]+/).filter((f) => f !== "");
    if (fields.length < 4) {
      return this.fail(lineNo, `expected 4 fields (start, length, max, histogram), found ${fields.length}: the line may be truncated`);
    }
    if (fields.length > 4) return this.fail(lineNo, `expected 4 fields (start, length, max, histogram), found ${fields.length}`);
    const [startText, lengthText, maxText, payload] = fields as [string, string, string, string];
    // The last field, so its last occurrence (this way is rare: lines with spaces or a tag).
    return this.fields(lineNo, tag, startText, lengthText, maxText, payload, line.lastIndexOf(payload));
  }

  private fields(lineNo: number, tag: string, startText: string, lengthText: string, maxText: string, payload: string, payloadAt: number): HlogInterval | null {
    const rawStart = parseJavaDouble(startText);
    const length = parseJavaDouble(lengthText);
    const maxColumn = parseJavaDouble(maxText);
    if (rawStart === null || !Number.isFinite(rawStart)) return this.fail(lineNo, `start timestamp "${clip(startText)}" is not a number`);
    if (rawStart + this.baseTimeAt(rawStart) > JAVA_LATEST_START) {
      return this.fail(lineNo, `start timestamp "${clip(startText)}" is beyond 2^63 seconds, where HdrHistogram's reader stops reading the log`);
    }
    if (length === null || !Number.isFinite(length) || length < 0) return this.fail(lineNo, `interval length "${clip(lengthText)}" is not a non-negative number`);
    if (maxColumn === null || !Number.isFinite(maxColumn)) return this.fail(lineNo, `Interval_Max "${clip(maxText)}" is not a number`);
    // "HIST" and "DHIST" are the base64 of the integer and DoubleHistogram cookies' first bytes.
    if (!payload.startsWith("HIST") && !payload.startsWith("DHIST")) return this.fail(lineNo, `the histogram field does not start with HIST or DHIST (found "${clip(payload)}")`);
    if (this.firstStart === null) this.firstStart = rawStart;
    return { tag, rawStart, length, maxColumn, payload, payloadAt, line: lineNo };
  }

  /**
   * readLine's verdict on a line its caller read from bytes (engine/hlog-ingest.ts pushBytes):
   * an untagged "start,length,max,HIST…" line without white space, whose three numbers are
   * plain decimals (so finite and not negative), the first at `rawStart`. True when readLine
   * would give its interval, which this then counts as read; false leaves the line to readLine,
   * which words why it is refused.
   */
  plainLine(rawStart: number): boolean {
    if (rawStart + this.baseTimeAt(rawStart) > JAVA_LATEST_START) return false;
    if (this.firstStart === null) this.firstStart = rawStart;
    return true;
  }

  /**
   * The time base plainLine adds to a start before its 2^63 check, the same for every line
   * after the first interval while no header line comes; null before the first interval (whose
   * start it takes).
   */
  plainBase(): number | null {
    return this.firstStart === null ? null : this.baseTimeAt(this.firstStart);
  }

  /** What a reader of a later part of the same file learnt, for absorb(). */
  partState(): ReaderPart {
    return { header: { ...this.header }, firstStart: this.firstStart, problems: this.problems, skippedLines: this.skippedLines };
  }

  /**
   * Takes in the state of a reader that read the lines after this one's (another worker's
   * part of the file), `lineShift` being the lines this one read: header lines found later
   * override earlier ones, as they would have read in order; the first start stays the first.
   */
  absorb(p: ReaderPart, lineShift: number): void {
    if (p.header.startTime !== null) this.header.startTime = p.header.startTime;
    if (p.header.baseTime !== null) this.header.baseTime = p.header.baseTime;
    if (p.header.formatVersion !== null) this.header.formatVersion = p.header.formatVersion;
    if (this.header.producer === null) this.header.producer = p.header.producer;
    if (this.firstStart === null) this.firstStart = p.firstStart;
    this.inferredBase = null;
    for (const q of p.problems) {
      if (this.problems.length >= 20) break;
      this.problems.push({ ...q, line: q.line === null ? null : q.line + lineShift });
    }
    this.skippedLines += p.skippedLines;
  }

  /** Used by callers that report skipped lines once the file has been read. */
  noteProblem(lineNo: number | null, reason: string): void {
    if (lineNo !== null) this.skippedLines++;
    if (this.problems.length < 20) this.problems.push({ file: this.file, line: lineNo, reason });
  }

  /**
   * The time base that turns a raw timestamp into an absolute one, as HdrHistogram Java's
   * reader infers it: an explicit BaseTime wins; otherwise timestamps more than a year before
   * StartTime are relative to StartTime, anything else is absolute.
   */
  baseTime(): number {
    if (this.header.baseTime !== null) return this.header.baseTime;
    if (this.inferredBase !== null) return this.inferredBase;
    const start = this.startTime();
    const first = this.firstStart ?? 0;
    this.inferredBase = start !== null && first < start - YEAR_SECONDS ? start : 0;
    return this.inferredBase;
  }

  /**
   * StartTime in seconds since epoch. Without a StartTime line, Java uses the first interval's
   * absolute timestamp; a headerless relative log then starts at 0.
   */
  startTime(): number | null {
    if (this.header.startTime !== null) return this.header.startTime;
    if (this.firstStart === null) return null;
    return (this.header.baseTime ?? 0) + this.firstStart;
  }

  /** The time base Java's reader would use when this line were the first it read, without caching it (baseTime() does). */
  private baseTimeAt(rawStart: number): number {
    if (this.header.baseTime !== null) return this.header.baseTime;
    const first = this.firstStart ?? rawStart;
    const start = this.header.startTime ?? first;
    return first < start - YEAR_SECONDS ? start : 0;
  }

  /** Seconds since StartTime for a raw timestamp (what HistogramLogProcessor's -start/-end compare with). */
  offsetOf(rawStart: number): number {
    return rawStart + this.offsetShift();
  }

  /** What offsetOf adds to a raw timestamp, for a loop over many of them. */
  offsetShift(): number {
    const start = this.startTime() ?? 0;
    // base - start first: when the log is relative (base = start) this is exact.
    return this.baseTime() - start;
  }
}

function clip(s: string): string {
  return s.length > 24 ? `${s.slice(0, 24)}…` : s;
}
