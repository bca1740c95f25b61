// The charts with data shaped like a real investigation: a jHiccup-like log whose hiccups are
// mostly 0 µs on a log axis, and 24 series at once (legend beside the curves, never over them).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../tests/support/queue-sim";
import { newHistogram } from "../core/histogram";
import { spectrumOf } from "../core/spectrum";
import { PercentilePlot, type PlotSeries } from "./percentile-plot/PercentilePlot";
import { legendLayout, MARGIN } from "./percentile-plot/layout";
import { PALETTE } from "../core/palette/colors";

/** jHiccup's shape: most hiccups 0 µs (recorded in ns), some tens of µs, a few ms-long pauses. */
function jhiccupLike(id: string, seed: number): PlotSeries {
  const rand = mulberry32(seed);
  const h = newHistogram();
  for (let i = 0; i < 20000; i++) {
    const r = rand();
    h.recordValue(r < 0.7 ? 0 : r < 0.995 ? Math.round(20000 + rand() * 80000) : Math.round(1e6 + rand() * 5e7));
  }
  const s = spectrumOf(h);
  return { id, name: id, color: "#0072B2", dash: "", recordedUnit: "ns", values: s.values, cumulative: s.cumulative, totalCount: s.totalCount, max: s.max, min: s.min };
}

function logNormal(id: string, seed: number, medianNs: number, color: string): PlotSeries {
  const rand = mulberry32(seed);
  const h = newHistogram();
  for (let i = 0; i < 5000; i++) {
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    h.recordValue(Math.max(1, Math.round(medianNs * Math.exp(0.5 * z))));
  }
  const s = spectrumOf(h);
  return { id, name: id, color, dash: "", recordedUnit: "ns", values: s.values, cumulative: s.cumulative, totalCount: s.totalCount, max: s.max, min: s.min };
}

const render = (series: PlotSeries[], yLog: boolean, width = 900) => renderToStaticMarkup(createElement(PercentilePlot, { series, unit: "us", yLog, width, height: 440 }));

const paths = (markup: string) => [...markup.matchAll(/<path d="([^"]*)"[^>]*data-series="([^"]*)"/g)].map((m) => ({ d: m[1]!, name: m[2]! }));

describe("log latency axis with zeros", () => {
  it("a jHiccup-like log with 0 µs hiccups draws its whole curve: no NaN, starting at the axis floor, and says so", () => {
    const s = [jhiccupLike("hiccup.hlog", 1), logNormal("other", 2, 50000, "#D55E00")];
    const markup = render(s, true);
    const ps = paths(markup);
    expect(ps).toHaveLength(2);
    for (const p of ps) {
      expect(p.d).not.toMatch(/NaN|Infinity/);
      expect(p.d.split("L").length).toBeGreaterThan(4);
    }
    // The curve's first run (the zeros, 70 % of the values) lies on the axis' floor, the
    // plot's bottom edge, over its whole width; then the curve rises.
    const m = /^M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)L([\d.]+),([\d.]+)/.exec(ps[0]!.d)!;
    expect(Number(m[2])).toBeCloseTo(440 - MARGIN.bottom, 6);
    expect(Number(m[4])).toBeCloseTo(440 - MARGIN.bottom, 6);
    expect(Number(m[6])).toBeLessThan(440 - MARGIN.bottom - 20);
    expect(markup).toContain('data-testid="plot-floor-note"');
    expect(markup).toMatch(/values below [\d.]+ µs \(zeros included\): drawn at the log axis/);
    // Max markers are numbers too.
    expect(markup).not.toMatch(/c[xy]="NaN"/);
  });

  it("on a linear axis zeros are drawn at 0 and no note is given", () => {
    const markup = render([jhiccupLike("hiccup.hlog", 1)], false);
    expect(paths(markup)[0]!.d).not.toMatch(/NaN/);
    expect(markup).not.toContain("plot-floor-note");
  });
});

describe("24 series", () => {
  const names = Array.from({ length: 24 }, (_, i) => `gatling-run-20261101/simulation [Request number ${i + 1} of the scenario]`);
  const many = names.map((n, i) => ({ ...logNormal(n, 10 + i, 20000 * (1 + i / 4), PALETTE[i]!), id: `s${i}` }));

  it("the legend lists every series under the plot: no entry intersects the plot area", () => {
    for (const width of [320, 640, 900, 1400]) {
      const labels = many.map((s) => s.name.slice(0, 30));
      const { items, height } = legendLayout(labels, width, 440);
      expect(items).toHaveLength(24);
      const plot = { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top, bottom: 440 - MARGIN.bottom };
      for (const it of items) {
        // An entry is a swatch and a label a row high around its y.
        const box = { left: it.x, right: it.x + it.width, top: it.y - 8, bottom: it.y + 8 };
        const overlaps = box.left < plot.right && box.right > plot.left && box.top < plot.bottom && box.bottom > plot.top;
        expect(overlaps).toBe(false);
        expect(box.right).toBeLessThanOrEqual(width);
        expect(box.bottom).toBeLessThanOrEqual(440 + height);
      }
      // Entries do not overlap each other.
      for (let i = 0; i < items.length; i++)
        for (let j = i + 1; j < items.length; j++) {
          const a = items[i]!;
          const b = items[j]!;
          expect(Math.abs(a.y - b.y) >= 16 || a.x + a.width <= b.x || b.x + b.width <= a.x).toBe(true);
        }
    }
  });

  it("names keep what tells them apart (the request), with the full name as the entry's title", () => {
    const markup = render(many, true);
    const entries = [...markup.matchAll(/data-testid="legend-item" data-series="([^"]*)"><title>([^<]*)<\/title>.*?<text[^>]*>([^<]*)<\/text>/g)];
    expect(entries).toHaveLength(24);
    const shown = entries.map((m) => m[3]!);
    expect(new Set(shown).size).toBe(24);
    for (const [k, m] of entries.entries()) {
      expect(m[2]).toBe(names[k]);
      expect(shown[k]).toContain(`${k + 1}`);
      expect(shown[k]).not.toContain("gatling-run");
    }
    // The svg grew to hold the legend.
    expect(Number(/height="(\d+)"/.exec(markup)![1])).toBeGreaterThan(440);
  });
});
