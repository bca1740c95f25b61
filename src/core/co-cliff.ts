// Coordinated omission, the shape test (co-detect.ts says what is looked for and why): does the
// spectrum end in a cliff?
//
// The test, on the histogram's tail. A cliff from value a (its bottom) to b (its top):
//   1. b ≥ MIN_JUMP · a ("several times");
//   2. the values at or above b ("the tail") are at most MAX_TAIL_FRACTION of all, and at least
//      MIN_TAIL_COUNT;
//   3. the cliff is nearly empty: the density of values (per unit of value) where the tail begins,
//      over [b, (1 + TAIL_WINDOW)·b], is at least MIN_CONTRAST times the density inside (a, b),
//      and (a, b) holds at most MAX_GAP_SHARE as many values as the tail.
//      Honest tails never do this: a corrected stall is a flat ramp, a queue draining after a pause
//      is a ramp, a body's tail falls; a density that never rises with the value puts no more
//      above any b than just below it (contrast ≤ 1, plus noise). Omission leaves the opposite:
//      an empty range under a pile of values.
//   4. the tail is shaped like omitted requests (see tailShape): one tight pile, or separate
//      narrow piles (one per stall length) — not evenly spread. This guards against the one
//      honest source of an empty range: recordValueWithExpectedInterval back-fills a value v with
//      v − I, v − 2I, … only down to the expected interval I, so with think time (I well above the
//      service times) the corrected spectrum also jumps from the body to I; above it, though, the
//      back-filled values spread over more than 1.5× and repeat every I.
//
// Limits (by design, to stay quiet on correct data): omission is not flagged when it left one
// value per stall (a single connection) with stalls of different lengths — a sparse ramp, which
// is how a correct run looks too; when the piles are spaced like a back-fill comb; or when the
// stalls are under ~3× the body's own tail. A real second mode (timeouts, retransmissions at a
// fixed delay) that is tight, small and far above the body is flagged: it has the same shape.
import { bucketsOf, maxOf, type Buckets, type Histogram } from "./histogram";

/** "Several times": the top of the cliff is at least this multiple of its bottom. */
export const MIN_JUMP = 3;
/**
 * The cliff is in the top 1 % of counts at most: omission leaves about one value per connection
 * per stall (tens to hundreds in runs of hundreds of thousands). A mode holding more than 1 % is a
 * real second mode (cache misses, retries), not missing requests.
 */
export const MAX_TAIL_FRACTION = 0.01;
/** One value above a gap can be chance (a heavy tail's last sample) or a single stall: not enough to say. */
export const MIN_TAIL_COUNT = 2;
/**
 * How much denser (per unit of value) the start of the tail must be than the cliff under it.
 * Correct measurements stay near or under 1 (HdrHistogram's 16Krps.hgrm: 1.5, 12Krps.hgrm: 0.7);
 * the 16Krps_CO.hgrm cliff is 34. 10 leaves a wide margin on both sides.
 */
export const MIN_CONTRAST = 10;
/**
 * The cliff holds at most half as many values as the tail above it. Back-filled values of a
 * corrected run (v − I for each v ≥ 2·I above) would put about as many inside it as above it.
 */
export const MAX_GAP_SHARE = 0.5;
/**
 * The tail's density is measured where it begins, over [b, (1 + TAIL_WINDOW)·b], so one pile of
 * values in a single bucket does not count as infinitely dense.
 */
export const TAIL_WINDOW = 0.1;
/** A tail (or a pile in it) that ends within this factor of its start is one pile. */
export const TIGHT_TAIL = 1.5;
/**
 * Piles are separated by empty stretches where values spread evenly over the tail would have put
 * at least this many (an empty stretch that long happens by chance with probability e^-5 < 1 %).
 */
export const CLUMP_EXPECTED = 5;
/** Piles whose starts (or ends) are this close (relative) to evenly spaced form a comb. */
export const COMB_TOLERANCE = 0.1;
/** Buckets within 1 % of each other are taken together (bounds the work to ~70 bins per doubling). */
const BIN_RATIO = 1.01;
/** Tails whose shape is examined, steepest cliff first (bounds the work on odd histograms). */
const MAX_SHAPE_CHECKS = 64;
/** How close (relative to the max) a back-filled value must be to where the arithmetic puts it. */
const CHAIN_TOLERANCE = 0.003;

/** The strongest cliff candidate of a histogram, whether or not it is steep enough to flag. */
export interface Cliff {
  from: { percentile: number; value: number };
  to: { percentile: number; value: number };
  jump: number;
  tailFraction: number;
  /** Density where the tail begins over density inside the cliff (an empty cliff counts as holding one value). */
  contrast: number;
  /** How the tail above the cliff is shaped: one tight pile, separate piles, or evenly spread. */
  shape: "tight" | "clumped" | "even";
}

