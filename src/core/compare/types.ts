// What a comparison takes and gives. Pure data: the engine, the command line and tests build
// these from whatever holds the histograms.
import type { Sparse } from "../blocks";
import type { BucketLayout } from "./layout";
import type { BlockPlan } from "./plan";

export type { Sparse } from "../blocks";
export type { BucketLayout } from "./layout";

/**
 * A run's data, sparse counts by index in `layout`:
 * - "intervals": its interval histograms in time order (the comparison sums them into blocks);
 * - "blocks": already summed into sub-blocks of `plan.stride` intervals (planBlocks), in time order
 *   (`total`, their sum, when the caller has it: saves summing them again);
 * - "counts": one histogram with no time order (.hgrm, wrk2, a shared link): latencies come in
 *   bursts, so its values cannot be resampled as independent ones. Such a side gets ratios but
 *   no verdicts, unless both sides hold 3 or more runs: then the runs are resampled as they
 *   are, and the run-to-run spread makes the interval.
 */
export type RunData =
  | { kind: "intervals"; intervals: readonly Sparse[]; intervalSeconds: number }
  | { kind: "blocks"; subBlocks: SubBlocks; plan: BlockPlan; total?: Sparse; intervalSeconds?: number }
  | { kind: "counts"; counts: Sparse };

/**
 * Sub-blocks in time order: an array, or a source that sums each one when asked (the engine's,
 * from a store's pre-merged blocks), so that a side's sub-blocks need not all be held at once
 * (two 24-hour logs of thousands of distinct values per interval: ~100 MB). Each is asked for
 * once, when the side is binned, and read before the next is asked for: a source may reuse its
 * arrays.
 */
export interface SubBlocks {
  readonly length: number;
  at(k: number): Sparse | undefined;
  /**
   * Sub-block k as pieces whose sum it is (a store's pre-merged blocks, single intervals), each
   * handed to `add` and read before the next is made: the comparison bins them as they come
   * instead of summing them into one histogram first. False when there is no sub-block k.
   */
  eachPiece?(k: number, add: (piece: Sparse) => void): boolean;
}

export interface RunInput {
  name: string;
  layout: BucketLayout;
  /** Nanoseconds per recorded unit: values are compared in ns. */
  unitNs: number;
  data: RunData;
  /** For the comparability warnings. */
  recordedUnit?: string;
  coCorrected?: boolean;
  saturated?: boolean;
  /** A histogram of buckets (Prometheus), in words: "a native histogram of schema 3 (each bucket 9.05 % wide)". */
  bucketed?: string;
  /** The same histogram's buckets, for the judge (buckets.ts): absent for a log, which is judged as always. */
  buckets?: RunBuckets;
}

/** A histogram of buckets: each value at its bucket's upper bound, the max unknown within the top bucket. */
export interface RunBuckets {
  /** Upper ÷ lower bound of every bucket (a native histogram's 2^(2^−schema)); null for classic bounds, read from the values. */
  factor: number | null;
  /** The top bucket holding a value, (low, high] in ns (high Infinity: the open +Inf bucket). */
  topLowNs: number;
  topHighNs: number;
}

/** One side of the comparison: a series, or several repeated runs of one configuration. */
export interface SideInput {
  label: string;
  runs: RunInput[];
}

export type Verdict = "better" | "worse" | "same" | "unknown";

export interface CompareOptions {
  /** Practical-equivalence margin: 0.05 means within ±5 % is "the same". */
  margin?: number;
  resamples?: number;
  seed?: number;
  /** Confidence level of the intervals. */
  level?: number;
  /** Percentiles always reported (the hooks' and table's). */
  percentiles?: readonly number[];
  /** Curve points per decade of 1/(1−p); 0 for none. */
  perDecade?: number;
  /** Resample runs, then intervals, when a side has several runs (default true). */
  repeats?: boolean;
  /**
   * The event rule for tails made of stalls (events.ts; default true). Off, the values' band
   * spends the whole family-wise error and the values rule asks for MIN_EVENTS stretches, as
   * before the rule existed (the history's per-run ranges and gate, calibrated that way).
   */
  events?: boolean;
}

