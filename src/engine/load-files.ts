// Loading dropped files with every core: small interval logs are shared out between this
// worker and helper workers (one file each at a time), a big interval log is cut at line
// boundaries into pieces that every worker reads at once, then joined here (load-pieces.ts,
// proven equal to reading in one piece). The pieces depend on the file alone: without helpers
// a big log is read in the same pieces here, so every machine, the page and the command line
// get the same parts (whose starts the comparison's sub-blocks and the timeline's columns
// follow). Other formats are read here, in order. Series are
// added to the store in the order of the files, whoever read them; the thread files of one
// pgbench run are then merged into one series (join-runs.ts).
import type { SampleOptions } from "../formats/source";
import { BYTES_SNIFF_LENGTH, pickBytesReader } from "../formats/detect";
import { fileBytes, fileChunks } from "./file-chunks";
import { joinThreadFiles } from "./join-runs";
import { ingest, ingestBytes, ingestHlogInParts, isIntervalLog, PartsNotJoinable, type HlogPart, type IngestResult } from "./ingest";
import { readLogsOnDemand, readsOnDemand, type LogToRead } from "./load-on-demand";
import { cutsAt, logPieceTargets, readInPieces } from "./load-pieces";
import type { FileOutcome, FileProgress, Progress } from "./protocol";
import type { Store } from "./store";

/** Helper workers that read (parts of) interval logs. */
export interface HelperWorkers {
  /** How many helpers: reads on different helpers run at once. */
  readonly count: number;
  /** Reads on helper number `helper` (0 ≤ helper < count). */
  read(helper: number, blob: Blob, name: string, onProgress: (bytes: number, intervals: number) => void, signal?: AbortSignal): Promise<HlogPart>;
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

/**
 * Where an interval log is cut into pieces (none below `splitBytes`): the same wherever and by
 * whomever it is read (load-pieces.ts logPieceTargets).
 */
export function cutsOfLog(file: Blob, splitBytes = SPLIT_BYTES): Promise<number[]> {
  return file.size >= splitBytes ? cutsAt(file, logPieceTargets(file.size, splitBytes / PIECES_PER_SPLIT)) : Promise.resolve([]);
}

/** No helpers: readInPieces then reads every piece on this thread. */
const NO_HELPERS: HelperWorkers = { count: 0, read: () => Promise.reject(new Error("no helper workers")) };

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
    if (logs[i] && readsOnDemand(file)) return readOnDemand([i], [[]]);
    let bytes = 0;
    try {
      // A binary format (Gatling 3.13's simulation.log) is read from its bytes, not as text.
      const binary = pickBytesReader(file.name, new Uint8Array(await file.slice(0, BYTES_SNIFF_LENGTH).arrayBuffer()));
      if (binary)
        results[i] = await ingestBytes(
          file.name,
          binary,
          fileBytes(file, (b) => update(i, (bytes = b), 0), signal),
          options,
        );
      else
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
  const readOnDemand = async (run: readonly number[], cuts: readonly (readonly number[])[]): Promise<void> => {
    const logs: LogToRead[] = run.map((i, n) => ({ file: files[i]!, cuts: cuts[n]! }));
    const out = await readLogsOnDemand(logs, helpers, (n, bytes, intervals) => update(run[n]!, bytes, intervals), signal);
    out.forEach((r, n) => {
      const i = run[n]!;
      if (r.status === "fulfilled") results[i] = r.value;
      else results[i] = failed(files[i]!.name, signal?.aborted ? new Error(CANCELLED) : r.reason);
      update(i, files[i]!.size, 0, true);
    });
  };

  const isBigLog = (i: number) => logs[i]! && files[i]!.size >= splitBytes;
  /** Where interval log i is cut (none when small): the same cuts whoever reads it (see logPieceTargets). */
  const cutsOf = (i: number): Promise<number[]> => (logs[i] ? cutsOfLog(files[i]!, splitBytes) : Promise.resolve([]));

  /** Reads one big interval log in pieces, here and on every helper at once (load-pieces.ts). */
  const readInParts = async (i: number, by: HelperWorkers): Promise<void> => {
    const file = files[i]!;
    const cuts = await cutsOf(i);
    if (cuts.length === 0) return readHere(i);
    try {
      results[i] = await readInPieces(file, file.name, cuts, by, (bytes, intervals) => update(i, bytes, intervals), signal);
    } catch (e) {
      // Cancelling is the only failure not worth a second try. A helper that failed: the same
      // pieces read here (the same parts, so the same blocks); parts that cannot be joined:
      // the log in one piece.
      if (signal?.aborted) results[i] = failed(file.name, new Error(CANCELLED));
      else if (by.count > 0 && !(e instanceof PartsNotJoinable)) return readInParts(i, NO_HELPERS);
      else await readHere(i);
    }
    update(i, file.size, 0, true);
  };

  /** Reads file i on this thread alone: a big interval log still in its pieces, joined. */
  const readAlone = async (i: number): Promise<void> => {
    if (logs[i] && readsOnDemand(files[i]!)) return readOnDemand([i], [await cutsOf(i)]);
    if (isBigLog(i)) return readInParts(i, NO_HELPERS);
    return readHere(i);
  };

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
        await readOnDemand(run, await Promise.all(run.map(cutsOf)));
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
