// A run's own uncertainty at each judged percentile, from the A vs B machinery: the run is
// compared with itself (both sides resampled independently with its block bootstrap), so the
// interval of the ratio is that of the difference of two independent resamples, √2 times one
// run's spread. Its half-width in log, over z and √2, is the run's standard error.
import { compareSides, type RunInput } from "../compare";
import { normalQuantile } from "./stats";
import { HISTORY_PERCENTILES, type SeriesSummary } from "./types";
import { ln } from "../exact-math";

/** Resamples for a run's own interval: a standard error needs fewer than a verdict's tails. */
export const SUMMARY_RESAMPLES = 200;
const SUMMARY_SEED = 20261127;
const LEVEL = 0.95;
/**
 * A run judges a percentile only with at least this many values above it. The comparison
 * needs 10 to draw an interval; across a history a percentile held up by a dozen values (a
 * few pauses) swings from run to run by more than its own interval says.
 */
export const HISTORY_MIN_ABOVE = 50;

/**
 * Standard error (log) from a self-comparison's interval of the ratio. `critical`: the
 * interval's multiplier when it is a simultaneous band over several percentiles (wider than a
 * pointwise one); the normal quantile of `level` otherwise.
 */
export function seOfInterval(low: number, high: number, level = LEVEL, critical?: number | null): number {
  const z = critical && critical > 0 ? critical : normalQuantile(1 - (1 - level) / 2);
  return ln(high / low) / (2 * z * Math.SQRT2);
}

export interface SideFacts {
  name: string;
  unit: string;
  count: number;
  /** Values in the recorded unit (the report's percentiles). */
  percentiles: Record<string, number>;
}

/**
 * The summary of one series of one run: its facts, and the standard error at each judged
 * percentile from `runs` (its data; several when the run holds repeats of the series). With
 * fewer than HISTORY_MIN_ABOVE values above a percentile, null: the run does not support it.
 * A run that holds enough values above it but gives no interval the history can rely on gets
 * 0, "none of its own": counts only (no time order), or values above it from too few separate
 * events for its own bootstrap (the comparison does not judge it). Such a run's value is still
 * one draw of that percentile from run to run, which is what a history compares; its weight
 * comes from the runs that have an interval and the scatter between runs (detect.ts). Leaving
 * it out would keep, at p99.9, only the runs whose pauses happened to be many and short: a
 * change to longer pauses would leave no run to show it.
 */
export function summarizeSide(facts: SideFacts, runs: RunInput[], resamples = SUMMARY_RESAMPLES): SeriesSummary {
  const se: Record<string, number | null> = {};
  const side = { label: facts.name, runs };
  const r = runs.length > 0 ? compareSides(side, side, { resamples, seed: SUMMARY_SEED, percentiles: HISTORY_PERCENTILES, perDecade: 0, events: false, level: LEVEL }) : null;
  for (const p of HISTORY_PERCENTILES) {
    const pt = r?.points.find((x) => x.percentile === p);
    const enough = facts.count * (1 - p / 100) >= HISTORY_MIN_ABOVE;
    // A comparison that says why it does not judge a percentile (too few separate events above
    // it) gives no interval a history could rely on either.
    const judged = (pt as { judged?: boolean } | undefined)?.judged !== false;
    if (!enough) se[String(p)] = null;
    // The comparison's own standard error where it gives one (its interval is a simultaneous band).
    else if (pt && pt.supported && judged && pt.low !== null && pt.high !== null && pt.low > 0)
      se[String(p)] = pt.se ?? seOfInterval(pt.low, pt.high, LEVEL, (r as { critical?: number | null } | null)?.critical);
    else se[String(p)] = 0;
  }
  return { name: facts.name, unit: facts.unit, count: facts.count, percentiles: { ...facts.percentiles }, se };
}
