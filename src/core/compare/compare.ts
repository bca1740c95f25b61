// A vs B: the ratio candidate ÷ baseline at every percentile, with a bootstrap interval, a
// verdict per percentile, one sentence and the comparability warnings. Pure and synchronous at
// heart (a generator), so the engine worker can run it in slices (progress, cancel) and the
// command line can call it directly.
import { TABLE_PERCENTILES } from "../types";
import { cellsPerBinPerOctave, indexAtPercentile, measureSide, prepareSide, resampleSide, type PreparedSide } from "./bootstrap";
import { CountsRun } from "./resampled-runs";
import {
  DRIFT_GROWTH,
  driftNote,
  familyCritical,
  LENGTH_RATIO,
  lengthsReason,
  median,
  MIN_EVENTS,
  reasonOf,
  robustScale,
  sideDependence,
  thresholdsOf,
  tooFewValues,
} from "./judge";
import { EVENT_SHARE, exceedance, stretchMaxima } from "./events";
import { nsText, percentText, pLabel, possessive } from "./format";
import { DEFAULT_HEADLINE_PERCENTILE } from "./headline";
import { makeRng } from "./rng";
import { compareSentence } from "./sentence";
import type { CompareOptions, CompareResult, RatioPoint, SideInput, SideSummary } from "./types";
import { curveGrid, DEFAULT_MARGIN, supportLimit, verdictOf } from "./verdict";
import { compareWarnings } from "./warnings";
import { bucketRule, sideBuckets } from "./buckets";
import { exp2, ln, log2 } from "../exact-math";

/** The percentiles the hooks and the table report (the max is reported apart, as a point). */
export const COMPARE_PERCENTILES: readonly number[] = TABLE_PERCENTILES.filter((p) => p < 100);
export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_SEED = 20261125;

/** The resamples' bins are this fraction of the margin wide (0.5 % at the default 5 %). */
export const BIN_FRACTION = 10;

/**
 * Bins per doubling for the resamples: a step of a tenth of the margin, so the binning (which
 * widens each interval by one bin on either side) cannot decide a verdict on its own. Finer
 * bins cost memory (a column of every block's cumulative counts per bin) and a search step or
 * two, not a pass over every bin.
 */
export function binsPerOctave(margin: number): number {
  const step = log2(1 + Math.max(1e-4, margin) / BIN_FRACTION);
  return Math.min(4096, Math.max(64, Math.ceil(1 / step)));
}

/** Runs a side needs before run-to-run spread can stand in for missing time order. */
export const MIN_RUNS = 3;

/** The standard normal's two-sided `level` quantile (1.96 at 95 %). */
function NORMAL_QUANTILE(level: number): number {
  // Interpolated in a small table: levels are 0.8–0.999 in practice.
  const table: [number, number][] = [
    [0.8, 1.2816],
    [0.9, 1.6449],
    [0.95, 1.96],
    [0.99, 2.5758],
    [0.999, 3.2905],
  ];
  for (let i = 1; i < table.length; i++) {
    const [l0, z0] = table[i - 1]!;
    const [l1, z1] = table[i]!;
    if (level <= l1) return z0 + ((z1 - z0) * (Math.max(l0, level) - l0)) / (l1 - l0);
  }
  return 3.2905;
}

/** Student's t two-sided 95 % quantile for `df` degrees of freedom (the normal's past 30). */
function studentT975(df: number): number {
  const t = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
  if (df < 1) return t[0]!;
  if (df <= t.length) return t[df - 1]!;
  return df >= 30 ? 1.96 : 2.228 + ((1.96 - 2.228) * (df - 10)) / 20;
}

/** Most matrix cells (4 or 8 bytes each, per side) the resampling may hold. */
export const MAX_CELLS = 1 << 23;
const MIN_BINS_PER_OCTAVE = 16;

export interface Progress {
  done: number;
  total: number;
}

function valueAt(s: PreparedSide, cum: Float64Array, total: number, p: number): number {
  const u = indexAtPercentile(cum, total, p);
  return u < 0 ? Number.NaN : s.U[u]!;
}

function spreadOf(s: PreparedSide, p: number, ref: number): [number, number] | null {
  if (s.perRun.length < 2) return null;
  let lo = Infinity;
  let hi = -Infinity;
  s.perRun.forEach((cum, i) => {
    const v = valueAt(s, cum, s.runTotals[i]!, p) / ref;
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  });
  return Number.isFinite(lo) ? [lo, hi] : null;
}

