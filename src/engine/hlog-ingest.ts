// Interval-log ingest: one series per tag, every interval decoded once and merged; a log can
// also be read in parts by several workers and joined (equal to reading it whole). Kept apart
// from the other formats so that the helper workers load only this.
import {
  addInto,
  coarsestLayout,
  countsLengthOf,
  declaredCountsLength,
  highestEquivalent,
  lowestDiscernibleValueOf,
  MAX_DECLARED_COUNTS,
  newHistogram,
  sparseOf,
  type Histogram,
  type SparseHistogram,
} from "../core/histogram";

/** Counts-array slots all tags' histograms of one log may hold together: 2^27 float64 = 1 GiB. */
const MAX_TOTAL_SLOTS = 2 ** 27;
import { LineSplitter, MAX_LINE_CHARS, type LineSink } from "../core/lines";
import { IntervalTable, inferUnitFromIntervalMax, type PayloadBytes, type PayloadSource, type SeriesModel, type TableColumns } from "../core/series";
import { BLOCK_SIZES, IntervalBlocks, JoinedBlocks, type BlockParts, type RangeSums } from "../core/blocks";
import { HlogReader, holdsWhite, plainDecimalBytes, producerUnit, type HlogInterval, type ReaderPart } from "../formats/hlog";
import { addDecodedInto, growToCover, valueFromIndex, type DecodedHistogram } from "../formats/hlog-encoding";
import { kernelAccumulators } from "./kernel-accumulators";
import { decodePayloadBytes, kernelAvailable, kernelLines, RECORD_F64, RECORD_I32 } from "../wasm/kernel";
import { makeSeries, MAX_TAGS, type IngestProgress, type IngestResult, type Sink } from "./series-make";
import { KeptCounts, keptGroup, keptTransferables, type KeptParts } from "./intervals/kept";
import { attachKept, decodePayload, medianOf } from "./intervals";
import { fileBaseName } from "../core/naming";
import { threadBlockWorkspace } from "./block-workspace";

function blocksOf(t: TagSeries): RangeSums | null {
  if (!t.blocks || t.partsBroken || t.blocks.totalOnly) return null;
  return t.parts.length === 0 ? t.blocks : new JoinedBlocks([{ blocks: t.blocks, from: 0 }, ...t.parts], threadBlockWorkspace());
}

/** Adds a tag's pending counts (its blocks' total) to its histogram; nothing is pending after. */
function settle(t: TagSeries): void {
  if (!t.pending) return;
  t.pending = false;
  const h = t.histogram;
  if (!h || !t.blocks) return;
  const sum = t.blocks.total();
  let total = 0;
  for (let k = 0; k < sum.counts.length; k++) total += sum.counts[k]!;
  addDecodedInto(h, {
    version: 2,
    numberOfSignificantValueDigits: h.numberOfSignificantValueDigits,
    lowestDiscernibleValue: lowestDiscernibleValueOf(h),
    highestTrackableValue: h.highestTrackableValue,
    indices: sum.indices,
    counts: sum.counts,
    totalCount: total,
  });
}

// finish()'s passes over every interval are functions of their own: a loop that runs many
// times in a large function makes V8 compile the whole function (and what it inlines) with its
// optimising compiler, on the cores the load needs, for a pass that runs once per part.

/** Writes raws[k] + shift to offsets from index `at`; returns the index after the last. */
function shiftedInto(offsets: Float64Array, at: number, raws: ArrayLike<number>, shift: number): number {
  for (let k = 0; k < raws.length; k++) offsets[at++] = raws[k]! + shift;
  return at;
}

/** Whether the first n values never decrease. */
function isAscending(v: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) if (v[i]! < v[i - 1]!) return false;
  return true;
}

interface TagSeries {
  histogram: Histogram | null;
  /**
   * The intervals' counts are in `blocks` only, not yet added to `histogram` (settle() adds
   * their total once): each interval was added twice, ~4 % of a load.
   */
  pending: boolean;
  intervals: IntervalTable;
  /** This reader's own blocks (null once two layouts were seen). */
  blocks: IntervalBlocks | null;
  layout: string;
  /** Blocks of parts read by other workers, after this reader's own intervals. */
  parts: { blocks: RangeSums; from: number }[];
  /** A part came without blocks: no blocks for the series. */
  partsBroken: boolean;
  /** Some interval was a DoubleHistogram (its values were taken as seconds). */
  double: boolean;
  /**
   * The layout (digits, lowest) the histogram and the blocks share, and the highest value an
   * interval in it has been checked and grown for: a later interval in that layout up to that
   * value takes the short path in line() (-1: none yet). Most lines of a log take it.
   */
  fastDigits: number;
  fastLowest: number;
  fastTop: number;
  /** Each interval's counts bytes, for time windows (null where this realm keeps none). */
  kept: KeptCounts | null;
}

