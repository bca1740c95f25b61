import { describe, expect, it } from "vitest";
import { compareSentence } from "./sentence";
import type { RatioPoint, Verdict } from "./types";

function pt(percentile: number, ratio: number, verdict: Verdict, supported = true, spread = false): RatioPoint {
  return {
    percentile,
    supported,
    base: 1,
    cand: ratio,
    ratio,
    low: supported ? ratio * 0.8 : null,
    high: supported ? ratio * 1.25 : null,
    verdict,
    resolution: 0.001,
    band: 0.05,
    baseSpread: null,
    candSpread: null,
    gapWithinSpread: spread,
  };
}

describe("the comparison's sentence", () => {
  const points = [pt(50, 1, "same"), pt(90, 1.01, "same"), pt(99, 0.5, "better"), pt(99.9, 1 / 3.1, "better"), pt(99.99, 0.4, "unknown"), pt(99.999, 1, "unknown", false)];

  it("groups the percentiles by verdict, in one short sentence without reasons", () => {
    expect(compareSentence("A", "B", points, 0.05)).toBe(
      "B is faster than A at p99 and p99.9; the same within ±5 % at p50 and p90; no clear difference at p99.99; too few values at p99.999.",
    );
  });

  it("leads with the headline's percentile's group", () => {
    expect(compareSentence("A", "B", points, 0.05, 90)).toBe(
      "B is the same as A within ±5 % at p50 and p90; faster at p99 and p99.9; no clear difference at p99.99; too few values at p99.999.",
    );
    expect(compareSentence("A", "B", points, 0.05, 99.99)).toMatch(/^No clear difference between B and A at p99\.99; faster at p99 and p99\.9;/);
  });

  it("never changes a series name, and starts with a capital otherwise", () => {
    expect(compareSentence("sysA", "sysB", [pt(50, 2, "worse"), pt(90, 2, "worse")], 0.05)).toBe("sysB is slower than sysA at p50 and p90.");
    expect(compareSentence("a", "b", [pt(50, 1.2, "unknown"), pt(90, 1, "same")], 0.05, 50)).toBe("No clear difference between b and a at p50; the same within ±5 % at p90.");
    expect(compareSentence("a", "b", [pt(50, 1, "unknown", false)], 0.05)).toBe("Too few values to compare b with a at any of p50.");
  });

  it("names a run of three or more consecutive percentiles by its ends, and those not judged apart", () => {
    const nj = { ...pt(99.9, 0.5, "unknown"), judged: false, reason: "why" };
    expect(compareSentence("a", "b", [pt(50, 0.5, "better"), pt(90, 0.5, "better"), pt(99, 0.5, "better"), nj], 0.05)).toBe("b is faster than a at p50–p99; not judged at p99.9.");
  });
});
