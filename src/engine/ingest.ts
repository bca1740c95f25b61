// Turns one input (a name and its text, streamed in chunks) into series. Pure: no DOM, no
// worker API, so the whole path from bytes to series is testable in Node.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { highestEquivalent, maxOf, newHistogram, valueAtPercentile, type Histogram } from "../core/histogram";
import { identityFromName } from "../core/naming";
import { LineSplitter, MAX_LINE_CHARS } from "../core/lines";
import { IntervalTable, inferUnitFromIntervalMax, type SeriesModel } from "../core/series";
import { IntervalBlocks } from "../core/blocks";
import type { LoadProblem } from "../core/types";
import { HlogReader, detectHlog } from "../formats/hlog";
import { addDecodedInto, decodeHistogramPayload, valueFromIndex, type DecodedHistogram } from "../formats/hlog-encoding";
import { detectPercentileFile, parsePercentileFile } from "../formats/hgrm";
import { pickReader } from "../formats/detect";
import type { FormatReader, LineParser, SampleOptions } from "../formats/source";

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

/** Series one log may make (the load-generator readers stop at the same number of labels). */
const MAX_TAGS = 200;

const MAX_PERCENTILE_FILE_CHARS = 32 * 1024 * 1024;

/** Something that consumes a file's text chunk by chunk and builds series at the end. */
interface Sink {
  push(chunk: string): void;
  finish(): IngestResult;
  readonly intervalCount: number;
}

export async function ingest(
  name: string,
  chunks: AsyncIterable<string> | Iterable<string>,
  onProgress?: (p: IngestProgress) => void,
  options?: SampleOptions,
): Promise<IngestResult> {
  let head = "";
  let sink: Sink | null = null;
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (!sink) {
      head += chunk;
      if (head.length < HEAD_CHARS) continue; // decide on a reasonable head, not a tiny first chunk
      sink = pickSink(name, head, options);
      if (!sink) return unknownFormat(name, head);
      sink.push(head);
      head = "";
      continue;
    }
    sink.push(chunk);
    onProgress?.({ bytes, intervals: sink.intervalCount });
  }
  if (!sink) {
    sink = pickSink(name, head, options);
    if (!sink) return unknownFormat(name, head);
    sink.push(head);
  }
  return sink.finish();
}

/** Detection sees the same head whatever the chunking: the first 4096 characters, cut at a line end. */
const HEAD_CHARS = 4096;
function detectionHead(head: string): string {
  if (head.length <= HEAD_CHARS) return head;
  const nl = head.lastIndexOf("\n", HEAD_CHARS);
  return head.slice(0, nl > 0 ? nl + 1 : HEAD_CHARS);
}

function pickSink(name: string, fullHead: string, options?: SampleOptions): Sink | null {
  const head = detectionHead(fullHead);
  const kind = detectKind(name, head);
  if (kind === "hlog") return new HlogIngest(name);
  if (kind === "percentiles") return new PercentileIngest(name);
  const reader = pickReader(name, head);
  return reader ? new ReaderIngest(name, reader, options) : null;
}

/** A series with its identity parsed from the file name and tag; defaults for the rest. */
export function makeSeries(p: Pick<SeriesModel, "name" | "source" | "tag" | "recordedUnit" | "unitSource" | "histogram" | "intervals" | "startTime" | "format" | "blocks"> & { failures?: number }): SeriesModel {
  const id = identityFromName(p.source, p.tag);
  return { id: newId(), ...p, config: id.config, throughput: id.throughput, kind: id.kind, mergedFrom: [], failures: p.failures ?? 0 };
}

/** Percentile files are small text; an interval log may be huge and is never joined. */
class PercentileIngest implements Sink {
  private text = "";
  private tooLarge = false;
  readonly intervalCount = 0;
  constructor(private readonly file: string) {}

  push(chunk: string): void {
    if (this.tooLarge || this.text.length + chunk.length > MAX_PERCENTILE_FILE_CHARS) this.tooLarge = true;
    else this.text += chunk;
  }

  finish(): IngestResult {
    const name = this.file;
    if (this.tooLarge) return { series: [], problems: [{ file: name, line: null, reason: "too large for a percentile-distribution file" }], lines: 0 };
    const parsed = parsePercentileFile(name, this.text);
    const series: SeriesModel[] = [];
    if (parsed.histogram.totalCount > 0) {
      series.push(
        makeSeries({
          name: stripExtension(name),
          source: name,
          tag: "",
          recordedUnit: parsed.histogramUnit,
          unitSource: "format",
          histogram: parsed.histogram,
          intervals: null,
          startTime: null,
          format: parsed.kind,
        }),
      );
    } else if (parsed.problems.length === 0) {
      parsed.problems.push({ file: name, line: null, reason: "no percentile rows found" });
    }
    return { series, problems: parsed.problems, lines: this.text.split("\n").length };
  }
}

