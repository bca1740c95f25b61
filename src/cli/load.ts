// Loading files for the command line through the page's loader (engine/load-files.ts) into the
// page's Store: the same readers, detection, joining of parts and series identities.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatThroughput } from "../core/naming";
import { addDecodedInto } from "../core/counts-add";
import { newHistogram, lowestDiscernibleValueOf, sparseOf, type Histogram } from "../core/histogram";
import type { LoadProblem, Unit } from "../core/types";
import { histogramSeries } from "../engine/series-make";
import { loadFiles, type HelperWorkers } from "../engine/load-files";
import type { Progress } from "../engine/protocol";
import { Store, type TimeRange } from "../engine/store";
import type { EngineContext } from "../engine/context";
import { mergeHistograms, type GroupFields, type MergedShare, type MergeHelpers, type SentGroup, type SeriesKind } from "../engine/merge";

export type { MergedShare, MergeHelpers, SentGroup };
import { CliError } from "./errors";
import { filePayloads, PathFile } from "./path-file";

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

/**
 * Every file as its own series (one per tag or label), as the page loads dropped files.
 * `keepBlocks`: whether logs keep their pre-merged blocks (time windows, comparisons, links and
 * charts use them; a report of whole logs needs none).
 */
export async function loadAll(paths: readonly string[], helpers: HelperWorkers | null, progress: boolean, keepBlocks = true, context?: EngineContext): Promise<Loaded> {
  const store = new Store(context);
  const pr = progressPrinter(progress);
  const files = paths.map((p) => new PathFile(p).asFile());
  const outcomes = await loadFiles(store, files, pr.onProgress, undefined, undefined, helpers, { payloads: filePayloads, keepBlocks });
  pr.done();
  return { store, problems: outcomes.flatMap((o) => o.problems) };
}

/** Files merged per batch: their histograms are dropped once added, so memory stays bounded. */
const MERGE_BATCH = 64;
/** Files in each share of a merge read on another thread (shares are handed out as threads free up). */
export const MERGE_CHUNK = 256;
/** Buckets of a merged series' max over time. */
const MERGED_TIMELINE_BUCKETS = 1000;

interface Group extends GroupFields {
  histogram: Histogram;
  sources: Set<string>;
  /** Every interval's absolute start, end (s since epoch) and max (recorded unit). */
  starts: number[];
  ends: number[];
  maxes: number[];
}
const groupKey = (s: { config: string; throughput: number | null; kind: string; tag: string }) => JSON.stringify([s.config, s.throughput, s.kind, s.tag]);

