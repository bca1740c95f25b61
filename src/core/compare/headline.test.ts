import { describe, expect, it } from "vitest";
import { build } from "hdr-histogram-js";
import { compareSides, COMPARE_PERCENTILES } from "./compare";
import { makeRng, normal } from "./rng";
import { buildHeadline, changeText, headlineExtras, headlineJson, headlinePercentile } from "./headline";
import { sparseOf } from "../histogram";
import type { RunInput } from "./types";

/**
 * A run as a latency log holds it, in µs: lognormal service times around `medianUs`, and with
 * `stalls`, a GC-like pause every 10 intervals (one value of `pauseUs`, then the queue it leaves:
 * the next values wait for the pause to drain). Returns the comparison's input and the whole
 * run as one HdrHistogram (the reference's own percentiles).
 */
function run(name: string, seed: number, medianUs: number, stalls: boolean, intervals = 300, per = 200) {
  const rng = makeRng(seed, 5);
  const whole = build({ numberOfSignificantValueDigits: 3 });
  const sparse = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ numberOfSignificantValueDigits: 3 });
    // Pauses at random moments (one interval in ten on average), of random length.
    let queue = stalls && rng.next() < 0.1 ? 60_000 + 100_000 * rng.next() : 0;
    for (let k = 0; k < per; k++) {
      const v = Math.max(1, Math.round(medianUs * Math.exp(0.4 * normal(rng)))) + queue;
      queue = Math.max(0, queue - 4_000);
      h.recordValue(v);
      whole.recordValue(v);
    }
    const s = sparseOf(h);
    sparse.push({ indices: s.indices, counts: s.counts });
  }
  const input: RunInput = { name, layout: { digits: 3, lowest: 1 }, unitNs: 1000, recordedUnit: "us", data: { kind: "intervals", intervals: sparse, intervalSeconds: 1 } };
  return { input, whole };
}

describe("the headline's percentile: one rule", () => {
  it("is the requirement's highest percentile below the max that the data supports, else p99", () => {
    expect(headlinePercentile([50, 99, 99.9, 100], 99.99)).toEqual({ percentile: 99.9, rule: "requirement" });
    // p99.99 is not supported by 20,000 values (p99.95 is the limit): the next one down.
    expect(headlinePercentile([50, 99, 99.99, 100], 99.95)).toEqual({ percentile: 99, rule: "requirement" });
    expect(headlinePercentile([100], 99.99)).toEqual({ percentile: 99, rule: "default" });
    expect(headlinePercentile(null, 99.99)).toEqual({ percentile: 99, rule: "default" });
    expect(headlinePercentile([99.99], 99.9)).toEqual({ percentile: 99, rule: "default" });
    expect(headlinePercentile([50, 99.9], 99.99, 90)).toEqual({ percentile: 90, rule: "chosen" });
  });

  it("asks the comparison for the requirement's percentiles it does not report", () => {
    expect(headlineExtras([50, 99.5, 100], COMPARE_PERCENTILES)).toEqual([99.5]);
    expect(headlineExtras(null, COMPARE_PERCENTILES)).toEqual([]);
  });
});

