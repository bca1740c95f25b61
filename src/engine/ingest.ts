// Turns one input (a name and its text, streamed in chunks) into series. Pure: no DOM, no
// worker API, so the whole path from bytes to series is testable in Node.
import { highestEquivalent, newHistogram, type Histogram } from "../core/histogram";
import { LineSplitter, MAX_LINE_CHARS } from "../core/lines";
import { IntervalTable, inferUnitFromIntervalMax, type SeriesModel } from "../core/series";
import type { LoadProblem } from "../core/types";
import { HlogReader, detectHlog } from "../formats/hlog";
import { addDecodedInto, decodeHistogramPayload, valueFromIndex, type DecodedHistogram } from "../formats/hlog-encoding";
import { detectPercentileFile, parsePercentileFile } from "../formats/hgrm";

export interface IngestResult {
  series: SeriesModel[];
  problems: LoadProblem[];
  /** Lines read, for progress and messages. */
  lines: number;
}

export interface IngestProgress {
  bytes: number;
  intervals: number;
}

let nextId = 1;
function newId(): string {
  return `s${nextId++}`;
}

/** Percentile files are small text; an interval log may be huge and is never joined. */
const MAX_PERCENTILE_FILE_CHARS = 32 * 1024 * 1024;

export async function ingest(
  name: string,
  chunks: AsyncIterable<string> | Iterable<string>,
  onProgress?: (p: IngestProgress) => void,
): Promise<IngestResult> {
  let kind: "hlog" | "percentiles" | null = null;
  let head = "";
  let hlog: HlogIngest | null = null;
  let text = "";
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (kind === null) {
      head += chunk;
      if (head.length < 4096) continue; // decide on a reasonable head, not a tiny first chunk
      kind = detectKind(name, head);
      if (kind === "hlog") {
        hlog = new HlogIngest(name);
        hlog.push(head);
      } else if (kind === "percentiles") text = head;
      else return unknownFormat(name, head);
      head = "";
      continue;
    }
    if (hlog) {
      hlog.push(chunk);
      onProgress?.({ bytes, intervals: hlog.intervalCount });
    } else {
      text += chunk;
      if (text.length > MAX_PERCENTILE_FILE_CHARS) {
        return { series: [], problems: [{ file: name, line: null, reason: "too large for a percentile-distribution file" }], lines: 0 };
      }
    }
  }
  if (kind === null) {
    kind = detectKind(name, head);
    if (kind === "hlog") {
      hlog = new HlogIngest(name);
      hlog.push(head);
    } else if (kind === "percentiles") text = head;
    else return unknownFormat(name, head);
  }
  if (hlog) return hlog.finish();
  const parsed = parsePercentileFile(name, text);
  const series: SeriesModel[] = [];
  if (parsed.histogram.totalCount > 0) {
    series.push({
      id: newId(),
      name: stripExtension(name),
      source: name,
      tag: "",
      recordedUnit: parsed.histogramUnit,
      unitSource: "format",
      histogram: parsed.histogram,
      intervals: null,
      startTime: null,
      format: parsed.kind,
    });
  } else if (parsed.problems.length === 0) {
    parsed.problems.push({ file: name, line: null, reason: "no percentile rows found" });
  }
  return { series, problems: parsed.problems, lines: text.split("\n").length };
}

/** Median of a decoded interval, read off its sparse counts (no histogram needed). */
function medianOf(d: DecodedHistogram): number {
  if (d.totalCount <= 0) return 0;
  const target = Math.ceil(d.totalCount / 2);
  let run = 0;
  for (let k = 0; k < d.indices.length; k++) {
    run += d.counts[k]!;
    if (run >= target) return valueFromIndex(d.indices[k]!, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits);
  }
  return 0;
}

function detectKind(name: string, head: string): "hlog" | "percentiles" | null {
  if (/\.hlog$/i.test(name)) return "hlog";
  if (/\.hgrm$/i.test(name)) return "percentiles";
  if (detectPercentileFile(name, head)) return "percentiles";
  if (detectHlog(name, head)) return "hlog";
  return null;
}

