// A history's runs read with every thread. Runs whose cache is fresh cost almost nothing; the
// others are read and summarised, and one run is one interval log of a few megabytes at most
// (below the size a log is cut into parts at), so the loader alone would read each on this
// thread and leave the helpers idle. Here each helper reads whole runs instead (the command
// line's helper pool, the same part reader and joiner as the loader's), while this thread reads
// runs of its own and summarises every run (the run's own bootstrap, which needs its store).
// A helper's next run is asked for before the one it just read is summarised, so it reads
// while this thread summarises. Summaries and problems are those of reading each run alone.
import { ingestHlogInParts, isIntervalLog } from "../engine/ingest";
import { MAX_LOG_BYTES, type HelperWorkers } from "../engine/load-files";
import { Store } from "../engine/store";
import type { LoadProblem } from "../core/types";
import { cachedRun, summarizeRun, type CacheKeyEntry, type RunDir, type RunRead } from "./history-runs";
import { loadAll } from "./load";
import { PathFile } from "./path-file";

const HEAD_BYTES = 16 * 1024;

interface Loaded {
  store: Store;
  problems: LoadProblem[];
}

/** Whether every file of the run is an interval log a helper may read whole. */
async function allLogs(paths: readonly string[]): Promise<boolean> {
  for (const p of paths) {
    const f = new PathFile(p).asFile();
    if (f.size > MAX_LOG_BYTES) return false;
    const head = new TextDecoder("utf-8").decode(await f.slice(0, HEAD_BYTES).arrayBuffer());
    if (!isIntervalLog(f.name, head)) return false;
  }
  return true;
}

/**
 * A run's files read on helper `helper` into a store of its own, in file order (as the loader
 * adds them). A run with other files, or one a helper fails on, is read here by the loader.
 */
async function loadOnHelper(paths: readonly string[], helpers: HelperWorkers, helper: number): Promise<Loaded> {
  if (await allLogs(paths)) {
    try {
      const store = new Store();
      const problems: LoadProblem[] = [];
      const parts = paths.map((p) => {
        const f = new PathFile(p).asFile();
        const part = helpers.read(helper, f, f.name, () => undefined);
        part.catch(() => undefined);
        return { name: f.name, part };
      });
      const results = [];
      for (const { name, part } of parts) results.push(await ingestHlogInParts(name, [], [part]));
      for (const r of results) problems.push(...store.add(r).problems);
      return { store, problems };
    } catch {
      // A helper that failed, or parts that cannot be joined: read here in one piece.
    }
  }
  return loadAll(paths, null, false);
}

/** Every run's summary, in the order given: from its fresh cache, or read on some thread and summarised here. */
export async function readRuns(runs: readonly RunDir[], helpers: HelperWorkers | null, progress: boolean): Promise<RunRead[]> {
  const out: RunRead[] = new Array(runs.length);
  const keys: CacheKeyEntry[][] = new Array(runs.length);
  const cold: number[] = [];
  runs.forEach((r, k) => {
    const { read, key } = cachedRun(r);
    keys[k] = key;
    if (read) out[k] = read;
    else cold.push(k);
  });
  const lanes = helpers && cold.length > 1 ? helpers.count : 0;
  if (lanes === 0) {
    for (const k of cold) out[k] = summarizeRun(runs[k]!, keys[k]!, await loadAll(runs[k]!.files, helpers, progress));
    return out;
  }
  let next = 0;
  const take = (): number | undefined => (next < cold.length ? cold[next++] : undefined);
  // This thread: a run read here, summarised, then the next.
  const here = async () => {
    for (let k = take(); k !== undefined; k = take()) out[k] = summarizeRun(runs[k]!, keys[k]!, await loadAll(runs[k]!.files, null, false));
  };
  // A helper: its next run asked for before this one is summarised.
  const onHelper = async (h: number) => {
    let k = take();
    let pending = k === undefined ? null : loadOnHelper(runs[k]!.files, helpers!, h);
    while (k !== undefined) {
      const loaded = await pending!;
      const done = k;
      k = take();
      pending = k === undefined ? null : loadOnHelper(runs[k]!.files, helpers!, h);
      out[done] = summarizeRun(runs[done]!, keys[done]!, loaded);
    }
  };
  await Promise.all([here(), ...Array.from({ length: lanes }, (_, h) => onHelper(h))]);
  return out;
}
