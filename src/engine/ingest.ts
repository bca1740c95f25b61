// Turns one input (a name and its text, streamed in chunks) into series. Pure: no DOM, no
// worker API, so the whole path from bytes to series is testable in Node.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { highestEquivalent, maxOf, newHistogram, sparseOf, valueAtPercentile, type Histogram, type SparseHistogram } from "../core/histogram";
import { identityFromName } from "../core/naming";
import { LineSplitter, MAX_LINE_CHARS } from "../core/lines";
import { IntervalTable, inferUnitFromIntervalMax, type SeriesModel, type TableColumns } from "../core/series";
import { IntervalBlocks, JoinedBlocks, type RangeSums, type Sparse } from "../core/blocks";
import type { LoadProblem } from "../core/types";
import { HlogReader, detectHlog, type ReaderPart } from "../formats/hlog";
import { addDecodedInto, decodeHistogramPayload, valueFromIndex, type DecodedHistogram } from "../formats/hlog-encoding";
import { detectPercentileFile, parsePercentileFile } from "../formats/hgrm";
import { looksLikeUtf16, pickReader, unreadableReason } from "../formats/detect";
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

/** Whether ingest() would read this input as an interval log (so it can be read in parts). */
export function isIntervalLog(name: string, head: string): boolean {
  return !looksLikeUtf16(head) && detectKind(name, detectionHead(head)) === "hlog";
}

function pickSink(name: string, fullHead: string, options?: SampleOptions): Sink | null {
  // UTF-16 reads as garbage under every name: refused before any reader (unknownFormat says why).
  if (looksLikeUtf16(fullHead)) return null;
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

function blocksOf(t: TagSeries): RangeSums | null {
  if (!t.blocks || t.partsBroken) return null;
  return t.parts.length === 0 ? t.blocks : new JoinedBlocks([{ blocks: t.blocks, from: 0 }, ...t.parts]);
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
  return { series: [], problems: [{ file: name, line: null, reason: unreadableReason(head) }], lines: 0 };
}

export function stripExtension(name: string): string {
  const base = name.replace(/^.*[\\/]/, "");
  const cut = base.lastIndexOf(".");
  return cut > 0 ? base.slice(0, cut) : base;
}

interface TagSeries {
  histogram: Histogram | null;
  intervals: IntervalTable;
  /** This reader's own blocks (null once two layouts were seen). */
  blocks: IntervalBlocks | null;
  layout: string;
  /** Blocks of parts read by other workers, after this reader's own intervals. */
  parts: { blocks: RangeSums; from: number }[];
  /** A part came without blocks: no blocks for the series. */
  partsBroken: boolean;
}

/** One tag of an HlogPart: everything but the time base, as transferable arrays. */
export interface HlogPartTag {
  tag: string;
  /** Layout of the tag's first interval in the part. */
  layout: string;
  histogram: SparseHistogram | null;
  table: TableColumns;
  rawStarts: Float64Array;
  /** Null when the part saw two layouts for the tag. */
  blocks: { levels: Sparse[][]; n: number } | null;
}

/** What a worker that read a later part of an interval log hands to the one that read its start. */
export interface HlogPart {
  reader: ReaderPart;
  lines: number;
  intervalCount: number;
  tags: HlogPartTag[];
}

/** Thrown by absorb() when a part cannot be joined exactly: read the file in one piece instead. */
export class PartsNotJoinable extends Error {}

/** Typed arrays of a part, for postMessage's transfer list. */
export function transferablesOf(p: HlogPart): ArrayBuffer[] {
  const out: ArrayBufferLike[] = [];
  for (const t of p.tags) {
    const c = t.table;
    out.push(c.offsets.buffer, c.lengths.buffer, c.maxes.buffer, c.counts.buffer, c.maxColumn.buffer, c.p50.buffer, t.rawStarts.buffer);
    if (t.histogram) out.push(t.histogram.indices.buffer, t.histogram.counts.buffer);
    for (const level of t.blocks?.levels ?? []) for (const b of level) out.push(b.indices.buffer, b.counts.buffer);
  }
  return out.filter((b, i, all) => b instanceof ArrayBuffer && all.indexOf(b) === i) as ArrayBuffer[];
}

/** Reads a part of an interval log that starts at a line boundary (not necessarily the file's start). */
export async function ingestHlogPart(name: string, chunks: AsyncIterable<string> | Iterable<string>, onProgress?: (p: IngestProgress) => void): Promise<HlogPart> {
  const sink = new HlogIngest(name);
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    sink.push(chunk);
    onProgress?.({ bytes, intervals: sink.intervalCount });
  }
  return sink.toPart();
}

