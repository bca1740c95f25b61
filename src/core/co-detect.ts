// Coordinated-omission suspicion: does a spectrum end in a cliff?
//
// A load generator that waits for each reply before sending the next request (or that stalls
// itself) measures a server stall once per connection, instead of once for every request the
// schedule meant to send during it. The requests that were never sent are the ones that would
// have filled the range between normal latencies and the stall: with them (a correct, open-loop
// measurement, or recordValueWithExpectedInterval) a stall of length D adds a ramp, evenly spread
// values from ~0 to D. Without them, a handful of values sit at ~D and nothing lies between the
// body and them: the percentile spectrum runs flat and then jumps straight up, in the last
// hundredths of a percent, to a max several times higher.
//
// The test, on the histogram's tail:
//   - a cliff from value a (its bottom) to value b (its top) with b ≥ MIN_JUMP · a,
//   - the counts at or above b ("the tail") are at most MAX_TAIL_FRACTION of all and at least
//     MIN_TAIL_COUNT,
//   - the cliff is nearly empty: the density of counts per unit of value inside (a, b) is at
//     least MIN_CONTRAST times lower than the density of the tail above b.
// The last point is what separates omission from honest stalls. A corrected stall, a queue
// draining after a pause, a lognormal body: their tails all have a density that does not grow
// with the value (a ramp is flat, a body's tail falls), so the density above any b is at most
// the density just below it — contrast ≤ 1, give or take noise. Omitted requests leave the
// opposite: an empty gap under a pile of values near the max. The tail's density is taken over
// a width of at least TAIL_WIDTH_FLOOR · b, so a few values in one bucket at the very top do not
// count as infinitely dense.
import { bucketsOf, maxOf, type Histogram } from "./histogram";

export interface CoSuspicion {
  suspicious: boolean;
  /** where the cliff starts and ends, as percentiles (0..100) and values (recorded unit) */
  from?: { percentile: number; value: number };
  to?: { percentile: number; value: number };
  /** value jump factor across the cliff */
  jump?: number;
  /** fraction of counts above the cliff */
  tailFraction?: number;
}

/** "Several times": the top of the cliff is at least this multiple of its bottom. */
export const MIN_JUMP = 3;
/**
 * The cliff is in the top 1 % of counts at most: omission leaves about one value per connection
 * per stall (a few hundred in a run of hundreds of thousands). A mode holding more than 1 % is a
 * real second mode (cache misses, retries), not missing requests.
 */
export const MAX_TAIL_FRACTION = 0.01;
/** One value above a gap can be chance (a heavy tail's last sample); two or more at one level are not. */
export const MIN_TAIL_COUNT = 2;
/**
 * How much denser (per unit of value) the tail must be than the gap under it. Correct
 * measurements stay near or under 1 (HdrHistogram's 16Krps.hgrm: 1.2, 12Krps.hgrm: 0.7); the
 * 16Krps_CO.hgrm cliff is 34. 10 leaves a wide margin on both sides.
 */
export const MIN_CONTRAST = 10;
/**
 * The tail's density is measured where it begins, over [b, (1 + TAIL_WINDOW)·b]: a pile of values
 * in one bucket at the very top must not count as infinitely dense.
 */
export const TAIL_WINDOW = 0.1;
/** A tail whose max is within this factor of its bottom is one pile (a ramp of corrected values spans ≥ 2×). */
export const TIGHT_TAIL = 1.5;
/**
 * A wider tail is omission-shaped when it is clumped: somewhere inside it an empty stretch where
 * values spread evenly over the tail would have put at least this many (e^-5: under 1 % by chance).
 */
export const CLUMP_EXPECTED = 5;
/** Buckets within 1 % of each other are taken together (bounds the work to ~70 bins per doubling). */
const BIN_RATIO = 1.01;

interface Bin {
  lo: number;
  hi: number;
  count: number;
  below: number; // counts in all lower bins
}

/** The strongest cliff candidate of a histogram, whether or not it is steep enough to flag. */
export interface Cliff {
  from: { percentile: number; value: number };
  to: { percentile: number; value: number };
  jump: number;
  tailFraction: number;
  /** Density of the tail over density inside the cliff (an empty cliff counts as holding one value). */
  contrast: number;
  /** How the tail above the cliff is shaped: one tight pile, separate piles, or evenly spread. */
  shape: "tight" | "clumped" | "even";
}

