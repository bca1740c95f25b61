import { describe, expect, it } from "vitest";
import { line, scaleLinear, scaleLog } from "d3";
import { bucketAt, fastScale, inverseTail, labelledMaxes, makeXScale, makeYScale, percentileLabel, stepPath, stepPoints, xDomainEnd, xTicks } from "./layout";

describe("percentile axis", () => {
  it("labels decades of 1/(1-p) as percentiles", () => {
    expect([0, 1, 2, 3, 4, 5].map(percentileLabel)).toEqual(["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]);
  });
  it("reaches the decade holding the last point below 100% (1/(1-p) = N)", () => {
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 48761 }])).toBe(100000);
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 100000 }])).toBe(100000);
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 10 }])).toBe(1000);
    expect(xTicks(100000).map((t) => t.label)).toEqual(["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]);
  });
  it("inverseTail caps at 100%", () => {
    expect(inverseTail(0.99, 1e6)).toBeCloseTo(100, 9);
    expect(inverseTail(1, 1e6)).toBe(1e6);
  });
});

describe("step curve", () => {
  // Four values 10, 20, 30, 40 once each: bucket i covers percentiles (i/4, (i+1)/4].
  const c = { values: [10, 20, 30, 40], cumulative: [1, 2, 3, 4], totalCount: 4 };
  const x = makeXScale(1000, { width: 1000, height: 100 });
  const y = (v: number) => v;

  it("draws each bucket as a run to its cumulative percentile, the last one to the end", () => {
    const pts = stepPoints(c, x, y, 1000);
    expect(pts.length).toBe(8);
    expect(pts[1]![0]).toBeCloseTo(x(1 / (1 - 0.25)), 6);
    expect(pts[3]![0]).toBeCloseTo(x(2), 6);
    expect(pts[7]![0]).toBeCloseTo(x(1000), 6);
    expect(pts.map((p) => p[1])).toEqual([10, 10, 20, 20, 30, 30, 40, 40]);
  });

  it("hover finds the bucket holding the percentile", () => {
    expect(bucketAt(c, 1)).toMatchObject({ value: 10, countAtOrBelow: 1 });
    expect(bucketAt(c, 1 / (1 - 0.5))).toMatchObject({ value: 20, countAtOrBelow: 2 });
    expect(bucketAt(c, 1 / (1 - 0.51))).toMatchObject({ value: 30 });
    expect(bucketAt(c, 1e6)).toMatchObject({ value: 40, countAtOrBelow: 4 });
  });

  it("merges sub-pixel runs keeping the highest value (never hides a spike)", () => {
    const n = 5000;
    const values = Array.from({ length: n }, (_, i) => i + 1);
    const cumulative = values.map((_, i) => i + 1);
    const pts = stepPoints({ values, cumulative, totalCount: n }, x, y, 10000);
    expect(pts.length).toBeLessThan(2 * 1000);
    expect(Math.max(...pts.map((p) => p[1]))).toBe(n);
  });

  it("never steps back along x when it merges runs (the path only moves right or up/down)", () => {
    // Many buckets over a few pixels at the start (the bulk of a long log), then a tail.
    const n = 20000;
    const values = Array.from({ length: n }, (_, i) => 1 + i * 0.01 + (i % 7));
    const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.05 * 1e9));
    const pts = stepPoints({ values, cumulative, totalCount: cumulative[n - 1]! }, x, y, 1e9);
    for (let i = 1; i < pts.length; i++) expect(pts[i]![0]).toBeGreaterThanOrEqual(pts[i - 1]![0]);
    expect(pts[pts.length - 1]![0]).toBeCloseTo(x(1e9), 9);
  });
});

