// The gate: a new run against the latest stable stretch of the history. The stretch's runs are
// one side of the A vs B comparison, as repeats (resampled run by run, then block by block, so
// its interval holds their scatter); the new run is the other. A single new run is also one
// draw of the run-to-run scatter, which its own bootstrap cannot see: the interval is widened
// by the history's run-to-run spread at that percentile (added in quadrature, in log), so a
// run that is merely on the slow side of normal does not fail the build.
import { compareSides, verdictOf, type CompareResult, type RatioPoint, type SideInput } from "../compare";
import { normalQuantile } from "./stats";
import { HISTORY_PERCENTILES } from "./types";
import { exp, ln } from "../exact-math";

/** A percentile of the comparison, its interval (low, high) widened by the run-to-run spread. */
export interface GatePoint extends Pick<RatioPoint, "percentile" | "supported" | "base" | "cand" | "ratio" | "low" | "high" | "verdict"> {
  /** The run-to-run spread (sd of log) the interval was widened by. */
  spread: number;
}

export interface GateResult {
  points: GatePoint[];
  comparison: CompareResult;
  worse: number[];
}

/**
 * `spread(p)`: the history's run-to-run sd (log) at p; `judged(p)`: whether the history judges
 * p at all (enough values above it in the new run), else the point is left unsupported.
 */
export function judgeNewRun(
  stretch: SideInput,
  run: SideInput,
  spread: (p: number) => number,
  options: { margin?: number; level?: number; resamples?: number; judged?: (p: number) => boolean } = {},
): GateResult {
  const level = options.level ?? 0.95;
  const comparison = compareSides(stretch, run, { margin: options.margin, level, resamples: options.resamples, percentiles: HISTORY_PERCENTILES, perDecade: 0, events: false });
  const z = normalQuantile(1 - (1 - level) / 2);
  const points = comparison.points.map((pt): GatePoint => {
    const sd = spread(pt.percentile);
    const judged = (pt as { judged?: boolean }).judged !== false;
    if (!pt.supported || !judged || !(options.judged?.(pt.percentile) ?? true) || pt.low === null || pt.high === null || !(pt.ratio > 0)) {
      return { percentile: pt.percentile, supported: false, base: pt.base, cand: pt.cand, ratio: pt.ratio, low: null, high: null, verdict: "unknown", spread: sd };
    }
    const c = ln(pt.ratio);
    // The point's own half-widths: from its standard error where the comparison gives one (its
    // interval is a simultaneous band over the A vs B percentiles, wider than this gate's).
    const down = pt.se != null ? z * pt.se : c - ln(pt.low);
    const up = pt.se != null ? z * pt.se : ln(pt.high) - c;
    const lo = c - Math.hypot(down, z * sd);
    const hi = c + Math.hypot(up, z * sd);
    const low = exp(lo);
    const high = exp(hi);
    return {
      percentile: pt.percentile,
      supported: true,
      base: pt.base,
      cand: pt.cand,
      ratio: pt.ratio,
      low,
      high,
      verdict: verdictOf(low, high, comparison.margin, pt.resolution),
      spread: sd,
    };
  });
  return { points, comparison, worse: points.filter((p) => p.verdict === "worse").map((p) => p.percentile) };
}