export interface RatioPoint {
  percentile: number;
  /** Both sides hold at least MIN_ABOVE values above this percentile (the curve reaches it). */
  supported: boolean;
  /** Values in ns; NaN where a side is empty. */
  base: number;
  cand: number;
  /** cand ÷ base. */
  ratio: number;
  /** The interval, simultaneous over the judged reported percentiles (null where unsupported or without time order). */
  low: number | null;
  high: number | null;
  verdict: Verdict;
  /** The histograms' relative bucket width there (the larger side's). */
  resolution: number;
  /** The margin the verdict used: max(margin, resolution). */
  band: number;
  /** Spread of each side's runs, as ratios to the baseline's pooled value (sides with 2+ runs). */
  baseSpread: [number, number] | null;
  candSpread: [number, number] | null;
  /** The A–B gap is smaller than the run-to-run spread here. */
  gapWithinSpread: boolean;
  /**
   * The verdict comes from the data (false: `unknown` for `reason`). Absent in results made
   * before these fields existed (e.g. an old share link): read as judged where supported.
   */
  judged?: boolean;
  /** Why the percentile is not judged (too few values, no time order, too few events, unequal run lengths); null when judged. */
  reason?: string | null;
  /**
   * What the verdict rests on: the percentile's own values (`values`), how often each side went
   * above the other's max in separate stretches of time (`events`), the spread between repeated
   * runs (`runs`); null when no rule decided (not judged, `same` or `unknown`).
   */
  basis?: "values" | "events" | "runs" | null;
  /** Separate stretches of time needed (events.ts stretchesNeeded): the one number for "enough"; null without time order. */
  needed?: number | null;
  /** Separate sub-blocks (stretches of ≥ 15 s) holding values above the percentile, per side; null without time order. */
  events?: [number, number] | null;
  /** How much the interval was widened for dependence slower than the bootstrap block (1 = not). */
  widening?: number | null;
  /**
   * Standard error of ln(ratio) from the resamples alone: without the dependence widening and
   * without the simultaneous band's multiplier. For a caller that measures run-to-run spread
   * itself and combines it with this (run histories); not an interval to judge one pair by.
   * Null where there is no interval.
   */
  se?: number | null;
  /** The spread kept growing with the block length here: drift slower than the run can show. */
  drift?: boolean;
}

export interface CompareWarning {
  kind: "units" | "precision" | "co-correction" | "saturation" | "counts" | "no-intervals" | "repeats" | "lengths";
  message: string;
}

export interface SideSummary {
  label: string;
  runs: string[];
  totalCount: number;
  /** How each run was resampled: "blocks of N intervals (…)" or "counts". */
  method: string[];
  /** Seconds of the side's runs with time order (null without). */
  seconds?: number | null;
}

/** The event rule's count (events.ts): stretches of each side above all of the other's values. */
export interface ExceedanceSummary {
  /** Stretches on each side. */
  stretches: [number, number];
  /** Stretches of each side whose largest value lies above every value of the other side (one of the two is 0). */
  above: [number, number];
  /** Two-sided exact p-value. */
  p: number;
  /** Stretches needed at the rule's share of the error (stretchesNeeded). */
  needed: number;
  /** The rule's share of the error it was judged at. */
  alpha: number;
}

export interface CompareResult {
  base: SideSummary;
  cand: SideSummary;
  /** The requested percentiles (options.percentiles), in order. */
  points: RatioPoint[];
  /** Every computed percentile, ascending (the curve). */
  curve: RatioPoint[];
  /** The max: a point, never an interval. */
  max: { base: number; cand: number; ratio: number };
  /** Highest percentile both sides support (fewer than MIN_ABOVE values above it: unsupported). */
  supportedTo: number;
  margin: number;
  level: number;
  resamples: number;
  seed: number;
  /** One short sentence: the verdicts by group, no reasons (those are in `notes` and each point's `reason`). */
  sentence: string;
  /** The details behind the sentence: the event rule's count, drift, single runs, run-to-run spread. */
  notes?: string[];
  /** The event rule's count; null without time order on both sides. */
  exceedance?: ExceedanceSummary | null;
  warnings: CompareWarning[];
  /** The simultaneous band's multiplier over the judged reported percentiles (1.96 would be pointwise). */
  critical?: number | null;
}
