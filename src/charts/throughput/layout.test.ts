import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ThroughputChart } from "./ThroughputChart";
import { spreadLabels, type TpLine } from "./layout";

describe("throughput chart labels", () => {
  it("labels wanted at the same place are spread a gap apart, in order, inside the column", () => {
    const ys = spreadLabels([100, 100, 101, 300, 50, 395], 13, 10, 400);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let k = 1; k < sorted.length; k++) expect(sorted[k]! - sorted[k - 1]!).toBeGreaterThanOrEqual(13 - 1e-9);
    for (const y of ys) expect(y).toBeGreaterThanOrEqual(10);
    for (const y of ys) expect(y).toBeLessThanOrEqual(400);
    expect(ys[0]!).toBeLessThan(ys[1]!);
    expect(ys[3]).toBe(300);
    expect(ys[4]).toBe(50);
  });

  it("with six configurations ending at the same throughput and close values, and three limits, no two labels overlap", () => {
    const lines: TpLine[] = [];
    for (let c = 0; c < 6; c++)
      for (const p of [99, 99.9])
        lines.push({
          config: `configuration-${c}`,
          percentile: p,
          color: "#0072B2",
          dash: "",
          points: [2000, 4000, 8000].map((t, k) => ({ throughput: t, value: (1 + k) * (p === 99 ? 10 : 11) * (1 + c * 0.02), pass: true })),
        });
    const limits = [99, 99.9, 100].map((p, k) => ({ percentile: p, limit: 30 + k * 2, label: `p${p} ≤ ${30 + k * 2} ms` }));
    const html = renderToStaticMarkup(createElement(ThroughputChart, { lines, limits, unit: "ms", width: 800, height: 320 }));
    const ys = [...html.matchAll(/<text x="[\d.]+" y="([\d.]+)"[^>]*data-testid="tp-label"/g)].map((m) => Number(m[1]));
    expect(ys).toHaveLength(15);
    ys.sort((a, b) => a - b);
    for (let k = 1; k < ys.length; k++) expect(ys[k]! - ys[k - 1]!).toBeGreaterThanOrEqual(12.99);
  });
});