/** Whether this thread's readers keep each log's blocks (see keepBlocks). */
let blocksKept = true;

/**
 * Whether the readers made from now on in this thread keep each log's blocks: pre-merged sums
 * of consecutive intervals, which time windows and comparisons add up instead of decoding every
 * interval in them. Without them (the command line's report of whole logs, which asks for
 * neither) each log's intervals are only added up for its histogram, and its series has no
 * blocks (queries then decode intervals: the same answers, slower).
 */
export function keepBlocks(on: boolean): void {
  blocksKept = on;
}

/** A tag's series before its first interval is added. */
function newTagSeries(layout: string, pending: boolean, intervals: IntervalTable, kept: Parameters<typeof KeptCounts.create>[0], origin = 0): TagSeries {
  return {
    histogram: null,
    pending,
    intervals,
    blocks: new IntervalBlocks(kernelAccumulators, !blocksKept, { origin, workspace: threadBlockWorkspace() }),
    layout,
    parts: [],
    partsBroken: false,
    double: false,
    fastDigits: -1,
    fastLowest: -1,
    fastTop: -1,
    kept: KeptCounts.create(kept),
  };
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
  blocks: BlockParts | null;
  double: boolean;
  kept?: KeptParts | null;
}

/** What a worker that read a later part of an interval log hands to the one that read its start. */
export interface HlogPart {
  reader: ReaderPart;
  lines: number;
  intervalCount: number;
  tags: HlogPartTag[];
  /**
   * The bytes the part was read from (its payloads are cut out of them), or what reads them
   * back from the file when asked; and how many characters they decoded to.
   */
  source: PayloadBytes | null;
  chars: number;
}

/** Thrown by absorb() when a part cannot be joined exactly: read the file in one piece instead. */
export class PartsNotJoinable extends Error {}

/** Typed arrays of a part, for postMessage's transfer list. */
export function transferablesOf(p: HlogPart): ArrayBuffer[] {
  const out: ArrayBufferLike[] = [];
  for (const t of p.tags) {
    const c = t.table;
    out.push(c.offsets.buffer, c.lengths.buffer, c.maxes.buffer, c.counts.buffer, c.maxColumn.buffer, c.p50.buffer, c.payloadAt.buffer, c.payloadLength.buffer, t.rawStarts.buffer);
    if (t.histogram) out.push(t.histogram.indices.buffer, t.histogram.counts.buffer);
    for (const level of t.blocks?.levels ?? []) {
      out.push(level.chunkOf.buffer, level.starts.buffer, level.ends.buffer);
      for (const c of level.chunks) out.push(c.indices.buffer, c.counts.buffer);
    }
    out.push(...keptTransferables(t.kept));
  }
  if (p.source instanceof Uint8Array) out.push(p.source.buffer);
  return out.filter((b, i, all) => b instanceof ArrayBuffer && all.indexOf(b) === i) as ArrayBuffer[];
}

/**
 * Reads a part of an interval log that starts at a line boundary (not necessarily the file's
 * start). `source` holds the bytes the chunks were decoded from once they are all read (the
 * joining worker cuts the part's payloads out of them); without it, the part cannot be joined.
 * `origins`: per tag, its intervals before the part (see HlogIngest), when known.
 */
export async function ingestHlogPart(
  name: string,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  onProgress?: (p: IngestProgress) => void,
  source: Uint8Array | null = null,
  origins?: ReadonlyMap<string, number>,
): Promise<HlogPart> {
  const sink = new HlogIngest(name, false, null, origins);
  await pushAll(sink, chunks, onProgress);
  return sink.toPart(source);
}

/** Text chunks go to push(), byte chunks (a file's bytes, undecoded) to pushBytes(); one kind per log. */
async function pushAll(sink: HlogIngest, chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, onProgress?: (p: IngestProgress) => void): Promise<void> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    if (typeof chunk === "string") sink.push(chunk);
    else sink.pushBytes(chunk);
    onProgress?.({ bytes, intervals: sink.intervalCount });
  }
}

/**
 * Where the decimal field that starts at `i` ends: the index of its comma (before `end`), or -1
 * when a byte other than a digit or a point comes first.
 */
