import { describe, expect, it } from "vitest";
import { build } from "hdr-histogram-js";
import { compareSides, compareSidesAsync, CompareCancelled, COMPARE_PERCENTILES } from "./compare";
import { simIntervals, simRun, type SimOptions } from "../../../tests/support/compare-test-sim";
import { sumSparse } from "../../../tests/support/latency-process";
import { curveGrid, supportLimit, verdictOf } from "./verdict";
import { makeRng, normal } from "./rng";
import { planBlocks } from "./plan";
import type { RunInput, Sparse } from "./types";

const side = (label: string, ...runs: RunInput[]) => ({ label, runs });
/**
 * `pairs` comparisons of A and B simulated with `o` (A from seed `firstSeed + 2k`, B from the next
 * seed and scaled by `scale`), at p50, p90 and p99 only.
 */
const seededPairs = (o: Omit<SimOptions, "seed">, pairs: number, firstSeed: number, scale = 1) =>
  Array.from({ length: pairs }, (_, k) => {
    const seed = firstSeed + 2 * k;
    return compareSides(side("A", simRun("a", { ...o, seed })), side("B", simRun("b", { ...o, seed: seed + 1, scale })), {
      percentiles: [50, 90, 99],
      perDecade: 0,
      resamples: 500,
    });
  });

describe("verdicts", () => {
  it("follow the margin and the resolution", () => {
    expect(verdictOf(1.06, 1.2, 0.05)).toBe("worse");
    expect(verdictOf(0.8, 0.95, 0.05)).toBe("better");
    expect(verdictOf(0.97, 1.04, 0.05)).toBe("same");
    expect(verdictOf(0.97, 1.2, 0.05)).toBe("unknown");
    expect(verdictOf(null, null, 0.05)).toBe("unknown");
    // A difference within the histograms' buckets is never a difference.
    expect(verdictOf(1.02, 1.03, 0.01, 0.04)).toBe("same");
    expect(verdictOf(1.02, 1.03, 0.01, 0)).toBe("worse");
  });

  it("support stops where a side has fewer than 10 values above the percentile", () => {
    expect(supportLimit(1000, 100_000)).toBeCloseTo(99, 10);
    expect(curveGrid(99, 1)).toEqual([0, 90, 99]);
  });
});

describe("block plan", () => {
  it("keeps a stall and its queue together and grows with the run", () => {
    expect(planBlocks(86_400, 1)).toMatchObject({ stride: 128, span: 3, length: 384 });
    expect(planBlocks(3600, 1).length).toBeGreaterThanOrEqual(60);
    expect(planBlocks(600, 1).length).toBeGreaterThanOrEqual(30);
    expect(planBlocks(600, 5).length).toBeGreaterThanOrEqual(25);
    expect(planBlocks(40, 1).length).toBeLessThanOrEqual(12);
  });
});

