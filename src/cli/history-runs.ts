// A history on disk: which directories are runs, their files, and each run's summary, read
// through the page's loader and kept in a cache file beside the run's files. The cache is
// used only when every file's name, size, modification time and first and last kilobyte
// are what they were when it was written (and the summary's form is the same); otherwise the
// run is read again and the cache rewritten.
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { RunInput } from "../core/compare";
import { SUMMARY_RESAMPLES } from "../core/history/summary";
import type { RunSummary, SeriesSummary } from "../core/history/types";
import type { LoadProblem } from "../core/types";
import { runOf } from "../engine/compare-query";
import type { HelperWorkers } from "../engine/load-files";
import { runSeriesName, summarizeStore } from "../engine/history-summary";
import { OPEN_RANGE, type Store } from "../engine/store";
import { CliError } from "./errors";
import { loadAll } from "./load";

export { summarizeStore };

export const CACHE_FILE = ".hdr-spectrum-cache.json";
/** The cached summary's form: a change to what a summary holds or how it is computed makes it 2. */
const CACHE_VERSION = 2;
const EDGE = 1024;

export interface RunDir {
  id: string;
  dir: string;
  files: string[];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The run's files: every plain file in it but hidden ones (the cache among them), sorted. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => !n.startsWith("."))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile());
}

/**
 * The runs of the arguments: a directory holding directories is a history (each one a run);
 * a directory holding only files is one run.
 */
export function runDirsOf(args: readonly string[]): RunDir[] {
  const out: RunDir[] = [];
  for (const a of args) {
    if (!isDir(a)) throw new CliError(2, `${a}: not a directory (a history is a directory of run directories)`);
    const subs = readdirSync(a)
      .filter((n) => !n.startsWith("."))
      .map((n) => join(a, n))
      .filter(isDir);
    for (const d of subs.length > 0 ? subs : [a]) out.push({ id: basename(d), dir: d, files: filesOf(d) });
  }
  const seen = new Set<string>();
  for (const r of out) {
    if (seen.has(r.id)) throw new CliError(2, `two runs are named ${r.id}: run directories must have distinct names`);
    seen.add(r.id);
  }
  return out.filter((r) => r.files.length > 0);
}

function edgeHash(path: string, size: number): string {
  const h = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    const buf = new Uint8Array(Math.min(EDGE, size));
    readSync(fd, buf, 0, buf.length, 0);
    h.update(buf);
    if (size > EDGE) {
      const tail = new Uint8Array(Math.min(EDGE, size - EDGE));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      h.update(tail);
    }
  } finally {
    closeSync(fd);
  }
  return h.digest("hex");
}

export interface CacheKeyEntry {
  name: string;
  size: number;
  mtimeMs: number;
  hash: string;
}

export function cacheKeyOf(files: readonly string[]): CacheKeyEntry[] {
  return files.map((f) => {
    const st = statSync(f);
    return { name: basename(f), size: st.size, mtimeMs: st.mtimeMs, hash: edgeHash(f, st.size) };
  });
}

interface CacheDoc {
  version: number;
  resamples: number;
  files: CacheKeyEntry[];
  start: number | null;
  series: SeriesSummary[];
}

function readCache(dir: string, key: CacheKeyEntry[]): CacheDoc | null {
  let doc: CacheDoc;
  try {
    doc = JSON.parse(readFileSync(join(dir, CACHE_FILE), "utf8")) as CacheDoc;
  } catch {
    return null;
  }
  if (doc?.version !== CACHE_VERSION || doc.resamples !== SUMMARY_RESAMPLES || !Array.isArray(doc.series)) return null;
  return JSON.stringify(doc.files) === JSON.stringify(key) ? doc : null;
}

export interface RunRead {
  summary: RunSummary;
  problems: LoadProblem[];
  cached: boolean;
}

/** A run's summary from its cache when that is fresh; else null, with the key a new cache is written under. */
export function cachedRun(run: RunDir): { read: RunRead | null; key: CacheKeyEntry[] } {
  const key = cacheKeyOf(run.files);
  const hit = readCache(run.dir, key);
  return { read: hit ? { summary: { id: run.id, start: hit.start, series: hit.series }, problems: [], cached: true } : null, key };
}

/** The summary of a run just loaded (its store is emptied), written to its cache. */
export function summarizeRun(run: RunDir, key: CacheKeyEntry[], loaded: { store: Store; problems: LoadProblem[] }): RunRead {
  const { store, problems } = loaded;
  if (problems.length > 0) {
    store.clear();
    return { summary: { id: run.id, start: null, series: [] }, problems, cached: false };
  }
  const { start, series } = summarizeStore(store);
  store.clear();
  const doc: CacheDoc = { version: CACHE_VERSION, resamples: SUMMARY_RESAMPLES, files: key, start, series };
  try {
    writeFileSync(join(run.dir, CACHE_FILE), `${JSON.stringify(doc)}\n`);
  } catch {
    // A read-only history is read again next time: nothing is lost but time.
  }
  return { summary: { id: run.id, start, series }, problems: [], cached: false };
}

/** The data of one series in a run, as the comparison takes it (the gate's stretch, read again). */
export async function runInputsOf(run: RunDir, series: string, helpers: HelperWorkers | null): Promise<RunInput[]> {
  const { store, problems } = await loadAll(run.files, helpers, false);
  if (problems.length > 0) throw new CliError(2, problems.map((p) => `${p.file}${p.line !== null ? `:${p.line}` : ""}: ${p.reason}`).join("\n"));
  const ids = store.series.filter((s) => runSeriesName(s) === series).map((s) => s.id);
  const out = ids.map((id) => runOf(store, id, OPEN_RANGE));
  store.clear();
  return out;
}