/**
 * Load-generator outputs and raw samples: a line reader records values into histograms as it
 * goes; interval histograms are then kept like a log's (as compressed payloads), so the
 * timeline and time windows work the same way.
 */
class ReaderIngest implements Sink {
  private readonly parser: LineParser;
  private readonly splitter: LineSplitter;
  private overlong: LoadProblem[] = [];
  intervalCount = 0;

  constructor(private readonly file: string, reader: FormatReader, options?: SampleOptions) {
    this.parser = reader.create(file, options);
    this.splitter = new LineSplitter({
      line: (t, n) => {
        this.parser.line(t, n);
      },
      overlong: (n, len) => {
        if (this.overlong.length < 5) this.overlong.push({ file, line: n, reason: `line is ${len} characters long (limit ${MAX_LINE_CHARS}): skipped` });
      },
    });
  }

  push(chunk: string): void {
    this.splitter.push(chunk);
  }

  finish(): IngestResult {
    this.splitter.end();
    const parsed = this.parser.finish();
    const series = parsed.series
      .filter((p) => p.histogram.totalCount > 0 || (p.failures ?? 0) > 0)
      .map((p) => {
        let table: IntervalTable | null = null;
        if (p.intervals && p.intervals.length > 0) {
          table = new IntervalTable();
          for (const iv of p.intervals) {
            const h = iv.histogram;
            table.push(iv.start, iv.length, maxOf(h), h.totalCount, 0, encodeIntoCompressedBase64(h), valueAtPercentile(h, 50));
          }
          this.intervalCount += table.n;
        }
        return makeSeries({
          name: p.name,
          source: this.file,
          tag: p.tag,
          recordedUnit: p.unit,
          unitSource: "format",
          histogram: p.histogram,
          intervals: table,
          startTime: p.startTime,
          format: parsed.format,
          failures: p.failures,
        });
      });
    const problems = [...this.overlong, ...parsed.problems];
    if (series.length === 0 && problems.length === 0) problems.push({ file: this.file, line: null, reason: `no values found (read as ${parsed.format})` });
    return { series, problems, lines: this.splitter.linesRead };
  }
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
  blocks: IntervalBlocks | null;
  layout: string;
}

/** Interval-log ingest: one series per tag, every interval decoded once and merged. */
class HlogIngest implements Sink {
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
    // Transient: every use of the decoded arrays below is done before the next line's decode.
    const decoded = decodeHistogramPayload(interval.payload, true);
    if (!decoded.ok) {
      this.reader.noteProblem(lineNo, `histogram payload: ${decoded.reason}`);
      return;
    }
    const d = decoded.value;
    let t = this.tags.get(interval.tag);
    if (!t && this.tags.size >= MAX_TAGS) {
      this.reader.noteProblem(lineNo, `more than ${MAX_TAGS} tags in one log: lines of further tags are skipped`);
      return;
    }
    if (!t) {
      t = { histogram: null, intervals: new IntervalTable(), blocks: new IntervalBlocks(), layout: `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}` };
      this.tags.set(interval.tag, t);
      this.rawStarts.set(interval.tag, []);
    }
    if (!t.histogram) t.histogram = newHistogram(d.numberOfSignificantValueDigits, d.lowestDiscernibleValue, d.highestTrackableValue);
    addDecodedInto(t.histogram, d);
    // Blocks add counts by index, so they need every interval in the same layout.
    if (t.blocks && `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}` === t.layout) t.blocks.add(d);
    else t.blocks = null;
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
      let sorted = true;
      for (let i = 1; i < t.intervals.n; i++) if (t.intervals.offsets[i]! < t.intervals.offsets[i - 1]!) sorted = false;
      const inferred = inferUnitFromIntervalMax(t.intervals);
      const base = stripExtension(this.file);
      series.push(makeSeries({
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
        blocks: sorted ? t.blocks : null,
      }));
    }
    if (series.length === 0 && problems.length === 0) {
      problems.push({ file: this.file, line: null, reason: "no intervals found in this log" });
    }
    return { series, problems, lines: this.splitter.linesRead };
  }
}
