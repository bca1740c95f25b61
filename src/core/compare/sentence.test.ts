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
  it("says the headline, where there is no difference and where the data stops", () => {
    const s = compareSentence(
      "A",
      "B",
      [pt(50, 1, "same"), pt(90, 1.01, "same"), pt(99, 0.5, "better"), pt(99.9, 1 / 3.1, "better"), pt(99.99, 0.4, "unknown"), pt(99.999, 1, "unknown", false)],
      0.05,
      0.95,
    );
    expect(s).toBe(
      "B is 3.1× faster than A at p99.9 (95 % interval 2.5–3.9×), and faster at p99 too; no difference beyond ±5 % at p50 and p90; not enough evidence either way at p99.99; beyond p99.99 too few values to say.",
    );
  });

  it("never changes a series name, and starts with a capital otherwise", () => {
    expect(compareSentence("sysA", "sysB", [pt(50, 2, "worse"), pt(90, 2, "worse")], 0.05, 0.95)).toMatch(/^sysB is 2\.0× slower than sysA at p90 /);
    expect(compareSentence("a", "b", [pt(50, 1, "same"), pt(90, 1.2, "unknown")], 0.05, 0.95)).toBe(
      "No difference between b and a beyond ±5 % at p50; not enough evidence either way at p90.",
    );
    expect(compareSentence("a", "b", [pt(50, 1, "unknown", false)], 0.05, 0.95)).toBe("Too few values to compare b with a at any of p50.");
  });

  it("says when the gap is smaller than the spread between repeated runs", () => {
    expect(compareSentence("a", "b", [pt(50, 1.3, "worse", true, true)], 0.05, 0.95)).toContain("at p50 the gap is smaller than the spread between repeated runs");
  });
});
