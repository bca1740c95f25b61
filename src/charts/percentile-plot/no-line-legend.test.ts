// A series whose every request failed has no value to draw: its legend entry says so, in the
// words the table and `report --json` use for it, the same on the page's chart and the slides'.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { newHistogram } from "../../core/histogram";
import { noValuesText } from "../../core/judge";
import { spectrumOf } from "../../core/spectrum";
import { deckModel } from "../../pptx/deck-model";
import { deckSource } from "../../../tests/support/deck-source";
import { PercentilePlot, type PlotSeries } from "./PercentilePlot";

function spectrum(values: number[]) {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  return spectrumOf(h);
}

const ok = spectrum(Array.from({ length: 500 }, (_, i) => 1000 + i * 10));
const none = spectrum([]);
/** Gatling's `checkout / pay` in a real run: 6 requests, all KO. */
const payView = { id: "s2", name: "checkout / pay", throughput: null, recordedUnit: "ms" as const, spectrum: none, wholeCount: 0, failures: 6 };
const WORDS = "checkout / pay: no successful requests: 6 failed, nothing to draw";

const plot = (s: typeof ok, id: string, name: string, noValues?: string | null): PlotSeries => ({
  id,
  name,
  color: "#1f77b4",
  dash: "",
  recordedUnit: "ms",
  values: s.values,
  cumulative: s.cumulative,
  totalCount: s.totalCount,
  max: s.max,
  min: s.min,
  noValues,
});

describe("a legend entry without a line", () => {
  it("says why on the page: no successful requests, how many failed, nothing to draw; its swatch muted", () => {
    const series = [plot(ok, "s1", "checkout / cart"), plot(none, "s2", "checkout / pay", noValuesText(payView))];
    const html = renderToStaticMarkup(createElement(PercentilePlot, { series, unit: "ms", yLog: true, width: 900, height: 400 }));
    const items = [...html.matchAll(/<g [^>]*data-testid="legend-item"[^>]*>[\s\S]*?<\/g>/g)].map((m) => m[0]);
    expect(items).toHaveLength(2);
    const [cart, pay] = items as [string, string];
    // The names share "checkout / ": the legend keeps what tells them apart, then the reason.
    expect(pay).toContain('data-novalues="no successful requests: 6 failed"');
    expect(pay).toMatch(/<text[^>]*>[^<]*pay: no successful requests: 6 failed, nothing to draw<\/text>/);
    expect(pay).toContain(`<title>${WORDS}</title>`);
    expect(pay).toContain('opacity="0.3"');
    expect(cart).not.toContain("nothing to draw");
    expect(cart).not.toContain("data-novalues");
    expect(cart).not.toContain("opacity");
  });

  it("the slides' spectrum names it in the same words", () => {
    const source = deckSource({
      rows: [
        {
          view: { id: "s1", name: "checkout / cart", throughput: null, recordedUnit: "ms", spectrum: ok, wholeCount: ok.totalCount, failures: 0 },
          verdict: null,
          color: "#1f77b4",
        },
        { view: payView, verdict: null, color: "#d62728" },
      ],
    });
    const chart = deckModel(source).charts[0]!;
    expect(chart.kind).toBe("line");
    const lines = chart.kind === "line" ? chart.lines : [];
    expect(lines.map((l) => l.name)).toEqual(["checkout / cart", WORDS]);
    expect(lines[1]!.values.every((v) => v === null)).toBe(true);
  });
});
