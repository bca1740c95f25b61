// A big interval log read by every worker at once, in pieces.
//
// How a log is cut is a speed setting of the machine (how many workers read it), never part of
// an answer: a part's pre-merged blocks lie on the log's grid (it is told how many intervals
// come before it, piece-origins.ts), and every query sums ranges on that grid, so any cut gives
// what a read in one piece gives. The log is cut into a few large pieces, then smaller ones,
// that the page's workers take as they free up: cut into one equal part per worker, a log was read as fast as its slowest part,
// as the engine worker starts its part later (it shares the file out first, and may be
// finishing a warm-up slice when the file arrives) and reads it more slowly (it keeps its
// payloads as text, posts the progress), so the helper sat idle while the engine read on
// (traced in Chromium on the 24-hour log). The engine reads the first piece into the joining
// reader and any later piece it takes as a part, as a helper does; the parts are joined in
// file order, which gives what reading the log in one piece gives (tests compare them).
import { fileBytes } from "./file-chunks";
import { HlogIngest, ingestHlogPart, type HlogPart, type ReadOptions } from "./hlog-ingest";
import { OriginLedger, addCounts, partCounts } from "./piece-origins";
import type { IngestResult } from "./series-make";
import type { HelperWorkers } from "./load-files";

/**
 * Shares of the file cut per round: the first round gives each worker one large piece, each
 * later round one smaller piece each (pieces of the minimum size once a share is below it).
 */
const ROUND_SHARES = [0.8, 0.2];
/** Pieces a helper is asked for at a time: the one it reads and the next (it reads them in turn). */
const HELPER_AHEAD = 2;
/** How far past a cut point to look for a line break before giving up on that cut. */
const CUT_SEARCH_BYTES = 256 * 1024;

/**
 * Byte offsets to cut the file at (before line breaks are looked for), strictly increasing, in
 * `rounds` (shares of the file, each cut into one piece per worker); no piece smaller than
 * `minPiece` (below it, a part's own costs, a message and a join, outweigh what sharing it
 * gains).
 */
export function pieceTargets(size: number, workers: number, minPiece: number, rounds: readonly number[] = ROUND_SHARES): number[] {
  const targets: number[] = [];
  const least = Math.max(1, minPiece);
  let at = 0;
  for (let round = 0; ; round++) {
    const share = rounds[Math.min(round, rounds.length - 1)]!;
    const piece = Math.max(least, Math.floor((size * share) / workers));
    for (let k = 0; k < workers; k++) {
      at += piece;
      // The last piece holds the remainder: no cut that would leave less than half a piece.
      if (at >= size - least / 2) return targets;
      targets.push(at);
    }
  }
}

/**
 * Where a log of `size` bytes is cut (before line breaks are looked for) for `workers` workers:
 * none for one. Two workers get two pieces of 40 %, then two of 10 % (with the next piece asked
 * for ahead, faster than the eight of a 72/16/8/4 % plan: docs/PERFORMANCE.md).
 */
export function logPieceTargets(size: number, minPiece: number, workers: number, rounds: readonly number[] = ROUND_SHARES): number[] {
  return workers > 1 ? pieceTargets(size, workers, minPiece, rounds) : [];
}

/** Byte offsets just after a line break at or after each target, strictly increasing; fewer when lines are too long. */
export async function cutsAt(file: Blob, targets: readonly number[]): Promise<number[]> {
  const found = await Promise.all(
    targets.map(async (target) => {
      const bytes = new Uint8Array(await file.slice(target, Math.min(file.size, target + CUT_SEARCH_BYTES)).arrayBuffer());
      const nl = bytes.indexOf(10);
      return nl < 0 ? -1 : target + nl + 1;
    }),
  );
  const cuts: number[] = [];
  for (const at of found) if (at > 0 && at < file.size && (cuts.length === 0 || at > cuts[cuts.length - 1]!)) cuts.push(at);
  return cuts;
}

/** What readInPieces reports as it goes: bytes and intervals read so far, over every piece. */
export type PiecesProgress = (bytes: number, intervals: number) => void;

/**
 * A file of `size` bytes cut at `cuts`: its pieces' bounds, each piece's bytes and intervals
 * read so far (written by whoever reads it), and `report`, which gives `progress` their sums.
 */
export function pieceCounters(size: number, cuts: readonly number[], progress: PiecesProgress) {
  const bounds = [0, ...cuts, size];
  const count = bounds.length - 1;
  const bytes = new Array<number>(count).fill(0);
  const intervals = new Array<number>(count).fill(0);
  const report = () =>
    progress(
      bytes.reduce((a, b) => a + b, 0),
      intervals.reduce((a, b) => a + b, 0),
    );
  return { bounds, count, bytes, intervals, report };
}

/**
 * Reads an interval log cut at `cuts` (see cutsAt) with this worker and every helper at once.
 * Throws (PartsNotJoinable, a helper's failure, a cancel) when it cannot give the log's exact
 * reading; the caller then reads it in one piece.
 */
