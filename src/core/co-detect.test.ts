import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { simulateClosedLoop } from "../../tests/support/loadgen-fixtures";
import { mulberry32, simulateQueue, simulateSyncClient, stallsAt, type SimInterval, type Stall } from "../../tests/support/queue-sim";
import { parsePercentileFile } from "../formats/hgrm";
import { MAX_GAP_SHARE, MAX_TAIL_FRACTION, MIN_CONTRAST, MIN_JUMP, MIN_TAIL_COUNT, TAIL_WINDOW, searchCliffs, strongestCliff, type Bin, type Candidate } from "./co-cliff";
import { coMessage, detectCoordinatedOmission, percentilePair } from "./co-detect";
import { FEW_FRACTION, stallEvidence, type IntervalColumns } from "./co-stalls";
import { maxOf, newHistogram, valueAtPercentile, type Histogram } from "./histogram";

const dir = path.resolve(__dirname, "../../../shared/samples/hgrm");
const hgrm = (f: string) => parsePercentileFile(f, readFileSync(path.join(dir, f), "utf8")).histogram; // values in µs

describe.skipIf(!existsSync(dir))("HdrHistogram's reference pair (GoogleChartsExample)", () => {
  it("flags 16Krps_CO: ~140 ms to ~740 ms within the top 0.0005 %", () => {
    const r = detectCoordinatedOmission(hgrm("16Krps_CO.hgrm"));
    expect(r.suspicious).toBe(true);
    expect(r.from!.value).toBe(144511); // 144.511 ms, printed at 99.99909 %
    expect(r.to!.value).toBe(743423); // 743.423 ms
    expect(r.from!.percentile).toBeCloseTo(99.99909, 4);
    expect(r.to!.percentile - r.from!.percentile).toBeLessThan(0.0005);
    expect(r.jump).toBeGreaterThan(5);
    expect(r.tailFraction).toBeLessThan(1e-5);
  });

  it("does not flag the same runs measured correctly", () => {
    expect(detectCoordinatedOmission(hgrm("16Krps.hgrm"))).toEqual({ suspicious: false });
    expect(detectCoordinatedOmission(hgrm("12Krps.hgrm"))).toEqual({ suspicious: false });
    // their tails rise steeply too, but evenly: the density above any step is no higher than below it
    expect(strongestCliff(hgrm("16Krps.hgrm"))!.contrast).toBeLessThan(2);
    expect(strongestCliff(hgrm("12Krps.hgrm"))!.contrast).toBeLessThan(2);
  });

  it("does not flag the mild 12Krps_CO: its steepest step is only 2× (24 → 48 ms)", () => {
    const h = hgrm("12Krps_CO.hgrm");
    expect(detectCoordinatedOmission(h)).toEqual({ suspicious: false });
    // The step from 23.967 ms to 48.063 ms (at 99.9957 %) is a jump of 2.0, under MIN_JUMP; the
    // smallest 3× rise (20.3 → 62.3 ms) has 159 values inside it against 95 above: contrast 4.
    const c = strongestCliff(h)!;
    expect(c.jump).toBeGreaterThanOrEqual(MIN_JUMP);
    expect(c.from.value).toBe(20335);
    expect(c.to.value).toBe(62303);
    expect(c.contrast).toBeGreaterThan(3.5);
    expect(c.contrast).toBeLessThan(MIN_CONTRAST);
  });
});