function newGroup(s: { config: string; throughput: number | null; kind: SeriesKind; tag: string }, unit: Unit, digits: number, lowest: number, highest: number): Group {
  const name = [s.config, s.throughput !== null ? formatThroughput(s.throughput) : "", s.kind, s.tag ? `[${s.tag}]` : ""].filter(Boolean).join(" ");
  return {
    name,
    config: s.config,
    throughput: s.throughput,
    kind: s.kind,
    tag: s.tag,
    unit,
    histogram: newHistogram(digits, lowest, highest),
    digits,
    lowest,
    highest,
    uniform: true,
    sources: new Set(),
    files: 0,
    starts: [],
    ends: [],
    maxes: [],
    startTime: null,
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Merges `paths` into `groups` in order, in batches (the one-thread merge). */
async function mergeInto(
  groups: Map<string, Group>,
  problems: LoadProblem[],
  paths: readonly string[],
  range: TimeRange,
  helpers: HelperWorkers | null,
  onProgress: (p: Progress) => void,
): Promise<void> {
  for (let at = 0; at < paths.length; at += MERGE_BATCH) {
    const batch = new Store();
    const files = paths.slice(at, at + MERGE_BATCH).map((p) => new PathFile(p).asFile());
    const outcomes = await loadFiles(batch, files, onProgress, undefined, undefined, helpers, { payloads: filePayloads });
    for (const o of outcomes) problems.push(...o.problems);
    for (const s of batch.series) {
      const key = groupKey(s);
      const h = batch.histogramFor(s.id, range);
      const digits = s.histogram.numberOfSignificantValueDigits;
      const lowest = lowestDiscernibleValueOf(s.histogram);
      let g = groups.get(key);
      if (!g) {
        g = newGroup(s, s.recordedUnit, digits, lowest, s.histogram.highestTrackableValue);
        groups.set(key, g);
      }
      if (s.recordedUnit !== g.unit) throw new CliError(2, `${s.source}: recorded in ${s.recordedUnit}, the other files of "${g.name}" in ${g.unit}: they cannot be merged`);
      if (digits !== g.digits || lowest !== g.lowest) g.uniform = false;
      // The engine's merge, one file at a time: the group's layout becomes the coarsest of its files.
      g.histogram = mergeHistograms([h], g.histogram);
      g.digits = g.histogram.numberOfSignificantValueDigits;
      g.lowest = lowestDiscernibleValueOf(g.histogram);
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
    // Lets replies from other threads in between batches (reading here is promise work only).
    await nextTurn();
  }
}

/** A share of the files merged on this thread, as sent to the main thread (a helper thread's task). */
export async function mergeShare(paths: readonly string[], range: TimeRange, onProgress: (p: Progress) => void = () => undefined): Promise<MergedShare> {
  const groups = new Map<string, Group>();
  const problems: LoadProblem[] = [];
  try {
    await mergeInto(groups, problems, paths, range, null, onProgress);
  } catch (e) {
    if (e instanceof CliError) return { groups: [], problems: [], sequential: true };
    throw e;
  }
  const out: SentGroup[] = [];
  for (const [key, g] of groups) {
    if (!g.uniform) return { groups: [], problems: [], sequential: true };
    out.push({
      key,
      name: g.name,
      config: g.config,
      throughput: g.throughput,
      kind: g.kind,
      tag: g.tag,
      unit: g.unit,
      digits: g.digits,
      lowest: g.lowest,
      highest: g.highest,
      uniform: g.uniform,
      counts: sparseOf(g.histogram),
      sources: [...g.sources],
      firstSource: [...g.sources][0]!,
      files: g.files,
      starts: Float64Array.from(g.starts),
      ends: Float64Array.from(g.ends),
      maxes: Float64Array.from(g.maxes),
      startTime: g.startTime,
    });
  }
  return { groups: out, problems, sequential: false };
}

/** The arrays of a share, to transfer rather than copy. */
export function transferablesOfShare(m: MergedShare): ArrayBuffer[] {
  return m.groups.flatMap((g) => [
    g.counts.indices.buffer as ArrayBuffer,
    g.counts.counts.buffer as ArrayBuffer,
    g.starts.buffer as ArrayBuffer,
    g.ends.buffer as ArrayBuffer,
    g.maxes.buffer as ArrayBuffer,
  ]);
}

/**
 * Adds a share merged elsewhere into `groups`, or returns false (changing nothing) when that
 * would not give exactly what merging its files here in order gives: then the caller does so.
 * Counts of one layout add by index, so the sum does not depend on where they were added first.
 */
function addShare(groups: Map<string, Group>, problems: LoadProblem[], share: MergedShare): boolean {
  if (share.sequential) return false;
  for (const sg of share.groups) {
    const g = groups.get(sg.key);
    if (!sg.uniform || (g && (g.unit !== sg.unit || g.digits !== sg.digits || g.lowest !== sg.lowest))) return false;
  }
  problems.push(...share.problems);
  for (const sg of share.groups) {
    let g = groups.get(sg.key);
    if (!g) {
      g = newGroup(sg, sg.unit, sg.digits, sg.lowest, sg.highest);
      groups.set(sg.key, g);
    }
    addDecodedInto(g.histogram, sg.counts);
    for (const x of sg.sources) g.sources.add(x);
    g.files += sg.files;
    if (sg.startTime !== null) g.startTime = g.startTime === null ? sg.startTime : Math.min(g.startTime, sg.startTime);
    for (let i = 0; i < sg.starts.length; i++) {
      g.starts.push(sg.starts[i]!);
      g.ends.push(sg.ends[i]!);
      g.maxes.push(sg.maxes[i]!);
    }
  }
  return true;
}

/**
 * Files merged into one series per configuration, throughput, kind and tag (the identity the
 * page parses from names): each series' histogram over the time range is added into its
 * group's (the page's merge: a sum of histograms, never an average), in batches, so that
 * thousands of files are read with bounded memory. A merged series keeps its max over time
 * (per interval, bucketed) but not its intervals; the range applies to each file's own intervals.
 *
 * With `sharers`, the files are cut into shares of MERGE_CHUNK, merged on this thread and on
 * the helpers as each frees up, then added here in file order: the same series, sources and
 * counts as merging them all here.
 */
export async function loadMerged(
  paths: readonly string[],
  range: TimeRange,
  helpers: HelperWorkers | null,
  progress: boolean,
  sharers: MergeHelpers | null = null,
  chunk = MERGE_CHUNK,
): Promise<Loaded> {
  const groups = new Map<string, Group>();
  const problems: LoadProblem[] = [];
  const pr = progressPrinter(progress);
  if (sharers && sharers.count > 0 && paths.length > chunk) {
    const shares: (readonly string[])[] = [];
    for (let at = 0; at < paths.length; at += chunk) shares.push(paths.slice(at, at + chunk));
    const done: (Promise<MergedShare | null> | null)[] = new Array(shares.length).fill(null);
    let next = 0;
    // This thread keeps every share it reads itself as its own groups, then adds them in order like the others.
    const run = async (helper: number | null) => {
      for (;;) {
        const k = next++;
        if (k >= shares.length) return;
        done[k] = helper === null ? mergeShare(shares[k]!, range, pr.onProgress) : sharers.merge(helper, shares[k]!, range).catch(() => null);
        await done[k];
      }
    };
    await Promise.all([run(null), ...Array.from({ length: sharers.count }, (_, h) => run(h))]);
    for (let k = 0; k < shares.length; k++) {
      const share = await done[k]!;
      if (share === null || !addShare(groups, problems, share)) await mergeInto(groups, problems, shares[k]!, range, null, pr.onProgress);
    }
  } else {
    await mergeInto(groups, problems, paths, range, helpers, pr.onProgress);
  }
  pr.done();
  const store = new Store();
  for (const g of groups.values()) {
    const m = histogramSeries({
      name: g.name,
      source: g.files === 1 ? [...g.sources][0]! : `${g.files} files`,
      tag: g.tag,
      recordedUnit: g.unit,
      histogram: g.histogram,
      startTime: g.startTime,
      format: "merged",
      config: g.config,
      throughput: g.throughput,
      kind: g.kind,
      coarseTimeline: coarse(g),
    });
    m.mergedFrom = [...g.sources];
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
