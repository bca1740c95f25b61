// From the two sides' resamples to intervals and verdicts, one family of tests.
//
// - The interval at each percentile is the observed log ratio ± c × (the resampled difference's
//   robust spread) × (the dependence widening, dependence.ts), widened by one bin either way.
//   c is not 1.96: it is the `level` quantile over resamples of the largest standardised
//   deviation across all judged reported percentiles (a simultaneous band, max-t), so the
//   chance that any judged percentile's interval misses is at most 1 − level, and a gate on
//   all of them together cries wolf at most that often.
// - A percentile is judged only where the values above it come from at least MIN_EVENTS
//   separate sub-blocks on each side (events, not values), and where both sides have a time
//   order (or 3+ runs each, whose spread makes the interval).
import type { PreparedSide } from "./bootstrap";
import { aboveBySubBlock, ar1Inflation, centred, eventCount, longRunVariance, varianceLengths } from "./dependence";
import { pLabel, possessive } from "./format";
import { MIN_ABOVE } from "./verdict";
import { log2 } from "../exact-math";

/** Separate sub-blocks (≥ 15 s each) that must hold values above a percentile on each side. */
export const MIN_EVENTS = 10;
/** Sides whose run lengths differ by this factor or more: the longer one met more pauses. */
export const LENGTH_RATIO = 1.5;
/**
 * The variance blocks miss (the last doubling's growth, or the AR(1) model's widening) is at
 * least this factor: drift slower than the run can show, said in the sentence.
 */
export const DRIFT_GROWTH = 2;

/** What one side's dependence says at each grid percentile. */
export interface SideDependence {
  /** Sub-blocks over the side's runs with time order. */
  stretches: number;
  /** Separate sub-blocks with values above (summed over runs); NaN without time order. */
  events: Float64Array;
  /** Variance widening (≥ 1) and the last doubling's growth. */
  inflation: Float64Array;
  growth: Float64Array;
}

/** Bin (offset from kMin) of the side's pooled value at each grid percentile. */
export function thresholdsOf(side: PreparedSide, valueAt: (p: number) => number, grid: readonly number[]): Int32Array {
  return Int32Array.from(grid, (p) => {
    const v = valueAt(p);
    if (!Number.isFinite(v)) return side.nBins;
    return Math.floor(log2(Math.max(1, v)) * side.binsPerOctave) - side.kMin;
  });
}

export function sideDependence(side: PreparedSide, thresholds: Int32Array): SideDependence {
  const G = thresholds.length;
  const events = new Float64Array(G);
  const inflation = new Float64Array(G).fill(1);
  const growth = new Float64Array(G).fill(1);
  // aboveBySubBlock wants ascending thresholds: the grid is ascending, and so are its values.
  const sorted = Int32Array.from(thresholds);
  for (let g = 1; g < G; g++) if (sorted[g]! < sorted[g - 1]!) sorted[g] = sorted[g - 1]!;
  const num = new Float64Array(G);
  const den = new Float64Array(G);
  const grow = new Float64Array(G);
  let timed = 0;
  side.sub.forEach((sub, i) => {
    if (!sub) return;
    timed++;
    const span = side.spans[i]!;
    const { above, totals } = aboveBySubBlock(sub, sorted);
    const Ls = varianceLengths(sub.length);
    for (let g = 0; g < G; g++) {
      const a = above[g]!;
      events[g]! += eventCount(a);
      const z = centred(a, totals);
      const s2 = Ls.map((L) => longRunVariance(z, L));
      // What the bootstrap's blocks see, and the most any longer block shows.
      const base = longRunVariance(z, span);
      if (!(base > 0)) continue;
      const most = Math.max(base, ...s2.filter((_, k) => Ls[k]! >= span));
      // The growth over the last doubling the run can show (a quarter of the run vs an eighth).
      const last = s2.length >= 2 ? Math.max(1, s2[s2.length - 1]! / Math.max(1e-300, s2[s2.length - 2]!)) : 1;
      // Drift slower than the run: what an AR(1) fitted to the series says blocks miss.
      const model = ar1Inflation(z, span);
      // Weighted by the variance each run brings (the side's variance is their sum).
      num[g]! += base * Math.max((most / base) * last, model.inflation);
      den[g]! += base;
      grow[g] = Math.max(grow[g]!, last, model.inflation);
    }
  });
  for (let g = 0; g < G; g++) {
    if (timed === 0) events[g] = Number.NaN;
    if (den[g]! > 0) inflation[g] = Math.max(1, num[g]! / den[g]!);
    growth[g] = grow[g]!;
  }
  return { stretches: side.sub.reduce((a, s) => a + (s ? s.length : 0), 0), events, inflation, growth };
}

