// How dropped files are read, decided before any is read: plain data (which file is read how,
// in how many pieces), so that the choice is tested apart from the reading (load-files.ts runs it).
//
// Small interval logs are shared out between this worker and the helpers (one file each at a
// time); a big interval log is cut at line boundaries into pieces that every worker reads at
// once, then joined (load-pieces.ts, proven equal to reading in one piece). How many pieces is a
// speed setting (the workers there are; without helpers a log is read in one piece): no answer
// depends on it, as every part's blocks lie on the log's grid (piece-origins.ts). Logs whose payloads a store reads back when asked (the command
// line's files on disk) are read as parts that keep no text, a run of them in one queue
// (load-on-demand.ts). Other formats are read here, in order.
import { isIntervalLog } from "./ingest";
import { cutsAt, equalPieceTargets, logPiecePlan, piecesAt } from "./load-pieces";

/** Interval logs at least this big are cut into parts (below it, the copy and join cost more than they save). */
export const SPLIT_BYTES = 4 * 1024 * 1024;
/**
 * Largest interval log read (bytes). A worker's heap grows with the log (a 502 MB log of
 * 1,015,000 intervals loads); beyond about 1 GB a worker risks running out of memory.
 */
export const MAX_LOG_BYTES = 800_000_000;

/** The smallest piece a big log is cut into is SPLIT_BYTES / this (load-pieces.ts). */
const PIECES_PER_SPLIT = 16;
const HEAD_BYTES = 16 * 1024;

/** What the loader has to read with. */
export interface LoadCapabilities {
  /** Helper workers that read (parts of) interval logs (0: this thread alone). */
  helpers: number;
  /** Interval logs' payloads are read back from a store when asked, not kept (see LoadOptions.payloads). */
  payloadsOnDemand: boolean;
  /** Interval logs from this size on are cut into pieces (default SPLIT_BYTES). */
  splitBytes?: number;
  /** Interval logs above this size are refused (default MAX_LOG_BYTES). */
  maxLogBytes?: number;
}

/** One step of a plan, run in order; files are indices into the files planned for. */
export type LoadStep =
  /** Not read: an interval log above the size cap (`size` and `cap` in bytes). */
  | { read: "refused"; file: number; size: number; cap: number }
  /** Read whole on this thread, whatever its format. */
  | { read: "here"; file: number }
  /**
   * An interval log cut at `cuts` (byte offsets just after line ends), its pieces read here and
   * on every helper at once: piece k by `owners[k]` (0 here, h + 1 helper h).
   */
  | { read: "pieces"; file: number; cuts: number[]; owners: number[] }
  /** Small files shared out: `logs` to whichever helper (or this thread) is free, `here` on this thread only. */
  | { read: "shared"; here: number[]; logs: number[] }
  /** Interval logs whose payloads are read back when asked, every piece of every one in one queue (no cuts: one piece). */
  | { read: "on-demand"; logs: { file: number; cuts: number[] }[] };

export interface LoadPlan {
  /** Whether each file is an interval log (may be read in parts). */
  logs: boolean[];
  steps: LoadStep[];
}

/** The smallest piece a big log is cut into (below it, a part's own costs outweigh what sharing it gains). */
function minPieceOf(splitBytes: number): number {
  return splitBytes / PIECES_PER_SPLIT;
}

/**
 * What a helper's start costs, in bytes read, beside its count: its first bytes of a file come
 * from the browser in round trips, so on a log of tens of MB a helper given an equal time ended
 * last and the engine waited for it. About the smallest log worth cutting.
 */
function helperStartOf(splitBytes: number): number {
  return splitBytes;
}

/**
 * Where an interval log read on demand is cut: one equal piece per worker, each read by its own
 * (none below `splitBytes`, none for one worker).
 */
export function cutsOfLog(file: Blob, workers: number, splitBytes = SPLIT_BYTES): Promise<number[]> {
  if (file.size < splitBytes || workers < 2) return Promise.resolve([]);
  return cutsAt(file, equalPieceTargets(file.size, workers, minPieceOf(splitBytes)));
}

async function headOf(file: Blob): Promise<string> {
  return new TextDecoder("utf-8").decode(await file.slice(0, HEAD_BYTES).arrayBuffer());
}

/** How `files` are read with `caps`: which format each is (from its head) and where big logs are cut. */
export async function planLoad(files: readonly File[], caps: LoadCapabilities): Promise<LoadPlan> {
  const splitBytes = caps.splitBytes ?? SPLIT_BYTES;
  const maxLogBytes = caps.maxLogBytes ?? MAX_LOG_BYTES;
  const logs = await Promise.all(files.map(async (f) => isIntervalLog(f.name, await headOf(f))));
  const n = files.length;
  // An interval log keeps every payload in memory (about its size again): past the cap, say so
  // before reading rather than let the worker run out of memory, which would take the page
  // (and everything loaded) with it.
  const tooBig = (i: number) => logs[i]! && files[i]!.size > maxLogBytes;
  const isBigLog = (i: number) => logs[i]! && files[i]!.size >= splitBytes;
  const onDemand = (i: number) => logs[i]! && caps.payloadsOnDemand;
  const cutsOf = (i: number): Promise<number[]> => (logs[i] ? cutsOfLog(files[i]!, 1 + caps.helpers, splitBytes) : Promise.resolve([]));
  /** A big log in its pieces, one stretch per worker (load-pieces.ts); one whose cuts found no line ends, whole. */
  const inPieces = async (i: number): Promise<LoadStep> => {
    const file = files[i]!;
    const { cuts, owners } = await piecesAt(file, logPiecePlan(file.size, minPieceOf(splitBytes), 1 + caps.helpers, undefined, helperStartOf(splitBytes)));
    return cuts.length === 0 ? { read: "here", file: i } : { read: "pieces", file: i, cuts, owners };
  };

  const steps: LoadStep[] = [];
  for (let i = 0; i < n; i++) if (tooBig(i)) steps.push({ read: "refused", file: i, size: files[i]!.size, cap: maxLogBytes });
  if (caps.helpers === 0) {
    for (let i = 0; i < n; i++) {
      if (tooBig(i)) continue;
      if (onDemand(i)) steps.push({ read: "on-demand", logs: [{ file: i, cuts: await cutsOf(i) }] });
      else if (isBigLog(i)) steps.push(await inPieces(i));
      else steps.push({ read: "here", file: i });
    }
    return { logs, steps };
  }
  // In file order: a big log takes every helper; runs of other files share the helpers.
  for (let i = 0; i < n;) {
    if (tooBig(i)) {
      i++;
    } else if (onDemand(i)) {
      // A run of such logs: every piece of every one in one queue.
      const run: { file: number; cuts: number[] }[] = [];
      for (; i < n && (tooBig(i) || onDemand(i)); i++) if (!tooBig(i)) run.push({ file: i, cuts: await cutsOf(i) });
      steps.push({ read: "on-demand", logs: run });
    } else if (isBigLog(i)) {
      steps.push(await inPieces(i));
      i++;
    } else {
      const here: number[] = [];
      const shared: number[] = [];
      for (; i < n && !tooBig(i) && !onDemand(i) && !isBigLog(i); i++) (logs[i] ? shared : here).push(i);
      steps.push({ read: "shared", here, logs: shared });
    }
  }
  return { logs, steps };
}
