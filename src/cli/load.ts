// Loading files for the command line through the page's loader (engine/load-files.ts) into the
// page's Store: the same readers, detection, joining of parts and series identities.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatThroughput } from "../core/naming";
import { newHistogram, lowestDiscernibleValueOf, type Histogram } from "../core/histogram";
import type { LoadProblem, Unit } from "../core/types";
import { makeSeries } from "../engine/series-make";
import { loadFiles, type HelperWorkers } from "../engine/load-files";
import type { Progress } from "../engine/protocol";
import { Store, type TimeRange } from "../engine/store";
import { CliError } from "./errors";
import { PathFile } from "./path-file";

/** Paths given on the command line: files as they are, a directory as the files in it (sorted). */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new CliError(2, `${p}: no such file`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) {
        const full = join(p, name);
        if (statSync(full).isFile()) out.push(full);
      }
    } else out.push(p);
  }
  if (out.length === 0) throw new CliError(2, "no input files");
  return out;
}

export interface Loaded {
  store: Store;
  problems: LoadProblem[];
}

function progressPrinter(enabled: boolean): { onProgress: (p: Progress) => void; done: () => void } {
  if (!enabled) return { onProgress: () => undefined, done: () => undefined };
  let last = 0;
  let shown = false;
  return {
    onProgress: (p) => {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      shown = true;
      const mb = (n: number) => (n / 1e6).toFixed(1);
      process.stderr.write(`\r\x1b[Kreading ${p.file}: ${mb(p.bytes)} of ${mb(p.totalBytes)} MB, ${p.intervals} intervals`);
    },
    done: () => {
      if (shown) process.stderr.write("\r\x1b[K");
    },
  };
}

/** Every file as its own series (one per tag or label), as the page loads dropped files. */
export async function loadAll(paths: readonly string[], helpers: HelperWorkers | null, progress: boolean): Promise<Loaded> {
  const store = new Store();
  const pr = progressPrinter(progress);
  const files = paths.map((p) => new PathFile(p).asFile());
  const outcomes = await loadFiles(store, files, pr.onProgress, undefined, undefined, helpers);
  pr.done();
  return { store, problems: outcomes.flatMap((o) => o.problems) };
}

/** Files merged per batch: their histograms are dropped once added, so memory stays bounded. */
const MERGE_BATCH = 64;
/** Buckets of a merged series' max over time. */
const MERGED_TIMELINE_BUCKETS = 1000;

interface Group {
  name: string;
  config: string;
  throughput: number | null;
  kind: SeriesKind;
  tag: string;
  unit: Unit;
  histogram: Histogram;
  sources: Set<string>;
  files: number;
  /** Every interval's absolute start, end (s since epoch) and max (recorded unit). */
  starts: number[];
  ends: number[];
  maxes: number[];
  startTime: number | null;
}
type SeriesKind = "response" | "service" | "";

/**
 * Files merged into one series per configuration, throughput, kind and tag (the identity the
 * page parses from names): each series' histogram over the time range is added into its
 * group's (the page's merge: a sum of histograms, never an average), in batches, so that
 * thousands of files are read with bounded memory. A merged series keeps its max over time
 * (per interval, bucketed) but not its intervals; the range applies to each file's own intervals.
 */
export async function loadMerged(paths: readonly string[], range: TimeRange, helpers: HelperWorkers | null, progress: boolean): Promise<Loaded> {
  const groups = new Map<string, Group>();
  const problems: LoadProblem[] = [];
  const pr = progressPrinter(progress);
  for (let at = 0; at < paths.length; at += MERGE_BATCH) {
    const batch = new Store();
    const files = paths.slice(at, at + MERGE_BATCH).map((p) => new PathFile(p).asFile());
    const outcomes = await loadFiles(batch, files, pr.onProgress, undefined, undefined, helpers);
    for (const o of outcomes) problems.push(...o.problems);
    for (const s of batch.series) {
      const key = JSON.stringify([s.config, s.throughput, s.kind, s.tag]);
      const h = batch.histogramFor(s.id, range);
      let g = groups.get(key);
      if (!g) {
        const name = [s.config, s.throughput !== null ? formatThroughput(s.throughput) : "", s.kind, s.tag ? `[${s.tag}]` : ""].filter(Boolean).join(" ");
        g = {
          name,
          config: s.config,
          throughput: s.throughput,
          kind: s.kind,
          tag: s.tag,
          unit: s.recordedUnit,
          histogram: newHistogram(s.histogram.numberOfSignificantValueDigits, lowestDiscernibleValueOf(s.histogram), s.histogram.highestTrackableValue),
          sources: new Set(),
          files: 0,
          starts: [],
          ends: [],
          maxes: [],
          startTime: null,
        };
        groups.set(key, g);
      }
      if (s.recordedUnit !== g.unit) throw new CliError(2, `${s.source}: recorded in ${s.recordedUnit}, the other files of "${g.name}" in ${g.unit}: they cannot be merged`);
      g.histogram.add(h);
      g.sources.add(s.source);
      g.files++;
      const t = s.intervals;
      if (t && s.startTime !== null) {
        g.startTime = g.startTime === null ? s.startTime : Math.min(g.startTime, s.startTime);
        const lo = range.start ?? -Infinity;
        const hi = range.end ?? Infinity;
        for (let i = 0; i < t.n; i++) {
          const o = t.offsets[i]!;
          if (o < lo || o > hi) continue;
          g.starts.push(s.startTime + o);
          g.ends.push(s.startTime + o + t.lengths[i]!);
          g.maxes.push(t.maxes[i]!);
        }
      }
    }
    batch.clear();
  }
  pr.done();
  const store = new Store();
  for (const g of groups.values()) {
    const m = makeSeries({
      name: g.name,
      source: g.files === 1 ? [...g.sources][0]! : `${g.files} files`,
      tag: g.tag,
      recordedUnit: g.unit,
      unitSource: "format",
      histogram: g.histogram,
      intervals: null,
      startTime: g.startTime,
      format: "merged",
      blocks: null,
    });
    m.config = g.config;
    m.throughput = g.throughput;
    m.kind = g.kind;
    m.mergedFrom = [...g.sources];
    m.coarseTimeline = coarse(g);
    store.series.push(m);
  }
  return { store, problems };
}

/** The max of each of equal-width buckets over the merged intervals (s since the earliest StartTime). */
function coarse(g: Group): { t0: number; t1: number; max: number[] } | null {
  if (g.starts.length === 0 || g.startTime === null) return null;
  let a = Infinity;
  let b = -Infinity;
  for (let i = 0; i < g.starts.length; i++) {
    a = Math.min(a, g.starts[i]!);
    b = Math.max(b, g.ends[i]!);
  }
  const n = MERGED_TIMELINE_BUCKETS;
  const w = (b - a) / n || 1;
  const max = new Array<number>(n).fill(Number.NaN);
  for (let i = 0; i < g.starts.length; i++) {
    const k = Math.min(n - 1, Math.floor((g.starts[i]! - a) / w));
    if (!(max[k]! >= g.maxes[i]!)) max[k] = g.maxes[i]!;
  }
  return { t0: a - g.startTime, t1: b - g.startTime, max };
}
