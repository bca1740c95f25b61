// Where a piece of an interval log starts, counted in intervals: a part's pre-merged blocks then
// lie on the grid a read in one piece lays them on (multiples of the block size from the log's
// first interval), so that queries sum whole stored blocks however the log was cut. Counting the
// lines before a piece is a scan for line breaks, far cheaper than reading them. A count that
// differs from what the reader kept (a line it skipped) costs speed only: sums stay exact.
import { fileBytes } from "./file-chunks";
import type { HlogPart } from "./hlog/parts";

const HASH = 35; // '#': a comment, StartTime, BaseTime
const QUOTE = 34; // '"': the column legend
const LF = 10;
const CR = 13;
const COMMA = 44;
/** "Tag=" */
const TAG = [84, 97, 103, 61];
/** A tag longer than this is not looked for (the reader's own limit is far below). */
const MAX_TAG_BYTES = 4096;

/** From this size on, the bytes before a piece are read in PARALLEL_READS slices at once. */
const PARALLEL_FROM = 4 * 1024 * 1024;
/**
 * A Blob's stream brings its bytes in small chunks, each a round trip to the browser's process:
 * the count of the bytes before a helper's stretch waited on them, not on counting. Slices read
 * at once overlap those waits.
 */
const PARALLEL_READS = 4;

/**
 * Per tag ("" untagged), how many interval lines `before` (the log's bytes before a piece, from
 * its start) holds: lines that are not comments, the legend or empty, by the tag they start with.
 */
export async function intervalsBefore(before: Blob, signal?: AbortSignal): Promise<Map<string, number>> {
  if (before.size < PARALLEL_FROM) return countIntervalLines(fileBytes(before, () => undefined, signal));
  const step = Math.ceil(before.size / PARALLEL_READS);
  const counts = await Promise.all(
    Array.from({ length: PARALLEL_READS }, (_, k) => {
      // The lines that start in [from, to): read from the byte before (a line starts at `from`
      // when that byte ends one) to far enough past `to` to hold the last one's tag.
      const from = k * step;
      const to = Math.min(before.size, from + step);
      const at = Math.max(0, from - 1);
      return countIntervalLines(
        fileBytes(before.slice(at, Math.min(before.size, to + MAX_TAG_BYTES)), () => undefined, signal),
        { midLine: from > 0, until: to - at },
      );
    }),
  );
  return counts.reduce((a, b) => addCounts(a, b), new Map<string, number>());
}

/** Where in a stream of bytes to count lines: `midLine`, it starts inside a line (its first line is not counted); only lines that start before byte `until`. */
export interface CountRange {
  midLine: boolean;
  until: number;
}

