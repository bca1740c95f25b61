// A big interval log read by every worker at once, in pieces.
//
// How a log is cut is a speed setting of the machine (how many workers read it), never part of
// an answer: a part's pre-merged blocks lie on the log's grid (it is told how many intervals
// come before it, piece-origins.ts), and every query sums ranges on that grid, so any cut gives
// what a read in one piece gives. Each worker reads one stretch of the log from its start to
// its end: the engine worker the first, straight into the joining reader; each helper the next,
// in two pieces (its first part is joined while it reads the second). A helper counts the lines
// before its stretch once and then knows where each of its pieces starts; pieces handed out
// as workers freed up made a worker count the bytes before every piece it took that did not
// follow its last one (traced in Chromium: on the 24-hour log, both threads counted 40 % of it).
// A helper's stretch is shorter by what its count costs, so that all end together. The parts
// are joined in file order, which gives what reading the log in one piece gives (tests compare
// them).
import { fileBytes } from "./file-chunks";
import { HlogIngest, ingestHlogPart, type HlogPart, type ReadOptions } from "./hlog-ingest";
import { OriginLedger, addCounts, partCounts } from "./piece-origins";
import type { IngestResult } from "./series-make";
import type { HelperWorkers } from "./load-files";

/**
 * What counting a byte's lines costs a helper beside reading it, as a share: a helper's stretch
 * of the log is shortened by this share of the bytes before it. Traced in Chromium, the count
 * costs ~0.11 of a read, but the engine reads a byte more slowly than a warm helper (it keeps
 * the bytes for its table and answers the page). A helper's start, which does not grow with the
 * log, is counted apart (`startCost`, load-plan.ts).
 */
const COUNT_COST = 0.075;
/** A helper's stretch: its first piece's share (the second is joined while the first is). */
const HELPER_FIRST = 0.8;
/** How far past a cut point to look for a line break before giving up on that cut. */
const CUT_SEARCH_BYTES = 256 * 1024;

/** Where a log is cut (before line breaks are looked for) and who reads each piece (0: this worker, h + 1: helper h). */
export interface PiecePlan {
  targets: number[];
  owners: number[];
}

/**
 * Where each worker's stretch of a log of `size` bytes starts, for `workers` workers (the first
 * this one): equal times, a helper's counting its stretch's start at COUNT_COST per byte and its
 * start at `startCost` bytes. Null when a stretch would be shorter than `minPiece`.
 */
export function stretchStarts(size: number, workers: number, minPiece: number, countCost = COUNT_COST, startCost = 0): number[] | null {
  // The time each worker reads for, t (in bytes read), is found by bisection: worker w's
  // stretch is t - countCost * start_w - startCost long, and the stretches must end at the log's end.
  const ends = (t: number): number[] => {
    const starts = [0];
    let at = t;
    for (let w = 1; w < workers; w++) {
      starts.push(at);
      at += Math.max(0, t - countCost * at - startCost);
    }
    starts.push(at);
    return starts;
  };
  let lo = size / workers / 2;
  let hi = size;
  for (let k = 0; k < 60; k++) {
    const t = (lo + hi) / 2;
    if (ends(t)[workers]! >= size) hi = t;
    else lo = t;
  }
  const starts = ends(hi).slice(0, workers).map(Math.floor);
  const bounds = [...starts, size];
  for (let w = 0; w < workers; w++) if (bounds[w + 1]! - bounds[w]! < minPiece) return null;
  return starts;
}

/**
 * The pieces of a log of `size` bytes for `workers` workers: one stretch each (stretchStarts),
 * a helper's in two pieces when both are at least `minPiece`; none for one worker or a log too
 * small to share.
 */
export function logPiecePlan(size: number, minPiece: number, workers: number, countCost = COUNT_COST, startCost = 0): PiecePlan {
  const starts = workers > 1 ? stretchStarts(size, workers, Math.max(1, minPiece), countCost, startCost) : null;
  if (!starts) return { targets: [], owners: [0] };
  const targets: number[] = [];
  const owners = [0];
  const bounds = [...starts, size];
  for (let w = 1; w < workers; w++) {
    targets.push(starts[w]!);
    owners.push(w);
    const second = Math.floor(starts[w]! + HELPER_FIRST * (bounds[w + 1]! - starts[w]!));
    if (second - starts[w]! >= minPiece && bounds[w + 1]! - second >= minPiece) {
      targets.push(second);
      owners.push(w);
    }
  }
  return { targets, owners };
}

/**
 * Where a log of `size` bytes is cut (before line breaks are looked for) into `workers` equal
 * pieces, one each: none for one worker, or when a piece would be below `minPiece` (the command
 * line's logs read on demand, where every worker reads its own piece and counts its start).
 */
export function equalPieceTargets(size: number, workers: number, minPiece: number): number[] {
  if (workers < 2 || size / workers < Math.max(1, minPiece)) return [];
  return Array.from({ length: workers - 1 }, (_, k) => Math.floor(((k + 1) * size) / workers));
}