function decimalEnd(b: Uint8Array, i: number, end: number): number {
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === 44) return i;
    if ((c < 48 || c > 57) && c !== 46) return -1;
  }
  return -1;
}

/** A decoded interval's last counted index (-1: it counts nothing). */
function lastIndexOf(d: DecodedHistogram): number {
  return d.indices.length > 0 ? d.indices[d.indices.length - 1]! : -1;
}

/**
 * The highest value of a decoded interval's last bucket (0 when it counts nothing). Values above
 * 2^53 are valid in HdrHistogram's layouts but not exact in a float64: the library would count
 * them in the total and lose them from the buckets (found by fuzzing); the long path refuses them.
 */
function topOf(d: DecodedHistogram, lastIndex: number): number {
  return lastIndex >= 0 ? valueFromIndex(lastIndex + 1, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits) - 1 : 0;
}

/**
 * The highest counts-array index whose bucket's highest value, valueFromIndex(i + 1) − 1 (topOf),
 * is at most `top` in this layout (−1: none): the short path's `top <= fastTop` as an index.
 */
function lastIndexUpTo(top: number, lowest: number, digits: number): number {
  let lo = -1;
  let hi = 1 << 26; // beyond any layout's counts array
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (valueFromIndex(mid + 1, lowest, digits) - 1 <= top) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Lines the kernel reads in one call at most (its records). */
const RECORDS = 64;

/** Whether text holds a character beyond ASCII. */
const BEYOND_ASCII = /[\u0080-\uffff]/;

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
  await pushAll(sink, first, onProgress);
  for (const p of rest) sink.absorb(await p);
  return sink.finish();
}

/** Interval-log ingest: one series per tag, every interval decoded once and merged. */
export class HlogIngest implements Sink, LineSink {
  private readonly reader: HlogReader;
  private readonly splitter: LineSplitter;
  private readonly tags = new Map<string, TagSeries>();
  // Raw starts are kept until the end: the time base is only certain once StartTime is read.
  // Each tag's lines read here go into rawStarts; what came before them (joined parts' starts,
  // kept as they came rather than copied, and lines read here before a part) is in rawBefore.
  private readonly rawStarts = new Map<string, number[]>();
  private readonly rawBefore = new Map<string, (number[] | Float64Array)[]>();
  intervalCount = 0;
  /** Counts-array slots of all tags' histograms (see MAX_TOTAL_SLOTS). */
  private slots = 0;
  /** The tags' kept counts, for time windows (intervals/kept.ts; null where none are kept). */
  private readonly kept = keptGroup();

  /**
   * `keepPayloads` false: a part for another worker to join (see IntervalTable). `ownBytes`: the
   * bytes pushBytes() is given, kept whole by the caller as they come (a table that keeps its
   * payloads finds those of the lines read from bytes there); without them, a reader that keeps
   * its payloads reads pushed bytes as text. `origins`: per tag, how many of its intervals the
   * log holds before the lines read here (a later part's blocks then lie on the log's grid).
   */
  constructor(
    private readonly file: string,
    private readonly keepPayloads = true,
    private readonly ownBytes: Uint8Array | null = null,
    private readonly origins: ReadonlyMap<string, number> = new Map(),
  ) {
    this.reader = new HlogReader(file);
    // This object is the splitter's sink, not a pair of closures made for it: the splitter's
    // call then has one target for every log, and the code V8 optimised while warming up
    // (warm-up.ts) is not thrown away at the first line of a real log ("wrong call target").
    this.splitter = new LineSplitter(this);
  }

  /** LineSink: a line longer than MAX_LINE_CHARS. */
  overlong(lineNo: number, length: number): void {
    this.reader.noteProblem(lineNo, `line is ${length} characters long (limit ${MAX_LINE_CHARS}): not a log line`);
  }

  /**
   * Where the last chunk that held white space (other than line feeds) ends, in characters
   * pushed: a line that starts at or after it holds none.
   */
  private whiteEnd = 0;

  push(chunk: string): void {
    if (holdsWhite(chunk)) this.whiteEnd = this.splitter.charsRead + chunk.length;
    this.splitter.push(chunk);
  }

  /** The decoder of pushBytes' text (made when first needed); bytes pushed so far. */
  private byteDecoder: TextDecoder | null = null;
  private bytesPushed = 0;
  /** Every byte pushed so far was an ASCII character: positions in the bytes are positions in the text. */
  private bytesAreText = true;

