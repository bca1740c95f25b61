// What the load-generator readers share: a base class that reads lines into a SeriesCollector
// with per-line problems, and the registry entry of a reader.
import type { Unit } from "../../core/types";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "../source";
import { SeriesCollector, type CollectorOptions } from "./collector";
import { maxLatencyIn, parseLatency } from "./decimals";
import { parseJsonLine } from "./json-stream";
import { Problems } from "./problems";
import { parseDateTime, type Instant } from "./time";

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

  /**
   * A JSON record that must be an object with an RFC 3339 `timestamp` (ghz's calls, Vegeta's
   * results): the object and its instant, or null with the line's problem reported in the
   * reader's words.
   */
  protected timestampedObject(o: unknown, lineNo: number, notObject: string, noTimestamp: string): { r: Record<string, unknown>; at: Instant } | null {
    if (typeof o !== "object" || o === null || Array.isArray(o)) {
      this.problems.line(lineNo, notObject);
      return null;
    }
    const r = o as Record<string, unknown>;
    if (typeof r.timestamp !== "string") {
      this.problems.line(lineNo, noTimestamp);
      return null;
    }
    const t = parseDateTime(r.timestamp);
    if (!t.ok) {
      this.problems.line(lineNo, t.reason);
      return null;
    }
    return { r, at: t.at };
  }

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
    return parseJsonLine(this.problems, lineNo, text, "not valid JSON (a truncated line?)");
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

/** Whether the first `n` non-empty lines of a file's head (at least one) all match `line`. */
export function firstLinesMatch(head: string, line: RegExp, n = 3): boolean {
  const lines = head
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== "")
    .slice(0, n);
  return lines.length > 0 && lines.every((l) => line.test(l));
}

/** Which a line-oriented load-generator file is, by its first non-empty line: a JSON object per line, or CSV; null while only blank lines came. */
export function jsonOrCsv(firstLine: string): "json" | "csv" | null {
  const t = firstLine.trim();
  if (t === "") return null;
  return t.startsWith("{") ? "json" : "csv";
}
