import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { simulateClosedLoop } from "../../scripts/lib/loadgen-fixtures";
import { mulberry32, simulateQueue, type Stall } from "../../scripts/lib/queue-sim";
import { parsePercentileFile } from "../formats/hgrm";
import { MAX_GAP_SHARE, MAX_TAIL_FRACTION, MIN_CONTRAST, MIN_JUMP, MIN_TAIL_COUNT, TAIL_WINDOW, detectCoordinatedOmission, searchCliffs, strongestCliff, type Bin, type Candidate } from "./co-detect";
import { newHistogram, type Histogram } from "./histogram";

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
    const r = simulateClosedLoop({ connections: 15, seconds: 60, intervalSec: 0.03, medianServiceSec: 0.001, sigma: 0.6, seed: 4, stalls: [{ at: 8, duration: 0.2 }, { at: 20, duration: 0.45 }, { at: 41, duration: 0.3 }] });
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
    const q = simulateQueue({ rate: 1000, seconds: 60, medianServiceSec: 0.0004, sigma: 0.5, stalls: [{ at: 10, duration: 0.3 }, { at: 30, duration: 0.05 }, { at: 50, duration: 0.6 }], seed: 2 });
    expect(detectCoordinatedOmission(merged(q.map((iv) => iv.histogram)))).toEqual({ suspicious: false });
  });

  it("random open-loop runs with stalls are never flagged", () => {
    fc.assert(
      fc.property(fc.constantFrom(200, 1000, 3000), fc.double({ min: 0.1, max: 0.85, noNaN: true }), fc.double({ min: 0.2, max: 1, noNaN: true }), fc.array(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { minLength: 0, maxLength: 4 }), fc.integer({ min: 1, max: 1e6 }), (rate, rho, sigma, durations, seed) => {
        const stalls = durations.map((duration, k) => ({ at: 3 + k * 8, duration }));
        const q = simulateQueue({ rate, seconds: 40, medianServiceSec: rho / rate, sigma, stalls, seed });
        expect(detectCoordinatedOmission(merged(q.map((iv) => iv.histogram))).suspicious).toBe(false);
      }),
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
        fc.array(fc.record({ step: fc.double({ min: 1.011, max: 6, noNaN: true }), count: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5000 })) }), { minLength: 2, maxLength: 120 }),
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
