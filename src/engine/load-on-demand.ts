// Interval logs whose bytes can be read back when asked (the command line's files on disk),
// read as parts that keep no text: a query that decodes a payload (a time window's edges, the
// comparison's intervals beside a part's whole blocks) cuts it out of the file then. The pieces
// of every log in a run of them go into one queue, taken by this worker and the helpers as each
// frees up, so that no one waits at the end of one log while another is still being read; each
// log's parts are joined in order once all of them are in (as a helper's part is joined), which
// gives what reading it in one piece gives.
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
    return { file, count, bytes, intervals, report, pieces, parts: new Array<Promise<HlogPart>>(count), settled: 0 };
  });
  const jobs = state.flatMap((s, n) => s.pieces.map((_, k) => ({ n, k })));
  const results: Promise<IngestResult>[] = [];
  const join = (n: number): Promise<IngestResult> => {
    const s = state[n]!;
    return ingestHlogInParts(s.file.name, [], s.parts).catch((e: unknown) => {
      if (signal?.aborted || s.count === 1) throw e;
      return readLogsOnDemand([{ file: s.file, cuts: [] }], null, (_, b, i) => progress(n, b, i), signal).then(([r]) => {
        if (r!.status === "rejected") throw r!.reason;
        return r!.value;
      });
    });
  };
  // Logs are joined in order as soon as all their parts are in (while later pieces are read).
  const joinReady = () => {
    while (results.length < state.length && state[results.length]!.settled === state[results.length]!.count) {
      const r = join(results.length);
      r.catch(() => undefined);
      results.push(r);
    }
  };
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
      s.parts[k] = read.then((part) => (part.source ? part : { ...part, source: (piece as BytesOnDemand).bytesOnDemand!() }));
      // A failed part is rethrown where its log is joined; the other pieces are still read.
      await s.parts[k].catch(() => undefined);
      s.settled++;
      joinReady();
    }
  };
  const lanes = jobs.length > 1 ? (helpers?.count ?? 0) : 0;
  await Promise.all([run(null), ...Array.from({ length: lanes }, (_, h) => run(h))]);
  joinReady();
  return Promise.allSettled(results);
}
