// The interval-log reader's sink: one series per tag, every interval decoded once and merged.
// The text, byte and part readers (text.ts, bytes.ts, parts.ts) feed it; addRow() is the one
// place an interval is placed in a tag's table.
import {
  addInto,
  coarsestLayout,
  countsLengthOf,
  declaredCountsLength,
  highestEquivalent,
  lowestDiscernibleValueOf,
  newHistogram,
  MAX_DECLARED_COUNTS,
  type Histogram,
} from "../../core/histogram";
import { IntervalBlocks, JoinedBlocks, type AccumulatorsFactory, type RangeSums } from "../../core/blocks";
import { threadBlockWorkspace } from "../block-workspace";
import { IntervalTable, type PayloadBytes, type SeriesModel } from "../../core/series";
import { HlogReader, type HlogInterval } from "../../formats/hlog";
import { addDecodedInto, growToCover, valueFromIndex, type DecodedHistogram } from "../../formats/hlog-encoding";
import { fileBaseName } from "../../core/naming";
import { concatArrays } from "../../core/concat";
import { kernelAccumulators } from "../kernel-accumulators";
import type { EngineContext } from "../context";
import type { PayloadDecoder } from "../intervals/decode";
import { makeSeries, MAX_TAGS, type IngestResult } from "../series-make";
import { KeptCounts, type KeptGroup } from "../intervals/kept";
import { attachKept } from "../intervals";
import { unitOfSeries } from "./units";

/** Counts-array slots all tags' histograms of one log may hold together: 2^27 float64 = 1 GiB. */
export const MAX_TOTAL_SLOTS = 2 ** 27;

export interface TagSeries {
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
   * value takes the short path (addShort; -1: none yet). Most lines of a log take it.
   */
  fastDigits: number;
  fastLowest: number;
  fastTop: number;
  /** Each interval's counts bytes, for time windows (null where this realm keeps none). */
  kept: KeptCounts | null;
  // Raw starts are kept until the end: the time base is only certain once StartTime is read.
  // The lines read here go into `starts`; what came before them (joined parts' starts, kept
  // as they came rather than copied, and lines read here before a part) is in `before`.
  starts: number[];
  before: (number[] | Float64Array)[];
}

/** A decoded interval's last counted index (-1: it counts nothing). */
export function lastIndexOf(d: DecodedHistogram): number {
  return d.indices.length > 0 ? d.indices[d.indices.length - 1]! : -1;
}

/**
 * The highest value of a decoded interval's last bucket (0 when it counts nothing). Values above
 * 2^53 are valid in HdrHistogram's layouts but not exact in a float64: the library would count
 * them in the total and lose them from the buckets (found by fuzzing); the long path refuses them.
 */
export function topOf(d: DecodedHistogram, lastIndex: number): number {
  return lastIndex >= 0 ? valueFromIndex(lastIndex + 1, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits) - 1 : 0;
}

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

/** How a reader keeps what it reads. */
export interface SinkOptions {
  /** False: a part for another worker to join (see IntervalTable). */
  keepPayloads: boolean;
  /**
   * The bytes the byte reader is given, kept whole by the caller as they come (a table that
   * keeps its payloads finds those of the lines read from bytes there); without them, a reader
   * that keeps its payloads reads pushed bytes as text.
   */
  ownBytes: Uint8Array | null;
  /**
   * Whether each log's blocks are kept: pre-merged sums of consecutive intervals, which time
   * windows and comparisons add up instead of decoding every interval in them. Without them
   * (the command line's report of whole logs, which asks for neither) each log's intervals are
   * only added up for its histogram, and its series has no blocks (queries then decode
   * intervals: the same answers, slower).
   */
  keepBlocks: boolean;
  /** Per tag, its intervals before the lines read here (see ReadOptions in hlog-ingest.ts). */
  origins: ReadonlyMap<string, number>;
  /** The engine context read in: its decoder and kernel (the blocks add up in the kernel's memory). */
  context: EngineContext;
}

export class HlogSink {
  readonly reader: HlogReader;
  readonly tags = new Map<string, TagSeries>();
  intervalCount = 0;
  /** Counts-array slots of all tags' histograms (see MAX_TOTAL_SLOTS). */
  slots = 0;
  /** The tags' kept counts, for time windows (intervals/kept.ts; null where none are kept). */
  private readonly kept: KeptGroup | null;
  /** The context's decoder; where the tags' blocks add up (the context's kernel, else in JavaScript). */
  private readonly decoder: PayloadDecoder;
  private readonly accumulators: AccumulatorsFactory;

  constructor(
    readonly file: string,
    readonly options: SinkOptions,
  ) {
    this.reader = new HlogReader(file);
    this.decoder = options.context.decoder;
    this.kept = options.context.kept.group();
    this.accumulators = kernelAccumulators(options.context.kernel);
  }