/**
 * Reads the first part of an interval log here while other workers read the rest, then joins
 * their parts in order: the result equals reading the whole file in one piece (tests compare
 * them). Throws PartsNotJoinable when a part mixes histogram layouts for a tag already seen.
 */
export async function ingestHlogInParts(
  name: string,
  first: AsyncIterable<string> | Iterable<string>,
  rest: readonly Promise<HlogPart>[],
  onProgress?: (p: IngestProgress) => void,
): Promise<IngestResult> {
  const sink = new HlogIngest(name);
  let bytes = 0;
  for await (const chunk of first) {
    bytes += chunk.length;
    sink.push(chunk);
    onProgress?.({ bytes, intervals: sink.intervalCount });
  }
  for (const p of rest) sink.absorb(await p);
  return sink.finish();
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
      t = { histogram: null, intervals: new IntervalTable(), blocks: new IntervalBlocks(), layout: `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}`, parts: [], partsBroken: false };
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

  /** This reader's state as a part for another worker to absorb (see ingestHlogInParts). */
  toPart(): HlogPart {
    this.splitter.end();
    return {
      reader: this.reader.partState(),
      lines: this.splitter.linesRead,
      intervalCount: this.intervalCount,
      tags: [...this.tags].map(([tag, t]) => ({
        tag,
        layout: t.layout,
        histogram: t.histogram ? sparseOf(t.histogram) : null,
        table: t.intervals.toColumns(),
        rawStarts: Float64Array.from(this.rawStarts.get(tag)!),
        blocks: t.blocks ? t.blocks.toParts() : null,
      })),
    };
  }

  /** Appends the part read after this reader's lines (call after the last push). */
  absorb(p: HlogPart): void {
    this.splitter.end();
    const shift = this.splitter.linesRead;
    this.reader.absorb(p.reader, shift);
    this.splitter.skipLines(p.lines);
    this.intervalCount += p.intervalCount;
    for (const pt of p.tags) {
      let t = this.tags.get(pt.tag);
      if (!t) {
        if (this.tags.size >= MAX_TAGS) {
          this.reader.noteProblem(null, `more than ${MAX_TAGS} tags in one log: lines of further tags are skipped`);
          continue;
        }
        t = { histogram: null, intervals: new IntervalTable(), blocks: new IntervalBlocks(), layout: pt.layout, parts: [], partsBroken: false };
        this.tags.set(pt.tag, t);
        this.rawStarts.set(pt.tag, []);
      } else if (pt.layout !== t.layout || pt.blocks === null) {
        // The part's histogram was built in its own first layout: adding it here could
        // quantise twice where reading in order would not.
        throw new PartsNotJoinable(`tag "${pt.tag}" changes histogram layout`);
      }
      const from = t.intervals.n;
      if (pt.histogram) {
        const h = pt.histogram;
        if (!t.histogram) t.histogram = newHistogram(h.numberOfSignificantValueDigits, h.lowestDiscernibleValue, h.highestTrackableValue);
        addDecodedInto(t.histogram, { version: 2, ...h });
      }
      t.intervals.appendColumns(pt.table);
      const raws = this.rawStarts.get(pt.tag)!;
      for (let i = 0; i < pt.rawStarts.length; i++) raws.push(pt.rawStarts[i]!);
      if (pt.blocks) t.parts.push({ blocks: IntervalBlocks.fromParts(pt.blocks), from });
      else t.partsBroken = true;
    }
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
        blocks: sorted ? blocksOf(t) : null,
      }));
    }
    if (series.length === 0 && problems.length === 0) {
      problems.push({ file: this.file, line: null, reason: "no intervals found in this log" });
    }
    return { series, problems, lines: this.splitter.linesRead };
  }
}
