// Coordinated omission, the rate test (series with intervals; co-detect.ts says what is looked
// for and why). The shape test cannot see the commonest case: a few
// connections and stalls of different lengths leave a few values spread from the shortest stall to
// the longest — a sparse ramp, the shape of a correct run. Physics can: an open-loop recorder that
// saw a stall of length D at R requests/s records about R·D/2 values above D/2 (the requests that
// queued in its first half; a queue draining after it adds more). A synchronous client records one
// per connection, and sends nothing while it waits. R is the intervals' median count per second;
// for each of the highest interval maxima M:
//   1. R·M/2 ≥ MIN_EXPECTED, so that "far fewer" is not chance;
//   2. the whole run holds at least MIN_TAIL_COUNT values ≥ M/2, but at most FEW_FRACTION·R·M/2
//      of them (and at most MAX_TAIL_FRACTION of all values): the stall was not measured for the
//      requests it delayed;
//   3. the requests never sent: the intervals within M of the one holding M hold at least
//      DIP_SHARE·R·M fewer than R per second, beyond the run's own spread of counts (DIP_NOISE
//      robust deviations plus Poisson noise).
// Condition 3 is what makes condition 2 safe. Alone, 2 also fires on honest runs: on a stall that
// held only some of the requests (one of several server threads) — HdrHistogram's correct
// 16Krps.hgrm holds 0.18× of R·M/2 above M/2 at its nominal 16000/s — and on one honestly slow
// request among others that went on (a lock, a slow query). Neither drops the rate by half of R·M.
// So a histogram without intervals (a percentile file) gets the shape test only, even where its
// name gives a throughput. A correct measurement of a stall (the ramp) has R·D/2 above D/2 and
// passes even where its completions leave a dip; so does a run without stalls (its max is the
// body's tail: R·M/2 is small, or the body fills M/2 up). A load generator that catches up after a
// stall (sends the missed requests late and measures from the late send) leaves no dip: only the
// shape test can see it.
import { bucketsOf, type Buckets, type Histogram } from "./histogram";
import { medianOf } from "./median";
import { MAX_TAIL_FRACTION, MIN_TAIL_COUNT } from "./co-cliff";

/** The rate test needs at least this many values expected above M/2 from a stall measured correctly. */
export const MIN_EXPECTED = 50;
/**
 * "Far fewer": at most this share of the values a correct measurement would have put above M/2.
 * A correct one has at least all of them (HdrHistogram's 12Krps.hgrm: 2.2×, 16Krps.hgrm: 1.2×);
 * its 12Krps_CO.hgrm, the mildest omission of the four, has 0.39×, 16Krps_CO.hgrm 0.005×.
 */
export const FEW_FRACTION = 0.5;
/** The requests never sent: the intervals around the stall miss at least this share of R·M. */
export const DIP_SHARE = 0.5;
/** …and more than this many robust standard deviations of the interval counts (and of Poisson noise). */
export const DIP_NOISE = 4;
/** Interval maxima examined, highest first (bounds the work on long logs). */
const MAX_STALL_CANDIDATES = 16;
/** Intervals sampled for the typical rate and its spread (bounds the work on long logs). */
const RATE_SAMPLE = 4096;

/** Per-interval columns, in time order (the shape of the engine's IntervalTable). */
export interface IntervalColumns {
  n: number;
  /** Start, seconds. */
  offsets: ArrayLike<number>;
  /** Length, seconds. */
  lengths: ArrayLike<number>;
  counts: ArrayLike<number>;
  /** Max, in the histogram's unit. */
  maxes: ArrayLike<number>;
}

/** What the rate test knows of the run beside its histogram. */
export interface RateEvidence {
  /** Seconds per unit of the histogram's values (1e-9 for ns). */
  secondsPerUnit: number;
  /** The run's intervals: they give the rate and the count dips. */
  intervals: IntervalColumns | null;
}

/** What the rate test found for the lowest stall it flags. */
export interface StallEvidence {
  /** Requests per second: the intervals' median. */
  rate: number;
  /** The stall's max (histogram unit). */
  stall: number;
  /** Values ≥ stall/2 a correct measurement would hold at least, and those the run holds. */
  expected: number;
  observed: number;
  /** The start (s) of the interval holding the max, and the requests missing around it. */
  intervalStart: number;
  missing: number;
}

