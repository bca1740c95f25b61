// Verdicts on a ratio and its interval, judged against a margin of practical equivalence:
// with long runs, a bootstrap interval gets tight enough to call 0.5 % "significant", which
// nobody acts on. And a difference smaller than the histograms' buckets is not a difference.
import type { Verdict } from "./types";

/** A side must hold at least this many values above a percentile to say anything about it. */
export const MIN_ABOVE = 10;

export const DEFAULT_MARGIN = 0.05;

/**
 * `worse`: the whole interval lies above 1 + m; `better`: below 1 ÷ (1 + m); `same`: inside
 * [1 ÷ (1 + m), 1 + m]; otherwise `unknown`. m is the margin, or the histograms' relative
 * bucket width there when that is larger.
 */
export function verdictOf(low: number | null, high: number | null, margin: number, resolution = 0): Verdict {
  if (low === null || high === null || !Number.isFinite(low) || !Number.isFinite(high)) return "unknown";
  const m = Math.max(margin, resolution);
  const up = 1 + m;
  const down = 1 / (1 + m);
  if (low > up) return "worse";
  if (high < down) return "better";
  if (low >= down && high <= up) return "same";
  return "unknown";
}

/** Highest percentile at which both totals keep MIN_ABOVE values above it. */
export function supportLimit(...totals: number[]): number {
  const n = Math.min(...totals);
  if (!(n > MIN_ABOVE)) return -1;
  return 100 * (1 - MIN_ABOVE / n);
}

/** The percentile grid of the curve: `perDecade` points per decade of 1/(1−p), up to `limit`. */
export function curveGrid(limit: number, perDecade: number): number[] {
  const out: number[] = [];
  if (perDecade <= 0 || limit < 0) return out;
  for (let k = 0; ; k++) {
    const x = 10 ** (k / perDecade);
    const p = 100 * (1 - 1 / x);
    if (p > limit + 1e-12) break;
    out.push(Number(p.toPrecision(12)));
  }
  return out;
}

/** The `level` interval's ends from sorted resampled ratios (percentile method). */
export function percentileInterval(sorted: Float64Array, level: number): [number, number] {
  const n = sorted.length;
  const a = (1 - level) / 2;
  const at = (q: number) => {
    const x = q * (n - 1);
    const i = Math.floor(x);
    const f = x - i;
    return i + 1 < n ? sorted[i]! * (1 - f) + sorted[i + 1]! * f : sorted[i]!;
  };
  return [at(a), at(1 - a)];
}
