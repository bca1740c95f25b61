// Change points in one sequence of per-run values (one series, one percentile), on log values.
//
// The method is binary segmentation with a permutation test, as e-divisive means (Matteson &
// James) is used by Apache Otava and MongoDB's change-point system, with two changes for
// latency percentiles:
//
// - Each run is weighted by the inverse of its own variance plus the run-to-run variance:
//   w = 1 / (se² + τ²). se comes from the run's own bootstrap interval (a run whose p99.9 hangs
//   on one pause has a wide interval and weighs little, so it cannot make a change alone); it is
//   never taken below half the typical run's, as it is itself noisy, and a run with none of its
//   own (ownVariances) is taken as typical. τ² is what runs scatter beyond their own noise,
//   estimated from successive differences (a median, so a step or an outlier run barely moves it).
// - The statistic at a split is the weighted difference of the two stretches' means over its
//   standard error. The largest over all splits of a stretch is compared with the same largest
//   over permutations of the stretch's runs: a split is taken when fewer than `alpha` of the
//   permutations give as large a one (the runs are exchangeable when nothing changed). Each half
//   is then searched again.
// - `alpha` here is one sequence's. A series is judged at up to five percentiles, each its own
//   test, so a steady series would be called changed somewhere far more often than `alpha`;
//   detectChanges shares the series' alpha among the percentiles it judges (Bonferroni: each is
//   tested at alpha ÷ their number), so a steady series stays quiet at all of them together
//   with probability at least 1 − alpha. The margin does not do this job for the tail: p99.9
//   rests on a few runs' pauses and scatters by far more than 5 % from run to run, so a chance
//   split there is usually beyond the margin too, and the interval of the ratio, drawn at the
//   split the search chose as the largest, is narrower than it would be for a split fixed in
//   advance. Bonferroni rather than one test over the largest statistic across percentiles:
//   they may rest on different runs (p99.9 only on those with enough values above it), and a
//   step in every value is far beyond a test at a fifth of alpha at the percentiles that see it
//   best.
//
// A change is reported only when it is beyond the margin: its ratio's interval (after ÷ before,
// from the two stretches' weighted means, with standard errors scaled to how much the runs
// actually scatter around their stretches) lies
// wholly above 1 + margin or below 1 ÷ (1 + margin), as the A vs B verdicts are decided.
// Splits that are significant but within the margin are dropped one at a time (the weakest
// first) and their neighbours' stretches joined, until every remaining change is beyond it.
import { normalQuantile, seeded, median } from "./stats";
import { exp, ln } from "../exact-math";

export interface Observation {
  /** Natural log of the value. */
  x: number;
  /** Standard error of x from the run's own interval (0 when the run gives none). */
  se: number;
}

export interface Split {
  /** Position (in the observations) of the first one after the change. */
  at: number;
  /** The stretches either side: [from, to). */
  before: [number, number];
  after: [number, number];
  /** Weighted means (log) and their standard errors. */
  meanBefore: number;
  meanAfter: number;
  /** after − before (log) and its standard error. */
  diff: number;
  seDiff: number;
  p: number;
}

export interface DetectOptions {
  margin: number;
  alpha: number;
  permutations: number;
  minSegment: number;
  seed: number;
  level: number;
}

export const DEFAULT_DETECT: DetectOptions = { margin: 0.05, alpha: 0.05, permutations: 999, minSegment: 3, seed: 20261127, level: 0.95 };

/** A floor under every run's variance, so a run with no interval and no scatter cannot weigh infinitely (0.1 % in log). */
const MIN_VARIANCE = 1e-6;

/** Run-to-run variance beyond the runs' own: from the median absolute successive difference. */
export function runToRunVariance(obs: readonly Observation[]): number {
  if (obs.length < 3) return 0;
  const d: number[] = [];
  for (let i = 1; i < obs.length; i++) d.push(Math.abs(obs[i]!.x - obs[i - 1]!.x));
  // For normal scatter of variance s², a difference has variance 2s² and median |d| = 0.6745·√2·s.
  const s = median(d) / (0.6745 * Math.SQRT2);
  const own = median(ownVariances(obs));
  return Math.max(0, s * s - own);
}

