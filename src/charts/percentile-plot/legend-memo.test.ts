// A followed run redraws its plots a few times a second with new values and the same series:
// the legend is drawn again only when what it shows changes.
import { describe, expect, it } from "vitest";
import { newHistogram } from "../../core/histogram";
import { spectrumOf } from "../../core/spectrum";
import { sameLegend } from "./Legend";
import type { PlotSeries } from "./PercentilePlot";

function series(id: string, values: number[], patch: Partial<PlotSeries> = {}): PlotSeries {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  const sp = spectrumOf(h);
  return {
    id,
    name: id,
    color: "#1f77b4",
    dash: "",
    recordedUnit: "ms",
    values: sp.values,
    cumulative: sp.cumulative,
    totalCount: sp.totalCount,
    max: sp.max,
    min: sp.min,
    ...patch,
  };
}

const labels = ["a", "b"];
const items = [
  { x: 0, y: 0, width: 40 },
  { x: 100, y: 0, width: 40 },
];

describe("sameLegend", () => {
  const before = { series: [series("a", [1, 2, 3]), series("b", [4, 5])], labels, items };

  it("holds when only the values changed (an appended interval)", () => {
    const after = { series: [series("a", [1, 2, 3, 900]), series("b", [4, 5, 6])], labels, items };
    expect(after.series[0]!.max).not.toBe(before.series[0]!.max);
    expect(sameLegend(before, after)).toBe(true);
  });

  it("fails when an entry's colour, dash, name or missing line changes", () => {
    for (const patch of [{ color: "#ff7f0e" }, { dash: "4 2" }, { name: "a2" }, { noValues: "no successful requests: 6 failed" }]) {
      const after = { series: [series("a", [1, 2, 3], patch), series("b", [4, 5])], labels, items };
      expect(sameLegend(before, after), JSON.stringify(patch)).toBe(false);
    }
  });

  it("fails when the series, their labels or their places change", () => {
    expect(sameLegend(before, { ...before, series: [before.series[1]!, before.series[0]!] })).toBe(false);
    expect(sameLegend(before, { ...before, series: [before.series[0]!] })).toBe(false);
    expect(sameLegend(before, { ...before, labels: [...labels] })).toBe(false);
    expect(sameLegend(before, { ...before, items: [...items] })).toBe(false);
  });
});
