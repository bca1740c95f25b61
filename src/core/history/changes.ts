// Change points of a whole history: every series (by name) at every judged percentile.
import { detectSplits, ratioInterval, runToRunVariance, DEFAULT_DETECT, type Observation } from "./detect";
import { HISTORY_PERCENTILES, type Change, type HistoryOptions, type RunSummary } from "./types";
import { exp, ln } from "../exact-math";

/** Series names in the order they first appear in the runs. */
export function seriesNames(runs: readonly RunSummary[]): string[] {
  const names = new Set<string>();
  for (const r of runs) for (const s of r.series) names.add(s.name);
  return [...names];
}

/** One series' values at one percentile: the runs that have it (supported) and their observations. */
export function observations(runs: readonly RunSummary[], series: string, percentile: number): { runIndex: number[]; obs: Observation[] } {
  const runIndex: number[] = [];
  const obs: Observation[] = [];
  const key = String(percentile);
  runs.forEach((r, i) => {
    const s = r.series.find((x) => x.name === series);
    if (!s) return;
    const v = s.percentiles[key];
    const se = s.se[key];
    // null: the run cannot support this percentile (too few values above it).
    if (se === null || se === undefined || !(v! > 0)) return;
    runIndex.push(i);
    obs.push({ x: ln(v!), se });
  });
  return { runIndex, obs };
}

function optionsOf(o: HistoryOptions) {
  return {
    margin: o.margin ?? DEFAULT_DETECT.margin,
    alpha: o.alpha ?? DEFAULT_DETECT.alpha,
    permutations: o.permutations ?? DEFAULT_DETECT.permutations,
    minSegment: o.minSegment ?? DEFAULT_DETECT.minSegment,
    seed: o.seed ?? DEFAULT_DETECT.seed,
    level: o.level ?? DEFAULT_DETECT.level,
  };
}

/** Every change beyond the margin, by series (first appearance), then run, then percentile. */
export function detectChanges(runs: readonly RunSummary[], options: HistoryOptions = {}): Change[] {
  const o = optionsOf(options);
  const out: Change[] = [];
  for (const series of seriesNames(runs)) {
    const sequences = HISTORY_PERCENTILES.map((p) => ({ p, ...observations(runs, series, p) })).filter((q) => q.obs.length >= 2 * o.minSegment);
    // `alpha` is the chance of calling a change anywhere in a steady series: it is shared
    // among the percentiles the series judges (Bonferroni; see detect.ts).
    const alpha = o.alpha / Math.max(1, sequences.length);
    for (const { p, runIndex, obs } of sequences) {
      // The runs' indices map positions among those that have the value back to the history's.
      const at = (k: number) => (k < runIndex.length ? runIndex[k]! : runs.length);
      for (const s of detectSplits(obs, { ...o, alpha })) {
        const { ratio, low, high } = ratioInterval(s, o.level);
        const index = runIndex[s.at]!;
        out.push({
          series,
          run: runs[index]!.id,
          index,
          percentile: p,
          before: exp(s.meanBefore),
          after: exp(s.meanAfter),
          ratio,
          low,
          high,
          direction: s.diff > 0 ? "worse" : "better",
          beforeRuns: [at(s.before[0]), at(s.before[1])],
          afterRuns: [at(s.after[0]), at(s.after[1])],
          p: s.p,
        });
      }
    }
  }
  const order = seriesNames(runs);
  return out.sort((a, b) => order.indexOf(a.series) - order.indexOf(b.series) || a.index - b.index || a.percentile - b.percentile);
}

/** The judged percentiles at which a series has enough supported runs to look for a change. */
export function judgedPercentiles(runs: readonly RunSummary[], series: string, options: HistoryOptions = {}): number[] {
  const min = 2 * optionsOf(options).minSegment;
  return HISTORY_PERCENTILES.filter((p) => observations(runs, series, p).obs.length >= min);
}

/**
 * The latest stable stretch of a series: the runs since its last change at any percentile
 * (the whole history when it never changed), at most `most` of the latest of them.
 */
export function stableStretch(runs: readonly RunSummary[], changes: readonly Change[], series: string, most = 30): number[] {
  const from = Math.max(0, ...changes.filter((c) => c.series === series).map((c) => c.index));
  const idx: number[] = [];
  for (let i = from; i < runs.length; i++) if (runs[i]!.series.some((s) => s.name === series)) idx.push(i);
  return idx.slice(-most);
}

/** Run-to-run standard deviation (log) of a series at a percentile, over the given runs. */
export function runToRunSd(runs: readonly RunSummary[], series: string, percentile: number, among?: readonly number[]): number {
  const { runIndex, obs } = observations(runs, series, percentile);
  const keep = among ? obs.filter((_, k) => among.includes(runIndex[k]!)) : obs;
  return Math.sqrt(runToRunVariance(keep));
}