/**
 * Each run's own variance. A run with no interval of its own (se 0: counts only, or too few
 * separate events above the percentile for its bootstrap to be trusted) is taken as typical of
 * the runs that have one (none: 0, and the weights come from the scatter between runs alone).
 * A run's own variance is itself an estimate (from a few dozen bootstrap blocks), noisy enough
 * that one run with a lucky narrow interval would outweigh ten others: none is taken below half
 * the typical one. A wide one is kept: that run is noisy, and weighs little.
 */
function ownVariances(obs: readonly Observation[]): number[] {
  const known = obs.filter((o) => o.se > 0).map((o) => o.se * o.se);
  const typical = known.length > 0 ? median(known) : 0;
  return obs.map((o) => (o.se > 0 ? Math.max(o.se * o.se, typical / 2) : typical));
}

interface Weighted {
  x: Float64Array;
  w: Float64Array;
}

/** The largest |z| over splits of x,w (a stretch), and where. */
function bestSplit(x: Float64Array, w: Float64Array, minSeg: number): { at: number; z: number } {
  const n = x.length;
  let W = 0;
  let S = 0;
  for (let i = 0; i < n; i++) {
    W += w[i]!;
    S += w[i]! * x[i]!;
  }
  let w1 = 0;
  let s1 = 0;
  let best = { at: -1, z: 0 };
  for (let k = 1; k < n; k++) {
    w1 += w[k - 1]!;
    s1 += w[k - 1]! * x[k - 1]!;
    if (k < minSeg || n - k < minSeg) continue;
    const w2 = W - w1;
    const z = Math.abs((S - s1) / w2 - s1 / w1) / Math.sqrt(1 / w1 + 1 / w2);
    if (z > best.z) best = { at: k, z };
  }
  return best;
}

/** Permutation p-value of the best split of [a, b). Stops early once it cannot be significant. */
function permutationP(all: Weighted, a: number, b: number, observed: number, o: DetectOptions, rnd: () => number): number {
  const n = b - a;
  const x = all.x.slice(a, b);
  const w = all.w.slice(a, b);
  const permutations = permutationsFor(o);
  const stopAt = Math.ceil(o.alpha * (permutations + 1));
  let atLeast = 0;
  for (let r = 0; r < permutations; r++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      const tx = x[i]!;
      x[i] = x[j]!;
      x[j] = tx;
      const tw = w[i]!;
      w[i] = w[j]!;
      w[j] = tw;
    }
    if (bestSplit(x, w, o.minSegment).z >= observed) {
      atLeast++;
      // p = (1 + atLeast) / (1 + permutations) is already at least alpha.
      if (atLeast + 1 >= stopAt) return (1 + atLeast) / (1 + r + 1);
    }
  }
  return (1 + atLeast) / (1 + permutations);
}

/** Enough permutations for `alpha` to be at least ten of them, so the test's own noise stays small beside it. */
function permutationsFor(o: DetectOptions): number {
  return Math.max(o.permutations, Math.ceil(10 / o.alpha) - 1);
}

/** A stretch's weighted mean, the sum of its weights, and its weighted squared deviations. */
function stretch(all: Weighted, a: number, b: number): { mean: number; W: number; chi2: number } {
  let W = 0;
  let S = 0;
  for (let i = a; i < b; i++) {
    W += all.w[i]!;
    S += all.w[i]! * all.x[i]!;
  }
  const mean = S / W;
  let chi2 = 0;
  for (let i = a; i < b; i++) chi2 += all.w[i]! * (all.x[i]! - mean) * (all.x[i]! - mean);
  return { mean, W, chi2 };
}

/** Fewest degrees of freedom for the runs' own scatter to scale the weights down as well as up. */
const MIN_DF = 4;

