// The event rule: when one side's tail is made of stalls the other side does not have, the
// values up there say little (a handful of pauses make them), but how often each side goes
// above a level says a lot. Each side's run is already cut into sub-blocks (plan.ts), separate
// stretches of time; per stretch we keep its largest value.
//
// The level is the other side's largest value, raised by the margin. A level taken from the data biases a plain
// count (the side whose max it is has no stretch above it by construction), so the count is
// Rosenbaum's (1954) exceedance statistic: how many of one side's n stretch maxima lie above
// all m of the other's. If the stretches of both sides are exchangeable (no difference), the
// chance that the top t of the n + m maxima all belong to the first side is
// C(n, t) ÷ C(n + m, t), exactly; the two-sided p-value adds the same for the other side. It
// spends its own share of the comparison's family-wise error (EVENT_SHARE), so `check
// --compare` keeps its 5 % over the values' band and this test together.
//
// Every probability here is a product of ratios of whole numbers: no logarithm or power, so the
// page and the command line agree digit for digit.
import type { ExceedanceSummary } from "./types";

/** The share of the family-wise error (1 − level) spent on the event rule; the values' band gets the rest. */
export const EVENT_SHARE = 0.2;

/** P(the top t of n + m exchangeable stretch maxima all come from the n): C(n, t) ÷ C(n + m, t). */
export function exceedanceTail(n: number, m: number, t: number): number {
  if (t <= 0) return 1;
  if (t > n) return 0;
  let p = 1;
  for (let j = 0; j < t; j++) p *= (n - j) / (n + m - j);
  return p;
}

/** Two-sided p-value of t stretches of one side above all of the other's (n and m stretches). */
export function exceedanceP(n: number, m: number, t: number): number {
  if (t <= 0) return 1;
  return Math.min(1, exceedanceTail(n, m, t) + exceedanceTail(m, n, t));
}

/**
 * The separate stretches one side must show above everything the other side did before the
 * event rule decides at `alpha`: the smallest t with exceedanceP(n, m, t) ≤ alpha. The one
 * number for "enough" (the values rule asks for as many stretches above a percentile on each
 * side). Past max(n, m) when the runs are too short for any count to decide.
 */
export function stretchesNeeded(n: number, m: number, alpha: number): number {
  const top = Math.max(n, m);
  for (let t = 1; t <= top; t++) if (exceedanceP(n, m, t) <= alpha) return t;
  return top + 1;
}

/**
 * Each stretch's largest bin, over a side's runs with time order: the side's bins plus
 * `offset` (its lowest bin), so two sides share one scale. An empty stretch holds EMPTY.
 */
export function stretchMaxima(sub: readonly ({ bins: Int32Array; counts: Float64Array }[] | null)[], offset = 0): Int32Array {
  const out: number[] = [];
  for (const run of sub) {
    if (!run) continue;
    for (const s of run) {
      let top = EMPTY;
      for (let k = s.bins.length - 1; k >= 0; k--) {
        if (s.counts[k]! > 0) {
          top = s.bins[k]! + offset;
          break;
        }
      }
      out.push(top);
    }
  }
  return Int32Array.from(out);
}

/** The bin of a stretch without values: below every real one. */
export const EMPTY = -(2 ** 31);

/**
 * Rosenbaum's exceedance count between two sides' stretch maxima (bins on one scale). A stretch
 * counts only when it lies more than `gap` bins above the other side's max (the margin: a few
 * per cent above, where drift alone puts a run's busiest stretches, is no stall). Counting fewer
 * can only make the test stricter: its exact null tail still bounds the chance of a false call.
 */
export function exceedance(a: Int32Array, b: Int32Array, alpha: number, gap = 0): ExceedanceSummary {
  let maxA = EMPTY;
  let maxB = EMPTY;
  for (const x of a) maxA = Math.max(maxA, x);
  for (const x of b) maxB = Math.max(maxB, x);
  let tA = 0;
  let tB = 0;
  for (const x of a) if (x > maxB + gap) tA++;
  for (const x of b) if (x > maxA + gap) tB++;
  const n = a.length;
  const m = b.length;
  return { stretches: [n, m], above: [tA, tB], p: exceedanceP(n, m, Math.max(tA, tB)), needed: stretchesNeeded(n, m, alpha), alpha };
}
