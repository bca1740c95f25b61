import { describe, expect, it } from "vitest";
import { scaleLinear, scaleLog } from "d3";
import { drawSlices, lanes, sameSpan, spacedTicks, wheelSpan } from "./layout";

describe("timeline wheel steps", () => {
  it("zooms in by 0.8 around the time under the pointer, out by 1.25", () => {
    const [a, b] = wheelSpan([0, 100], { pan: false, direction: -100, at: 0.25 });
    expect(a).toBeCloseTo(5, 9); // 25 - 25 * 0.8
    expect(b).toBeCloseTo(85, 9); // 25 + 75 * 0.8
    const out = wheelSpan([a, b], { pan: false, direction: 100, at: 0.25 });
    expect(out[0]).toBeCloseTo(0, 9);
    expect(out[1]).toBeCloseTo(100, 9);
  });

  it("pans by a tenth of the span, either way, keeping its width", () => {
    expect(wheelSpan([10, 30], { pan: true, direction: 120, at: 0.5 })).toEqual([12, 32]);
    expect(wheelSpan([10, 30], { pan: true, direction: -3, at: 0.5 })).toEqual([8, 28]);
  });

  it("steps add up from the span last asked for", () => {
    let s: [number, number] = [0, 1000];
    for (let i = 0; i < 10; i++) s = wheelSpan(s, { pan: false, direction: -1, at: 0.5 });
    expect(s[1] - s[0]).toBeCloseTo(1000 * 0.8 ** 10, 6);
    expect((s[0] + s[1]) / 2).toBeCloseTo(500, 6);
  });

  it("a span sent to the engine is recognised when it comes back", () => {
    const s = wheelSpan([43_200, 44_100], { pan: false, direction: -1, at: 0.3 });
    expect(sameSpan(s, [s[0], s[1]])).toBe(true);
    expect(sameSpan(s, [s[0], s[1] + 1e-3])).toBe(false);
  });
});

describe("lanes", () => {
  it("overlaid series share one lane; per-lane stacks them", () => {
    const one = lanes(3, 220, false);
    expect(new Set(one.map((l) => `${l.top}-${l.bottom}`)).size).toBe(1);
    const stacked = lanes(3, 400, true);
    expect(stacked[1]!.top).toBeGreaterThan(stacked[0]!.bottom);
  });
});

describe("timeline draw slices", () => {
  it("one slice while the lines fit the budget (fifty short logs: drawn at once)", () => {
    expect(drawSlices(Array(50).fill(60), 4000)).toEqual([[0, 50]]);
    expect(drawSlices([], 4000)).toEqual([]);
  });
  it("whole lines in order, each slice within the budget, every line in exactly one slice", () => {
    const pts = Array.from({ length: 100 }, (_, i) => 300 + (i % 7) * 40);
    const s = drawSlices(pts, 4000);
    expect(s[0]![0]).toBe(0);
    expect(s.at(-1)![1]).toBe(100);
    for (let k = 1; k < s.length; k++) expect(s[k]![0]).toBe(s[k - 1]![1]);
    for (const [a, b] of s) expect(pts.slice(a, b).reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(4000);
    expect(s.length).toBeGreaterThan(8);
  });
  it("a line longer than the budget is a slice of its own", () => {
    expect(drawSlices([10, 86400, 10], 4000)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });
});

describe("spacedTicks", () => {
  it("labels a log lane's ticks apart, powers of ten first", () => {
    const y = scaleLog().domain([1, 1000]).range([200, 0]);
    const kept = spacedTicks(y.ticks(5), (v) => y(v));
    expect(kept).toContain(1);
    expect(kept).toContain(10);
    expect(kept).toContain(100);
    expect(kept).toContain(1000);
    const rows = kept.map((t) => y(t)).sort((a, b) => a - b);
    for (let i = 1; i < rows.length; i++) expect(rows[i]! - rows[i - 1]!).toBeGreaterThanOrEqual(14);
    expect(kept.length).toBeLessThan(y.ticks(5).length); // d3 gave 1…9 × 10^k: some had to go
  });
  it("keeps a linear axis' ticks, already apart", () => {
    const y = scaleLinear().domain([0, 200]).range([200, 0]);
    expect(spacedTicks(y.ticks(4), (v) => y(v))).toEqual(y.ticks(4));
  });
});
