import { describe, expect, it } from "vitest";
import type { Change, RunSummary } from "../../core/history/types";
import { historyLayout, stretchBefore } from "./layout";

/** Runs whose p50 is 1 ms, then 1.3 ms from run 5 on; p99.99 too thinly supported to judge. */
function runs(): RunSummary[] {
  return Array.from({ length: 10 }, (_, i) => ({
    id: `r${i}`,
    start: i,
    series: [
      {
        name: "s",
        unit: "ns",
        count: 100_000,
        percentiles: { "50": (i >= 5 ? 1.3 : 1) * 1e6, "90": 2e6, "99": 4e6, "99.9": 8e6, "99.99": 16e6, "99.999": 20e6, "100": 30e6 },
        se: { "50": 0.01, "90": 0.01, "99": 0.02, "99.9": 0.05, "99.99": null },
      },
    ],
  }));
}
const change: Change = {
  series: "s",
  run: "r5",
  index: 5,
  percentile: 50,
  before: 1e6,
  after: 1.3e6,
  ratio: 1.3,
  low: 1.25,
  high: 1.35,
  direction: "worse",
  beforeRuns: [0, 5],
  afterRuns: [5, 10],
  p: 0.005,
};

describe("history layout", () => {
  const l = historyLayout({ runs: runs(), series: "s", changes: [change], width: 800, scale: 1e-6, margin: 0.05 });

  it("marks the change between the run before it and its run", () => {
    expect(l.markers).toHaveLength(1);
    expect(l.markers[0]!.x).toBeCloseTo((l.xs[4]! + l.xs[5]!) / 2, 6);
  });

  it("draws each run's interval where it has one, and no line where the runs cannot support the percentile", () => {
    expect(l.bars.filter((b) => b.percentile === 50)).toHaveLength(10);
    expect(l.lines.find((x) => x.percentile === 99.99)!.d).toBe("");
    expect(l.lines.find((x) => x.percentile === 100)!.d).toMatch(/^M/);
  });

  it("colours a run by its ratio to the stable stretch before it", () => {
    expect(stretchBefore(5, [change], "s")).toEqual([0, 5]);
    expect(stretchBefore(7, [change], "s")).toEqual([5, 7]);
    const cell = (run: number, p: number) => l.strip.cells.find((c) => c.run === run && c.percentile === p)!;
    expect(cell(5, 50).ratio).toBeCloseTo(1.3, 9);
    expect(cell(5, 50).fill).toMatch(/^hsl\(4 /);
    // After the change, the stretch before run 7 is runs 5 and 6: the same values, a neutral cell.
    expect(cell(7, 50).ratio).toBeCloseTo(1, 9);
    expect(cell(7, 50).fill).toContain("history-same");
    expect(cell(0, 50).ratio).toBeNull();
    // p99.999 with 100,000 values: 1 above it, not coloured.
    expect(cell(5, 99.999).ratio).toBeNull();
  });
});
