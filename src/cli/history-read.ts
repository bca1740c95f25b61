// A history's runs read with every thread. Runs whose cache is fresh cost almost nothing; the
// others are read and summarised, and one run is one interval log of a few megabytes at most
// (below the size a log is cut into parts at), so the loader alone would read each on this
// thread and leave the helpers idle. Here each helper reads whole runs instead (the command
// line's helper pool, the same part reader and joiner as the loader's). The summary (the run's
// payloads decoded and its own bootstrap) needs the run's store on this thread, and is most of
// a run's work: so this thread summarises what the helpers read, each helper reading its next
// run meanwhile, and reads a run itself only when it has nothing to summarise. Summaries and
// problems are those of reading each run alone (a log big enough to be cut, in its pieces).
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
      // Each log in one piece: its blocks lie on the grid whoever reads it (core/blocks.ts).
      const parts = paths.map((p) => {
        const f = new PathFile(p).asFile();
        const pieces = [helpers.read(helper, f, f.name, () => undefined)];
        for (const part of pieces) part.catch(() => undefined);
        return { name: f.name, pieces };
      });
      const results = [];
      for (const { name, pieces } of parts) results.push(await ingestHlogInParts(name, [], pieces));
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
  // Runs read on a helper, waiting to be summarised here; at most one a helper, so memory stays bounded.
  const ready: { k: number; loaded: Loaded }[] = [];
  const waiting: (() => void)[] = [];
  const signal = () => {
    for (const w of waiting.splice(0)) w();
  };
  const changed = () => new Promise<void>((resolve) => waiting.push(resolve));
  let reading = 0;
  const onHelper = async (h: number) => {
    for (let k = take(); k !== undefined; k = take()) {
      reading++;
      const loaded = await loadOnHelper(runs[k]!.files, helpers!, h);
      reading--;
      ready.push({ k, loaded });
      signal();
      // The next one is read while this thread summarises; not further ahead than that.
      while (ready.length >= lanes) await changed();
    }
  };
  const helpersDone = Promise.all(Array.from({ length: lanes }, (_, h) => onHelper(h)));
  // This thread summarises what the helpers read, and reads a run itself only when it has
  // nothing to summarise (the summary needs this thread; the reading does not).
  for (;;) {
    const r = ready.shift();
    if (r) {
      signal();
      out[r.k] = summarizeRun(runs[r.k]!, keys[r.k]!, r.loaded);
      // Lets the helpers' replies in before the next summary.
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    const k = take();
    if (k !== undefined) {
      out[k] = summarizeRun(runs[k]!, keys[k]!, await loadAll(runs[k]!.files, null, false));
      continue;
    }
    if (reading === 0 && ready.length === 0) break;
    await changed();
  }
  await helpersDone;
  return out;
}