/** Byte offsets just after a line break at or after each target, strictly increasing; fewer when lines are too long. */
export async function cutsAt(file: Blob, targets: readonly number[]): Promise<number[]> {
  return (await piecesAt(file, { targets: [...targets], owners: [0, ...targets.map(() => 0)] })).cuts;
}

/** A log's cuts (byte offsets just after line ends) and who reads each piece (see PiecePlan). */
export interface Pieces {
  readonly cuts: readonly number[];
  readonly owners: readonly number[];
}

/**
 * A plan's cuts moved just after a line break at or after each target. A target with no line
 * break within reach (or not past the last cut) is dropped: its piece joins the one before, and
 * that piece's reader reads both.
 */
export async function piecesAt(file: Blob, plan: PiecePlan): Promise<{ cuts: number[]; owners: number[] }> {
  const found = await Promise.all(
    plan.targets.map(async (target) => {
      const bytes = new Uint8Array(await file.slice(target, Math.min(file.size, target + CUT_SEARCH_BYTES)).arrayBuffer());
      const nl = bytes.indexOf(10);
      return nl < 0 ? -1 : target + nl + 1;
    }),
  );
  const cuts: number[] = [];
  const owners = [plan.owners[0] ?? 0];
  found.forEach((at, k) => {
    if (at > 0 && at < file.size && (cuts.length === 0 || at > cuts[cuts.length - 1]!)) {
      cuts.push(at);
      owners.push(plan.owners[k + 1] ?? 0);
    }
  });
  return { cuts, owners };
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
 * Reads an interval log cut into `pieces` with this worker and every helper at once, each piece
 * by its owner (piece 0 here, into the joining reader; a helper its own pieces in order, asked
 * for at once). Throws (PartsNotJoinable, a helper's failure, a cancel) when it cannot give the
 * log's exact reading; the caller then reads it in one piece.
 */
export async function readInPieces(
  file: Blob,
  name: string,
  pieces: Pieces,
  helpers: HelperWorkers,
  progress: PiecesProgress,
  signal?: AbortSignal,
  options: ReadOptions = {},
): Promise<IngestResult> {
  const { bounds, count, bytes, intervals, report } = pieceCounters(file.size, pieces.cuts, progress);
  const slice = (k: number) => file.slice(bounds[k]!, bounds[k + 1]!);
  // A piece whose owner is no helper there is (or none) is read here.
  const ownerOf = (k: number): number => {
    const o = k === 0 ? 0 : (pieces.owners[k] ?? 0);
    return o >= 1 && o <= helpers.count ? o : 0;
  };

  // Pieces 1… in file order; resolved by whoever read it.
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
  let failed = false;
  const settle = async (k: number, read: () => Promise<HlogPart>) => {
    try {
      parts[k - 1]!.resolve(await read());
    } catch (e) {
      failed = true; // the log is read again in one piece
      parts[k - 1]!.reject(e);
      for (let j = k; j < parts.length; j++) parts[j]!.reject(e);
    }
  };
  // Each helper is asked for all its pieces at once: it reads them in turn, and one that starts
  // where its last one ended needs no count (helpers/serve.ts).
  const helping = Array.from({ length: count - 1 }, (_, j) => j + 1)
    .filter((k) => ownerOf(k) > 0)
    .map((k) =>
      settle(k, () =>
        helpers.read(
          ownerOf(k) - 1,
          slice(k),
          name,
          (b, n) => {
            bytes[k] = b;
            intervals[k] = n;
            report();
          },
          signal,
          file.slice(0, bounds[k]!),
        ),
      ),
    );

  // This worker: the first piece into the joining reader, then its other pieces (if any) as parts.
  // Its bytes are kept, where its table finds the payloads of the lines read from them.
  const first = new Uint8Array(bounds[1]! - bounds[0]!);
  const sink = new HlogIngest(name, true, first, options.keepBlocks, undefined, options.context);
  for await (const chunk of fileBytes(slice(0), (b) => (bytes[0] = b), signal, first)) {
    sink.pushBytes(chunk);
    intervals[0] = sink.intervalCount;
    report();
  }
  // The parts already read, in order, are joined between this worker's pieces and while the
  // helpers read their last ones.
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
  for (let k = 1; k < count && !failed; k++) {
    if (ownerOf(k) !== 0) continue;
    joinReady();
    const piece = k;
    await settle(piece, async () => {
      const source = new Uint8Array(bounds[piece + 1]! - bounds[piece]!);
      learn();
      const origins = await ledger.before(bounds[piece]!, (a, b) => file.slice(a, b), signal);
      const part = await ingestHlogPart(
        name,
        fileBytes(slice(piece), (b) => (bytes[piece] = b), signal, source),
        (p) => {
          intervals[piece] = p.intervals;
          report();
        },
        source,
        { ...options, origins },
      );
      ledger.record(bounds[piece + 1]!, addCounts(origins, partCounts(part)));
      return part;
    });
  }
  // Joined as each arrives, in order, while later ones are still read.
  for (; joined < parts.length; joined++) {
    const p = parts[joined]!;
    sink.absorb(p.done ?? (await p.promise));
  }
  await Promise.all(helping);
  return sink.finish();
}