export interface Bin {
  lo: number;
  hi: number;
  count: number;
  below: number; // counts in all lower bins
  first: number; // index of its first bucket
}

/** A cliff under the tail that starts at bins[j], its bottom at bins[i]. */
export interface Candidate {
  i: number;
  j: number;
  contrast: number;
  jump: number;
  shape: Cliff["shape"];
}

const better = (x: Candidate, y: Candidate | null) => !y || x.contrast > y.contrast || (x.contrast === y.contrast && x.jump > y.jump);

/**
 * Over every tail (bins[j] up, at most MAX_TAIL_FRACTION of the n counts) and every bottom
 * low enough under it: the steepest cliff of all (`best`), and per tail the steepest nearly
 * empty one when it is steep enough (`steep`). Exported for its test against a plain search.
 */
export function searchCliffs(bins: readonly Bin[], n: number): { best: Candidate | null; steep: Candidate[] } {
  let best: Candidate | null = null;
  const steep: Candidate[] = []; // nearly empty cliffs with contrast ≥ MIN_CONTRAST, one per tail
  // Bins ascend, so the bottoms low enough for a top (hi · MIN_JUMP ≤ top.lo) are a prefix,
  // whose end only moves up with j. Candidates are allocated only when they win: this runs on
  // the load's critical path, once, before the optimising compiler has seen it.
  let lowEnough = 0; // bins[0, lowEnough) qualify for the current top
  for (let j = 1; j < bins.length; j++) {
    const top = bins[j]!;
    while (lowEnough < j && bins[lowEnough]!.hi * MIN_JUMP <= top.lo) lowEnough++;
    const tail = n - top.below;
    if (tail > MAX_TAIL_FRACTION * n || tail < MIN_TAIL_COUNT) continue;
    let near = 0;
    for (let k = j; k < bins.length && bins[k]!.lo <= (1 + TAIL_WINDOW) * top.lo; k++) near += bins[k]!.count;
    const density = near / (TAIL_WINDOW * top.lo);
    // The steepest cliff under this tail, and the steepest that is also nearly empty.
    let forI = -1,
      forContrast = 0,
      forJump = 0;
    let emptyI = -1,
      emptyContrast = 0,
      emptyJump = 0;
    for (let i = lowEnough - 1; i >= 0; i--) {
      const bottom = bins[i]!;
      const gap = top.below - (bottom.below + bottom.count);
      // Lower bottoms only widen the gap and cannot take the cliff past top.lo in value: once
      // that bound is below the steepest found, none can win. Nor can one be a better nearly
      // empty cliff: if the steepest is nearly empty it is also the best empty one, and if it
      // is not, every lower bottom leaves a gap at least as wide.
      if (forI >= 0 && (density * top.lo) / Math.max(1, gap) < forContrast) break;
      const contrast = (density * (top.lo - bottom.hi)) / Math.max(1, gap);
      const jump = top.lo / bottom.hi;
      if (forI < 0 || contrast > forContrast || (contrast === forContrast && jump > forJump)) {
        forI = i;
        forContrast = contrast;
        forJump = jump;
      }
      if (gap <= MAX_GAP_SHARE * tail && (emptyI < 0 || contrast > emptyContrast || (contrast === emptyContrast && jump > emptyJump))) {
        emptyI = i;
        emptyContrast = contrast;
        emptyJump = jump;
      }
    }
    if (forI >= 0) {
      const c: Candidate = { i: forI, j, contrast: forContrast, jump: forJump, shape: "even" };
      if (better(c, best)) best = c;
    }
    if (emptyI >= 0 && emptyContrast >= MIN_CONTRAST) steep.push({ i: emptyI, j, contrast: emptyContrast, jump: emptyJump, shape: "even" });
  }
  return { best, steep };
}

/**
 * The best cliff: the one with the highest contrast among those that also have an
 * omission-shaped tail (and so are flagged), else the one with the highest contrast.
 */
