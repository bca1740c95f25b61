// A side made of buckets (a Prometheus native or classic histogram) is known only to its
// buckets: each value sits at its bucket's upper bound, the true one anywhere in the bucket, and
// the top bucket stands for the max, which is not kept. A ratio whose range lies within one such
// bucket is not a difference the data shows, and a percentile in the top bucket has no value to
// compare; ordinary logs (no `buckets`) are judged as they always were.
import { nsText, pLabel, possessive } from "./format";
import type { RunBuckets, SideInput } from "./types";

/** A bucketed side's buckets: the coarsest factor of its runs (null: a classic one's, from its values) and its top bucket. */
export interface SideBuckets {
  label: string;
  factor: number | null;
  top: { lowNs: number; highNs: number };
}

/** The native histogram's bucket factor of a schema: 2^(2^−schema) (schema 3: 1.0905). */
export const schemaFactor = (schema: number): number => 2 ** (2 ** -schema);

/** The side's buckets when any of its runs is a histogram of buckets; null for a log. */
export function sideBuckets(s: SideInput): SideBuckets | null {
  const runs = s.runs.map((r) => r.buckets).filter((b): b is RunBuckets => b !== undefined);
  if (runs.length === 0) return null;
  const classic = runs.some((b) => b.factor === null);
  const top = runs.reduce((a, b) => (b.topHighNs > a.topHighNs || (b.topHighNs === a.topHighNs && b.topLowNs > a.topLowNs) ? b : a));
  return { label: s.label, factor: classic ? null : Math.max(...runs.map((b) => b.factor!)), top: { lowNs: top.topLowNs, highNs: top.topHighNs } };
}

/**
 * The factor of the bucket holding value `v` (ns): a native histogram's from its schema; a classic
 * one's from the next lower value the side holds (its empty buckets are not kept, so this bucket
 * may be taken wider than it was, never narrower). `values` are the side's distinct values, ascending.
 */
export function factorAt(b: SideBuckets, values: Float64Array, v: number): number {
  if (b.factor !== null) return b.factor;
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (values[m]! < v * (1 - 1e-9)) lo = m + 1;
    else hi = m;
  }
  const below = lo > 0 ? values[lo - 1]! : 0;
  return below > 0 ? v / below : Infinity;
}

/** Whether value `v` (ns) lies in the side's top bucket: above its lower bound by more than the layout's rounding. */
export function inTopBucket(b: SideBuckets, v: number): boolean {
  const { lowNs, highNs } = b.top;
  if (!Number.isFinite(highNs)) return v >= lowNs * (1 - 2e-3);
  return v > Math.sqrt(lowNs * Math.max(lowNs, highNs));
}

const widthText = (f: number) => (Number.isFinite(f) ? `${Number(((f - 1) * 100).toPrecision(3))} % wide` : "its lowest, reaching down to 0");

export function withinBucketReason(label: string, factor: number): string {
  return `within one bucket of ${possessive(label)} histogram (${widthText(factor)}): its values are known only to that bucket; a difference larger than the bucket, or a finer histogram (a higher schema, more bucket bounds) would decide`;
}

export function topBucketReason(label: string, p: number, top: { lowNs: number; highNs: number }): string {
  return `${possessive(label)} ${pLabel(p)} lies in its top bucket (max within [${nsText(top.lowNs)}, ${Number.isFinite(top.highNs) ? nsText(top.highNs) : "∞"}]): a histogram of buckets keeps no max, so that value is known only to lie in the bucket; a histogram with a bucket bound above it would decide`;
}

/**
 * The bucket rule at one percentile: null when no side is bucketed; otherwise the bucket's width
 * (the resolution to judge with) and, where the rule holds, the reason not to judge. It holds
 * where the ratio lies within the coarser side's bucket factor (widened by `slack`, the log
 * histograms' own rounding), whatever its range: a value known only to a bucket cannot show a
 * smaller difference. Past the bucket the point is judged as before.
 */
export function bucketRule(o: {
  p: number;
  sides: [SideBuckets | null, SideBuckets | null];
  values: [Float64Array, Float64Array];
  at: [number, number];
  ratio: number;
  slack: number;
}): { width: number; reason: string | null } | null {
  let coarsest: { label: string; factor: number } | null = null;
  for (const k of [0, 1] as const) {
    const b = o.sides[k];
    if (!b || !Number.isFinite(o.at[k])) continue;
    if (inTopBucket(b, o.at[k])) return { width: Infinity, reason: topBucketReason(b.label, o.p, b.top) };
    const f = factorAt(b, o.values[k], o.at[k]);
    if (coarsest === null || f > coarsest.factor) coarsest = { label: b.label, factor: f };
  }
  if (coarsest === null) return null;
  const f = coarsest.factor * (1 + o.slack);
  const within = Number.isFinite(o.ratio) && o.ratio >= 1 / f && o.ratio <= f;
  return { width: coarsest.factor - 1, reason: within ? withinBucketReason(coarsest.label, coarsest.factor) : null };
}
