// The interval-log reader's parts: a log read in pieces by several workers, each piece's reader
// handing over its state as a part, joined in order into the reader of the log's start (equal
// to reading the whole file in one piece; tests compare them).
import { countsLengthOf, newHistogram, sparseOf, type SparseHistogram } from "../../core/histogram";
import type { LineSplitter } from "../../core/lines";
import { BLOCK_SIZES, IntervalBlocks, type BlockParts } from "../../core/blocks";
import { IntervalTable, type PayloadBytes, type PayloadSource, type TableColumns } from "../../core/series";
import type { ReaderPart } from "../../formats/hlog";
import { addDecodedInto } from "../../formats/hlog-encoding";
import { MAX_TAGS } from "../series-make";
import { keptTransferables, type KeptParts } from "../intervals/kept";
import { threadBlockWorkspace } from "../block-workspace";
import { MAX_TOTAL_SLOTS, type HlogSink } from "./sink";

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

/** Thrown when a part cannot be joined exactly: read the file in one piece instead. */
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

/** A sealed sink's state as a part for another worker to join (see joinPart). */
export function partOf(sink: HlogSink, splitter: LineSplitter, source: Uint8Array | null): HlogPart {
  return {
    reader: sink.reader.partState(),
    lines: splitter.linesRead,
    intervalCount: sink.intervalCount,
    tags: [...sink.tags].map(([tag, t]) => ({
      tag,
      layout: t.layout,
      histogram: t.histogram ? sparseOf(t.histogram) : null,
      table: t.intervals.toColumns(),
      rawStarts: sink.rawStartsOf(t),
      blocks: t.blocks ? t.blocks.toParts() : null,
      double: t.double,
      kept: t.kept?.toParts() ?? null,
    })),
    source,
    chars: splitter.charsRead,
  };
}

/**
 * Appends the part read after the sink's lines (its pending counts settled, nothing pushed
 * after). Throws PartsNotJoinable when the part mixes histogram layouts for a tag already seen.
 */
export function joinPart(sink: HlogSink, splitter: LineSplitter, p: HlogPart): void {
  if (p.intervalCount > 0 && !p.source) throw new PartsNotJoinable("a part came without the bytes it was read from");
  // Bytes that each decoded to one character hold the payloads at the same positions; other
  // bytes (UTF-8 beyond ASCII, a byte-order mark) are decoded as the reader decoded them.
  const source: PayloadSource = !p.source || p.chars === p.source.length ? (p.source ?? "") : new TextDecoder("utf-8").decode(p.source.subarray(0, p.source.length));
  const shift = splitter.linesRead;
  sink.reader.absorb(p.reader, shift);
  splitter.skipLines(p.lines);
  sink.intervalCount += p.intervalCount;
  for (const pt of p.tags) {
    let t = sink.tags.get(pt.tag);
    if (!t) {
      if (sink.tags.size >= MAX_TAGS) {
        sink.reader.noteProblem(null, `more than ${MAX_TAGS} tags in one log: lines of further tags are skipped`);
        continue;
      }
      t = sink.newTag(pt.tag, pt.layout, false, new IntervalTable());
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
      sink.slots += countsLengthOf(t.histogram) - current;
      // Each part kept within the budget alone; together they may not: read in one piece.
      if (sink.slots > MAX_TOTAL_SLOTS) throw new PartsNotJoinable("the parts' histograms together exceed the memory budget");
    }
    try {
      t.intervals.appendColumns(pt.table, source);
    } catch (e) {
      throw new PartsNotJoinable(e instanceof Error ? e.message : String(e));
    }
    t.kept?.append(pt.kept, pt.table.n);
    if (t.starts.length > 0) {
      t.before.push(t.starts);
      t.starts = [];
    }
    t.before.push(pt.rawStarts);
    // A part that kept no blocks (or saw two layouts) leaves the series without blocks.
    if (pt.blocks && pt.blocks.levels.length === BLOCK_SIZES.length) t.parts.push({ blocks: IntervalBlocks.fromParts(pt.blocks, threadBlockWorkspace()), from });
    else t.partsBroken = true;
  }
}