/** The splits found, each with its stretches and its ratio's parts; only those beyond the margin. */
export function detectSplits(obs: readonly Observation[], options: Partial<DetectOptions> = {}): Split[] {
  const o = { ...DEFAULT_DETECT, ...options };
  const n = obs.length;
  if (n < 2 * o.minSegment) return [];
  const tau2 = runToRunVariance(obs);
  const own = ownVariances(obs);
  const all: Weighted = {
    x: Float64Array.from(obs, (v) => v.x),
    w: Float64Array.from(own, (v) => 1 / Math.max(MIN_VARIANCE, v + tau2)),
  };
  const rnd = seeded(o.seed);
  const found: { at: number; p: number }[] = [];
  const todo: [number, number][] = [[0, n]];
  while (todo.length > 0) {
    const [a, b] = todo.pop()!;
    if (b - a < 2 * o.minSegment) continue;
    const best = bestSplit(all.x.subarray(a, b), all.w.subarray(a, b), o.minSegment);
    if (best.at < 0) continue;
    const p = permutationP(all, a, b, best.z, o, rnd);
    if (p >= o.alpha) continue;
    found.push({ at: a + best.at, p });
    todo.push([a, a + best.at], [a + best.at, b]);
  }
  const z = normalQuantile(1 - (1 - o.level) / 2);
  const up = ln(1 + o.margin);
  let cps = found.sort((u, v) => u.at - v.at);
  for (;;) {
    // The weights say how precise runs are relative to each other; how precise they are in
    // absolute terms is read from how much the runs actually scatter around their stretches'
    // means (the reduced chi-square over all stretches). A run's own interval can overstate
    // its uncertainty (a comparison widens it for drift slower than its blocks) as well as
    // understate it; with few runs the scatter is only trusted to widen. A stretch of 5 or
    // more runs that scatters more than the others keeps its own, larger, figure.
    const bounds = [0, ...cps.map((c) => c.at), n];
    let chi2 = 0;
    for (let k = 0; k + 1 < bounds.length; k++) chi2 += stretch(all, bounds[k]!, bounds[k + 1]!).chi2;
    const df = n - (bounds.length - 1);
    const pooled = df > 0 ? chi2 / df : 1;
    const phi = df >= MIN_DF ? pooled : Math.max(1, pooled);
    // Student's t for the scatter's degrees of freedom (Cornish–Fisher's first term).
    const t = z * (1 + (z * z + 1) / (4 * Math.max(1, df)));
    const errorOf = (st: { W: number; chi2: number }, runs: number) => Math.sqrt(Math.max(phi, runs >= 5 ? st.chi2 / (runs - 1) : 0) / st.W);
    const splits = cps.map((c, i): Split => {
      const from = i > 0 ? cps[i - 1]!.at : 0;
      const to = i + 1 < cps.length ? cps[i + 1]!.at : n;
      const before = stretch(all, from, c.at);
      const after = stretch(all, c.at, to);
      const diff = after.mean - before.mean;
      // In units of z: the interval's half-width is z·seDiff wherever it is read (ratioInterval).
      const seDiff = (Math.hypot(errorOf(before, c.at - from), errorOf(after, to - c.at)) * t) / z;
      return { at: c.at, before: [from, c.at], after: [c.at, to], meanBefore: before.mean, meanAfter: after.mean, diff, seDiff, p: c.p };
    });
    // Beyond the margin: the interval's near end is past it (the A vs B verdict's rule).
    const beyond = (s: Split) => Math.abs(s.diff) - z * s.seDiff > up;
    const weak = splits.filter((s) => !beyond(s));
    if (weak.length === 0) return splits;
    const weakest = weak.reduce((m, s) => (Math.abs(s.diff) / s.seDiff < Math.abs(m.diff) / m.seDiff ? s : m));
    cps = cps.filter((c) => c.at !== weakest.at);
  }
}

/** The interval of a split's ratio at `level`. */
export function ratioInterval(s: Split, level: number): { ratio: number; low: number; high: number } {
  const z = normalQuantile(1 - (1 - level) / 2);
  return { ratio: exp(s.diff), low: exp(s.diff - z * s.seDiff), high: exp(s.diff + z * s.seDiff) };
}
