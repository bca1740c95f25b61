// The heatmap slide shows the same lanes in the page's presentation and in the PowerPoint deck:
// the series with the worst max (the compared pair always among them), in the list's order.
import { describe, expect, it } from "vitest";
import { valueRow } from "../../charts/heatmap/layout";
import { deckSource, spectrumUpTo } from "../../../tests/support/deck-source";
import type { Unit } from "../../core/types";
import type { HeatmapSeries } from "../../engine/query-types";
import { deckModel, type DeckRow, type DeckSource } from "../../pptx/deck-model";
import { presentedHeatmapLanes } from "./deck-slides";

/** One column holding one value `v` (recorded unit) on an axis [lo, hi). */
function lane(id: string, v: number, recordedUnit: Unit): HeatmapSeries {
  const [lo, hi, rows] = [v / 100, v * 2, 110];
  const cells = new Float64Array(rows);
  cells[Math.min(rows - 1, Math.floor(valueRow(v, lo, hi, rows)))] = 3;
  return { id, recordedUnit, startTime: null, lo, hi, rows, t0: new Float64Array([0]), t1: new Float64Array([1]), max: new Float64Array([v]), cells, maxCell: 3 };
}

/** Six series and their max: two in µs, so only the max in one unit orders them. */
const SIX: [name: string, max: number, unit: Unit][] = [
  ["a", 5, "ms"], // 5 ms
  ["b", 40_000, "us"], // 40 ms
  ["c", 12, "ms"], // 12 ms
  ["d", 40, "ms"], // 40 ms, tied with b: the list's order
  ["e", 3_000, "us"], // 3 ms
  ["f", 25, "ms"], // 25 ms
];

const rows: DeckRow[] = SIX.map(([name, max, recordedUnit], i) => ({
  view: { id: `s${i}`, name, throughput: null, recordedUnit, spectrum: spectrumUpTo(max) },
  verdict: null,
  color: "#1f77b4",
}));
const lanes = SIX.map(([name, max, unit], i) => ({ name, data: lane(`s${i}`, max, unit) }));

function source(pair: [string, string] | null): DeckSource {
  return deckSource({ pair, rows, heatmap: { lanes, domain: [0, 1] } });
}

function deckLanes(pair: [string, string] | null): { names: string[]; more: string } {
  const chart = deckModel(source(pair)).charts.find((c) => c.kind === "heatmap");
  if (chart?.kind !== "heatmap") throw new Error("no heatmap slide");
  return { names: chart.lanes.map((l) => l.name), more: chart.more };
}

/** A presentation slide whose heatmap has room for exactly four lanes (74 px each, 42 for its words, 30 for the line under it). */
const FOUR_LANES = 42 + 30 + 4 * 74;

describe("the heatmap slide's lanes", () => {
  it("of 6 series, the deck shows the 4 with the worst max, in the list's order, and says so", () => {
    const deck = deckLanes(null);
    // 40, 40, 25 and 12 ms: b, d, f and c; a (5 ms) and e (3 ms) are left out.
    expect(deck.names).toEqual(["b", "c", "d", "f"]);
    expect(deck.more).toBe("4 of 6 series, by worst max; not shown: a, e.");
  });

  it("the presentation, with room for 4, shows the same series as the deck", () => {
    const page = presentedHeatmapLanes(lanes, rows, null, FOUR_LANES);
    expect(page.shown.map((l) => l.name)).toEqual(deckLanes(null).names);
    expect(page.more).toEqual(["a", "e"]);
  });

  it("a compared pair is among them in both, even with the lowest max", () => {
    const pair: [string, string] = ["e", "a"];
    const deck = deckLanes(pair);
    expect(deck.names).toEqual(["a", "b", "d", "e"]);
    expect(deck.more).toBe("4 of 6 series, by worst max, the compared pair among them; not shown: f, c.");
    expect(presentedHeatmapLanes(lanes, rows, pair, FOUR_LANES).shown.map((l) => l.name)).toEqual(deck.names);
  });

  it("with room for all, every lane and no word about a choice", () => {
    const few = lanes.slice(0, 3);
    expect(presentedHeatmapLanes(few, rows, null, FOUR_LANES).shown.map((l) => l.name)).toEqual(["a", "b", "c"]);
    const chart = deckModel({ ...source(null), heatmap: { lanes: few, domain: [0, 1] } }).charts.find((c) => c.kind === "heatmap");
    expect(chart?.kind === "heatmap" && chart.lanes.map((l) => l.name)).toEqual(["a", "b", "c"]);
    expect(chart?.kind === "heatmap" && chart.more).toBe("");
  });
});
