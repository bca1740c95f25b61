// Loading dropped files with every core: small interval logs are shared out between this
// worker and helper workers (one file each at a time), a big interval log is cut at line
// boundaries into pieces that every worker reads at once, then joined here (load-pieces.ts,
// proven equal to reading in one piece). How many pieces is a speed setting (the workers
// there are; without helpers a log is read in one piece): no answer depends on it, as every
// part's blocks lie on the log's grid. Other formats are read here, in order. Series are
// added to the store in the order of the files, whoever read them; the thread files of one
// pgbench run are then merged into one series (join-runs.ts).
import type { SampleOptions } from "../formats/source";
import { fileChunks } from "./file-chunks";
import { joinThreadFiles } from "./join-runs";
import { ingest, ingestHlogInParts, isIntervalLog, type HlogPart, type IngestResult } from "./ingest";
import { readLogsOnDemand, readsOnDemand, type LogToRead } from "./load-on-demand";
import { cutsAt, logPieceTargets, readInPieces } from "./load-pieces";
import type { FileOutcome, FileProgress, Progress } from "./protocol";
import type { Store } from "./store";

/** Helper workers that read (parts of) interval logs. */
export interface HelperWorkers {
  /** How many helpers: reads on different helpers run at once. */
  readonly count: number;
  /**
   * Reads on helper number `helper` (0 ≤ helper < count). `before`: the log's bytes before the
   * piece `blob` (none: a log from its start), whose intervals the helper counts so that the
   * part's blocks lie on the log's grid (piece-origins.ts).
   */
  read(helper: number, blob: Blob, name: string, onProgress: (bytes: number, intervals: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart>;
}

/** Interval logs at least this big are cut into parts (below it, the copy and join cost more than they save). */
export const SPLIT_BYTES = 4 * 1024 * 1024;
/**
 * Largest interval log read (bytes). A worker's heap grows with the log (a 502 MB log of
 * 1,015,000 intervals loads); beyond about 1 GB a worker risks running out of memory.
 */
export const MAX_LOG_BYTES = 800_000_000;

/** The smallest piece a big log is cut into is SPLIT_BYTES / this (see logPieceTargets). */
const PIECES_PER_SPLIT = 16;
const HEAD_BYTES = 16 * 1024;

/** Shares of a log read on demand: one equal piece per worker (each reads its own, in one go). */
const ONE_PIECE_EACH = [1];

/**
 * Where an interval log is cut into pieces for `workers` workers (none below `splitBytes`, none
 * for one worker; load-pieces.ts logPieceTargets). `onDemand`: one equal piece per worker.
 */
export function cutsOfLog(file: Blob, workers: number, splitBytes = SPLIT_BYTES, onDemand = false): Promise<number[]> {
  if (file.size < splitBytes || workers < 2) return Promise.resolve([]);
  return cutsAt(file, logPieceTargets(file.size, splitBytes / PIECES_PER_SPLIT, workers, onDemand ? ONE_PIECE_EACH : undefined));
}

const CANCELLED = "cancelled: nothing of this file was loaded";

function formatMB(bytes: number): string {
  return `${Number((bytes / 1e6).toPrecision(3))} MB`;
}

async function headOf(file: Blob): Promise<string> {
  return new TextDecoder("utf-8").decode(await file.slice(0, HEAD_BYTES).arrayBuffer());
}

function failed(name: string, e: unknown): IngestResult {
  const message = e instanceof Error ? e.message : String(e);
  return { series: [], problems: [{ file: name, line: null, reason: `could not be read: ${message}` }], lines: 0 };
}

export async function loadFiles(
  store: Store,
  files: readonly File[],
  progress: (p: Progress) => void,
  signal: AbortSignal | undefined,
  options: SampleOptions | undefined,
  helpers: HelperWorkers | null,
  limits: { splitBytes?: number; maxLogBytes?: number } = {},
): Promise<FileOutcome[]> {
  const splitBytes = limits.splitBytes ?? SPLIT_BYTES;
  const maxLogBytes = limits.maxLogBytes ?? MAX_LOG_BYTES;
  const results: IngestResult[] = new Array(files.length);
  // Every file's own progress; each message carries all of them (throttled: 100 small files
  // finishing at once would otherwise post 100 snapshots).
  const states: FileProgress[] = files.map((f) => ({ file: f.name, bytes: 0, totalBytes: f.size, intervals: 0, done: false }));
  let lastPost = 0;
  const update = (i: number, bytes: number, intervals: number, done = false) => {
    const st = states[i]!;
    st.bytes = Math.max(st.bytes, bytes);
    st.intervals = Math.max(st.intervals, intervals);
    st.done ||= done;
    const now = performance.now();
    if (!done && now - lastPost < 50) return;
    lastPost = now;
    progress({ file: st.file, bytes: st.bytes, totalBytes: st.totalBytes, intervals: st.intervals, files: files.length > 1 ? states.map((x) => ({ ...x })) : undefined });
  };

  /** Reads one file here, whatever its format (the path every file took before helpers). */
  const readHere = async (i: number): Promise<void> => {
    const file = files[i]!;
    if (logs[i] && readsOnDemand(file)) return readOnDemand([i], [[]], null);
    let bytes = 0;
    try {
      results[i] = await ingest(
        file.name,
        fileChunks(file, (b) => (bytes = b), signal),
        (p) => update(i, bytes, p.intervals),
        options,
      );
    } catch (e) {
      results[i] = failed(file.name, e);
    }
    update(i, file.size, 0, true);
  };

  /** Reads one interval log on a helper; joined here (an empty first part). */
  const readOnHelper = async (i: number, helper: number): Promise<void> => {
    const file = files[i]!;
    try {
      const part = helpers!.read(helper, file, file.name, (bytes, intervals) => update(i, bytes, intervals), signal);
      results[i] = await ingestHlogInParts(file.name, [], [part]);
      update(i, file.size, 0, true);
    } catch {
      if (signal?.aborted) results[i] = failed(file.name, new Error(CANCELLED));
      else await readHere(i); // a helper that failed (or a part that cannot be joined): read it here
    }
  };

  /** Interval logs that read their bytes back when asked (load-on-demand.ts), `cuts[n]` for files[run[n]]. */
  const readOnDemand = async (run: readonly number[], cuts: readonly (readonly number[])[], by: HelperWorkers | null): Promise<void> => {
    const logs: LogToRead[] = run.map((i, n) => ({ file: files[i]!, cuts: cuts[n]! }));
    const out = await readLogsOnDemand(logs, by, (n, bytes, intervals) => update(run[n]!, bytes, intervals), signal);
    out.forEach((r, n) => {
      const i = run[n]!;
      if (r.status === "fulfilled") results[i] = r.value;
      else results[i] = failed(files[i]!.name, signal?.aborted ? new Error(CANCELLED) : r.reason);
      update(i, files[i]!.size, 0, true);
    });
  };

  const isBigLog = (i: number) => logs[i]! && files[i]!.size >= splitBytes;
  /** Where interval log i is cut for `by` and this thread (none when small or alone; see cutsOfLog). */
  const cutsOf = (i: number, by: HelperWorkers | null): Promise<number[]> =>
    logs[i] ? cutsOfLog(files[i]!, 1 + (by?.count ?? 0), splitBytes, readsOnDemand(files[i]!)) : Promise.resolve([]);

  /** Reads one big interval log in pieces, here and on every helper at once (load-pieces.ts). */
  const readInParts = async (i: number, by: HelperWorkers): Promise<void> => {
    const file = files[i]!;
    const cuts = await cutsOf(i, by);
    if (cuts.length === 0) return readHere(i);
    try {
      results[i] = await readInPieces(file, file.name, cuts, by, (bytes, intervals) => update(i, bytes, intervals), signal);
    } catch (e) {
      // Cancelling is the only failure not worth a second try; otherwise the log in one piece.
      if (signal?.aborted) results[i] = failed(file.name, new Error(CANCELLED));
      else await readHere(i);
    }
    update(i, file.size, 0, true);
  };

  /** Reads file i on this thread alone, in one piece. */
  const readAlone = (i: number): Promise<void> => readHere(i);

  const logs = await Promise.all(files.map(async (f) => isIntervalLog(f.name, await headOf(f))));
  // An interval log keeps every payload in memory (about its size again): past the cap, say so
  // before reading rather than let the worker run out of memory, which would take the page
  // (and everything loaded) with it.
  const tooBig = (i: number) => logs[i] && files[i]!.size > maxLogBytes;
  for (let i = 0; i < files.length; i++) {
    if (!tooBig(i)) continue;
    const f = files[i]!;
    results[i] = {
      series: [],
      problems: [
        {
          file: f.name,
          line: null,
          reason: `this interval log is ${formatMB(f.size)}; the app reads logs up to ${formatMB(maxLogBytes)}, all held in the browser's memory. Cut it to the time you need first: it is text in time order, so keep its # header lines and a range of interval lines`,
        },
      ],
      lines: 0,
    };
    update(i, f.size, 0, true);
  }
  if (!helpers || helpers.count === 0) {
    for (let i = 0; i < files.length; i++) if (!tooBig(i)) await readAlone(i);
  } else {
    // In file order: a big log takes every helper; runs of other files share the helpers.
    let i = 0;
    while (i < files.length) {
      if (tooBig(i)) {
        i++;
        continue;
      }
      if (logs[i] && readsOnDemand(files[i]!)) {
        // A run of such logs: every piece of every one in one queue.
        const run: number[] = [];
        for (; i < files.length && (tooBig(i) || (logs[i] && readsOnDemand(files[i]!))); i++) if (!tooBig(i)) run.push(i);
        await readOnDemand(run, await Promise.all(run.map((k) => cutsOf(k, helpers))), helpers);
        continue;
      }
      if (isBigLog(i)) {
        await readInParts(i, helpers);
        i++;
        continue;
      }
      const batch: number[] = [];
      while (i < files.length && !isBigLog(i)) batch.push(i++);
      if (batch.length === 0) continue;
      const shared = batch.filter((k) => logs[k]);
      const hereOnly = batch.filter((k) => !logs[k]);
      const run = async (helper: number | null) => {
        for (;;) {
          const k = helper === null ? (hereOnly.shift() ?? shared.shift()) : shared.shift();
          if (k === undefined) return;
          if (helper === null) await readHere(k);
          else await readOnHelper(k, helper);
        }
      };
      await Promise.all([run(null), ...Array.from({ length: helpers.count }, (_, h) => run(h))]);
    }
  }
  const outcomes = files.map((f, k) => ({ file: f.name, ...store.add(results[k]!) }));
  joinThreadFiles(store, outcomes);
  return outcomes;
}