/** A side's length in seconds over its runs with time order (NaN with none). */
function secondsOf(s: PreparedSide): number {
  const t = s.seconds.filter(Number.isFinite);
  return t.length ? t.reduce((a, b) => a + b, 0) : Number.NaN;
}

function summary(label: string, s: PreparedSide): SideSummary {
  const seconds = secondsOf(s);
  return { label, runs: s.names, totalCount: s.total, method: s.methods, seconds: Number.isFinite(seconds) ? seconds : null };
}

/** The comparison, step by step: yields progress between slices of resamples. */
export function* compareSteps(base: SideInput, cand: SideInput, options: CompareOptions = {}): Generator<Progress, CompareResult, void> {
  const margin = options.margin ?? DEFAULT_MARGIN;
  const B = Math.max(1, Math.round(options.resamples ?? DEFAULT_RESAMPLES));
  const seed = options.seed ?? DEFAULT_SEED;
  const level = options.level ?? 0.95;
  const requested = [...(options.percentiles ?? COMPARE_PERCENTILES)];
  const repeats = options.repeats ?? true;
  const mb = measureSide(base.runs);
  const mc = measureSide(cand.runs);
  // Finer bins cost memory (block starts × bins per side): a tiny margin on a long log would
  // ask for hundreds of megabytes; past MAX_CELLS the bins get coarser (the intervals only wider).
  const cells = Math.max(cellsPerBinPerOctave(mb), cellsPerBinPerOctave(mc), 1);
  const bpo = Math.max(MIN_BINS_PER_OCTAVE, Math.min(binsPerOctave(margin), Math.floor(MAX_CELLS / cells)));
  const pb = prepareSide(mb, bpo);
  const pc = prepareSide(mc, bpo);
  // Counts without time order: resampled as they are, by runs, when both sides have 3+ runs;
  // otherwise not resampled at all (values in bursts are not independent).
  const noTime = [...pb.countsOnly, ...pc.countsOnly];
  const runSpread = noTime.length > 0 && repeats && pb.runs.length >= MIN_RUNS && pc.runs.length >= MIN_RUNS;
  const noVerdicts = noTime.length > 0 && !runSpread;
  if (runSpread) for (const r of [...pb.runs, ...pc.runs]) if (r instanceof CountsRun) r.fixed = true;
  const limit = supportLimit(pb.total, pc.total);
  const grid = [...new Set([...curveGrid(limit, options.perDecade ?? 8), ...requested.filter((p) => p <= limit)])].sort((a, b) => a - b);
  const G = grid.length;
  const outB = new Float64Array(B * G);
  const outC = new Float64Array(B * G);
  const total = 2 * B;
  if (G > 0 && !noVerdicts) {
    for (const done of resampleSide(pb, grid, B, makeRng(seed, 1), repeats, outB)) yield { done, total };
    yield { done: B, total };
    for (const done of resampleSide(pc, grid, B, makeRng(seed, 2), repeats, outC)) yield { done: B + done, total };
  }
  // The event rule (events.ts): both sides with time order, each stretch's max on one scale of bins.
  const timed = !runSpread && !noVerdicts;
  const alphaEvents = (1 - level) * EVENT_SHARE;
  // A stretch counts when its max lies beyond the other side's max by more than the margin.
  const gap = Math.ceil(log2(1 + margin) * bpo);
  const ex = timed && (options.events ?? true) ? exceedance(stretchMaxima(pb.sub, pb.kMin), stretchMaxima(pc.sub, pc.kMin), alphaEvents, gap) : null;
  const needed = ex ? ex.needed : timed ? MIN_EVENTS : null;
  const vb = (p: number) => valueAt(pb, pb.pooled, pb.total, p);
  const vc = (p: number) => valueAt(pc, pc.pooled, pc.total, p);
  const depB = sideDependence(pb, thresholdsOf(pb, vb, grid));
  const depC = sideDependence(pc, thresholdsOf(pc, vc, grid));
  // Resampling a handful of runs understates their spread: the bootstrap's variance is (R − 1)/R
  // of theirs, and a t quantile with (R_A − 1) + (R_B − 1) degrees of freedom stands for the
  // normal one (as a variance factor).
  const df = pb.runs.length + pc.runs.length - 2;
  const fewRuns = runSpread ? ((Math.max(pb.runs.length, pc.runs.length) / (Math.min(pb.runs.length, pc.runs.length) - 1)) * (studentT975(df) / 1.96)) ** 2 : 1;
  // Per grid percentile: the resampled differences (bins), their centre and spread, the widening.
  const cols = grid.map((_, g) => {
    const d = new Float64Array(B);
    const sb = new Float64Array(B);
    const sc = new Float64Array(B);
    let m = 0;
    if (!noVerdicts) {
      for (let b = 0; b < B; b++) {
        const x = outB[b * G + g]!;
        const y = outC[b * G + g]!;
        d[b] = y - x;
        if (Number.isFinite(x) && Number.isFinite(y)) {
          sb[m] = x;
          sc[m] = y;
          m++;
        }
      }
    }
    const sorted = d.filter(Number.isFinite).sort();
    const scaleB = robustScale(sb.subarray(0, m).sort());
    const scaleC = robustScale(sc.subarray(0, m).sort());
    const vB = scaleB * scaleB;
    const vC = scaleC * scaleC;
    const rB = runSpread ? fewRuns : depB.inflation[g]!;
    const rC = runSpread ? fewRuns : depC.inflation[g]!;
    const widen = vB + vC > 0 ? Math.sqrt((rB * vB + rC * vC) / (vB + vC)) : Math.sqrt(Math.max(rB, rC));
    // Half a bin at least: resamples that all land in one bin still carry a bin's uncertainty.
    return { d, centre: median(sorted), scale: Math.max(0.5, robustScale(sorted)), widen, n: sorted.length };
  });
  const labels: [string, string] = [base.label, cand.label];
  const seconds: [number, number] = [secondsOf(pb), secondsOf(pc)];
  const counts: [number, number] = [pb.total, pc.total];
  const secB = Math.max(...pb.seconds);
  const secC = Math.max(...pc.seconds);
  const longer = secB >= LENGTH_RATIO * secC ? base.label : secC >= LENGTH_RATIO * secB ? cand.label : null;
  const pre = grid.map((p, g) => {
    const bv = vb(p);
    const cv = vc(p);
    const events: [number, number] | null = runSpread || noVerdicts ? null : [depB.events[g]!, depC.events[g]!];
    const supported = Number.isFinite(bv) && Number.isFinite(cv) && bv > 0;
    const reason = reasonOf({ p, supported, noTimeOrder: noVerdicts ? noTime : null, events, needed, stretches: [depB.stretches, depC.stretches], labels, seconds, counts });
    return { p, bv, cv, events, reason, interval: supported && !noVerdicts && cols[g]!.n > 0 };
  });
  // One family: the reported percentiles that are judged.
  const family = requested.map((p) => grid.indexOf(p)).filter((g) => g >= 0 && pre[g]!.interval && pre[g]!.reason === null);
  // The values' band spends what the event rule does not: one family at 1 − level.
  let crit = familyCritical(
    family.map((g) => cols[g]!),
    ex ? level + alphaEvents : level,
  );
  // Nothing judged among the reported ones (or a curve alone): the pointwise multiplier.
  if (!Number.isFinite(crit)) crit = NORMAL_QUANTILE(level);
  const drifting: number[] = [];
  // Histograms of buckets (Prometheus) are judged only where both sides resolve (buckets.ts).
  const buckets: [ReturnType<typeof sideBuckets>, ReturnType<typeof sideBuckets>] = [sideBuckets(base), sideBuckets(cand)];
  const pointAt = (g: number): RatioPoint => {
    const { p, bv, cv, events, interval } = pre[g]!;
    let reason = pre[g]!.reason;
    const ub = indexAtPercentile(pb.pooled, pb.total, p);
    const uc = indexAtPercentile(pc.pooled, pc.total, p);
    let resolution = Math.max(ub >= 0 ? pb.width[ub]! : 0, uc >= 0 ? pc.width[uc]! : 0);
    const ratio = bv > 0 ? cv / bv : Number.NaN;
    const c = cols[g]!;
    let low: number | null = null;
    let high: number | null = null;
    if (interval && Number.isFinite(ratio)) {
      // In bins: the difference of the two sides' bins is log2(ratio) × bpo to within a bin
      // either way, so the interval's ends move out by one bin.
      const h = crit * c.scale * c.widen + 1;
      const at = log2(ratio) * bpo;
      low = exp2((at - h) / bpo);
      high = exp2((at + h) / bpo);
    }
    // On the grid, both sides hold at least MIN_ABOVE values above (supportLimit).
    const supported = Number.isFinite(ratio);
    // A side of buckets: not judged within one of its buckets, nor in its top bucket (no max);
    // beyond, judged as before with the bucket's width as the resolution.
    const rule = reason === null && (buckets[0] || buckets[1]) ? bucketRule({ p, sides: buckets, values: [pb.U, pc.U], at: [bv, cv], ratio, slack: resolution }) : null;
    if (rule) {
      if (Number.isFinite(rule.width)) resolution = Math.max(resolution, rule.width);
      reason = rule.reason;
    }
    const bucketReason = rule?.reason != null;
    let verdict = reason === null ? verdictOf(low, high, margin, resolution) : "unknown";
    // The longer run met more pauses: its tail alone is not called worse.
    // Only where the shorter run's tail rests on few stretches of time, bunched in some of them
    // (a few pauses more or less move it); values above spread through the whole run, or seen
    // across many stretches, are not explained by length.
    const k = longer === base.label ? 1 : 0;
    const fewer = events ? events[k] : Infinity;
    const stretches = k === 0 ? depB.stretches : depC.stretches;
    const bunched = fewer < 2 * MIN_EVENTS && fewer < 0.8 * stretches;
    if (longer && reason === null && p >= 99 && bunched && (verdict === "worse" || verdict === "better")) {
      const slower = verdict === "worse" ? cand.label : base.label;
      if (slower === longer) {
        verdict = "unknown";
        reason = lengthsReason(longer);
      }
    }
    let basis: RatioPoint["basis"] = reason === null && (verdict === "better" || verdict === "worse") ? (runSpread ? "runs" : "values") : null;
    // Events: one side went above all of the other's values in enough separate stretches, and
    // its value here lies above the other side's max by more than the margin.
    const band = Math.max(margin, resolution);
    if (basis === null && ex && supported && ex.p <= ex.alpha && !bucketReason && !/too few for/.test(reason ?? "")) {
      const candAbove = ex.above[1] > 0;
      const top = candAbove ? maxOf(pb) : maxOf(pc);
      const v = candAbove ? cv : bv;
      if (v > top * (1 + band)) {
        verdict = candAbove ? "worse" : "better";
        reason = null;
        basis = "events";
      }
    }
    const drift = !runSpread && Math.max(depB.growth[g]!, depC.growth[g]!) >= DRIFT_GROWTH && reason === null && basis !== "events";
    if (drift && requested.includes(p)) drifting.push(p);
    const baseSpread = supported ? spreadOf(pb, p, bv) : null;
    const candSpread = supported ? spreadOf(pc, p, bv) : null;
    const widest = Math.max(...[baseSpread, candSpread].map((s) => (s ? ln(s[1] / s[0]) : 0)));
    return {
      percentile: p,
      supported,
      base: bv,
      cand: cv,
      ratio,
      low,
      high,
      verdict,
      resolution,
      band,
      baseSpread,
      candSpread,
      gapWithinSpread: widest > 0 && Math.abs(ln(ratio)) < widest,
      judged: reason === null,
      reason,
      basis,
      needed,
      events,
      widening: interval ? c.widen : null,
      se: interval ? (c.scale * Math.LN2) / bpo : null,
      drift,
    };
  };
  const curve = grid.map((_, g) => pointAt(g));
  const points = requested.map((p) => {
    const g = grid.indexOf(p);
    return g >= 0 ? curve[g]! : unsupportedPoint(p, vb(p), vc(p), margin, tooFewValues(p, labels, counts, seconds));
  });
  const maxB = maxOf(pb);
  const maxC = maxOf(pc);
  const warnings = compareWarnings(base, cand, pb, pc, { runSpread, longer });
  for (const [label, s] of [
    [base.label, pb],
    [cand.label, pc],
  ] as const) {
    if (repeats && s.perRun.length >= 2 && s.perRun.length < 5) {
      warnings.push({
        kind: "repeats",
        message: `${label} pools ${s.perRun.length} repeated runs: run-to-run variation is estimated from only ${s.perRun.length}, so the range is rough (5 or more runs tell more).`,
      });
    }
  }
  // The details behind the sentence, each said once.
  const notes: string[] = [];
  const byEvents = points.filter((x) => x.basis === "events").map((x) => x.percentile);
  if (ex && byEvents.length) {
    const w = ex.above[1] > 0 ? 1 : 0;
    const [wl, sl] = w === 1 ? [cand.label, base.label] : [base.label, cand.label];
    notes.push(
      `At ${byEvents.map(pLabel).join(", ")} the verdict rests on events: ${wl} went more than ${percentText(margin)} above ${possessive(sl)} max (${nsText(w === 1 ? maxB : maxC)}) in ${ex.above[w]} of its ${ex.stretches[w]} separate stretches of time, ${sl} above ${possessive(wl)} max in none (${ex.needed} needed; were both the same, a count this high would come up less than ${percentText(ex.alpha)} of the time).`,
    );
  }
  if (drifting.length) notes.push(driftNote(drifting));
  const spread = points.filter((x) => x.supported && (x.judged ?? true) && x.gapWithinSpread && x.verdict !== "same").map((x) => x.percentile);
  if (spread.length) notes.push(`At ${spread.map(pLabel).join(", ")} the gap is smaller than the spread between repeated runs.`);
  const single = [pb, pc].filter((s) => s.runs.length < 2).length;
  if (single === 2) notes.push("Each side is a single run: run-to-run variation is not measured.");
  else if (single === 1) notes.push(`${pb.runs.length < 2 ? base.label : cand.label} is a single run: run-to-run variation is not measured on that side.`);
  return {
    base: summary(base.label, pb),
    cand: summary(cand.label, pc),
    points,
    curve,
    max: { base: maxB, cand: maxC, ratio: maxB > 0 ? maxC / maxB : Number.NaN },
    supportedTo: limit,
    margin,
    level,
    resamples: B,
    seed,
    sentence: compareSentence(base.label, cand.label, points, margin, DEFAULT_HEADLINE_PERCENTILE),
    notes,
    exceedance: ex,
    warnings,
    critical: Number.isFinite(crit) ? crit : null,
  };
}

