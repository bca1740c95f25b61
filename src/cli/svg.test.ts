import { describe, expect, it } from "vitest";
import type { SeriesView, TimelineResult } from "../engine/protocol";
import { timelineSvg } from "./svg";

// A 24-hour run drawn by `report --out`: its time axis is ticked at whole hours, like the page's.
describe("timeline SVG", () => {
  it("ticks a day at whole hours, labelled as the page labels them", () => {
    const n = 24 * 60;
    const t0 = Float64Array.from({ length: n }, (_, i) => i * 60);
    const t1 = Float64Array.from({ length: n }, (_, i) => (i + 1) * 60);
    const max = Float64Array.from({ length: n }, (_, i) => 1e6 * (1 + (i % 7)));
    const tl: TimelineResult = {
      extent: [0, 86_400],
      domain: [0, 86_400],
      series: [{ id: "a", recordedUnit: "ns", startTime: null, t0, t1, max, count: new Float64Array(n).fill(60_000), percentiles: {} }],
    };
    const view = { id: "a", name: "day" } as SeriesView;
    const svg = timelineSvg(tl, [{ view, color: "#1f77b4", dash: "" }], "ms", 960, 300);
    const axis = /<g class="axis x-axis">(.*?)<\/g>/s.exec(svg)![1]!;
    const labels = [...axis.matchAll(/<text x="[\d.]+" y="[\d.]+" text-anchor="middle">([^<]+)<\/text>/g)].map((m) => m[1]!);
    expect(labels).toEqual(["0s", "3:00:00", "6:00:00", "9:00:00", "12:00:00", "15:00:00", "18:00:00", "21:00:00", "1d 0:00:00"]);
  });
});