/** The best cliff: the steepest that also has an omission-shaped tail, else the steepest. */
export function strongestCliff(h: Histogram): Cliff | null {
  const n = h.totalCount;
  if (!(n > 0)) return null;
  const b = bucketsOf(h);
  const max = maxOf(h);
  // Only the tail matters: a qualifying cliff's gap holds fewer counts than its tail (see the
  // contrast bound), so bottoms lie within the top 2 · MAX_TAIL_FRACTION (plus one bucket).
  const limit = n * (1 - 2 * MAX_TAIL_FRACTION);
  let start = 0;
  while (start < b.values.length - 1 && b.cumulative[start]! < limit) start++;
  start = Math.max(0, start - 1);

  const bins: Bin[] = [];
  for (let k = start; k < b.values.length; k++) {
    const v = b.values[k]!;
    const c = b.cumulative[k]! - (k > 0 ? b.cumulative[k - 1]! : 0);
    const last = bins[bins.length - 1];
    if (last && v <= last.lo * BIN_RATIO) {
      last.hi = v;
      last.count += c;
    } else bins.push({ lo: v, hi: v, count: c, below: b.cumulative[k]! - c });
  }
  // Widest empty stretch between occupied bins at or above each bin (a suffix maximum).
  const widestGapFrom = new Float64Array(bins.length);
  for (let k = bins.length - 2; k >= 0; k--) widestGapFrom[k] = Math.max(widestGapFrom[k + 1]!, bins[k + 1]!.lo - bins[k]!.hi);

  type Candidate = { i: number; j: number; contrast: number; jump: number; shape: Cliff["shape"] };
  let best: Candidate | null = null;
  let bestFlagged: Candidate | null = null;
  const better = (a: Candidate, c: Candidate | null) => !c || a.contrast > c.contrast || (a.contrast === c.contrast && a.jump > c.jump);
  for (let j = 1; j < bins.length; j++) {
    const top = bins[j]!;
    const tail = n - top.below;
    if (tail > MAX_TAIL_FRACTION * n || tail < MIN_TAIL_COUNT) continue;
    // The tail's density where it begins: over [b, (1 + TAIL_WINDOW)·b].
    let near = 0;
    for (let k = j; k < bins.length && bins[k]!.lo <= (1 + TAIL_WINDOW) * top.lo; k++) near += bins[k]!.count;
    const tailDensity = near / (TAIL_WINDOW * top.lo);
    const shape: Cliff["shape"] =
      max <= TIGHT_TAIL * top.lo ? "tight" : (tail / (max - top.lo)) * widestGapFrom[j]! >= CLUMP_EXPECTED ? "clumped" : "even";
    for (let i = j - 1; i >= 0; i--) {
      const bottom = bins[i]!;
      if (bottom.hi * MIN_JUMP > top.lo) continue; // bins ascend: lower ones may still qualify
      const gap = top.below - (bottom.below + bottom.count);
      const c: Candidate = { i, j, contrast: (tailDensity * (top.lo - bottom.hi)) / Math.max(1, gap), jump: top.lo / bottom.hi, shape };
      if (better(c, best)) best = c;
      if (shape !== "even" && c.contrast >= MIN_CONTRAST && better(c, bestFlagged)) bestFlagged = c;
    }
  }
  const pick = bestFlagged ?? best;
  if (!pick) return null;
  const bottom = bins[pick.i]!;
  const top = bins[pick.j]!;
  return {
    from: { percentile: (100 * (bottom.below + bottom.count)) / n, value: bottom.hi },
    to: { percentile: (100 * top.below) / n, value: top.lo },
    jump: pick.jump,
    tailFraction: (n - top.below) / n,
    contrast: pick.contrast,
    shape: pick.shape,
  };
}

/**
 * Flags a spectrum that ends in a vertical cliff: a jump of several times in value within a tiny
 * range of the highest percentiles — the shape a stalled load generator leaves (each stall
 * measured once instead of for every request it delayed).
 */
export function detectCoordinatedOmission(h: Histogram): CoSuspicion {
  const c = strongestCliff(h);
  if (!c || !(c.contrast >= MIN_CONTRAST) || c.shape === "even") return { suspicious: false };
  return { suspicious: true, from: c.from, to: c.to, jump: c.jump, tailFraction: c.tailFraction };
}
