// A side of buckets (a Prometheus native histogram: each value at its bucket's upper bound) against
// a log of the same latencies: equal within a bucket is not judged (the row says why), three
// times apart is judged; units (a log in µs, the buckets in ns) are converted first; ordinary
// logs are judged exactly as without the rule.
import { describe, expect, it } from "vitest";
import { compareSides } from "./compare";
import { valueIndexer } from "./layout";
import { makeRng, normal } from "./rng";
import { factorAt, inTopBucket, schemaFactor, sideBuckets } from "./buckets";
import type { RunInput, Sparse } from "./types";

const LAYOUT = { digits: 3, lowest: 1 };
const index = valueIndexer(LAYOUT);
const F3 = schemaFactor(3);
/** A native histogram's bucket upper bound (schema 3) holding v. */
const upper = (v: number) => 2 ** (Math.ceil(8 * Math.log2(v) - 1e-9) / 8);

/** Interval histograms of lognormal latencies (ns, median 1 ms), each value mapped by `place` and stored in units of `unitNs`. */
function intervals(seed: number, place: (ns: number) => number, unitNs: number, n = 300, per = 400): { data: Sparse[]; values: number[] } {
  const rng = makeRng(seed, 5);
  const data: Sparse[] = [];
  const values: number[] = [];
  let level = 0;
  for (let i = 0; i < n; i++) {
    level = 0.5 * level + 0.02 * normal(rng);
    const m = new Map<number, number>();
    for (let k = 0; k < per; k++) {
      const ns = 1e6 * Math.exp(level + 0.4 * normal(rng));
      values.push(ns);
      const x = index(Math.max(1, Math.round(place(ns) / unitNs)));
      m.set(x, (m.get(x) ?? 0) + 1);
    }
    const idx = [...m.keys()].sort((a, b) => a - b);
    data.push({ indices: Int32Array.from(idx), counts: Float64Array.from(idx, (x) => m.get(x)!) });
  }
  return { data, values };
}

function logRun(seed: number, scale = 1): RunInput {
  // Recorded in µs, as many load generators do.
  const { data } = intervals(seed, (ns) => ns * scale, 1000);
  return { name: "load-test", layout: LAYOUT, unitNs: 1000, recordedUnit: "us", data: { kind: "intervals", intervals: data, intervalSeconds: 1 } };
}

function nativeRun(seed: number, scale = 1): RunInput {
  const { data, values } = intervals(seed, (ns) => upper(ns * scale), 1);
  const top = upper(Math.max(...values) * scale);
  return {
    name: "production",
    layout: LAYOUT,
    unitNs: 1,
    recordedUnit: "ns",
    bucketed: "a native histogram of schema 3 (each bucket 9.05 % wide)",
    buckets: { factor: F3, topLowNs: top / F3, topHighNs: top },
    data: { kind: "intervals", intervals: data, intervalSeconds: 1 },
  };
}

const opts = { percentiles: [50, 90, 99], perDecade: 0, resamples: 300 };

describe("a side of buckets against a log", () => {
  it("schema 3's bucket is 9.05 % wide", () => {
    expect(F3).toBeCloseTo(1.0905077, 6);
  });

  it("equal latencies, within a bucket: not judged, each row saying it is within one bucket of the histogram", () => {
    const r = compareSides({ label: "prod", runs: [nativeRun(11)] }, { label: "test", runs: [logRun(12)] }, opts);
    for (const p of r.points) {
      // The units were converted: the ratio is the bucket's placement, not 1000× off.
      expect(p.ratio, `p${p.percentile}`).toBeGreaterThan(1 / F3 / 1.02);
      expect(p.ratio, `p${p.percentile}`).toBeLessThan(1.02);
      expect(p.verdict, `p${p.percentile}`).toBe("unknown");
      expect(p.judged).toBe(false);
      expect(p.reason).toContain("within one bucket of prod's histogram (9.05 % wide): its values are known only to that bucket");
      expect(p.resolution).toBeCloseTo(F3 - 1, 6);
    }
  });

  it("three times apart: judged, as a comparison of logs would be", () => {
    const r = compareSides({ label: "prod", runs: [nativeRun(11)] }, { label: "test", runs: [logRun(12, 3)] }, opts);
    for (const p of r.points) {
      expect(p.ratio).toBeGreaterThan(2.6);
      expect(p.ratio).toBeLessThan(3.1);
      expect(p.verdict, `p${p.percentile}: ${p.reason}`).toBe("worse");
      expect(p.judged).toBe(true);
    }
    // And the other way round (the log is the baseline).
    const back = compareSides({ label: "test", runs: [logRun(12, 3)] }, { label: "prod", runs: [nativeRun(11)] }, opts);
    expect(back.points.map((p) => p.verdict)).toEqual(["better", "better", "better"]);
  });

  it("a percentile in the top bucket of a side with no max is not judged", () => {
    const run = nativeRun(11);
    // A top bucket placed where p99 falls: that value is known only to lie in it.
    const b = sideBuckets({ label: "prod", runs: [run] })!;
    const r0 = compareSides({ label: "prod", runs: [run] }, { label: "test", runs: [logRun(12, 3)] }, opts);
    const p99 = r0.points.find((p) => p.percentile === 99)!.base;
    const top = { ...run, buckets: { factor: F3, topLowNs: p99 / F3, topHighNs: p99 } };
    expect(inTopBucket({ ...b, top: { lowNs: p99 / F3, highNs: p99 } }, p99)).toBe(true);
    const r = compareSides({ label: "prod", runs: [top] }, { label: "test", runs: [logRun(12, 3)] }, opts);
    const at99 = r.points.find((p) => p.percentile === 99)!;
    expect(at99.verdict).toBe("unknown");
    expect(at99.reason).toMatch(/^prod's p99 lies in its top bucket \(max within \[.* ms, .* ms\]\)/);
    expect(r.points.find((p) => p.percentile === 50)!.verdict).toBe("worse");
  });

  it("a classic histogram's bucket reaches down to the next lower value it holds", () => {
    const b = { label: "c", factor: null, top: { lowNs: 2.5e6, highNs: Infinity } };
    const values = new Float64Array([1e6, 2.5e6]);
    expect(factorAt(b, values, 2.5e6)).toBeCloseTo(2.5, 9);
    expect(factorAt(b, values, 1e6)).toBe(Infinity);
    expect(inTopBucket(b, 2.5e6)).toBe(true);
    expect(inTopBucket(b, 1e6)).toBe(false);
  });

  it("ordinary logs (no buckets) are judged as always: the same values without `buckets` get verdicts", () => {
    const { buckets: _b, bucketed: _d, ...asLog } = nativeRun(11);
    expect(sideBuckets({ label: "prod", runs: [asLog] })).toBeNull();
    const r = compareSides({ label: "prod", runs: [asLog] }, { label: "test", runs: [logRun(12)] }, opts);
    for (const p of r.points) {
      expect(p.judged, `p${p.percentile}: ${p.reason}`).toBe(true);
      expect(p.reason ?? "").not.toContain("bucket");
      expect(p.resolution).toBeLessThan(0.01);
    }
  });
});