  get ownBytes(): PayloadBytes | null {
    return this.options.ownBytes;
  }

  /** A tag's series before its first interval is added. */
  newTag(tag: string, layout: string, pending: boolean, intervals: IntervalTable): TagSeries {
    const t: TagSeries = {
      histogram: null,
      pending,
      intervals,
      blocks: new IntervalBlocks(this.accumulators, !this.options.keepBlocks, { origin: this.options.origins.get(tag) ?? 0, workspace: threadBlockWorkspace() }),
      layout,
      parts: [],
      partsBroken: false,
      double: false,
      fastDigits: -1,
      fastLowest: -1,
      fastTop: -1,
      kept: KeptCounts.create(this.kept),
      starts: [],
      before: [],
    };
    this.tags.set(tag, t);
    return t;
  }

  /**
   * Places one interval in tag series `t`: its row (its payload as text, or null: `payloadLength`
   * bytes at `payloadAt` of the reader's own bytes), its raw start, and, when `d` is given, its
   * kept counts and its blocks (the kernel's lines add those themselves).
   */
  addRow(
    t: TagSeries,
    rawStart: number,
    length: number,
    max: number,
    count: number,
    maxColumn: number,
    p50: number,
    payload: string | null,
    payloadLength: number,
    payloadAt: number,
    d: DecodedHistogram | null,
  ): void {
    if (payload !== null) t.intervals.push(0, length, max, count, maxColumn, payload, p50, payloadAt);
    else t.intervals.pushPlaced(0, length, max, count, maxColumn, payloadLength, p50, payloadAt, this.options.ownBytes);
    if (d !== null) {
      t.kept?.add(d);
      // Last: the blocks' kernel accumulators may grow the kernel's memory, which detaches the
      // views `d` holds (kernel-accumulators.ts).
      t.blocks?.add(d);
    }
    t.starts.push(rawStart);
    this.intervalCount++;
  }

  /**
   * The short path, for a line read as text (`payload` given) or from bytes (null): an interval
   * in the layout of the histogram and the blocks, within what was already checked against the
   * memory budget and grown for. What the long path would do then comes down to this; the
   * interval's max in the histogram's layout (its own) is the highest value of its last bucket,
   * `top`. False (nothing done) when the interval is not such.
   */
  addShort(
    t: TagSeries | undefined,
    d: DecodedHistogram,
    lastIndex: number,
    top: number,
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
    this.addRow(t, rawStart, length, lastIndex >= 0 ? top : 0, d.totalCount, maxColumn, this.decoder.medianOf(d), payload, payloadLength, payloadAt, d);
    return true;
  }

  /**
   * The long path: a tag's first interval, or one outside what the short path covers (a new
   * layout, a higher value than checked so far). A method of its own so that the text reader's
   * line() stays small: V8 then optimises it sooner (the warm-up's lines suffice) and in less time.
   */
  addLong(interval: HlogInterval, d: DecodedHistogram, t: TagSeries | undefined, lastIndex: number, top: number, lineNo: number, at: number): void {
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
    t ??= this.newTag(interval.tag, `${d.lowestDiscernibleValue}/${d.numberOfSignificantValueDigits}`, true, new IntervalTable(this.options.keepPayloads));
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
    this.addRow(
      t,
      interval.rawStart,
      interval.length,
      max,
      d.totalCount,
      interval.maxColumn,
      this.decoder.medianOf(d),
      interval.payload,
      interval.payload.length,
      at + interval.payloadAt,
      d,
    );
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

  /** Adds every tag's pending counts to its histogram (before a part is made, joined or finished). */
  settleAll(): void {
    for (const t of this.tags.values()) settle(t);
  }

  /** Settles and seals every tag's blocks: nothing is added to them after. */
  seal(): void {
    this.settleAll();
    for (const t of this.tags.values()) t.blocks?.seal();
  }

  /** A tag's raw starts in order, in one array. */
  rawStartsOf(t: TagSeries): Float64Array {
    return concatArrays([...t.before, t.starts], (n) => new Float64Array(n));
  }

  /** The series read (call once, after seal()); `lines`: the lines read. */
  finish(lines: number): IngestResult {
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
      for (const raws of [...t.before, t.starts]) i = shiftedInto(t.intervals.offsets, i, raws, shift);
      attachKept(t.intervals, t.kept);
      const sorted = isAscending(t.intervals.offsets, t.intervals.n);
      const base = fileBaseName(this.file);
      series.push(
        makeSeries({
          name: tag ? `${base} [${tag}]` : base,
          source: this.file,
          tag,
          ...unitOfSeries(t.double, this.reader.header.producer, t.intervals),
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
    return { series, problems, lines };
  }
}