describe("stepPath", () => {
  it("is the path d3's line() draws through stepPoints, to the character", () => {
    const xs = makeXScale(1e7, { width: 1100, height: 440 });
    const ys = makeYScale(3e6, 0, false, { width: 1100, height: 440 });
    const curves = [
      { values: [], cumulative: [], totalCount: 0 },
      { values: [5], cumulative: [3], totalCount: 3 },
      { values: [10, 20, 30, 40], cumulative: [1, 2, 3, 4], totalCount: 4 },
      // A long log's shape: thousands of buckets, most of them in the first pixels.
      (() => {
        const n = 9000;
        const values = Array.from({ length: n }, (_, i) => 1000 + i * 37 + (i % 11) * 3);
        const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.02 * 5e6));
        return { values, cumulative, totalCount: cumulative[n - 1]! };
      })(),
    ];
    for (const cv of curves) {
      for (const ys2 of [ys, makeYScale(3e6, 900, true, { width: 1100, height: 440 })]) {
        const want = line()(stepPoints(cv, xs, ys2, 1e7)) ?? "";
        expect(stepPath(cv, xs, ys2, 1e7)).toBe(want);
        expect(stepPath(cv, fastScale(xs), fastScale(ys2), 1e7)).toBe(want);
      }
    }
  });

  it("prints negative, tiny, whole and huge coordinates as d3's line() does", () => {
    const n = 400;
    const values = Array.from({ length: n }, (_, i) => i * 0.0137 - 2.5);
    const cumulative = values.map((_, i) => i + 1);
    const cv = { values, cumulative, totalCount: n };
    // x: from about -700 to far right, through whole numbers; y: around zero (a -0 among them), then huge.
    const xf = (v: number) => (Math.log(v) - 3) * 250.0005;
    for (const yf of [(v: number) => -v / 7 + 0.0004, (v: number) => Math.round(v * 100) / 4, (v: number) => v * 1e14, (v: number) => (v > 2 ? Infinity : v)]) {
      expect(stepPath(cv, xf, yf, 1e4)).toBe(line()(stepPoints(cv, xf, yf, 1e4)) ?? "");
    }
  });
});

describe("fastScale", () => {
  const probes = [0, 1e-9, 0.3, 1, 1.5, 7, 99.99, 1234.5, 1e6, 3.7e9, -5];
  it("gives d3's numbers for the plot's linear and log scales, niced or not, either range direction", () => {
    const scales = [
      makeXScale(1e8, { width: 1100, height: 440 }),
      makeXScale(1000, { width: 320, height: 440 }),
      makeYScale(1.8e9, 1e5, false, { width: 900, height: 440 }),
      makeYScale(1.8e9, 1e5, true, { width: 900, height: 440 }),
      scaleLinear().domain([5, -3]).range([0, 100]),
      scaleLog().domain([1000, 1]).range([10, 500]),
    ];
    for (const s of scales) {
      const f = fastScale(s);
      for (const v of probes) {
        const want = s(v);
        if (Number.isFinite(want)) expect(f(v)).toBeCloseTo(want, 9);
        else expect(f(v)).toEqual(want);
      }
    }
  });
  it("hands back scales it does not reproduce (clamped, degenerate)", () => {
    const clamped = scaleLinear().domain([0, 1]).range([0, 10]).clamp(true);
    expect(fastScale(clamped)).toBe(clamped);
    const flat = scaleLinear().domain([2, 2]).range([0, 10]);
    expect(fastScale(flat)).toBe(flat);
  });
});

describe("labelledTicks", () => {
  it("labels never overlap, the deepest percentile is always labelled, wide plots label every decade", async () => {
    const { labelledTicks } = await import("./layout");
    for (const decades of [2, 5, 7, 9, 10, 12]) {
      const labels = xTicks(10 ** decades).map((t) => t.label);
      for (const width of [300, 500, 700, 1000, 1400]) {
        const spacing = width / decades;
        const on = labelledTicks(labels, spacing);
        expect(on[on.length - 1]).toBe(true);
        // Neighbouring labels (centred on their ticks) leave room for the longer one.
        const shown = on.map((v, i) => (v ? i : -1)).filter((i) => i >= 0);
        for (let k = 1; k < shown.length; k++) {
          const gap = (shown[k]! - shown[k - 1]!) * spacing;
          const half = (labels[shown[k]!]!.length + labels[shown[k - 1]!]!.length) * 6.8 * 0.5;
          expect(gap).toBeGreaterThanOrEqual(half);
        }
      }
    }
    expect(
      labelledTicks(
        xTicks(1e5).map((t) => t.label),
        200,
      ).every(Boolean),
    ).toBe(true);
  });
});

describe("labelledMaxes", () => {
  it("keeps the highest max's label where labels collide, whatever the series order", () => {
    // Pixel rows: 100 is the highest marker (smallest y); 105 collides with it, 300 does not.
    expect(labelledMaxes([105, 100, 300])).toEqual([false, true, true]);
    expect(labelledMaxes([300, 105, 100])).toEqual([true, false, true]);
  });
  it("gives no label, and takes no room, for a series left out", () => {
    expect(labelledMaxes([100, 105], 13, [true, false])).toEqual([false, true]);
  });
});