export function strongestCliff(h: Histogram, buckets?: Buckets): Cliff | null {
  const n = h.totalCount;
  if (!(n > 0)) return null;
  const b = buckets ?? bucketsOf(h);
  const max = maxOf(h);
  // Only the tail matters: a flagged cliff holds fewer values than its tail (the contrast bound),
  // so its bottom lies within the top 2 · MAX_TAIL_FRACTION (plus one bucket).
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
    } else bins.push({ lo: v, hi: v, count: c, below: b.cumulative[k]! - c, first: k });
  }

  const { best, steep } = searchCliffs(bins, n);
  steep.sort((x, y) => (better(x, y) ? -1 : better(y, x) ? 1 : 0));
  let bestFlagged: Candidate | null = null;
  for (const c of steep.slice(0, MAX_SHAPE_CHECKS)) {
    c.shape = tailShape(bins, c.j, n - bins[c.j]!.below, max, b.values);
    if (c.shape !== "even") {
      bestFlagged = c;
      break;
    }
  }
  if (!bestFlagged && best) best.shape = tailShape(bins, best.j, n - bins[best.j]!.below, max, b.values);
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
 * The shape of the tail that starts at bins[j]:
 * - "tight": it ends within TIGHT_TAIL of where it starts: one pile of values near the max, each
 *   stall measured once. Never the shape of back-filled values: recordValueWithExpectedInterval
 *   turns a value v ≥ 2·I into v, v − I, … down to [I, 2I), a spread of more than 1.5×.
 * - "clumped": separate narrow piles (one per stall length), with empty stretches between them —
 *   unless they are what back-filling leaves when connections are synchronised after a stall: the
 *   same pile repeated every expected interval I (piles evenly spaced by their starts or ends, the
 *   spacing between half and all of the tail's start), or, exactly, the max's own chain
 *   max − I, max − 2I, … present down to the tail's start.
 * - "even": anything else (a ramp: what correct measurements of stalls look like).
 */
function tailShape(bins: readonly Bin[], j: number, tail: number, max: number, values: Float64Array): Cliff["shape"] {
  const b = bins[j]!.lo;
  if (max <= TIGHT_TAIL * b) return "tight";
  const density = tail / (max - b); // values per unit if spread evenly
  const piles: { lo: number; hi: number }[] = [{ lo: b, hi: bins[j]!.hi }];
  for (let k = j + 1; k < bins.length; k++) {
    const last = piles[piles.length - 1]!;
    if ((bins[k]!.lo - last.hi) * density >= CLUMP_EXPECTED) piles.push({ lo: bins[k]!.lo, hi: bins[k]!.hi });
    else last.hi = bins[k]!.hi;
  }
  if (piles.length < 2 || piles.some((p) => p.hi > TIGHT_TAIL * p.lo)) return "even";
  const evenlySpaced = (at: (p: { lo: number; hi: number }) => number) => {
    const spacings = piles.slice(1).map((p, k) => at(p) - at(piles[k]!));
    const median = [...spacings].sort((x, y) => x - y)[Math.floor(spacings.length / 2)]!;
    return spacings.every((d) => Math.abs(d - median) <= COMB_TOLERANCE * median) && median >= 0.45 * b && median <= 1.05 * b;
  };
  if (evenlySpaced((p) => p.lo) || evenlySpaced((p) => p.hi)) return "even";
  if (backfillChain(values, bins[j]!.first, max, b)) return "even";
  return "clumped";
}

/**
 * Is the max the top of a back-filled chain max, max − s, max − 2s, … (at least two steps, every
 * one present down to the tail's start b) for some step s ≤ b? That is what
 * recordValueWithExpectedInterval(max, s) records; separate piles of omitted requests line up so
 * only by coincidence. `values` are the histogram's bucket values, ascending.
 */
function backfillChain(values: Float64Array, from: number, max: number, b: number): boolean {
  const tolerance = CHAIN_TOLERANCE * max;
  const sMax = Math.min(b, (max - b) / 2) + tolerance;
  const present = (target: number): number | null => {
    let lo = from;
    let hi = values.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    let bestValue: number | null = null;
    for (const k of [lo - 1, lo]) {
      const v = values[k];
      if (k >= from && v !== undefined && Math.abs(v - target) <= tolerance && (bestValue === null || Math.abs(v - target) < Math.abs(bestValue - target))) bestValue = v;
    }
    return bestValue;
  };
  let tried = 0;
  for (let u = values.length - 2; u >= from && tried < 500; u--) {
    const s0 = max - values[u]!;
    if (s0 > sMax) break;
    if (s0 < 2 * tolerance) continue; // steps this fine are not tested
    tried++;
    let s = s0;
    let k = 2;
    let ok = true;
    for (; max - k * s >= b - tolerance; k++) {
      const found = present(max - k * s);
      if (found === null) {
        ok = false;
        break;
      }
      s = (max - found) / k; // refine the step: the chain is exact, the buckets are not
    }
    if (ok && k > 2) return true;
  }
  return false;
}
