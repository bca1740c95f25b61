// A vs B: the ratio candidate ÷ baseline at every percentile, with a bootstrap interval, a
// verdict per percentile, one sentence and the comparability warnings. Pure and synchronous at
// heart (a generator), so the engine worker can run it in slices (progress, cancel) and the
// command line can call it directly.
import { TABLE_PERCENTILES } from "../types";
import { cellsPerBinPerOctave, indexAtPercentile, measureSide, prepareSide, resampleSide, type PreparedSide } from "./bootstrap";
import { makeRng } from "./rng";
import { compareSentence } from "./sentence";
import type { CompareOptions, CompareResult, RatioPoint, SideInput, SideSummary } from "./types";
import { curveGrid, DEFAULT_MARGIN, percentileInterval, supportLimit, verdictOf } from "./verdict";
import { compareWarnings } from "./warnings";

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
  const step = Math.log2(1 + Math.max(1e-4, margin) / BIN_FRACTION);
  return Math.min(4096, Math.max(64, Math.ceil(1 / step)));
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

function summary(label: string, s: PreparedSide): SideSummary {
  return { label, runs: s.names, totalCount: s.total, method: s.methods };
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
  {
    const limit = supportLimit(pb.total, pc.total);
    const grid = [...new Set([...curveGrid(limit, options.perDecade ?? 8), ...requested.filter((p) => p <= limit)])].sort((a, b) => a - b);
    const G = grid.length;
    const outB = new Float64Array(B * G);
    const outC = new Float64Array(B * G);
    const total = 2 * B;
    if (G > 0) {
      for (const done of resampleSide(pb, grid, B, makeRng(seed, 1), repeats, outB)) yield { done, total };
      yield { done: B, total };
      for (const done of resampleSide(pc, grid, B, makeRng(seed, 2), repeats, outC)) yield { done: B + done, total };
    }
    const diffs = new Float64Array(B);
    const pointAt = (p: number, g: number): RatioPoint => {
      const bv = valueAt(pb, pb.pooled, pb.total, p);
      const cv = valueAt(pc, pc.pooled, pc.total, p);
      const ub = indexAtPercentile(pb.pooled, pb.total, p);
      const uc = indexAtPercentile(pc.pooled, pc.total, p);
      const resolution = Math.max(ub >= 0 ? pb.width[ub]! : 0, uc >= 0 ? pc.width[uc]! : 0);
      const ratio = bv > 0 ? cv / bv : Number.NaN;
      let low: number | null = null;
      let high: number | null = null;
      if (g >= 0) {
        // In bins: the difference of the two sides' bins is log2(ratio) × bpo, to within a bin
        // either way, so the interval's ends move out by one bin.
        let m = 0;
        for (let b = 0; b < B; b++) {
          const d = outC[b * G + g]! - outB[b * G + g]!;
          if (Number.isFinite(d)) diffs[m++] = d;
        }
        if (m > 0) {
          const [lo, hi] = percentileInterval(diffs.subarray(0, m).sort(), level);
          low = 2 ** ((lo - 1) / bpo);
          high = 2 ** ((hi + 1) / bpo);
        }
      }
      const supported = g >= 0 && low !== null && Number.isFinite(ratio);
      const baseSpread = supported ? spreadOf(pb, p, bv) : null;
      const candSpread = supported ? spreadOf(pc, p, bv) : null;
      const widest = Math.max(...[baseSpread, candSpread].map((s) => (s ? Math.log(s[1] / s[0]) : 0)));
      return {
        percentile: p,
        supported,
        base: bv,
        cand: cv,
        ratio,
        low: supported ? low : null,
        high: supported ? high : null,
        verdict: supported ? verdictOf(low, high, margin, resolution) : "unknown",
        resolution,
        band: Math.max(margin, resolution),
        baseSpread,
        candSpread,
        gapWithinSpread: widest > 0 && Math.abs(Math.log(ratio)) < widest,
      };
    };
    const curve = grid.map((p, g) => pointAt(p, g));
    const points = requested.map((p) => {
      const g = grid.indexOf(p);
      return g >= 0 ? curve[g]! : pointAt(p, -1);
    });
    const maxB = pb.U.length ? pb.U[pb.U.length - 1]! : Number.NaN;
    const maxC = pc.U.length ? pc.U[pc.U.length - 1]! : Number.NaN;
    const warnings = compareWarnings(base, cand, pb, pc);
    for (const [label, s] of [
      [base.label, pb],
      [cand.label, pc],
    ] as const) {
      if (repeats && s.perRun.length >= 2 && s.perRun.length < 5) {
        warnings.push({
          kind: "repeats",
          message: `${label} pools ${s.perRun.length} repeated runs: run-to-run variation is estimated from only ${s.perRun.length}, so the interval is rough (5 or more runs tell more).`,
        });
      }
    }
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
      sentence: compareSentence(base.label, cand.label, points, margin, level),
      warnings,
    };
  }
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