export async function readInPieces(
  file: Blob,
  name: string,
  cuts: readonly number[],
  helpers: HelperWorkers,
  progress: PiecesProgress,
  signal?: AbortSignal,
  options: ReadOptions = {},
): Promise<IngestResult> {
  const { bounds, count, bytes, intervals, report } = pieceCounters(file.size, cuts, progress);
  const slice = (k: number) => file.slice(bounds[k]!, bounds[k + 1]!);

  // Pieces 1… in file order, each taken by the first worker to be free; resolved by whoever read it.
  const parts = Array.from({ length: count - 1 }, () => {
    let resolve!: (p: HlogPart) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<HlogPart>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const part = { promise, resolve, reject, done: null as HlogPart | null };
    // A rejected piece is awaited (and thrown) in order below; keep it from being reported unhandled meanwhile.
    promise.then((p) => (part.done = p)).catch(() => undefined);
    return part;
  });
  let next = 1;
  let failed = false;
  const take = (): number | null => (failed || next >= count ? null : next++);
  const settle = async (k: number, read: () => Promise<HlogPart>) => {
    try {
      parts[k - 1]!.resolve(await read());
    } catch (e) {
      failed = true; // nobody takes further pieces: the log is read again in one piece
      parts[k - 1]!.reject(e);
      for (let j = k; j < parts.length; j++) parts[j]!.reject(e);
    }
  };
  // A helper is asked for its next piece while it reads one: it takes it up as soon as it is
  // done, not after this worker, busy with a chunk of its own piece, has taken its answer and
  // handed out another (the helper sat idle for that long between pieces, traced in Chromium).
  // But a piece is asked for ahead only while another is left after it: the last one goes to
  // whoever is free first (taken ahead by a helper that had just finished a piece while this
  // worker was finishing its own, it left this worker idle while the helper read 60 % of the
  // log; traced in Chromium).
  const nextFor = (asked: number): number | null => (asked === 0 || (asked < HELPER_AHEAD && count - next > 1) ? take() : null);
  const onHelper = async (helper: number) => {
    const asked: Promise<void>[] = [];
    for (;;) {
      for (let k = nextFor(asked.length); k !== null; k = nextFor(asked.length)) {
        const piece = k;
        asked.push(
          settle(piece, () =>
            helpers.read(
              helper,
              slice(piece),
              name,
              (b, n) => {
                bytes[piece] = b;
                intervals[piece] = n;
                report();
              },
              signal,
              file.slice(0, bounds[piece]!),
            ),
          ),
        );
      }
      if (asked.length === 0) return;
      await asked.shift();
    }
  };
  const helping = Array.from({ length: helpers.count }, (_, h) => onHelper(h));

  // This worker: the first piece into the joining reader, then pieces as parts while any are left.
  // Its bytes are kept, where its table finds the payloads of the lines read from them.
  const first = new Uint8Array(bounds[1]! - bounds[0]!);
  const sink = new HlogIngest(name, true, first, options.keepBlocks, undefined, options.context);
  for await (const chunk of fileBytes(slice(0), (b) => (bytes[0] = b), signal, first)) {
    sink.pushBytes(chunk);
    intervals[0] = sink.intervalCount;
    report();
  }
  // The parts already read, in order, are joined between this worker's pieces: the helpers' first
  // parts are then joined while their last ones are read, not all after them.
  let joined = 0;
  const joinReady = () => {
    for (; joined < parts.length && parts[joined]!.done !== null && !failed; joined++) sink.absorb(parts[joined]!.done!);
  };
  // Where this worker's later pieces start, in intervals: from its own first piece and the parts
  // read so far, counting only the bytes between the last of them and the piece.
  const ledger = new OriginLedger();
  ledger.record(bounds[1]!, sink.tagCounts());
  const learn = () => {
    for (let k = 1; k < count - 1 && ledger.has(bounds[k]!); k++) {
      const done = parts[k - 1]!.done;
      if (!ledger.has(bounds[k + 1]!) && done) ledger.record(bounds[k + 1]!, addCounts(ledger.get(bounds[k]!)!, partCounts(done)));
    }
  };
  for (let k = take(); k !== null; k = take()) {
    joinReady();
    const piece = k;
    await settle(piece, async () => {
      const source = new Uint8Array(bounds[piece + 1]! - bounds[piece]!);
      learn();
      const origins = await ledger.before(bounds[piece]!, (a, b) => file.slice(a, b), signal);
      return ingestHlogPart(
        name,
        fileBytes(slice(piece), (b) => (bytes[piece] = b), signal, source),
        (p) => {
          intervals[piece] = p.intervals;
          report();
        },
        source,
        { ...options, origins },
      );
    });
  }
  joinReady();
  await Promise.all(helping);
  for (; joined < parts.length; joined++) sink.absorb(await parts[joined]!.promise);
  return sink.finish();
}