describe("a synchronous client against a stalling server", () => {
  const base = { connections: 8, seconds: 60, intervalSec: 0.001, medianServiceSec: 0.001, sigma: 0.5, seed: 1 };

  it("stalls of one length: flagged (one tight pile at the stall length); corrected: not flagged", () => {
    const stalls: Stall[] = [10, 25, 40, 55].map((at) => ({ at, duration: 0.25 }));
    const r = simulateClosedLoop({ ...base, stalls });
    const co = detectCoordinatedOmission(r.measured);
    expect(co.suspicious).toBe(true);
    expect(co.to!.value / 1e9).toBeGreaterThan(0.24);
    expect(co.to!.value / 1e9).toBeLessThan(0.26);
    expect(co.tailFraction! * r.requests).toBeCloseTo(32, -1); // 8 connections × 4 stalls
    expect(detectCoordinatedOmission(r.corrected)).toEqual({ suspicious: false });
  });

  it("stalls of different lengths: flagged (separate piles); corrected: not flagged", () => {
    const stalls: Stall[] = [
      { at: 10, duration: 0.1 },
      { at: 30, duration: 0.5 },
      { at: 45, duration: 0.1 },
    ];
    const r = simulateClosedLoop({ ...base, stalls });
    expect(detectCoordinatedOmission(r.measured).suspicious).toBe(true);
    expect(detectCoordinatedOmission(r.corrected)).toEqual({ suspicious: false });
  });

  it("with think time, the corrected comb (back-fill stops at the interval) is not flagged", () => {
    // 15 connections each meaning to send every 30 ms, 1 ms service: back-filled values start at
    // 30 ms, after an empty range, and connections synchronise after a stall, so the corrected
    // tail is a comb of piles 30 ms apart.
    const r = simulateClosedLoop({
      connections: 15,
      seconds: 60,
      intervalSec: 0.03,
      medianServiceSec: 0.001,
      sigma: 0.6,
      seed: 4,
      stalls: stallsAt([8, 0.2], [20, 0.45], [41, 0.3]),
    });
    expect(detectCoordinatedOmission(r.measured).suspicious).toBe(true);
    expect(detectCoordinatedOmission(r.corrected)).toEqual({ suspicious: false });
  });

  // recordValueWithExpectedInterval back-fills only values of at least twice the interval: with
  // stalls shorter than a few intervals most blocked requests get no back-fill at all and the
  // "corrected" tail keeps the omission's shape. And a stall must stand clear of the body's own
  // tail (lognormal, median 1 ms, σ up to 0.7) to be seen.
  it("random configurations: the omission is flagged when every stall has one length, the corrected run never", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 16 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.05, max: 0.8, noNaN: true }),
        fc.integer({ min: 1, max: 4 }),
        fc.double({ min: 0.2, max: 0.7, noNaN: true }),
        fc.integer({ min: 1, max: 1e6 }),
        (connections, intervalMs, duration, count, sigma, seed) => {
          const intervalSec = intervalMs / 1000;
          const stalls = Array.from({ length: count }, (_, k) => ({ at: 5 + k * 10, duration }));
          const r = simulateClosedLoop({ connections, seconds: 45, intervalSec, medianServiceSec: Math.min(0.001, intervalSec / 2), sigma, stalls, seed });
          if (duration >= 5 * intervalSec) expect(detectCoordinatedOmission(r.corrected).suspicious).toBe(false);
          if (duration >= 10 * intervalSec && duration >= 0.1) expect(detectCoordinatedOmission(r.measured).suspicious).toBe(true);
        },
      ),
      // A fixed seed: these properties are statistical (simulated runs), and CI must not flake.
      { numRuns: 25, seed: 20261122 },
    );
  });
});

