// Interval logs whose bytes can be read back when asked (the command line's files on disk),
// read as parts that keep no text: a query that decodes a payload (a time window's edges, the
// comparison's intervals beside a part's whole blocks) cuts it out of the file then. The pieces
// of every log in a run of them go into one queue, taken by this worker and the helpers as each
// frees up, so that no one waits at the end of one log while another is still being read; each
// log's parts are joined in order (as a helper's part is joined), each as soon as it and the
// ones before it are in, which gives what reading it in one piece gives.
import type { PayloadBytes } from "../core/series";
import { fileChunks } from "./file-chunks";
import { ingestHlogInParts, ingestHlogPart, type HlogPart, type IngestResult } from "./ingest";
import type { HelperWorkers } from "./load-files";
import { pieceCounters } from "./load-pieces";

/** A file that can read its bytes back when asked: its logs' payloads are not kept. */
export interface BytesOnDemand {
  bytesOnDemand?: () => PayloadBytes;
}

export function readsOnDemand(file: Blob): boolean {
  return typeof (file as BytesOnDemand).bytesOnDemand === "function";
}

/** A log to read, cut at `cuts` (byte offsets just after line ends; none: one piece). */
export interface LogToRead {
  file: File;
  cuts: readonly number[];
}

/**
 * Reads `logs` (each readsOnDemand) in pieces, here and on `helpers`, and joins each. A log
 * whose parts cannot be joined, or one a helper failed on, is read again here in one piece; a
 * log that cannot be read at all is a rejected result. `progress(n, bytes, intervals)` reports
 * log n's reading so far.
 */
export async function readLogsOnDemand(
  logs: readonly LogToRead[],
  helpers: HelperWorkers | null,
  progress: (n: number, bytes: number, intervals: number) => void,
  signal?: AbortSignal,
): Promise<PromiseSettledResult<IngestResult>[]> {
  const state = logs.map(({ file, cuts }, n) => {
    const { bounds, count, bytes, intervals, report } = pieceCounters(file.size, cuts, (b, i) => progress(n, b, i));
    const pieces = Array.from({ length: count }, (_, k) => file.slice(bounds[k]!, bounds[k + 1]!));
    return { file, count, bytes, intervals, report, pieces, parts: Array.from({ length: count }, () => settleLater<HlogPart>()) };
  });
  const jobs = state.flatMap((s, n) => s.pieces.map((_, k) => ({ n, k })));
  const join = (n: number): Promise<IngestResult> => {
    const s = state[n]!;
    return ingestHlogInParts(
      s.file.name,
      [],
      s.parts.map((p) => p.promise),
    ).catch(async (e: unknown) => {
      if (signal?.aborted || s.count === 1) throw e;
      // Read again in one piece once every piece of the log is in (a failed part is rethrown
      // at once, while the log's other pieces are still being read).
      await Promise.allSettled(s.parts.map((p) => p.promise));
      return readLogsOnDemand([{ file: s.file, cuts: [] }], null, (_, b, i) => progress(n, b, i), signal).then(([r]) => {
        if (r!.status === "rejected") throw r!.reason;
        return r!.value;
      });
    });
  };
  // Each log's join starts now and takes in each part once it and the ones before it are in:
  // the parts read first are joined while the last ones are still being read.
  const results = state.map((_, n) => join(n));
  for (const r of results) r.catch(() => undefined);
  let next = 0;
  const run = async (helper: number | null) => {
    for (let j = next++; j < jobs.length; j = next++) {
      const { n, k } = jobs[j]!;
      const s = state[n]!;
      const piece = s.pieces[k]!;
      const read =
        helper === null
          ? ingestHlogPart(
              s.file.name,
              fileChunks(piece, (b) => (s.bytes[k] = b), signal),
              (p) => {
                s.intervals[k] = p.intervals;
                s.report();
              },
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
            );
      // A part comes without its bytes (none kept, none sent): its payloads are read back from the file.
      // A failed part is rethrown where its log is joined; the other pieces are still read.
      await read.then(
        (part) => s.parts[k]!.resolve(part.source ? part : { ...part, source: (piece as BytesOnDemand).bytesOnDemand!() }),
        (e: unknown) => s.parts[k]!.reject(e),
      );
    }
  };
  const lanes = jobs.length > 1 ? (helpers?.count ?? 0) : 0;
  await Promise.all([run(null), ...Array.from({ length: lanes }, (_, h) => run(h))]);
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