  /**
   * Pushes the log's next bytes: a byte stream's chunks in order, never mixed with push().
   * Lines of the usual shape (untagged "start,length,max,HIST…" with plain decimals and no
   * white space, ended by \n or \r\n, that take the short path) are read from the bytes
   * themselves: no text is made of them and their payloads go to the kernel as bytes. Text
   * decoding, the line splitter's strings, the reader's fields and the payloads' text were a
   * third of a worker's time beside the kernel, and most of its garbage (profiled). Every other
   * line, and all bytes after one beyond ASCII (positions in the bytes are then no longer
   * positions in the text), is decoded and pushed as text. What is read is what push() of the
   * decoded text reads (tests compare them).
   */
  pushBytes(chunk: Uint8Array): void {
    const at0 = this.bytesPushed;
    this.bytesPushed += chunk.length;
    if (!this.bytesAreText || !kernelAvailable || (this.keepPayloads && this.ownBytes === null)) {
      this.pushDecoded(chunk, at0);
      return;
    }
    let st = 0;
    if (!this.splitter.atLineStart) {
      // The end of a line begun in an earlier chunk.
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.pushDecoded(chunk, at0);
        return;
      }
      st = nl + 1;
      this.pushDecoded(chunk.subarray(0, st), at0);
    }
    this.window = null;
    for (let nl = chunk.indexOf(10, st); nl >= 0 && this.bytesAreText; nl = chunk.indexOf(10, st)) {
      if (kernelLines !== null) {
        const used = this.kernelLines(chunk, st);
        if (used > 0) {
          st += used;
          continue;
        }
      }
      // A line may end in \r\n (as Java writes lines on Windows); any other \r makes the
      // kernel decline, and the splitter then cuts the line there, as the text has it.
      const end = nl > st && chunk[nl - 1] === 13 ? nl - 1 : nl;
      if (!this.plainLine(chunk, st, end, nl + 1)) this.pushDecoded(chunk.subarray(st, nl + 1), at0 + st);
      st = nl + 1;
    }
    if (st < chunk.length) this.pushDecoded(chunk.subarray(st), at0 + st);
  }

  /** The chunk whose bytes from windowStart to windowEnd are in the kernel's lines area (within one pushBytes). */
  private window: Uint8Array | null = null;
  private windowStart = 0;
  private windowEnd = 0;
  /** lastIndexUpTo of the untagged series' fast layout and top, for the kernel, and what it was computed for. */
  private fastLast = { top: NaN, digits: -1, lowest: -1, last: -1 };

  /**
   * Reads lines from `chunk[st]` on in the kernel while they take the short path (plainLine and
   * shortPath, in one call for up to a block's worth of lines): the bytes of the lines read, 0
   * when the first is not read there (the caller reads it the usual way). Only for untagged
   * lines of a series whose counts are added up in its blocks' kernel accumulator; what each
   * line leaves (its row, kept counts, start, line count) is put here as shortPath puts it.
   */
  private kernelLines(chunk: Uint8Array, st: number): number {
    const t = this.tags.get("");
    if (t === undefined || t.fastDigits < 0 || !t.pending || t.blocks === null) return 0;
    const target = t.blocks.kernelTarget();
    if (target === null) return 0;
    const base = this.reader.plainBase();
    if (base === null) return 0;
    if (this.window !== chunk || st < this.windowStart || st >= this.windowEnd) {
      if (!this.fillWindow(chunk, st)) return 0;
    }
    const fl = this.fastLast;
    if (fl.top !== t.fastTop || fl.digits !== t.fastDigits || fl.lowest !== t.fastLowest) this.newFastLast(t);
    const kl = kernelLines!;
    const lines = Math.min(RECORDS, target.room);
    const keep = t.kept !== null;
    let k = kl.read(st - this.windowStart, this.windowEnd - this.windowStart, lines, target.slot, target.capacity, fl.digits, fl.lowest, fl.last, 0 <= fl.top, base, keep);
    // A line cut by the area's end: the area again from this line on.
    if (k === 0 && kl.stopReason() === 1 && this.windowStart !== st && this.fillWindow(chunk, st)) {
      k = kl.read(0, this.windowEnd - this.windowStart, lines, target.slot, target.capacity, fl.digits, fl.lowest, fl.last, 0 <= fl.top, base, keep);
    }
    return k === 0 ? 0 : this.kernelRecords(t, k);
  }

  private newFastLast(t: TagSeries): void {
    const fl = this.fastLast;
    fl.top = t.fastTop;
    fl.digits = t.fastDigits;
    fl.lowest = t.fastLowest;
    fl.last = lastIndexUpTo(t.fastTop, t.fastLowest, t.fastDigits);
  }

  /** What the kernel's `k` lines leave, put where shortPath puts it; the bytes of those lines. */
  private kernelRecords(t: TagSeries, k: number): number {
    const kl = kernelLines!;
    const f = kl.recordsF64();
    const r = kl.recordsI32();
    const keptBytes = kl.kept();
    const starts = this.rawStarts.get("")!;
    const digits = t.fastDigits;
    const lowest = t.fastLowest;
    const kept = t.kept;
    let used = 0;
    for (let i = 0; i < k; i++) {
      const fo = i * RECORD_F64;
      const io = i * RECORD_I32 + 8;
      const last = r[io]!;
      const median = r[io + 1]!;
      const max = last >= 0 ? valueFromIndex(last + 1, lowest, digits) - 1 : 0;
      const p50 = median < 0 ? 0 : valueFromIndex(median, lowest, digits);
      t.intervals.pushPlaced(0, f[fo + 1]!, max, f[fo + 3]!, f[fo + 2]!, r[io + 3]!, p50, this.splitter.charsRead + r[io + 2]!, this.ownBytes);
      if (kept !== null) kept.addBytes(keptBytes.subarray(r[io + 5]!, r[io + 5]! + r[io + 6]!), digits, lowest, last);
      starts.push(f[fo]!);
      this.splitter.passLine(r[io + 4]!);
      used += r[io + 4]!;
    }
    this.intervalCount += k;
    // Last, as shortPath adds to the blocks last (a block's end takes it out of the kernel).
    t.blocks!.addedInKernel(k);
    return used;
  }

  /** Copies `chunk` from `st` (as much as fits) into the kernel's lines area; false when there is none. */
  private fillWindow(chunk: Uint8Array, st: number): boolean {
    const area = kernelLines!.area();
    if (area === null) return false;
    const end = Math.min(chunk.length, st + area.length);
    area.set(chunk.subarray(st, end));
    this.window = chunk;
    this.windowStart = st;
    this.windowEnd = end;
    return true;
  }

  /** After the last pushBytes(): what the decoder still holds (an unfinished character). */
  private endBytes(): void {
    const rest = this.byteDecoder?.decode() ?? "";
    this.byteDecoder = null;
    if (rest !== "") {
      this.bytesAreText = false;
      this.push(rest);
    }
  }

  /** pushBytes' text way: `bytes`, at `at` in the bytes pushed, decoded as a stream and pushed. */
  private pushDecoded(bytes: Uint8Array, at: number): void {
    // Made at the stream's start, the decoder takes a byte-order mark off as a stream's decoder
    // does (fileChunks); made later, it must not.
    const decoder = (this.byteDecoder ??= new TextDecoder("utf-8", { ignoreBOM: at > 0 }));
    const text = decoder.decode(bytes, { stream: true });
    if (this.bytesAreText && (text.length !== bytes.length || BEYOND_ASCII.test(text))) this.bytesAreText = false;
    this.push(text);
  }

  /**
   * Reads the line `b[st, nl)` (its line break ends at `next`) from its bytes when it takes the
   * short path in every respect; false (nothing done) leaves it to be read as text.
   */
  private plainLine(b: Uint8Array, st: number, nl: number, next: number): boolean {
    const c0 = b[st]!;
    if (c0 < 48 || c0 > 57) return false;
    const e1 = decimalEnd(b, st, nl);
    if (e1 < 0) return false;
    const e2 = decimalEnd(b, e1 + 1, nl);
    if (e2 < 0) return false;
    const e3 = decimalEnd(b, e2 + 1, nl);
    if (e3 < 0) return false;
    const p = e3 + 1;
    // "HIST" (a DoubleHistogram's "DHIST" goes the text way); a comma or white space inside
    // makes the kernel decline, white space at the end is trimmed by the reader: text way.
    if (nl - p < 5 || b[p] !== 72 || b[p + 1] !== 73 || b[p + 2] !== 83 || b[p + 3] !== 84 || b[nl - 1]! <= 32) return false;
    const rawStart = plainDecimalBytes(b, st, e1);
    const length = plainDecimalBytes(b, e1 + 1, e2);
    const maxColumn = plainDecimalBytes(b, e2 + 1, e3);
    if (rawStart < 0 || length < 0 || maxColumn < 0) return false;
    const t = this.tags.get("");
    if (t === undefined || t.fastDigits < 0) return false;
    if (!this.reader.plainLine(rawStart)) return false;
    const d = decodePayloadBytes(b, p, nl);
    if (d === null) return false;
    const lastIndex = lastIndexOf(d);
    if (!this.shortPath(t, d, lastIndex, topOf(d, lastIndex), "", rawStart, length, maxColumn, null, nl - p, this.splitter.charsRead + (p - st))) return false;
    this.splitter.passLine(next - st);
    return true;
  }

  /** LineSink: one line of the log. */
  line(text: string, lineNo: number, at: number): void {
    const interval = this.reader.readLine(text, lineNo, at >= this.whiteEnd);
    if (!interval) return;
    // Transient: every use of the decoded arrays below is done before the next line's decode.
    const decoded = decodePayload(interval.payload);
    if (!decoded.ok) {
      this.reader.noteProblem(lineNo, `histogram payload: ${decoded.reason}`);
      return;
    }
    const d = decoded.value;
    const t = this.tags.get(interval.tag);
    const lastIndex = lastIndexOf(d);
    const top = topOf(d, lastIndex);
    const { payload } = interval;
    if (this.shortPath(t, d, lastIndex, top, interval.tag, interval.rawStart, interval.length, interval.maxColumn, payload, payload.length, at + interval.payloadAt)) return;
    this.longPath(interval, d, t, lastIndex, top, lineNo, at);
  }

  /**
   * The short path, for a line read as text (`payload` given) or from bytes (null: the payload
   * is `payloadLength` bytes at `payloadAt` of the reader's own bytes): an interval in the
   * layout of the histogram and the blocks, within what was already checked against the memory
   * budget and grown for. What the long path would do then comes down to this; the interval's
   * max in the histogram's layout (its own) is the highest value of its last bucket, `top`.
   * False (nothing done) when the interval is not such.
   */
  private shortPath(
    t: TagSeries | undefined,
    d: DecodedHistogram,
    lastIndex: number,
    top: number,
    tag: string,
    rawStart: number,
    length: number,
    maxColumn: number,
    payload: string | null,
    payloadLength: number,
    payloadAt: number,
  ): boolean {
    if (t === undefined || d.numberOfSignificantValueDigits !== t.fastDigits || d.lowestDiscernibleValue !== t.fastLowest || !(top <= t.fastTop)) return false;
    if (d.double) t.double = true;
    if (!t.pending) addDecodedInto(t.histogram!, d);
    const max = lastIndex >= 0 ? top : 0;
    if (payload !== null) t.intervals.push(0, length, max, d.totalCount, maxColumn, payload, medianOf(d), payloadAt);
    else t.intervals.pushPlaced(0, length, max, d.totalCount, maxColumn, payloadLength, medianOf(d), payloadAt, this.ownBytes);
    t.kept?.add(d);
    // Last: the blocks' kernel accumulators may grow the kernel's memory, which detaches the
    // views `d` holds (kernel-accumulators.ts).
    t.blocks?.add(d);
    this.rawStarts.get(tag)!.push(rawStart);
    this.intervalCount++;
    return true;
  }

  /**
   * line()'s long path: a tag's first interval, or one outside what the short path covers (a
   * new layout, a higher value than checked so far). A method of its own so that line() stays
   * small: V8 then optimises it sooner (the warm-up's lines suffice) and in less time.
   */
  private longPath(interval: HlogInterval, d: DecodedHistogram, t: TagSeries | undefined, lastIndex: number, top: number, lineNo: number, at: number): void {
    if (!t && this.tags.size >= MAX_TAGS) {
      this.reader.noteProblem(lineNo, `more than ${MAX_TAGS} tags in one log: lines of further tags are skipped`);
      return;
    }
    if (!(top <= Number.MAX_SAFE_INTEGER)) {
      this.reader.noteProblem(lineNo, `histogram holds values up to ${top.toPrecision(3)}, above 2^53, which cannot be counted exactly: interval skipped`);
      return;
    }
    // Memory of all tags' histograms together is bounded (200 tags of 16 MB each would be 3 GiB).
    const h0 = t?.histogram ?? null;
    const current = h0 ? countsLengthOf(h0) : 0;
    const digits = h0 ? h0.numberOfSignificantValueDigits : d.numberOfSignificantValueDigits;
    const lowest = h0 ? lowestDiscernibleValueOf(h0) : d.lowestDiscernibleValue;
    const initial = h0 ? current : Math.min(declaredCountsLength(digits, lowest, d.highestTrackableValue), MAX_DECLARED_COUNTS);
    const projected = Math.max(initial, declaredCountsLength(digits, lowest, top));
    if (this.slots - current + projected > MAX_TOTAL_SLOTS) {
      this.reader.noteProblem(lineNo, `the histograms of this log would need more than ${(MAX_TOTAL_SLOTS * 8) / 2 ** 30} GiB of memory: interval skipped`);
      return;
    }
    if (!t) {
      t = newTagSeries(
        `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}`,
        true,
        new IntervalTable(this.keepPayloads),
        this.kept,
        this.origins.get(interval.tag) ?? 0,
      );
      this.tags.set(interval.tag, t);
      this.rawStarts.set(interval.tag, []);
    }
    if (!t.histogram) t.histogram = newHistogram(d.numberOfSignificantValueDigits, d.lowestDiscernibleValue, d.highestTrackableValue);
    if (d.double) t.double = true;
    // Blocks add counts by index, so they need every interval in the same layout.
    if (t.blocks && `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}` !== t.layout) {
      settle(t);
      t.blocks = null;
    }
    // An interval coarser than the series' histogram (fewer digits, a larger unit) would be
    // recorded at its buckets' lowest values, below what it recorded (HistogramLogProcessor
    // does that): the series moves to the coarsest layout instead, as a merge does (mergeAll).
    const layout = coarsestLayout([t.histogram, d]);
    if (layout.digits !== t.histogram.numberOfSignificantValueDigits || layout.lowest !== lowestDiscernibleValueOf(t.histogram)) {
      settle(t);
      const coarser = newHistogram(layout.digits, layout.lowest, Math.max(t.histogram.highestTrackableValue, d.highestTrackableValue));
      addInto(coarser, t.histogram);
      t.histogram = coarser;
    }
    if (t.pending) growToCover(t.histogram, d);
    else addDecodedInto(t.histogram, d);
    this.slots += countsLengthOf(t.histogram) - current;
    const max = lastIndex >= 0 ? highestEquivalent(t.histogram, valueFromIndex(lastIndex, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits)) : 0;
    t.intervals.push(0, interval.length, max, d.totalCount, interval.maxColumn, interval.payload, medianOf(d), at + interval.payloadAt);
    t.kept?.add(d);
    t.blocks?.add(d); // last, as above
    this.rawStarts.get(interval.tag)!.push(interval.rawStart);
    this.intervalCount++;
    // The short path is open to the next intervals in this one's layout when the histogram (and
    // the blocks, if any) are in it, up to the highest value checked in it so far.
    const h = t.histogram;
    const same =
      h.numberOfSignificantValueDigits === d.numberOfSignificantValueDigits &&
      lowestDiscernibleValueOf(h) === d.lowestDiscernibleValue &&
      (!t.blocks || t.layout === `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}`);
    if (!same) t.fastDigits = -1;
    else if (t.fastDigits === d.numberOfSignificantValueDigits && t.fastLowest === d.lowestDiscernibleValue) t.fastTop = Math.max(t.fastTop, top);
    else {
      t.fastDigits = d.numberOfSignificantValueDigits;
      t.fastLowest = d.lowestDiscernibleValue;
      t.fastTop = top;
    }
  }

  /** This reader's state as a part for another worker to absorb (see ingestHlogInParts). */
  toPart(source: Uint8Array | null = null): HlogPart {
    this.endBytes();
    this.splitter.end();
    for (const t of this.tags.values()) settle(t);
    for (const t of this.tags.values()) t.blocks?.seal();
    return {
      reader: this.reader.partState(),
      lines: this.splitter.linesRead,
      intervalCount: this.intervalCount,
      tags: [...this.tags].map(([tag, t]) => ({
        tag,
        layout: t.layout,
        histogram: t.histogram ? sparseOf(t.histogram) : null,
        table: t.intervals.toColumns(),
        rawStarts: this.rawStartsOf(tag),
        blocks: t.blocks ? t.blocks.toParts() : null,
        double: t.double,
        kept: t.kept?.toParts() ?? null,
      })),
      source,
      chars: this.splitter.charsRead,
    };
  }

  /** Appends the part read after this reader's lines (call after the last push). */
  absorb(p: HlogPart): void {
    this.endBytes();
    this.splitter.end();
    for (const t of this.tags.values()) settle(t);
    if (p.intervalCount > 0 && !p.source) throw new PartsNotJoinable("a part came without the bytes it was read from");
    // Bytes that each decoded to one character hold the payloads at the same positions; other
    // bytes (UTF-8 beyond ASCII, a byte-order mark) are decoded as the reader decoded them.
    const source: PayloadSource = !p.source || p.chars === p.source.length ? (p.source ?? "") : new TextDecoder("utf-8").decode(p.source.subarray(0, p.source.length));
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
        t = newTagSeries(pt.layout, false, new IntervalTable(), this.kept);
        this.tags.set(pt.tag, t);
        this.rawStarts.set(pt.tag, []);
      } else if (pt.layout !== t.layout || pt.blocks === null) {
        // The part's histogram was built in its own first layout: adding it here could
        // quantise twice where reading in order would not.
        throw new PartsNotJoinable(`tag "${pt.tag}" changes histogram layout`);
      }
      const from = t.intervals.n;
      if (pt.double) t.double = true;
      if (pt.histogram) {
        const h = pt.histogram;
        const current = t.histogram ? countsLengthOf(t.histogram) : 0;
        if (!t.histogram) t.histogram = newHistogram(h.numberOfSignificantValueDigits, h.lowestDiscernibleValue, h.highestTrackableValue);
        addDecodedInto(t.histogram, { version: 2, ...h });
        this.slots += countsLengthOf(t.histogram) - current;
        // Each part kept within the budget alone; together they may not: read in one piece.
        if (this.slots > MAX_TOTAL_SLOTS) throw new PartsNotJoinable("the parts' histograms together exceed the memory budget");
      }
      try {
        t.intervals.appendColumns(pt.table, source);
      } catch (e) {
        throw new PartsNotJoinable(e instanceof Error ? e.message : String(e));
      }
      t.kept?.append(pt.kept, pt.table.n);
      const before = this.rawBefore.get(pt.tag) ?? [];
      const own = this.rawStarts.get(pt.tag)!;
      if (own.length > 0) {
        before.push(own);
        this.rawStarts.set(pt.tag, []);
      }
      before.push(pt.rawStarts);
      this.rawBefore.set(pt.tag, before);
      // A part that kept no blocks (or saw two layouts) leaves the series without blocks.
      if (pt.blocks && pt.blocks.levels.length === BLOCK_SIZES.length) t.parts.push({ blocks: IntervalBlocks.fromParts(pt.blocks, threadBlockWorkspace()), from });
      else t.partsBroken = true;
    }
  }

  /** A tag's raw starts in order, as the pieces they were kept in. */
  private rawSegments(tag: string): (number[] | Float64Array)[] {
    return [...(this.rawBefore.get(tag) ?? []), this.rawStarts.get(tag)!];
  }

  /** A tag's raw starts in order, in one array. */
  private rawStartsOf(tag: string): Float64Array {
    const segments = this.rawSegments(tag);
    const out = new Float64Array(segments.reduce((a, r) => a + r.length, 0));
    let at = 0;
    for (const r of segments) {
      out.set(r, at);
      at += r.length;
    }
    return out;
  }

  finish(): IngestResult {
    this.endBytes();
    this.splitter.end();
    for (const t of this.tags.values()) settle(t);
    for (const t of this.tags.values()) t.blocks?.seal();
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
      const shift = this.reader.offsetShift();
      let i = 0;
      for (const raws of this.rawSegments(tag)) i = shiftedInto(t.intervals.offsets, i, raws, shift);
      attachKept(t.intervals, t.kept);
      const sorted = isAscending(t.intervals.offsets, t.intervals.n);
      // A producer named in the header fixes the unit; a DoubleHistogram's values were taken
      // as seconds and recorded in ns, an assumption; else the Interval_Max ratio suggests one.
      const known = t.double ? null : producerUnit(this.reader.header.producer);
      const inferred = known || t.double ? null : inferUnitFromIntervalMax(t.intervals);
      const base = fileBaseName(this.file);
      series.push(
        makeSeries({
          name: tag ? `${base} [${tag}]` : base,
          source: this.file,
          tag,
          // Without a usable Interval_Max column, assume what Java's writers assume: ns values.
          recordedUnit: known ?? inferred ?? "ns",
          unitSource: known ? "format" : inferred ? "interval-max" : "default",
          histogram: t.histogram,
          intervals: t.intervals,
          startTime,
          format: "hlog",
          blocks: sorted ? blocksOf(t) : null,
        }),
      );
    }
    if (series.length === 0 && problems.length === 0) {
      problems.push({ file: this.file, line: null, reason: "no intervals found in this log" });
    }
    return { series, problems, lines: this.splitter.linesRead };
  }
}