describe("healthy measurements", () => {
  const merged = (hs: Histogram[]) => {
    const m = newHistogram();
    for (const h of hs) m.add(h);
    return m;
  };

  it("an open-loop run with stalls (queue-sim) is not flagged", () => {
    const q = simulateQueue({ rate: 1000, seconds: 60, medianServiceSec: 0.0004, sigma: 0.5, stalls: stallsAt([10, 0.3], [30, 0.05], [50, 0.6]), seed: 2 });
    expect(detectCoordinatedOmission(merged(q.map((iv) => iv.histogram)))).toEqual({ suspicious: false });
  });

  it("random open-loop runs with stalls are never flagged", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(200, 1000, 3000),
        fc.double({ min: 0.1, max: 0.85, noNaN: true }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { minLength: 0, maxLength: 4 }),
        fc.integer({ min: 1, max: 1e6 }),
        (rate, rho, sigma, durations, seed) => {
          const stalls = durations.map((duration, k) => ({ at: 3 + k * 8, duration }));
          const q = simulateQueue({ rate, seconds: 40, medianServiceSec: rho / rate, sigma, stalls, seed });
          expect(detectCoordinatedOmission(merged(q.map((iv) => iv.histogram))).suspicious).toBe(false);
        },
      ),
      // A fixed seed: these properties are statistical (simulated runs), and CI must not flake.
      { numRuns: 25, seed: 20261122 },
    );
  });

  it("small, empty, single-outlier and bimodal histograms are not flagged", () => {
    expect(detectCoordinatedOmission(newHistogram())).toEqual({ suspicious: false });
    const rnd = mulberry32(9);
    const body = build({ bitBucketSize: 64 });
    for (let i = 0; i < 100000; i++) body.recordValue(Math.round(1000 * Math.exp(0.5 * Math.sqrt(-2 * Math.log(Math.max(1e-12, rnd()))) * Math.cos(2 * Math.PI * rnd()))));
    expect(detectCoordinatedOmission(body)).toEqual({ suspicious: false });
    body.recordValue(5_000_000); // one far outlier: chance, or one stall; not enough to say
    expect(detectCoordinatedOmission(body)).toEqual({ suspicious: false });
    const bimodal = build({ bitBucketSize: 64 });
    bimodal.add(body);
    for (let i = 0; i < 5000; i++) bimodal.recordValue(50_000 + (i % 100) * 10); // a 5 % second mode
    expect(detectCoordinatedOmission(bimodal)).toEqual({ suspicious: false });
    const tiny = build({ bitBucketSize: 64 });
    [1, 2, 3, 1000, 1001].forEach((v) => tiny.recordValue(v));
    expect(detectCoordinatedOmission(tiny)).toEqual({ suspicious: false });
  });
});