/** A reported percentile beyond what either side supports. */
function unsupportedPoint(p: number, bv: number, cv: number, margin: number, reason: string): RatioPoint {
  return {
    percentile: p,
    supported: false,
    base: bv,
    cand: cv,
    ratio: bv > 0 ? cv / bv : Number.NaN,
    low: null,
    high: null,
    verdict: "unknown",
    resolution: 0,
    band: margin,
    baseSpread: null,
    candSpread: null,
    gapWithinSpread: false,
    judged: false,
    reason,
    basis: null,
    needed: null,
    events: null,
    widening: null,
    se: null,
    drift: false,
  };
}

function maxOf(s: PreparedSide): number {
  return s.U.length ? s.U[s.U.length - 1]! : Number.NaN;
}

/** The whole comparison at once (Node, tests, the command line). */
export function compareSides(base: SideInput, cand: SideInput, options: CompareOptions = {}): CompareResult {
  const it = compareSteps(base, cand, options);
  for (;;) {
    const r = it.next();
    if (r.done) return r.value;
  }
}

export class CompareCancelled extends Error {
  constructor() {
    super("comparison cancelled");
  }
}

/**
 * The comparison in slices: between slices it reports progress and awaits `pause` (the
 * worker gives way to its message queue there, so a cancel can arrive); an aborted `signal`
 * stops it with CompareCancelled.
 */
export async function compareSidesAsync(
  base: SideInput,
  cand: SideInput,
  options: CompareOptions = {},
  ctl: { signal?: AbortSignal; onProgress?: (p: Progress) => void; pause?: () => Promise<void> } = {},
): Promise<CompareResult> {
  const it = compareSteps(base, cand, options);
  for (;;) {
    if (ctl.signal?.aborted) {
      it.return(undefined as never);
      throw new CompareCancelled();
    }
    const r = it.next();
    if (r.done) return r.value;
    ctl.onProgress?.(r.value);
    if (ctl.pause) await ctl.pause();
  }
}
