// The deck's spectra and max-over-time charts, with room for 12 series, show the 12 with the
// worst max (the compared pair always among them), as the page's presentation does, and name
// the series they leave out; never simply the first 12 of the list.
import { describe, expect, it } from "vitest";
import { deckSource, spectrumUpTo } from "../../tests/support/deck-source";
import type { Unit } from "../core/types";
import type { TimelineResult } from "../engine/protocol";
import { deckModel, type DeckRow, type DeckSource } from "./deck-model";

/** 15 series; their max in ms is the list reversed (s0 lowest), three recorded in µs. */
const N = 15;
const maxMs = (i: number) => 10 * (i + 1);
const unitOf = (i: number): Unit => (i % 5 === 2 ? "us" : "ms");
const inUnit = (i: number) => (unitOf(i) === "us" ? maxMs(i) * 1000 : maxMs(i));

const rows: DeckRow[] = Array.from({ length: N }, (_, i) => ({
  view: { id: `s${i}`, name: `s${i}`, throughput: null, recordedUnit: unitOf(i), spectrum: spectrumUpTo(inUnit(i)) },
  verdict: null,
  color: "#1f77b4",
}));

const timeline: TimelineResult = {
  extent: [0, 10],
  domain: [0, 10],
  series: rows.map((r, i) => ({
    id: r.view.id,
    recordedUnit: unitOf(i),
    startTime: null,
    t0: new Float64Array([0, 5]),
    t1: new Float64Array([5, 10]),
    max: new Float64Array([inUnit(i) / 2, inUnit(i)]),
    count: new Float64Array([1, 1]),
    percentiles: {},
  })),
};

function source(pair: [string, string] | null): DeckSource {
  return deckSource({ pair, rows, timeline });
}

function lineChart(pair: [string, string] | null, title: RegExp) {
  const chart = deckModel(source(pair)).charts.find((c) => c.kind === "line" && title.test(c.title));
  if (chart?.kind !== "line") throw new Error(`no chart ${title}`);
  return { names: chart.lines.map((l) => l.name), subtitle: chart.subtitle };
}

const names = (ids: number[]) => ids.map((i) => `s${i}`);

describe("the deck's line charts with more series than room", () => {
  for (const title of [/every percentile/, /over time/]) {
    it(`${title.source}: the 12 with the worst max, in the list's order, the rest named`, () => {
      const c = lineChart(null, title);
      // s3 … s14 have the highest max (40 … 150 ms); s0, s1, s2 (10, 20, 30 ms) are left out.
      expect(c.names).toEqual(names([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]));
      expect(c.subtitle).toContain("the 12 with the worst max; 3 more with a lower max: s2, s1, s0");
    });

    it(`${title.source}: a compared pair is among them, however low its max`, () => {
      const c = lineChart(["s0", "s9"], title);
      expect(c.names).toContain("s0");
      expect(c.names).toHaveLength(12);
      expect(c.names).not.toContain("s3");
      expect(c.subtitle).toContain("3 more with a lower max: s3, s2, s1");
    });
  }
});
