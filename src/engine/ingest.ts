// Turns one input (a name and its text, streamed in chunks) into series. Pure: no DOM, no
// worker API, so the whole path from bytes to series is testable in Node.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { maxOf, valueAtPercentile } from "../core/histogram";
import { LineSplitter, MAX_LINE_CHARS } from "../core/lines";
import { IntervalTable } from "../core/series";
import { fileBaseName } from "../core/naming";
import type { SeriesModel } from "../core/series";
import type { LoadProblem } from "../core/types";
import { parsePercentileFile } from "../formats/hgrm";
import { detectionHead, isHdrHistogramText, looksLikeUtf16, pickHdrFormat, unreadableReason, HEAD_CHARS } from "../formats/sniff";
import { HlogIngest, type ReadOptions } from "./hlog-ingest";
import { SparseIntervalTable } from "./intervals/sparse-rows";
import { makeSeries, type IngestProgress, type IngestResult, type Sink } from "./series-make";
import type { Format, FormatBytesReader, FormatReader, LineParser, ParsedSource, SampleOptions } from "../formats/source";

const MAX_PERCENTILE_FILE_CHARS = 32 * 1024 * 1024;

export { makeSeries, type IngestProgress, type IngestResult } from "./series-make";
export { ingestHlogInParts, ingestHlogPart, PartsNotJoinable, transferablesOf, type HlogPart, type HlogPartTag, type ReadOptions } from "./hlog-ingest";

export async function ingest(
  name: string,
  chunks: AsyncIterable<string> | Iterable<string>,
  onProgress?: (p: IngestProgress) => void,
  options?: SampleOptions,
  read: ReadOptions = {},
): Promise<IngestResult> {
  let head = "";
  let sink: Sink | null = null;
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (!sink) {
      head += chunk;
      // Decide on a reasonable head, not a tiny first chunk; and only once it holds more than
      // HEAD_CHARS, so that "more text follows" is known and the head is cut at a line end
      // exactly as it is when the whole file arrives in one chunk (found by fuzzing: a head of
      // exactly 4096 characters was left uncut).
      if (head.length <= HEAD_CHARS) continue;
      sink = await pickSink(name, head, options, read);
      if (!sink) return unknownFormat(name, head);
      sink.push(head);
      head = "";
      continue;
    }
    sink.push(chunk);
    onProgress?.({ bytes, intervals: sink.intervalCount });
  }
  if (!sink) {
    sink = await pickSink(name, head, options, read);
    if (!sink) return unknownFormat(name, head);
    sink.push(head);
  }
  return sink.finish();
}

/**
 * Reads an input with a reader chosen by the caller (no detection): an HTTP API's answer, whose
 * reader is given what the request was. The same sink as a file read by that reader.
 */
export async function ingestWith(name: string, reader: FormatReader, chunks: AsyncIterable<string> | Iterable<string>, options?: SampleOptions): Promise<IngestResult> {
  const sink = new ReaderIngest(name, reader, options);
  for await (const chunk of chunks) sink.push(chunk);
  return sink.finish();
}

/** The head ingest() decides on when the input comes in these chunks. */
export function headOfChunks(chunks: readonly string[]): string {
  let head = "";
  for (const c of chunks) {
    head += c;
    if (head.length > HEAD_CHARS) return head;
  }
  return head;
}

/**
 * Whether ingest() would read this input as an interval log (so it can be read in parts): only
 * HdrHistogram text is one, so the load-generator readers are not needed to say.
 */
export function isIntervalLog(name: string, head: string): boolean {
  if (looksLikeUtf16(head)) return false;
  const h = detectionHead(head);
  return isHdrHistogramText(name, h) && pickHdrFormat(name, h)?.id === "hlog";
}

/**
 * The format that reads an input with this detection head: HdrHistogram's own told without the
 * registry of readers, which is loaded (a chunk of its own in the page's engine worker) only for
 * other text.
 */
async function formatOf(name: string, head: string): Promise<Format | null> {
  return isHdrHistogramText(name, head) ? pickHdrFormat(name, head) : (await import("../formats/detect")).pickFormat(name, head);
}