describe("the headline against the histograms", () => {
  const a = run("sysA", 11, 900, true);
  const b = run("sysB", 12, 800, false);
  const r = compareSides({ label: "sysA", runs: [a.input] }, { label: "sysB", runs: [b.input] }, { percentiles: [...COMPARE_PERCENTILES, 99.5] });

  it("gives both values at the chosen percentile as the histograms' own percentiles, in the recorded unit", () => {
    for (const [req, want] of [
      [null, 99],
      [[50, 99.5, 100], 99.5],
      [[50, 99, 99.9], 99.9],
    ] as const) {
      const h = buildHeadline(r, { baseUnit: "us", candUnit: "us", displayUnit: "ms", requirementPercentiles: req })!;
      expect(h.percentile).toBe(want);
      expect(h.baseline).toBe(a.whole.getValueAtPercentile(want));
      expect(h.candidate).toBe(b.whole.getValueAtPercentile(want));
      expect(h.ratio).toBeCloseTo(h.candidate / h.baseline, 12);
    }
  });

  it("states the change, its interval and the verdict; the JSON carries the same numbers", () => {
    const h = buildHeadline(r, { baseUnit: "us", candUnit: "us", displayUnit: "ms", requirementPercentiles: [99.9] })!;
    // The stalls' queue puts sysA's p99.9 near 140 ms; sysB never waits.
    expect(h.baseline).toBeGreaterThan(100_000);
    expect(h.verdict).toBe("better");
    expect(h.low!).toBeLessThanOrEqual(h.ratio);
    expect(h.high!).toBeGreaterThanOrEqual(h.ratio);
    // In plain words, with a ratio a person reads: "sysB is 43× faster than sysA at p99.9: 121 ms → 2.79 ms (95 % range 36–51×)".
    const f = (x: number) => (x < 9.95 ? x.toFixed(1) : String(Math.round(x)));
    expect(h.text).toBe(
      `sysB is ${f(1 / h.ratio)}× faster than sysA at p99.9: ${Number((h.baseline / 1000).toPrecision(3))} ms → ${Number((h.candidate / 1000).toPrecision(3))} ms (95 % range ${f(1 / h.high!)}–${f(1 / h.low!)}×)`,
    );
    expect(h.text).not.toMatch(/interval/);
    expect(h.verdictText).toBe("better, beyond the ±5 % margin");
    expect(h.basis).toBe("values");
    expect(headlineJson(h)).toEqual({
      percentile: 99.9,
      baseline: h.baseline,
      candidate: h.candidate,
      ratio: h.ratio,
      low: h.low,
      high: h.high,
      verdict: "better",
      basis: "values",
    });
    // The sentence leads with the headline's percentile's group.
    expect(h.sentence).toMatch(/^sysB is faster than sysA at [^;]*p99\.9/);
  });

  it("says plainly when the percentile is not judged, and why", () => {
    const h = buildHeadline(r, { baseUnit: "us", candUnit: "us", displayUnit: "ms", chosen: 99.999 })!;
    expect(h.percentile).toBe(99.999);
    expect(h.judged).toBe(false);
    expect(h.low).toBeNull();
    expect(h.verdict).toBe("unknown");
    expect(h.verdictText).toMatch(/^not judged: \S.+/);
    // One plain line of what would decide it: 60,000 values a side leave 0.6 above p99.999;
    // 10 need 300 s × 10 ÷ 0.6 = 5,000 s, about 83 minutes, said rounded up to 85.
    expect(h.text).toMatch(
      /^sysB vs sysA at p99\.999: [\d.]+ ms → [\d.]+ ms, \d+× faster; not judged: sys[AB]'s 60,000 values are too few for p99\.999 \(10 above it needed\); about \d+ (minutes|hours) of this run would$/,
    );
    expect(h.basis).toBeNull();
    expect(h.reason).toBe(r.points.find((p) => p.percentile === 99.999)!.reason ?? h.reason);
    expect(headlineJson(h).low).toBeNull();
  });
});

describe("the change in words", () => {
  it("reads as people say it: N× for large changes, per cent for small ones, a 95 % range", () => {
    expect(changeText(1 / 805, 1 / 990, 1 / 640, 0.95)).toBe("805× faster (95 % range 640–990×)");
    expect(changeText(1.07, 1.05, 1.09, 0.95)).toBe("7 % slower (95 % range 5–9 %)");
    expect(changeText(3.1, 2.4, 3.9, 0.95)).toBe("3.1× slower (95 % range 2.4–3.9×)");
    expect(changeText(0.8, 0.7, 0.9, 0.95)).toBe("20 % faster (95 % range 10–30 %)");
    expect(changeText(0.99, 0.97, 1.02, 0.95)).toBe("1 % faster (95 % range 3 % faster to 2 % slower)");
    expect(changeText(0.5, null, null, 0.95)).toBe("2.0× faster");
    // An unbounded range is no range to state.
    expect(changeText(0.5, 0, Infinity, 0.95)).toBe("2.0× faster");
    expect(changeText(1, 0.98, 1.01, 0.95)).toBe("no change (95 % range 2 % faster to 1 % slower)");
  });
});
