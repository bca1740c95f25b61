// Interval logs whose bytes a payload store reads back when asked (the command line's files on
// disk), read as parts that keep no text: a query that decodes a payload (a time window's edges, the
// comparison's intervals beside a part's whole blocks) cuts it out of the file then. The pieces
// of every log in a run of them are shared out in one go, about an equal share of the bytes to
// this thread and to each helper, so that no one waits at the end of one log while another is
// still being read; each log's parts are joined in order (as a helper's part is joined), each
// as soon as it and the ones before it are in, which gives what reading it in one piece gives.
import { fileBytes } from "./file-chunks";
import { ingestHlogInParts, ingestHlogPart, type HlogPart, type IngestResult, type ReadOptions } from "./ingest";
import type { HelperWorkers, PayloadStore } from "./load-files";
import { pieceCounters } from "./load-pieces";
import { intervalsBefore } from "./piece-origins";

/** A log to read, cut at `cuts` (byte offsets just after line ends; none: one piece). */
export interface LogToRead {
  file: File;
  cuts: readonly number[];
}

/**
 * Reads `logs` in pieces, here and on `helpers`, and joins each; a part's payloads are read
 * back from `payloads` when asked (a part that comes without its bytes). A log
 * whose parts cannot be joined, or one a helper failed on, is read again here in one piece; a
 * log that cannot be read at all is a rejected result. `progress(n, bytes, intervals)` reports
 * log n's reading so far.
 */
export async function readLogsOnDemand(
  logs: readonly LogToRead[],
  payloads: PayloadStore,
  helpers: HelperWorkers | null,
  progress: (n: number, bytes: number, intervals: number) => void,
  signal?: AbortSignal,
  options: ReadOptions = {},
): Promise<PromiseSettledResult<IngestResult>[]> {
  const state = logs.map(({ file, cuts }, n) => {
    const { bounds, count, bytes, intervals, report } = pieceCounters(file.size, cuts, (b, i) => progress(n, b, i));
    const pieces = Array.from({ length: count }, (_, k) => file.slice(bounds[k]!, bounds[k + 1]!));
    // A piece's `before`: the log's bytes ahead of it, whose intervals its reader counts (piece-origins.ts).
    const before = Array.from({ length: count }, (_, k) => (k > 0 ? file.slice(0, bounds[k]!) : undefined));
    return { file, count, bounds, bytes, intervals, report, pieces, before, parts: Array.from({ length: count }, () => settleLater<HlogPart>()) };
  });
  const jobs = state.flatMap((s, n) => s.pieces.map((_, k) => ({ n, k })));
  const join = (n: number): Promise<IngestResult> => {
    const s = state[n]!;
    return ingestHlogInParts(
      s.file.name,
      [],
      s.parts.map((p) => p.promise),
      undefined,
      options,
    ).catch(async (e: unknown) => {
      if (signal?.aborted || (s.count === 1 && !helpers)) throw e;
      // Once every piece of the log is in (a failed part is rethrown at once, while the log's
      // other pieces are still being read): the log in one piece here.
      await Promise.allSettled(s.parts.map((p) => p.promise));
      return readLogsOnDemand([{ file: s.file, cuts: [] }], payloads, null, (_, b, i) => progress(n, b, i), signal, options).then(([r]) => {
        if (r!.status === "rejected") throw r!.reason;
        return r!.value;
      });
    });
  };
  // Each log's join starts now and takes in each part once it and the ones before it are in:
  // the parts read first are joined while the last ones are still being read.
  const results = state.map((_, n) => join(n));
  for (const r of results) r.catch(() => undefined);
  // The pieces are shared out in one go, the largest first, each to the thread with the fewest
  // bytes so far; a helper is asked for all of its pieces at once. (Handed out one at a time as
  // threads freed up, a helper thread sat idle after each piece until this thread, busy reading
  // a piece of its own, took its answer and gave it the next: a third of its time, traced with
  // --cpu-prof.)
  const lanes = jobs.length > 1 ? 1 + (helpers?.count ?? 0) : 1;
  const laneOf = new Array<number>(jobs.length).fill(0);
  const laneBytes = new Array<number>(lanes).fill(0);
  const sizeOf = (j: number) => state[jobs[j]!.n]!.pieces[jobs[j]!.k]!.size;
  // No more pieces than threads: each its own, in file order (this thread the first, whose
  // reader counts no intervals ahead of it).
  if (jobs.length <= lanes) jobs.forEach((_, j) => (laneOf[j] = j));
  else
    for (const j of jobs.map((_, j) => j).sort((a, b) => sizeOf(b) - sizeOf(a) || a - b)) {
      const l = laneBytes.indexOf(Math.min(...laneBytes));
      laneOf[j] = l;
      laneBytes[l]! += sizeOf(j);
    }
  const readJob = (j: number, helper: number | null): Promise<HlogPart> => {
    const { n, k } = jobs[j]!;
    const s = state[n]!;
    const piece = s.pieces[k]!;
    const before = s.before[k];
    // Counted only where blocks are kept: the count lays them on the log's grid, nothing else.
    const ahead = before && options.keepBlocks !== false ? intervalsBefore(before, signal) : Promise.resolve(undefined);
    const read =
      helper === null
        ? ahead.then((origins) =>
            ingestHlogPart(
              s.file.name,
              fileBytes(piece, (b) => (s.bytes[k] = b), signal),
              (p) => {
                s.intervals[k] = p.intervals;
                s.report();
              },
              null,
              { ...options, origins },
            ),
          )
        : helpers!.read(
            helper,
            piece,
            s.file.name,
            (b, i) => {
              s.bytes[k] = b;
              s.intervals[k] = i;
              s.report();
            },
            signal,
            before,
          );
    // A part comes without its bytes (none kept, none sent): its payloads are read back from the file.
    return read.then((part) => (part.source ? part : { ...part, source: payloads.bytesOf(s.file, s.bounds[k]!, s.bounds[k + 1]!) }));
  };
  // A failed part is rethrown where its log is joined; the other pieces are still read.
  const settle = (j: number, part: Promise<HlogPart>): Promise<void> => {
    const p = state[jobs[j]!.n]!.parts[jobs[j]!.k]!;
    return part.then(p.resolve, p.reject);
  };
  const lane = async (l: number) => {
    const mine = jobs.map((_, j) => j).filter((j) => laneOf[j] === l);
    if (l === 0) {
      for (const j of mine) await settle(j, readJob(j, null));
    } else await Promise.all(mine.map((j) => settle(j, readJob(j, l - 1))));
  };
  await Promise.all(Array.from({ length: lanes }, (_, l) => lane(l)));
  return Promise.allSettled(results);
}

/** A promise and the functions that settle it. */
function settleLater<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  // Rejections are seen where the log is joined.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