describe("searchCliffs", () => {
  /** Every (bottom, top) pair, as the rule reads: the reference for the pruned search. */
  function plainSearch(bins: Bin[], n: number): { best: Candidate | null; steep: Candidate[] } {
    const better = (x: Candidate, y: Candidate | null) => !y || x.contrast > y.contrast || (x.contrast === y.contrast && x.jump > y.jump);
    let best: Candidate | null = null;
    const steep: Candidate[] = [];
    for (let j = 1; j < bins.length; j++) {
      const top = bins[j]!;
      const tail = n - top.below;
      if (tail > MAX_TAIL_FRACTION * n || tail < MIN_TAIL_COUNT) continue;
      let near = 0;
      for (let k = j; k < bins.length && bins[k]!.lo <= (1 + TAIL_WINDOW) * top.lo; k++) near += bins[k]!.count;
      const density = near / (TAIL_WINDOW * top.lo);
      let forJ: Candidate | null = null;
      let emptyForJ: Candidate | null = null;
      for (let i = j - 1; i >= 0; i--) {
        const bottom = bins[i]!;
        if (bottom.hi * MIN_JUMP > top.lo) continue;
        const gap = top.below - (bottom.below + bottom.count);
        const c: Candidate = { i, j, contrast: (density * (top.lo - bottom.hi)) / Math.max(1, gap), jump: top.lo / bottom.hi, shape: "even" };
        if (better(c, forJ)) forJ = c;
        if (gap <= MAX_GAP_SHARE * tail && better(c, emptyForJ)) emptyForJ = c;
      }
      if (forJ && better(forJ, best)) best = forJ;
      if (emptyForJ && emptyForJ.contrast >= MIN_CONTRAST) steep.push(emptyForJ);
    }
    return { best, steep };
  }

  it("finds what trying every pair finds, on random tails with gaps, piles and ties", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ step: fc.double({ min: 1.011, max: 6, noNaN: true }), count: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5000 })) }),
          { minLength: 2, maxLength: 120 },
        ),
        fc.integer({ min: 1, max: 1e6 }),
        (spec, below0) => {
          const bins: Bin[] = [];
          let lo = 1000;
          let below = below0;
          spec.forEach((s, k) => {
            lo = Math.round(lo * s.step) + 1;
            const hi = k % 3 === 0 ? lo : Math.round(lo * 1.005);
            bins.push({ lo, hi, count: s.count, below, first: k });
            below += s.count;
            lo = hi;
          });
          const n = below;
          expect(searchCliffs(bins, n)).toEqual(plainSearch(bins, n));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

/** The interval columns the engine keeps for a log, built from the simulated intervals. */
function columns(ivs: readonly SimInterval[]): IntervalColumns {
  return {
    n: ivs.length,
    offsets: ivs.map((iv) => iv.start),
    lengths: ivs.map((iv) => iv.length),
    counts: ivs.map((iv) => iv.histogram.totalCount),
    maxes: ivs.map((iv) => (iv.histogram.totalCount > 0 ? maxOf(iv.histogram) : 0)),
  };
}
const mergedOf = (ivs: readonly SimInterval[]) => {
  const m = newHistogram();
  for (const iv of ivs) m.add(iv.histogram);
  return m;
};
const NS = { secondsPerUnit: 1e-9 };

describe("the rate test: stalls measured far fewer times than they delayed requests", () => {
  // 20k requests/s from a synchronous client with 2 connections; the server stalls for 0.2–1.4 s
  // every 20 s. Each stall is measured twice (once per connection) where an open-loop recorder
  // would measure thousands of delayed requests.
  const stalls: Stall[] = [
    { at: 10, duration: 0.31 },
    { at: 30, duration: 1.37 },
    { at: 50, duration: 0.74 },
  ];
  const config = { connections: 2, rate: 20000, seconds: 60, medianServiceSec: 30e-6, sigma: 0.3, stalls, seed: 3 };
  const run = simulateSyncClient(config);

  it("flags the synchronous client's run, which the shape test alone misses", () => {
    const h = mergedOf(run.measured);
    // The spectrum: flat to p99.999, then the stalls, a handful of values spread over 0.3–1.4 s.
    expect(valueAtPercentile(h, 99.999) / 1e3).toBeLessThan(200); // µs
    expect(maxOf(h) / 1e9).toBeCloseTo(1.37, 2);
    expect(detectCoordinatedOmission(h)).toEqual({ suspicious: false });
    const co = detectCoordinatedOmission(h, { ...NS, intervals: columns(run.measured) });
    expect(co.suspicious).toBe(true);
    // The lowest stall flagged is the 0.31 s one, at 10 s: 2 connections × 3 stalls above 0.155 s,
    // where an open-loop recorder would have put 20000 × 0.31 / 2; the 20000 × 0.31 requests the
    // client never sent are missing from the intervals around it.
    const s = co.stall!;
    expect(s.rate).toBe(20000);
    expect(s.stall / 1e9).toBeCloseTo(0.31, 2);
    expect(s.intervalStart).toBe(10);
    expect(s.observed).toBe(6);
    expect(s.expected).toBeCloseTo((20000 * s.stall) / 1e9 / 2, 6);
    expect(s.missing / (20000 * 0.31)).toBeGreaterThan(0.97);
    expect(s.missing / (20000 * 0.31)).toBeLessThan(1.03);
    // The cliff: from the body's top to the lowest stall, at one percentile (nothing between).
    expect(co.from!.value).toBe(valueAtPercentile(h, co.from!.percentile));
    expect(co.from!.value / 1e3).toBeLessThan(300);
    expect(co.to!.value).toBeGreaterThanOrEqual(s.stall / 2);
    expect(co.tailFraction! * h.totalCount).toBe(6);
  });

  it("does not flag the same stalls corrected (recordValueWithExpectedInterval): every stall has its ramp", () => {
    const h = mergedOf(run.corrected);
    const t = columns(run.corrected);
    // The back-filled values stand for the requests never sent: the count dip is filled too.
    expect(columns(run.measured).counts[10]!).toBeLessThan(20000 * (1 - 0.31) * 1.01);
    expect(t.counts[10]!).toBeGreaterThan(20000 * 0.99);
    expect(stallEvidence(h, { ...NS, intervals: t })).toBeNull();
    expect(detectCoordinatedOmission(h, { ...NS, intervals: t })).toEqual({ suspicious: false });
  });

  it("does not flag the same stalls measured open-loop", () => {
    const q = simulateQueue({ rate: 20000, seconds: 60, medianServiceSec: 30e-6, sigma: 0.3, stalls, seed: 3 });
    const h = mergedOf(q);
    expect(maxOf(h) / 1e9).toBeCloseTo(1.37, 2);
    expect(detectCoordinatedOmission(h, { ...NS, intervals: columns(q) })).toEqual({ suspicious: false });
  });

  it("does not flag a stall that held a fifth of the requests, measured correctly: its tail is short but nothing is missing", () => {
    // Five open-loop streams of 4k/s on one interval grid, one of them stalling: like one of five
    // server threads stopping. Above half the stall there are a fifth of R·D/2 values, which
    // condition 2 alone would take for omission (HdrHistogram's correct 16Krps.hgrm is like this).
    const parts = [0, 1, 2, 3, 4].map((k) =>
      simulateQueue({ rate: 4000, seconds: 30, medianServiceSec: 50e-6, sigma: 0.4, stalls: k === 0 ? [{ at: 12, duration: 0.8 }] : [], seed: 40 + k }),
    );
    const ivs: SimInterval[] = parts[0]!.map((iv, i) => {
      const h = newHistogram();
      for (const p of parts) h.add(p[i]!.histogram);
      return { start: iv.start, length: iv.length, histogram: h };
    });
    const h = mergedOf(ivs);
    expect(maxOf(h) / 1e9).toBeCloseTo(0.8, 2);
    const tail = h.totalCount - countBelow(h, maxOf(h) / 2);
    expect(tail).toBeLessThan(FEW_FRACTION * 20000 * (maxOf(h) / 1e9 / 2));
    expect(tail).toBeGreaterThan(MIN_TAIL_COUNT);
    expect(detectCoordinatedOmission(h, { ...NS, intervals: columns(ivs) })).toEqual({ suspicious: false });
  });

  it("does not take slow requests among others that went on for a stall: the rate did not drop", () => {
    const q = simulateQueue({ rate: 5000, seconds: 30, medianServiceSec: 50e-6, sigma: 0.4, stalls: [], seed: 8 });
    q[15]!.histogram.recordValue(900e6);
    q[15]!.histogram.recordValue(905e6);
    // Conditions 1 and 2 hold (2 values above 450 ms where a stall would have left 2250)…
    const h = mergedOf(q);
    expect(h.totalCount - countBelow(h, 450e6)).toBe(2);
    // …but the intervals around them hold every request.
    expect(stallEvidence(h, { ...NS, intervals: columns(q) })).toBeNull();
    // (The shape test flags a tight pile of two or more far above the body, as it always has.)
  });

  it("random runs: a synchronous client's stalls are flagged; open-loop, corrected and stall-free runs never", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(2000, 5000, 10000),
        fc.array(fc.double({ min: 0.05, max: 1.5, noNaN: true }), { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0.2, max: 0.6, noNaN: true }),
        fc.integer({ min: 1, max: 1e6 }),
        (connections, rate, durations, sigma, seed) => {
          const stalls = durations.map((duration, k) => ({ at: 4 + k * 8, duration }));
          const sim = { connections, rate, seconds: 28, medianServiceSec: 0.2 / rate, sigma, stalls, seed };
          const r = simulateSyncClient(sim);
          const ev = (ivs: SimInterval[]) => ({ ...NS, intervals: columns(ivs) });
          // Flagged whenever a stall delays enough requests to tell (R·D/2 ≥ 100).
          if (Math.min(...durations) * rate >= 200) expect(detectCoordinatedOmission(mergedOf(r.measured), ev(r.measured)).suspicious).toBe(true);
          expect(detectCoordinatedOmission(mergedOf(r.corrected), ev(r.corrected)).suspicious).toBe(false);
          const q = simulateQueue({ rate, seconds: 28, medianServiceSec: 0.5 / rate, sigma, stalls, seed });
          expect(detectCoordinatedOmission(mergedOf(q), ev(q)).suspicious).toBe(false);
          const calm = simulateSyncClient({ ...sim, stalls: [] });
          expect(detectCoordinatedOmission(mergedOf(calm.measured), ev(calm.measured)).suspicious).toBe(false);
        },
      ),
      // A fixed seed: these properties are statistical (simulated runs), and CI must not flake.
      { numRuns: 12, seed: 20261123 },
    );
  });

  it("intervals that overlap (a merge of runs) give no rate: the shape test decides", () => {
    const t = columns(run.measured);
    const overlapping = { ...t, offsets: t.offsets as number[] };
    (overlapping.offsets as number[])[5] = 3.5;
    expect(stallEvidence(mergedOf(run.measured), { ...NS, intervals: overlapping })).toBeNull();
  });
});

