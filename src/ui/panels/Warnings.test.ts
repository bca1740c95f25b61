import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { warningText, type SeriesWarning } from "../../core/warnings";
import type { SeriesView } from "../../engine/store";
import type { SeriesRow } from "./SeriesList";
import { GROUP_AT, groupWarnings, Warnings } from "./Warnings";

const DETAIL = "a native histogram of schema 3 (each bucket 9.05 % wide)";

function row(name: string, warnings: SeriesWarning[]): SeriesRow {
  return { view: { name, warnings } as unknown as SeriesView, color: "#000", dash: "", visible: true, verdict: null };
}

const bucketed = (name: string, lowNs: number, highNs: number): SeriesWarning => ({ kind: "bucketed", series: name, lowNs, highNs, detail: DETAIL });

/** `n` Prometheus series, host-0 … host-(n−1), the top bucket of host-i ending at (10 + i) ms. */
const fleet = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const name = `fleet [host-${i}]`;
    return row(name, [bucketed(name, (10 + i) * 1e6 * 2 ** -0.125, (10 + i) * 1e6)]);
  });

describe("the data's warnings", () => {
  it("below GROUP_AT series of one kind: one box each, in the warning's exact words", () => {
    const rows = fleet(GROUP_AT - 1);
    const html = renderToStaticMarkup(createElement(Warnings, { rows }));
    expect(html.match(/data-testid="warning"/g)).toHaveLength(GROUP_AT - 1);
    expect(html).not.toContain("warning-group");
    for (const r of rows) expect(html).toContain(warningText(r.view.warnings[0]!).replaceAll('"', "&quot;").replaceAll("'", "&#x27;"));
    expect(html).toContain("max within [11.92 ms, 13 ms]");
  });

  it("a thousand series with no max kept: one notice naming how many, the first of them and the highest top, no box per series until opened", () => {
    const rows = fleet(1000);
    const html = renderToStaticMarkup(createElement(Warnings, { rows }));
    expect(html.match(/data-testid="warning-group"/g)).toHaveLength(1);
    expect(html).toContain('data-kind="bucketed"');
    expect(html).toContain('data-count="1000"');
    expect(html).not.toContain('data-testid="warning"');
    expect(html).toContain("No max kept");
    expect(html).toContain("1,000 series (fleet [host-0], fleet [host-1], fleet [host-2] and 997 more) keep no max");
    // The fleet's top is in host-999's top bucket: (1009 ms / 2^0.125, 1009 ms].
    expect(html).toContain("the highest is max within [925.3 ms, 1.009 s] (fleet [host-999])");
  });

  it("kinds are grouped apart: a few saturation warnings stay boxes beside a collapsed fleet", () => {
    const rows = [...fleet(GROUP_AT), row("over_13k", [{ kind: "saturation", series: "over_13k", rise: 3.2 }])];
    const parts = groupWarnings(rows);
    expect(parts).toHaveLength(2);
    expect("items" in parts[0]! && parts[0].items.map((x) => x.name)).toEqual(rows.slice(0, GROUP_AT).map((r) => r.view.name));
    const html = renderToStaticMarkup(createElement(Warnings, { rows }));
    expect(html.match(/data-testid="warning"/g)).toHaveLength(1);
    expect(html).toContain('data-series="over_13k"');
    expect(html).toContain(`data-count="${GROUP_AT}"`);
  });

  it("a dozen saturated runs stay a box each, as outside checks count them: one warning per series", () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(`run_${i}k`, [{ kind: "saturation", series: `run_${i}k`, rise: 2 }]));
    const out = groupWarnings(rows);
    expect(out).toHaveLength(12);
    expect(out.every((g) => !("items" in g))).toBe(true);
    const html = renderToStaticMarkup(createElement(Warnings, { rows }));
    expect(html.match(/data-testid="warning"/g)).toHaveLength(12);
    expect(html).not.toContain("warning-group");
  });
  it("a dozen coordinated-omission warnings stay a box each too: only `bucketed` warnings are ever one notice", () => {
    const cliff = { suspicious: true, from: { percentile: 99, value: 3 }, to: { percentile: 99.9, value: 40 }, jump: 13 };
    const rows = Array.from({ length: 12 }, (_, i) => row(`co_${i}`, [{ kind: "coordinated-omission", series: `co_${i}`, unit: "ms", cliff }]));
    const out = groupWarnings(rows);
    expect(out).toHaveLength(12);
    expect(out.every((g) => !("items" in g))).toBe(true);
  });

  it("a fleet whose highest top bucket has no upper bound says the max is above its lower edge", () => {
    const rows = fleet(GROUP_AT);
    const last = rows.at(-1)!.view.name;
    rows.push(row("open top", [bucketed("open top", 2.5e9, Infinity)]));
    const html = renderToStaticMarkup(createElement(Warnings, { rows }));
    expect(html).toContain("11 series (fleet [host-0], fleet [host-1], fleet [host-2] and 8 more) keep no max");
    expect(html).toContain("the highest is max above 2.5 s (its top bucket has no upper bound) (open top)");
    expect(html).not.toContain(`(${last})`);
  });
});