/** Intervals usable for rates: several, in time order, none overlapping (a merge of runs interleaves them). */
function usableIntervals(t: IntervalColumns | null | undefined): IntervalColumns | null {
  if (!t || t.n < 3) return null;
  for (let i = 0; i < t.n; i++) {
    if (!(t.lengths[i]! > 0)) return null;
    if (i > 0 && t.offsets[i]! < t.offsets[i - 1]! + t.lengths[i - 1]! * (1 - 1e-6)) return null;
  }
  return t;
}

/**
 * The `most` highest interval maxima (above 0), highest first, with their intervals. A function
 * of its own: a pass over every interval inside stallEvidence made V8's optimising compiler
 * take all of stallEvidence (and what it inlines) during the load, for a pass made once.
 */
function highestMaxima(t: IntervalColumns, most: number): { max: number; at: number }[] {
  const candidates: { max: number; at: number }[] = [];
  for (let i = 0; i < t.n; i++) {
    const m = t.maxes[i]!;
    if (!(m > 0) || (candidates.length === most && m <= candidates[candidates.length - 1]!.max)) continue;
    let k = candidates.length;
    while (k > 0 && candidates[k - 1]!.max < m) k--;
    candidates.splice(k, 0, { max: m, at: i });
    if (candidates.length > most) candidates.pop();
  }
  return candidates;
}

/**
 * The rate test (see the header): the lowest stall that was measured far fewer times than it
 * delayed requests, or null (no such stall, or no rate known).
 */
export function stallEvidence(h: Histogram, e: RateEvidence, buckets?: Buckets): StallEvidence | null {
  const n = h.totalCount;
  const t = usableIntervals(e.intervals);
  if (!t || !(n > 0) || !(e.secondsPerUnit > 0)) return null;
  const stride = Math.max(1, Math.ceil(t.n / RATE_SAMPLE));
  const rates = new Float64Array(Math.ceil(t.n / stride));
  for (let k = 0, i = 0; i < t.n; i += stride, k++) rates[k] = t.counts[i]! / t.lengths[i]!;
  const rate = medianOf(rates, true);
  if (!(rate > 0)) return null;
  const dev = new Float64Array(rates.length);
  for (let k = 0, i = 0; i < t.n; i += stride, k++) dev[k] = Math.abs(t.counts[i]! - rate * t.lengths[i]!);
  const spread = 1.4826 * medianOf(dev, true); // robust standard deviation of an interval's count

  const b = buckets ?? bucketsOf(h);
  /** Values ≥ x in the whole run. */
  const above = (x: number): number => {
    let lo = 0;
    let hi = b.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (b.values[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? n : n - b.cumulative[lo - 1]!;
  };

  // Candidate stalls: the highest interval maxima.
  const candidates = highestMaxima(t, MAX_STALL_CANDIDATES);

  let found: StallEvidence | null = null;
  for (const c of candidates) {
    const seconds = c.max * e.secondsPerUnit;
    const expected = (rate * seconds) / 2;
    if (expected < MIN_EXPECTED) continue;
    const observed = above(c.max / 2);
    if (observed < MIN_TAIL_COUNT || observed > FEW_FRACTION * expected || observed > MAX_TAIL_FRACTION * n) continue;
    // The intervals within the stall's length of the one holding its max hold the requests
    // that were due during it, whether a value is logged when it was sent or when it returned.
    const from = t.offsets[c.at]! - seconds;
    const to = t.offsets[c.at]! + t.lengths[c.at]! + seconds;
    let due = 0;
    let seen = 0;
    let w = 0;
    for (let j = c.at; j >= 0 && t.offsets[j]! + t.lengths[j]! > from; j--, w++) {
      due += rate * t.lengths[j]!;
      seen += t.counts[j]!;
    }
    for (let j = c.at + 1; j < t.n && t.offsets[j]! < to; j++, w++) {
      due += rate * t.lengths[j]!;
      seen += t.counts[j]!;
    }
    const missing = due - seen;
    if (missing < DIP_SHARE * rate * seconds || missing < DIP_NOISE * (Math.sqrt(due) + spread * Math.sqrt(w))) continue;
    if (!found || c.max < found.stall) found = { rate, stall: c.max, expected, observed, intervalStart: t.offsets[c.at]!, missing };
  }
  return found;
}