describe("A vs B against known samples", () => {
  it("a candidate that is the baseline with every value doubled reads 2.0, its interval holds 2.0, verdict worse", () => {
    const o = { intervals: 400, perInterval: 500, seed: 7 };
    const r = compareSides(side("A", simRun("a", o)), side("B", simRun("b", { ...o, scale: 2 })));
    const supported = r.points.filter((p) => p.supported);
    // 200,000 values: p99.99 has 20 above, p99.999 only 2.
    expect(supported.map((p) => p.percentile)).toEqual([50, 90, 99, 99.9, 99.99]);
    for (const p of supported) {
      expect(Math.abs(p.ratio - 2), `p${p.percentile}`).toBeLessThanOrEqual(2 * 2 * p.resolution);
      expect(p.low!).toBeLessThanOrEqual(2);
      expect(p.high!).toBeGreaterThanOrEqual(2);
      // Judged on values wherever the values above come from enough separate stretches of time
      // on each side; beyond, on events where B's stretches go above all of A's.
      const onValues = p.events![0] >= p.needed! && p.events![1] >= p.needed!;
      expect(p.basis).toBe(onValues ? "values" : p.verdict === "worse" ? "events" : null);
      expect(p.verdict).toBe(p.basis ? "worse" : "unknown");
    }
    expect(supported.slice(0, 3).map((p) => [p.verdict, p.basis])).toEqual([
      ["worse", "values"],
      ["worse", "values"],
      ["worse", "values"],
    ]);
    const last = r.points[r.points.length - 1]!;
    expect(last.supported).toBe(false);
    expect(last.low).toBeNull();
    expect(last.verdict).toBe("unknown");
    expect(r.max.ratio).toBeCloseTo(2, 2);
    expect(r.sentence).toMatch(/^B is slower than A at p50/);
    expect(r.sentence).toContain("too few values at p99.999");
  });

  it("the values are the percentiles of the pooled histograms (hdr-histogram-js on the same samples)", () => {
    const o = { intervals: 100, perInterval: 100, seed: 3 };
    const run = simRun("a", o);
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    // Rebuild from the same generator: every sample recorded one by one.
    const rng = makeRng(o.seed, 99);
    let level = 0;
    for (let i = 0; i < o.intervals; i++) {
      level = 0.9 * level + 0.15 * normal(rng);
      for (let k = 0; k < o.perInterval; k++) h.recordValue(Math.round(1e6 * Math.exp(level + 0.5 * normal(rng))));
    }
    const r = compareSides(side("A", run), side("A again", simRun("a2", o)), { resamples: 10 });
    for (const p of r.points.filter((x) => x.supported)) {
      expect(p.base, `p${p.percentile}`).toBe(h.getValueAtPercentile(p.percentile));
      expect(p.ratio).toBe(1);
    }
  });

  it("a margin of 0 still works (bins capped by memory), and judges only beyond the buckets' width", () => {
    const o = { intervals: 200, perInterval: 100, seed: 21 };
    const r = compareSides(side("A", simRun("a", o)), side("B", simRun("b", { ...o, scale: 2 })), { margin: 0, resamples: 200 });
    expect(r.points[0]!.verdict).toBe("worse");
    expect(r.points[0]!.band).toBe(r.points[0]!.resolution);
    const same = compareSides(side("A", simRun("a", o)), side("A", simRun("a", o)), { margin: 0, resamples: 200 });
    expect(same.points[0]!.ratio).toBe(1);
    expect(same.points[0]!.verdict).not.toBe("better");
    expect(same.points[0]!.verdict).not.toBe("worse");
  });

  it("sub-blocks handed over in pieces (stored blocks, single intervals) give exactly what their sums give", () => {
    const o = { intervals: 600, perInterval: 300 };
    // Blocks of intervals as a store gives them: sub-blocks of `stride` intervals, each a few
    // pieces of uneven sizes (a stored block, the intervals after it), or summed when asked.
    const asBlocks = (name: string, seed: number, scale: number, pieces: boolean): RunInput => {
      const intervals = simIntervals({ ...o, seed, scale });
      const plan = planBlocks(intervals.length, 1);
      const groups: Sparse[][] = [];
      const rng = makeRng(seed, 5);
      for (let at = 0; at < intervals.length; at += plan.stride) {
        const sub = intervals.slice(at, at + plan.stride);
        const cut = Math.floor(rng.next() * sub.length);
        groups.push([sumSparse(sub.slice(0, cut)), ...sub.slice(cut)].filter((p) => p.indices.length > 0));
      }
      const subBlocks = {
        length: groups.length,
        at: (k: number) => (k < groups.length ? sumSparse(groups[k]!) : undefined),
        ...(pieces ? { eachPiece: (k: number, add: (p: Sparse) => void) => (k < groups.length ? (groups[k]!.forEach(add), true) : false) } : {}),
      };
      return { name, layout: { digits: 3, lowest: 1 }, unitNs: 1, data: { kind: "blocks", subBlocks, plan, total: sumSparse(intervals), intervalSeconds: 1 } };
    };
    const run = (pieces: boolean) => compareSides(side("A", asBlocks("a", 3, 1, pieces)), side("B", asBlocks("b", 4, 1.05, pieces)), { resamples: 300 });
    const [summed, inPieces] = [run(false), run(true)];
    expect(inPieces).toEqual(summed);
    expect(summed.points.some((p) => p.low !== null)).toBe(true);
  });

  it("is deterministic for the same inputs and seed", () => {
    const o = { intervals: 200, perInterval: 100, seed: 11 };
    const a = () => compareSides(side("A", simRun("a", o)), side("B", simRun("b", { ...o, seed: 12 })));
    expect(a().points).toEqual(a().points);
  });

  it("two runs of one distribution: never better or worse at p50–p99 in at least 57 of 60 seed pairs, mostly same at p50 and p90", () => {
    // Stationary enough that an interval of ±5 % is within reach at p50 and p90. The intervals
    // are one simultaneous band over the three percentiles, wider than pointwise ones, so
    // `same` is a little rarer than a pointwise interval would make it.
    const runs = seededPairs({ intervals: 300, perInterval: 100, phi: 0.5, drift: 0.04 }, 60, 1000);
    const clean = runs.filter((r) => r.points.every((p) => p.verdict !== "better" && p.verdict !== "worse")).length;
    const same50 = runs.filter((r) => r.points[0]!.verdict === "same").length;
    const same90 = runs.filter((r) => r.points[1]!.verdict === "same").length;
    expect(clean).toBeGreaterThanOrEqual(57);
    expect(same50).toBeGreaterThanOrEqual(48);
    expect(same90).toBeGreaterThanOrEqual(48);
  });

  it("the 95 % interval covers the true ratio 90–98 % of the time (simulation)", () => {
    const truth = 1.25;
    // Neighbouring intervals correlated (AR(1), 0.8): resampling single intervals would under-cover.
    const points = seededPairs({ intervals: 400, perInterval: 40, phi: 0.8, drift: 0.12 }, 80, 5000, truth).flatMap((r) => r.points);
    const coverage = points.filter((p) => p.low! <= truth * (1 + p.resolution) && p.high! >= truth / (1 + p.resolution)).length / points.length;
    expect(coverage).toBeGreaterThanOrEqual(0.9);
    expect(coverage).toBeLessThanOrEqual(0.98);
  });
});

