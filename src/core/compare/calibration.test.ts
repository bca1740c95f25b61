// A small, fixed-seed version of scripts/calibrate-compare.ts's key properties, on runs shaped
// like real ones (pauses with the queue they leave, strong slow drift): A and B from the same
// process, so every `worse` or `better` is a false alarm. A method that resamples values as
// independent, or blocks too short for the drift, fails here: the earlier fixed-block bootstrap
// called p50 or p90 different in about half of such pairs, and every counts-only pair worse
// somewhere in most of them.
import { describe, expect, it } from "vitest";
import { compareSides } from "./compare";
import { gateOf } from "./gate";
import type { RunInput } from "./types";
import { PAUSES, PROCESS_LAYOUT, simulateProcess, STEADY, sumSparse } from "../../../tests/support/latency-process";

const PAIRS = 16;

function pair(k: number) {
  // 20 minutes at 1,000 requests/s: the shape of the full harness's runs at a fifth of the values.
  const o = { ...STEADY, rate: 1000, seconds: 1200, pauses: PAUSES, drift: { tau: 300, sd: 0.1 } };
  const a = simulateProcess({ ...o, seed: 7000 + 2 * k });
  const b = simulateProcess({ ...o, seed: 7001 + 2 * k });
  const run = (name: string, intervals: typeof a): RunInput => ({ name, layout: PROCESS_LAYOUT, unitNs: 1, data: { kind: "intervals", intervals, intervalSeconds: 1 } });
  const counts = (name: string, intervals: typeof a): RunInput => ({ name, layout: PROCESS_LAYOUT, unitNs: 1, data: { kind: "counts", counts: sumSparse(intervals) } });
  const opts = { perDecade: 0, resamples: 400 };
  return {
    hlog: compareSides({ label: "A", runs: [run("a", a)] }, { label: "B", runs: [run("b", b)] }, opts),
    hgrm: compareSides({ label: "A", runs: [counts("a.hgrm", a)] }, { label: "B", runs: [counts("b.hgrm", b)] }, opts),
  };
}

describe("calibration on realistic runs (same process: every difference called is a false alarm)", () => {
  const pairs = Array.from({ length: PAIRS }, (_, k) => pair(k));

  it("pauses and strong drift: check --compare fails in at most 2 of 16 pairs, and p50 and p90 are called different in at most 2 each", () => {
    const fails = pairs.filter((p) => !gateOf(p.hlog).pass).length;
    const wrong = (i: number) => pairs.filter((p) => p.hlog.points[i]!.verdict === "worse" || p.hlog.points[i]!.verdict === "better").length;
    expect(fails).toBeLessThanOrEqual(2);
    expect(wrong(0)).toBeLessThanOrEqual(2);
    expect(wrong(1)).toBeLessThanOrEqual(2);
    // The details say the sides are single runs.
    expect(pairs[0]!.hlog.notes).toContain("Each side is a single run: run-to-run variation is not measured.");
  });

  it("the same runs as counts only (.hgrm): ratios, never a verdict, and the reason said", () => {
    for (const p of pairs) {
      expect(gateOf(p.hgrm).pass).toBe(true);
      for (const x of p.hgrm.points.filter((y) => y.supported)) {
        expect(x.verdict).toBe("unknown");
        expect(Number.isFinite(x.ratio)).toBe(true);
        expect(x.reason).toMatch(/no intervals/);
      }
    }
  });
});

describe("tails made of stalls (the event rule): 5-minute runs, a stall of 150–600 ms once in every 20 s", () => {
  const o = { ...STEADY, rate: 1000, seconds: 300, medianMs: 0.25, sigma: 0.3, drift: { tau: 60, sd: 0.05 } };
  const every20 = { every: 20, minMs: 150, maxMs: 600, regular: true };
  const run = (name: string, seed: number, stalls: boolean): RunInput => ({
    name,
    layout: PROCESS_LAYOUT,
    unitNs: 1,
    data: { kind: "intervals", intervals: simulateProcess({ ...o, seed, pauses: stalls ? every20 : null }), intervalSeconds: 1 },
  });
  const opts = { perDecade: 0, resamples: 300 };

  it("against a side that never stalls: better at p99 and p99.9 in each of 6 pairs, on values or events", () => {
    for (let k = 0; k < 6; k++) {
      const r = compareSides({ label: "A", runs: [run("a", 8000 + 2 * k, true)] }, { label: "B", runs: [run("b", 8001 + 2 * k, false)] }, opts);
      const at = (p: number) => r.points.find((x) => x.percentile === p)!;
      for (const p of [99, 99.9]) {
        expect(at(p).verdict, `pair ${k}, p${p}`).toBe("better");
        expect(["values", "events"]).toContain(at(p).basis);
      }
      // A's stalls reach above all of B in most of its 20 stretches, B above A's max in none.
      expect(r.exceedance!.above[1]).toBe(0);
      expect(r.exceedance!.above[0]).toBeGreaterThanOrEqual(r.exceedance!.needed);
    }
  });

  it("two runs of the stalling process: never better or worse at p99 and beyond in 6 pairs", () => {
    for (let k = 0; k < 6; k++) {
      const r = compareSides({ label: "A", runs: [run("a", 8100 + 2 * k, true)] }, { label: "B", runs: [run("b", 8101 + 2 * k, true)] }, opts);
      for (const x of r.points.filter((y) => y.percentile >= 99)) expect(["same", "unknown"], `pair ${k}, p${x.percentile}`).toContain(x.verdict);
    }
  });
});
