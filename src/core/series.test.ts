import { describe, expect, it } from "vitest";
import { IntervalTable, inferUnitFromIntervalMax } from "./series";

function table(pairs: [number, number][]) {
  const t = new IntervalTable();
  for (const [max, col] of pairs) t.push(0, 1, max, 1, col, "");
  return t;
}

describe("inferUnitFromIntervalMax", () => {
  it("ratio 1e6 means ns values with the column in ms (jHiccup, cassandra-stress)", () => {
    expect(
      inferUnitFromIntervalMax(
        table([
          [1796210687, 1796.211],
          [2768895, 2.769],
        ]),
      ),
    ).toBe("ns");
  });
  it("ratio 1e3 means µs, 1 means ms, 1e-3 means s", () => {
    expect(inferUnitFromIntervalMax(table([[12507, 12.507]]))).toBe("us");
    expect(inferUnitFromIntervalMax(table([[125, 125.0]]))).toBe("ms");
    expect(inferUnitFromIntervalMax(table([[2, 2000]]))).toBe("s");
  });
  it("uses the largest max, where the column's 3-decimal rounding matters least", () => {
    // 0.000 column for a tiny interval would give no ratio; the big one decides.
    expect(
      inferUnitFromIntervalMax(
        table([
          [300, 0.0],
          [5_000_000, 5.0],
        ]),
      ),
    ).toBe("ns");
  });
  it("gives up on unusable or odd ratios", () => {
    expect(inferUnitFromIntervalMax(table([[0, 0]]))).toBeNull();
    expect(inferUnitFromIntervalMax(table([[5000, 1.0]]))).toBeNull();
  });
});