describe("repeats, counts and warnings", () => {
  it("resamples runs too: the interval widens with run-to-run spread, and says when the gap is within it", () => {
    const o = { intervals: 200, perInterval: 100 };
    // Runs whose level differs from run to run (as repeated runs on different days do).
    const runs = (name: string, seed: number, scales: number[]) => scales.map((s, i) => simRun(`${name}${i + 1}`, { ...o, seed: seed + i, scale: s }));
    const a = runs("a", 100, [1, 1.1, 0.92, 1.05, 0.97]);
    const b = runs("b", 200, [1.04, 1.12, 0.95, 1.01, 1.08]);
    const pooled = compareSides(side("A", ...a), side("B", ...b), { percentiles: [50, 90], perDecade: 0 });
    const flat = compareSides(side("A", ...a), side("B", ...b), { percentiles: [50, 90], perDecade: 0, repeats: false });
    for (let i = 0; i < 2; i++) {
      const w = (p: { low: number | null; high: number | null }) => Math.log(p.high! / p.low!);
      expect(w(pooled.points[i]!)).toBeGreaterThan(w(flat.points[i]!));
      expect(pooled.points[i]!.baseSpread![1] / pooled.points[i]!.baseSpread![0]).toBeGreaterThan(1.1);
      expect(pooled.points[i]!.gapWithinSpread).toBe(true);
    }
  });

  it("a side without intervals gets the ratio but no verdict, and says why; 3 runs a side give an interval from their spread", () => {
    const o = { intervals: 200, perInterval: 100, seed: 5 };
    const countsOf = (name: string, seed: number, scale = 1): RunInput => ({
      name,
      layout: { digits: 3, lowest: 1 },
      unitNs: 1,
      data: { kind: "counts", counts: sumSparse(simIntervals({ ...o, seed, scale })) },
    });
    const r = compareSides(side("A", countsOf("a.hgrm", 5)), side("B", simRun("b", { ...o, scale: 2 })));
    expect(r.base.method[0]).toMatch(/counts/);
    expect(r.warnings.map((w) => w.kind)).toContain("no-intervals");
    for (const p of r.points.filter((x) => x.supported)) {
      expect(p.ratio).toBeGreaterThan(1.5);
      expect([p.low, p.high, p.verdict, p.judged]).toEqual([null, null, "unknown", false]);
      expect(p.reason).toMatch(/a\.hgrm has no time order \(no intervals\)/);
    }
    expect(r.sentence).toMatch(/^B vs A: not judged at p50/);
    // Three runs a side, each counts only: the runs' spread makes the interval.
    const three = (n: string, seed: number, scale = 1) => [0, 1, 2].map((k) => countsOf(`${n}${k}.hgrm`, seed + k, scale));
    const rep = compareSides(side("A", ...three("a", 10)), side("B", ...three("b", 20, 2)), { percentiles: [50, 90], perDecade: 0 });
    for (const p of rep.points) {
      expect(p.low!).toBeLessThanOrEqual(2.05);
      expect(p.high!).toBeGreaterThanOrEqual(1.95);
      expect(p.verdict).toBe("worse");
    }
  });

  it("warns about units, precision, CO correction, saturation and very different counts", () => {
    const a = simRun("a", { intervals: 50, perInterval: 50, seed: 1 });
    const b: RunInput = { ...simRun("b", { intervals: 50, perInterval: 1000, seed: 2 }), recordedUnit: "us", layout: { digits: 2, lowest: 1 }, coCorrected: true, saturated: true };
    const kinds = compareSides(side("A", a), side("B", b), { resamples: 10 }).warnings.map((w) => w.kind);
    expect(kinds).toEqual(expect.arrayContaining(["units", "precision", "co-correction", "saturation", "counts"]));
    expect(compareSides(side("A", a), side("A2", simRun("a2", { intervals: 50, perInterval: 50, seed: 3 })), { resamples: 10 }).warnings).toEqual([]);
  });

  it("reports every requested percentile, unsupported ones with empty intervals", () => {
    const r = compareSides(side("A", simRun("a", { intervals: 30, perInterval: 30, seed: 1 })), side("B", simRun("b", { intervals: 30, perInterval: 30, seed: 2 })), {
      resamples: 50,
    });
    expect(r.points.map((p) => p.percentile)).toEqual([...COMPARE_PERCENTILES]);
    // 900 values a side: supported up to 100 × (1 − 10/900) ≈ p98.9.
    expect(r.points.filter((p) => !p.supported).map((p) => p.percentile)).toEqual([99, 99.9, 99.99, 99.999]);
  });

  it("stops when cancelled", async () => {
    const ac = new AbortController();
    const o = { intervals: 200, perInterval: 50, seed: 1 };
    const p = compareSidesAsync(side("A", simRun("a", o)), side("B", simRun("b", o)), {}, { signal: ac.signal, onProgress: () => ac.abort(), pause: () => Promise.resolve() });
    await expect(p).rejects.toBeInstanceOf(CompareCancelled);
  });
});