async function pickSink(name: string, fullHead: string, options: SampleOptions | undefined, read: ReadOptions): Promise<Sink | null> {
  // UTF-16 reads as garbage under every name: refused before any reader (unknownFormat says why).
  if (looksLikeUtf16(fullHead)) return null;
  const head = detectionHead(fullHead);
  const format = await formatOf(name, head);
  if (!format) return null;
  if (format.create) return new ReaderIngest(name, format, options);
  return format.id === "hlog" ? new HlogIngest(name, true, null, read.keepBlocks, undefined, read.context) : new PercentileIngest(name);
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
          name: fileBaseName(name),
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
export class ReaderIngest implements Sink {
  private readonly parser: LineParser;
  private readonly splitter: LineSplitter;
  private overlong: LoadProblem[] = [];
  intervalCount = 0;

  constructor(
    private readonly file: string,
    reader: FormatReader,
    options?: SampleOptions,
  ) {
    this.parser = reader.create(file, options);
    this.splitter = new LineSplitter(
      {
        line: (t, n) => {
          this.parser.line(t, n);
        },
        overlong: (n, len) => {
          if (this.overlong.length < 5) this.overlong.push({ file, line: n, reason: `line is ${len} characters long (limit ${MAX_LINE_CHARS}): skipped` });
        },
        piece: this.parser.piece ? (t, n) => this.parser.piece!(t, n) : undefined,
      },
      this.parser.pieceFrom,
    );
  }

  push(chunk: string): void {
    this.splitter.push(chunk);
  }

  /**
   * What the reader collected from the lines read so far, the reader kept open for more (a file
   * followed live gives whole lines only, so nothing waits in the splitter).
   */
  parsed(): ParsedSource {
    const p = this.parser.finish();
    return { ...p, problems: [...this.overlong, ...p.problems] };
  }

  finish(): IngestResult {
    this.splitter.end();
    const out = seriesOfSource(this.file, this.parser.finish(), this.overlong, this.splitter.linesRead);
    this.intervalCount += out.intervals;
    return out.result;
  }
}

/** A reader's series as the store keeps it, with its interval table and the histogram given. */
export function seriesOfParsed(
  p: ParsedSource["series"][number],
  file: string,
  format: string,
  histogram: ParsedSource["series"][number]["histogram"],
  table: IntervalTable | null,
) {
  const m = makeSeries({
    name: p.name,
    source: file,
    tag: p.tag,
    recordedUnit: p.unit,
    unitSource: "format",
    histogram,
    intervals: table,
    startTime: p.startTime,
    format,
    failures: p.failures,
    tagIsLabel: true,
  });
  return p.bucketed ? { ...m, bucketed: p.bucketed } : m;
}

/**
 * What a reader parsed, as the store's series: per-interval histograms kept like a log's (as
 * compressed payloads), so the timeline and time windows work the same way.
 */
function seriesOfSource(file: string, parsed: ParsedSource, before: LoadProblem[], lines: number): { result: IngestResult; intervals: number } {
  let intervals = 0;
  const series = parsed.series
    .filter((p) => p.histogram.totalCount > 0 || (p.failures ?? 0) > 0)
    .map((p) => {
      let table: IntervalTable | null = null;
      // Steps of a few buckets (Prometheus) are kept as sparse counts, not a payload each.
      if (p.sparse && p.sparse.n > 0) {
        table = SparseIntervalTable.of(p.sparse);
        intervals += table.n;
      } else if (p.intervals && p.intervals.length > 0) {
        table = new IntervalTable();
        for (const iv of p.intervals) {
          const h = iv.histogram;
          table.push(iv.start, iv.length, maxOf(h), h.totalCount, 0, encodeIntoCompressedBase64(h), valueAtPercentile(h, 50));
        }
        intervals += table.n;
      }
      return seriesOfParsed(p, file, parsed.format, p.histogram, table);
    });
  const problems = [...before, ...parsed.problems];
  if (series.length === 0 && problems.length === 0) problems.push({ file, line: null, reason: `no values found (read as ${parsed.format})` });
  return { result: { series, problems, lines }, intervals };
}

/**
 * A binary format (formats/detect.ts pickBytesReader) read from the file's bytes; `lines` is
 * then the number of records read.
 */
export async function ingestBytes(
  name: string,
  reader: FormatBytesReader,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options?: SampleOptions,
): Promise<IngestResult> {
  const parser = reader.create(name, options);
  for await (const chunk of chunks) parser.push(chunk);
  return seriesOfSource(name, parser.finish(), [], 0).result;
}

function unknownFormat(name: string, head: string): IngestResult {
  return { series: [], problems: [{ file: name, line: null, reason: unreadableReason(head) }], lines: 0 };
}
