// Interval-log ingest: one series per tag, every interval decoded once and merged; a log can
// also be read in parts by several workers and joined (equal to reading it whole). Kept apart
// from the other formats so that the helper workers load only this. The reader is a sink
// (hlog/sink.ts, whose addRow places every interval) fed by a text path (hlog/text.ts), a byte
// path (hlog/bytes.ts) and parts (hlog/parts.ts).
import { ByteLines } from "./hlog/bytes";
import { joinPart, partOf, type HlogPart } from "./hlog/parts";
import { HlogSink } from "./hlog/sink";
import { TextLines } from "./hlog/text";
import type { IngestProgress, IngestResult, Sink } from "./series-make";
import { sharedContext, type EngineContext } from "./context";

export { PartsNotJoinable, transferablesOf, type HlogPart, type HlogPartTag } from "./hlog/parts";

/** What a reader keeps beside each log's series. */
export interface ReadOptions {
  /**
   * Pre-merged blocks of consecutive intervals, which time windows and comparisons add up
   * instead of decoding every interval (default true). Without them (the command line's report
   * of whole logs, which asks for neither) a series has none: the same answers, slower.
   */
  keepBlocks?: boolean;
  /**
   * Per tag, how many of its intervals the log holds before the lines read here (a later
   * part's blocks then lie on the log's grid, so no answer depends on where the log was cut).
   */
  origins?: ReadonlyMap<string, number>;
  /** The engine context the reader runs in: its kernel and decoder (default: the thread's, sharedContext). */
  context?: EngineContext;
}

/**
 * Reads a part of an interval log that starts at a line boundary (not necessarily the file's
 * start). `source` holds the bytes the chunks were decoded from once they are all read (the
 * joining worker cuts the part's payloads out of them); without it, the part cannot be joined.
 */
export async function ingestHlogPart(
  name: string,
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  onProgress?: (p: IngestProgress) => void,
  source: Uint8Array | null = null,
  options: ReadOptions = {},
): Promise<HlogPart> {
  const sink = new HlogIngest(name, false, null, options.keepBlocks, options.origins, options.context);
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
 * Reads the first part of an interval log here while other workers read the rest, then joins
 * their parts in order: the result equals reading the whole file in one piece (tests compare
 * them). Throws PartsNotJoinable when a part mixes histogram layouts for a tag already seen.
 */
export async function ingestHlogInParts(
  name: string,
  first: AsyncIterable<string> | Iterable<string>,
  rest: readonly Promise<HlogPart>[],
  onProgress?: (p: IngestProgress) => void,
  options: ReadOptions = {},
): Promise<IngestResult> {
  const sink = new HlogIngest(name, true, null, options.keepBlocks, undefined, options.context);
  await pushAll(sink, first, onProgress);
  for (const p of rest) sink.absorb(await p);
  return sink.finish();
}

/** Interval-log ingest: one series per tag, every interval decoded once and merged. */
export class HlogIngest implements Sink {
  private readonly sink: HlogSink;
  private readonly text: TextLines;
  private readonly bytes: ByteLines;

  /**
   * `keepPayloads` false: a part for another worker to join (see IntervalTable). `ownBytes`: the
   * bytes pushBytes() is given, kept whole by the caller as they come (a table that keeps its
   * payloads finds those of the lines read from bytes there); without them, a reader that keeps
   * its payloads reads pushed bytes as text. `keepBlocks`, `origins`, `context`: see ReadOptions.
   */
  constructor(
    file: string,
    keepPayloads = true,
    ownBytes: Uint8Array | null = null,
    keepBlocks = true,
    origins: ReadonlyMap<string, number> = new Map(),
    context: EngineContext = sharedContext,
  ) {
    this.sink = new HlogSink(file, { keepPayloads, ownBytes, keepBlocks, origins, context });
    this.text = new TextLines(this.sink);
    this.bytes = new ByteLines(this.sink, this.text);
  }

  get intervalCount(): number {
    return this.sink.intervalCount;
  }

  push(chunk: string): void {
    this.text.push(chunk);
  }

  /** Pushes the log's next bytes: a byte stream's chunks in order, never mixed with push() (hlog/bytes.ts). */
  pushBytes(chunk: Uint8Array): void {
    this.bytes.push(chunk);
  }

  /** Ends the pushed input: the byte decoder's rest, the splitter's last line, pending counts. */
  private end(): void {
    this.bytes.end();
    this.text.splitter.end();
    this.sink.settleAll();
  }

  /** Per tag, the intervals read so far (every line pushed is placed first). */
  tagCounts(): Map<string, number> {
    this.end();
    return new Map([...this.sink.tags].map(([tag, t]) => [tag, t.intervals.n]));
  }

  /** This reader's state as a part for another worker to absorb (see ingestHlogInParts). */
  toPart(source: Uint8Array | null = null): HlogPart {
    this.end();
    this.sink.seal();
    return partOf(this.sink, this.text.splitter, source);
  }

  /** Appends the part read after this reader's lines (call after the last push). */
  absorb(p: HlogPart): void {
    this.end();
    joinPart(this.sink, this.text.splitter, p);
  }

  finish(): IngestResult {
    this.end();
    this.sink.seal();
    return this.sink.finish(this.text.splitter.linesRead);
  }
}
