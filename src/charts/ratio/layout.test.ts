import { describe, expect, it } from "vitest";
import { ratioLayout, ratioTicks, ratioXEnd, yLimit, type RatioCurvePoint } from "./layout";
import { makeXScale } from "../percentile-plot/layout";

const pt = (percentile: number, ratio: number, supported = true): RatioCurvePoint => ({
  percentile,
  ratio,
  low: ratio * 0.9,
  high: ratio * 1.1,
  supported,
  baseSpread: null,
  candSpread: null,
});

describe("ratio chart layout", () => {
  it("centres the log y axis on 1: 2× slower and 2× faster equally far from the middle", () => {
    const l = ratioLayout({ curve: [pt(50, 2), pt(90, 0.5), pt(99, 1)], maxRatio: 1.5, margin: 0.05, size: { width: 600, height: 300 } });
    const mid = l.y(1);
    expect(l.y(2) - mid).toBeCloseTo(mid - l.y(0.5), 6);
    expect(l.y.domain()[0]! * l.y.domain()[1]!).toBeCloseTo(1, 12);
  });

  it("uses the percentile plot's x scale", () => {
    const curve = [pt(0, 1), pt(90, 1), pt(99.9, 1)];
    const l = ratioLayout({ curve, maxRatio: 1, margin: 0.05, size: { width: 600, height: 300 } });
    const ref = makeXScale(1000, { width: 600, height: 300 });
    expect(l.xEnd).toBe(1000);
    expect(l.x(10)).toBe(ref(10));
    expect(l.dots.map((d) => d.cx)).toEqual([ref(1), ref(10), ref(1000)]);
  });

  it("stops the curve where the data stops supporting it; the max is a point", () => {
    const l = ratioLayout({ curve: [pt(50, 1.2), pt(99, 1.3), pt(99.99, 4, false)], maxRatio: 3, margin: 0.05, size: { width: 600, height: 300 } });
    expect(l.dots).toHaveLength(2);
    expect(l.xEnd).toBe(100);
    expect(l.maxPoint).not.toBeNull();
    expect(l.bandPath.startsWith("M")).toBe(true);
  });

  it("picks symmetric limits and ticks", () => {
    expect(yLimit([1.02], 0.05)).toBe(1.5);
    expect(yLimit([3.1], 0.05)).toBe(5);
    expect(yLimit([1 / 3.1], 0.05)).toBe(5);
    const t = ratioTicks(5);
    expect(t.find((x) => x.value === 1)?.label).toBe("1");
    expect(t.some((x) => x.label === "×2")).toBe(true);
    expect(t.some((x) => Math.abs(x.value - 0.5) < 1e-12 && x.label === "÷2")).toBe(true);
    // Never crowded: neighbours at least a quarter of the half-axis apart (in log terms).
    for (const lim of [1.5, 5, 100, 1e4]) {
      const v = ratioTicks(lim).map((x) => Math.log(x.value));
      for (let i = 1; i < v.length; i++) expect(v[i]! - v[i - 1]!).toBeGreaterThanOrEqual(Math.log(lim) / 4 - 1e-9);
    }
    expect(ratioXEnd([pt(99.95, 1)])).toBe(10_000);
  });
});