function unknownFormat(name: string, head: string): IngestResult {
  const binary = /[\u0000-\u0008\u000e-\u001f]/.test(head.slice(0, 512));
  const reason = binary
    ? "this looks like a binary file, not a latency log: expected an HdrHistogram interval log (.hlog), a percentile distribution (.hgrm) or wrk2 output"
    : "not a recognised format: expected an HdrHistogram interval log (.hlog), a percentile distribution (.hgrm) or wrk2 --latency output";
  return { series: [], problems: [{ file: name, line: null, reason }], lines: 0 };
}

export function stripExtension(name: string): string {
  const base = name.replace(/^.*[\\/]/, "");
  const cut = base.lastIndexOf(".");
  return cut > 0 ? base.slice(0, cut) : base;
}

interface TagSeries {
  histogram: Histogram | null;
  intervals: IntervalTable;
}

/** Interval-log ingest: one series per tag, every interval decoded once and merged. */
class HlogIngest {
  private readonly reader: HlogReader;
  private readonly splitter: LineSplitter;
  private readonly tags = new Map<string, TagSeries>();
  // Raw starts are kept until the end: the time base is only certain once StartTime is read.
  private readonly rawStarts = new Map<string, number[]>();
  intervalCount = 0;

  constructor(private readonly file: string) {
    this.reader = new HlogReader(file);
    this.splitter = new LineSplitter({
      line: (t, n) => this.line(t, n),
      overlong: (n, len) => this.reader.noteProblem(n, `line is ${len} characters long (limit ${MAX_LINE_CHARS}): not a log line`),
    });
  }

  push(chunk: string): void {
    this.splitter.push(chunk);
  }

  private line(text: string, lineNo: number): void {
    const interval = this.reader.readLine(text, lineNo);
    if (!interval) return;
    const decoded = decodeHistogramPayload(interval.payload);
    if (!decoded.ok) {
      this.reader.noteProblem(lineNo, `histogram payload: ${decoded.reason}`);
      return;
    }
    const d = decoded.value;
    let t = this.tags.get(interval.tag);
    if (!t) {
      t = { histogram: null, intervals: new IntervalTable() };
      this.tags.set(interval.tag, t);
      this.rawStarts.set(interval.tag, []);
    }
    if (!t.histogram) t.histogram = newHistogram(d.numberOfSignificantValueDigits, d.lowestDiscernibleValue, d.highestTrackableValue);
    addDecodedInto(t.histogram, d);
    const lastIndex = d.indices.length > 0 ? d.indices[d.indices.length - 1]! : -1;
    const max = lastIndex >= 0
      ? highestEquivalent(t.histogram, valueFromIndex(lastIndex, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits))
      : 0;
    t.intervals.push(0, interval.length, max, d.totalCount, interval.maxColumn, interval.payload, medianOf(d));
    this.rawStarts.get(interval.tag)!.push(interval.rawStart);
    this.intervalCount++;
  }

  finish(): IngestResult {
    this.splitter.end();
    const problems = [...this.reader.problems];
    const skipped = this.reader.skippedLines;
    if (skipped > 0) {
      problems.push({
        file: this.file,
        line: null,
        reason: `${skipped} line${skipped === 1 ? "" : "s"} skipped; ${this.intervalCount} interval${this.intervalCount === 1 ? "" : "s"} loaded`,
      });
    }
    const series: SeriesModel[] = [];
    const startTime = this.reader.startTime();
    for (const [tag, t] of this.tags) {
      if (!t.histogram) continue;
      const raws = this.rawStarts.get(tag)!;
      for (let i = 0; i < raws.length; i++) t.intervals.offsets[i] = this.reader.offsetOf(raws[i]!);
      const inferred = inferUnitFromIntervalMax(t.intervals);
      const base = stripExtension(this.file);
      series.push({
        id: newId(),
        name: tag ? `${base} [${tag}]` : base,
        source: this.file,
        tag,
        // Without a usable Interval_Max column, assume what Java's writers assume: ns values.
        recordedUnit: inferred ?? "ns",
        unitSource: inferred ? "interval-max" : "default",
        histogram: t.histogram,
        intervals: t.intervals,
        startTime,
        format: "hlog",
      });
    }
    if (series.length === 0 && problems.length === 0) {
      problems.push({ file: this.file, line: null, reason: "no intervals found in this log" });
    }
    return { series, problems, lines: this.splitter.linesRead };
  }
}