/** Robust spread of a sample: half the distance between its 16th and 84th percentiles. */
export function robustScale(sorted: Float64Array): number {
  const n = sorted.length;
  if (n < 2) return 0;
  const at = (q: number) => sorted[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))]!;
  return (at(0.8413) - at(0.1587)) / 2;
}

export function median(sorted: Float64Array): number {
  const n = sorted.length;
  return n === 0 ? Number.NaN : n % 2 ? sorted[n >> 1]! : (sorted[(n >> 1) - 1]! + sorted[n >> 1]!) / 2;
}

/**
 * The simultaneous band's multiplier: the `level` quantile over resamples of the largest
 * |d − median| ÷ scale over the family's columns. `cols[g]` holds the resampled differences of
 * column g (NaN where a resample has none).
 */
export function familyCritical(cols: { d: Float64Array; centre: number; scale: number }[], level: number): number {
  if (cols.length === 0) return Number.NaN;
  const B = cols[0]!.d.length;
  const t = new Float64Array(B);
  let m = 0;
  for (let b = 0; b < B; b++) {
    let worst = 0;
    let ok = true;
    for (const c of cols) {
      const x = c.d[b]!;
      if (!Number.isFinite(x)) {
        ok = false;
        break;
      }
      worst = Math.max(worst, Math.abs(x - c.centre) / c.scale);
    }
    if (ok) t[m++] = worst;
  }
  if (m === 0) return Number.NaN;
  const s = t.subarray(0, m).sort();
  return s[Math.min(m - 1, Math.ceil(level * m) - 1)]!;
}

/** "45 s", "12 minutes", "3 hours": a length of time as people say it, rounded up. */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "";
  const round = (x: number) => (x < 10 ? Math.ceil(x) : x < 100 ? 5 * Math.ceil(x / 5) : 10 * Math.ceil(x / 10));
  if (seconds < 90) return `${round(seconds)} s`;
  if (seconds < 90 * 60) return `${round(seconds / 60)} minutes`;
  return `${round(seconds / 3600)} hours`;
}

/** What more of a run would give `want` where it gave `have`: "about 12 minutes of this run would". */
export function moreText(seconds: number, have: number, want: number): string {
  if (!(have > 0)) return "a longer run would";
  const f = want / have;
  const d = durationText(seconds * f);
  return d ? `about ${d} of this run would` : `about ${Math.ceil(f)} times as many values would`;
}

/** Why a percentile is not judged, or null. */
export function reasonOf(o: {
  p: number;
  supported: boolean;
  noTimeOrder: string[] | null;
  events: [number, number] | null;
  /** Separate stretches above needed on each side (events.ts stretchesNeeded): the one number for "enough". */
  needed: number | null;
  /** Sub-blocks each side has in all (the most events it could show). */
  stretches: [number, number];
  labels: [string, string];
  /** Each side's length in seconds (NaN without time order) and count of values. */
  seconds: [number, number];
  counts: [number, number];
}): string | null {
  const pl = pLabel(o.p);
  if (!o.supported) return tooFewValues(o.p, o.labels, o.counts, o.seconds);
  if (o.noTimeOrder) {
    const n = o.noTimeOrder;
    return `${n.join(", ")} ${n.length > 1 ? "have" : "has"} no time order (no intervals): latencies come in bursts, so its values cannot be resampled as independent ones; 3 or more runs a side would decide`;
  }
  if (o.events && o.needed !== null) {
    for (const k of [0, 1] as const) {
      // A run too short to hold that many stretches is judged where most of its stretches hold
      // values above (the values are spread through it, not bunched in a few stalls).
      const need = Math.min(o.needed, Math.ceil(0.8 * o.stretches[k]));
      const e = o.events[k];
      if (e < need)
        return `${possessive(o.labels[k])} values above ${pl} come from ${e} separate stretch${e === 1 ? "" : "es"} of time${o.seconds[k] > 0 ? ` in ${durationText(o.seconds[k])}` : ""}, too few to put odds on ${pl} (${need} needed); ${moreText(o.seconds[k], e, need)}`;
    }
  }
  return null;
}

/** The reason where a side has fewer than MIN_ABOVE values above p. */
export function tooFewValues(p: number, labels: [string, string], counts: [number, number], seconds: [number, number]): string {
  const k = counts[0] <= counts[1] ? 0 : 1;
  const above = counts[k] * (1 - p / 100);
  return `${possessive(labels[k])} ${counts[k].toLocaleString("en-US")} values are too few for ${pLabel(p)} (${MIN_ABOVE} above it needed); ${moreText(seconds[k], above, MIN_ABOVE)}`;
}

export function lengthsReason(longer: string): string {
  return `${longer} ran longer and so had more chances to meet a pause: its tail alone is not called worse; runs of equal length would decide`;
}

export function driftNote(ps: number[]): string {
  return `At ${ps.map(pLabel).join(", ")} the spread kept growing with the block length (drift slower than the run can show): the range is widened for it.`;
}