/** The same count over bytes given in chunks (which may cut lines anywhere). */
export async function countIntervalLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  range: CountRange = { midLine: false, until: Infinity },
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const add = (tag: string) => counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const decoder = new TextDecoder("utf-8");
  // A line's first bytes when they run over a chunk's end: the tag is read once they are in.
  let head: number[] | null = null;
  let atLineStart = !range.midLine;
  // Bytes of the stream before the current chunk.
  let base = 0;
  const headDone = (bytes: readonly number[]): boolean => {
    // Whether the head starts "Tag=" and holds its comma (or cannot be a tagged line).
    for (let k = 0; k < TAG.length && k < bytes.length; k++) if (bytes[k] !== TAG[k]) return true;
    return bytes.length >= MAX_TAG_BYTES || bytes.indexOf(COMMA) >= 0 || bytes.indexOf(LF) >= 0;
  };
  const classify = (bytes: readonly number[] | Uint8Array) => {
    const first = bytes[0];
    if (first === undefined || first === HASH || first === QUOTE || first === LF || first === CR) return;
    // An untagged interval starts with its start time (a number, perhaps after white space).
    if (first !== 84 /* T */) return (first >= 48 && first <= 57) || first === 46 || first === 45 || first === 32 || first === 9 ? add("") : undefined;
    let tagged = bytes.length > TAG.length;
    for (let k = 0; k < TAG.length && tagged; k++) if (bytes[k] !== TAG[k]) tagged = false;
    if (!tagged) return;
    let end = TAG.length;
    while (end < bytes.length && bytes[end] !== COMMA && bytes[end] !== LF) end++;
    if (bytes[end] !== COMMA) return; // no comma after the tag: not an interval line
    add(decoder.decode(Uint8Array.from(bytes.slice(TAG.length, end))));
  };
  // Untagged lines, the most, are counted apart (no map lookup or view per line).
  let untagged = 0;
  let done = false;
  for await (const chunk of chunks) {
    if (done) break;
    let i = 0;
    while (i < chunk.length) {
      if (head !== null) {
        // Continue a line's head that began in an earlier chunk.
        const stop = Math.min(chunk.length, i + MAX_TAG_BYTES);
        while (i < stop && !headDone(head)) head.push(chunk[i++]!);
        if (!headDone(head)) continue;
        classify(head);
        const ended = head[head.length - 1] === LF;
        head = null;
        atLineStart = ended;
        if (ended) continue;
      } else if (atLineStart) {
        if (base + i >= range.until) {
          done = true;
          break;
        }
        const first = chunk[i]!;
        if (first === 84 /* T */) {
          // A tagged line: its tag runs to the comma, which may be in a later chunk.
          const comma = chunk.indexOf(COMMA, i);
          const nl = chunk.indexOf(LF, i);
          const end = comma >= 0 && (nl < 0 || comma < nl) ? comma + 1 : nl >= 0 ? nl + 1 : -1;
          if (end < 0) {
            head = Array.from(chunk.subarray(i));
            break;
          }
          classify(chunk.subarray(i, end));
        } else if ((first >= 48 && first <= 57) || first === 46 || first === 45 || first === 32 || first === 9) untagged++;
        atLineStart = false;
      }
      const nl = chunk.indexOf(LF, i);
      if (nl < 0) break;
      i = nl + 1;
      atLineStart = true;
    }
    base += chunk.length;
  }
  if (untagged > 0) counts.set("", (counts.get("") ?? 0) + untagged);
  return counts;
}

/** Per tag, the sum of two counts of intervals. */
export function addCounts(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(a);
  for (const [tag, n] of b) out.set(tag, (out.get(tag) ?? 0) + n);
  return out;
}

/** Per tag, the intervals a part holds. */
export function partCounts(p: HlogPart): Map<string, number> {
  return new Map(p.tags.map((t) => [t.tag, t.table.n]));
}

/**
 * What is known of one log: per tag, the intervals before some of its byte offsets (a piece's
 * start), learnt from counting or from the pieces already read. A piece's origin is counted
 * from the nearest offset known before it, so the bytes already read or counted are not
 * counted again (counting from the log's start for every piece read much of it twice).
 */
export class OriginLedger {
  private readonly known = new Map<number, ReadonlyMap<string, number>>([[0, new Map()]]);

  record(at: number, counts: ReadonlyMap<string, number>): void {
    this.known.set(at, counts);
  }

  has(at: number): boolean {
    return this.known.has(at);
  }

  get(at: number): ReadonlyMap<string, number> | undefined {
    return this.known.get(at);
  }

  /** Per tag, the intervals before byte `at`; `bytes(from, to)` gives the log's bytes between two offsets. */
  async before(at: number, bytes: (from: number, to: number) => Blob, signal?: AbortSignal): Promise<Map<string, number>> {
    let from = 0;
    for (const k of this.known.keys()) if (k <= at && k > from) from = k;
    const base = this.known.get(from)!;
    const counts = from === at ? new Map(base) : addCounts(base, await intervalsBefore(bytes(from, at), signal));
    this.known.set(at, counts);
    return counts;
  }
}