describe.skipIf(!existsSync(dir))("why a percentile file gets the shape test only", () => {
  it("HdrHistogram's correct 16Krps.hgrm holds far fewer values above max/2 than 16000/s × max/2", () => {
    // A stall that held only some of the requests: without intervals there is no count dip to
    // tell it from omission, so the tail count alone must not decide.
    const h = hgrm("16Krps.hgrm");
    const max = maxOf(h) / 1e6; // s
    const above = h.totalCount - countBelow(h, maxOf(h) / 2);
    expect(above).toBeLessThan(FEW_FRACTION * 16000 * (max / 2));
    expect(detectCoordinatedOmission(h, { secondsPerUnit: 1e-6, intervals: null })).toEqual({ suspicious: false });
  });
});

describe("the warning's text", () => {
  it("writes two percentiles with enough digits to tell them apart", () => {
    expect(percentilePair(99.99991, 99.99999)).toEqual(["99.99991", "99.99999"]);
    expect(percentilePair(99.999909, 99.999926)).toEqual(["99.99991", "99.99993"]);
    expect(percentilePair(99.5, 99.9)).toEqual(["99.5", "99.9"]);
    expect(percentilePair(50, 90)).toEqual(["50", "90"]);
    expect(percentilePair(99.99, 99.99)).toEqual(["99.99", "99.99"]);
    // never "100" for a percentile under it
    expect(percentilePair(99.9999912, 99.9999912)).toEqual(["99.99999", "99.99999"]);
    expect(percentilePair(99.99999991, 99.99999999)).toEqual(["99.99999991", "99.99999999"]);
    expect(percentilePair(99.99996, 100)).toEqual(["99.99996", "100"]);
  });

  it("the message names both ends of the cliff apart", () => {
    const m = coMessage(
      "run",
      { suspicious: true, from: { percentile: 99.999909, value: 18.14 }, to: { percentile: 99.999926, value: 224.7 }, jump: 12.4, tailFraction: 7.4e-7 },
      (v) => `${v} s`,
    );
    expect(m).toContain("from 18.14 s at p99.99991 to 224.7 s at p99.99993 (12.4× within the top 0.000091 %)");
    const one = coMessage(
      "run",
      { suspicious: true, from: { percentile: 99.9997, value: 1 }, to: { percentile: 99.9997, value: 200 }, jump: 200, tailFraction: 3e-6 },
      (v) => `${v} ms`,
    );
    expect(one).toContain("from 1 ms to 200 ms at p99.9997");
  });

  it("the rate test's finding is in the message", () => {
    const run = simulateSyncClient({ connections: 2, rate: 20000, seconds: 30, medianServiceSec: 30e-6, sigma: 0.3, stalls: stallsAt([10, 0.5], [20, 1.1]), seed: 5 });
    const co = detectCoordinatedOmission(mergedOf(run.measured), { ...NS, intervals: columns(run.measured) });
    const m = coMessage("sync", co, (v) => `${Number((v / 1e6).toPrecision(4))} ms`);
    expect(m).toMatch(
      /At the run's 20k requests\/s, a stall that left a max of 50\d\.\d ms, measured for every request it delayed, puts about 50\d\d values above 25\d\.\d ms; this run has 4, and the intervals around 10 s hold 9\d\d\d fewer requests/,
    );
  });
});

function countBelow(h: Histogram, x: number): number {
  let n = 0;
  const js = h as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number; valueFromIndex(i: number): number };
  for (let i = 0; i < js.countsArrayLength; i++) if (js.valueFromIndex(i) < x) n += js.getCountAtIndex(i);
  return n;
}
