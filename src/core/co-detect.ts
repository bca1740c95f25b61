// Coordinated-omission suspicion: does a spectrum end in a cliff?
//
// A load generator that waits for each reply before sending the next request (or that stalls
// itself) measures a server stall once per connection, instead of once for every request the
// schedule meant to send during it. The requests that were never sent are the ones that would
// have filled the range between normal latencies and the stall: with them (a correct, open-loop
// measurement) a stall of length D adds a ramp, values spread evenly from ~0 to D. Without them a
// handful of values sit at ~D with nothing between the body and them: the percentile spectrum
// runs flat, then goes straight up in the last hundredths of a percent to a max several times
// higher.
//
// Two tests, each in a module of its own: the shape test on the histogram's tail (co-cliff.ts)
// and, where the series has intervals, the rate test (co-stalls.ts). Either one flags.
import { bucketsOf, type Buckets, type Histogram } from "./histogram";
import { MIN_CONTRAST, strongestCliff } from "./co-cliff";
import { stallEvidence, type RateEvidence, type StallEvidence } from "./co-stalls";

export interface CoSuspicion {
  suspicious: boolean;
  /** where the cliff starts and ends, as percentiles (0..100) and values (recorded unit) */
  from?: { percentile: number; value: number };
  to?: { percentile: number; value: number };
  /** value jump factor across the cliff */
  jump?: number;
  /** fraction of counts above the cliff */
  tailFraction?: number;
  /** the rate test's finding, when it flagged a stall */
  stall?: StallEvidence;
}

/**
 * Flags a spectrum that ends in a vertical cliff: a jump of several times in value within a tiny
 * range of the highest percentiles — the shape a stalled load generator leaves (each stall
 * measured once instead of for every request it delayed). With a rate (`evidence`), also flags
 * stalls measured far fewer times than the requests they delayed, whatever the tail's shape.
 * `buckets`: bucketsOf(h), when the caller has them already.
 */
export function detectCoordinatedOmission(h: Histogram, evidence?: RateEvidence, buckets?: Buckets): CoSuspicion {
  // One walk over the counts for both tests (each walked them on its own).
  const all = buckets ?? (h.totalCount > 0 ? bucketsOf(h) : undefined);
  const c = strongestCliff(h, all);
  const shape = !!c && c.contrast >= MIN_CONTRAST && c.shape !== "even";
  const stall = evidence ? stallEvidence(h, evidence, all) : null;
  if (shape && c) return { suspicious: true, from: c.from, to: c.to, jump: c.jump, tailFraction: c.tailFraction, ...(stall ? { stall } : {}) };
  if (!stall) return { suspicious: false };
  // The cliff the omitted stalls leave: from the highest value under half the lowest flagged
  // stall to the lowest value at or above it.
  const b = all ?? bucketsOf(h);
  const n = h.totalCount;
  let k = 0;
  while (k < b.values.length - 1 && b.values[k]! < stall.stall / 2) k++;
  const below = k > 0 ? b.cumulative[k - 1]! : 0;
  const from = { percentile: (100 * below) / n, value: k > 0 ? b.values[k - 1]! : 0 };
  const to = { percentile: (100 * below) / n, value: b.values[k]! };
  return { suspicious: true, from, to, jump: from.value > 0 ? to.value / from.value : Infinity, tailFraction: (n - below) / n, stall };
}

// The warning's text lives on its own, so the page can word it without the detector (and the
// histogram library it reads).
export { coMessage, percentilePair } from "./co-message";
