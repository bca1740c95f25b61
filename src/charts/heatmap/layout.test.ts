import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { colourIndex, DARK_FLOOR, heatmapAxisNs, lanesOnAxis, LUT, lutCss, paintColumns, valueRow } from "./layout";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import type { HeatmapSeries } from "../../engine/query-types";
import { deckModel } from "../../pptx/deck-model";
import { deckSource } from "../../../tests/support/deck-source";

/** WCAG relative luminance and contrast ratio, for "can one tell this cell from the page". */
function luminance([r, g, b]: number[]): number {
  const f = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
}
const contrast = (a: number[], b: number[]) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};
const rgb = (css: string) => css.match(/\d+/g)!.map(Number);
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

describe("heatmap colours", () => {
  const css = readFileSync(join(__dirname, "../../styles.css"), "utf8");
  const dark = css.slice(css.indexOf('[data-theme="dark"] {'));
  const darkColours = ["--bg", "--panel"].map((v) => hex(new RegExp(`${v}:\\s*(#[0-9a-f]{6})`).exec(dark)![1]!));

  it("paints one value, the tail, at least 3:1 against the dark theme's backgrounds", () => {
    const one = rgb(lutCss(colourIndex(1, 50_000, DARK_FLOOR)));
    for (const bg of darkColours) expect(contrast(one, bg)).toBeGreaterThanOrEqual(3);
    // Without the floor it would not be: the reason for it.
    expect(contrast(rgb(lutCss(colourIndex(1, 50_000))), darkColours[0]!)).toBeLessThan(1.5);
  });
  it("keeps more values brighter (towards yellow) on either background", () => {
    for (const floor of [0, DARK_FLOOR]) {
      const idx = [1, 2, 10, 1000, 50_000].map((c) => colourIndex(c, 50_000, floor));
      expect(idx[0]).toBe(floor);
      expect(idx[4]).toBe(255);
      for (let i = 1; i < idx.length; i++) expect(idx[i]!).toBeGreaterThan(idx[i - 1]!);
      const lum = idx.map((i) => luminance(rgb(lutCss(i))));
      for (let i = 1; i < lum.length; i++) expect(lum[i]!).toBeGreaterThan(lum[i - 1]!);
    }
  });
  it("paints every lane on the legend's one scale: a quieter lane's busiest cell is not the legend's top colour", () => {
    const quiet = { t0: [0], t1: [1], cells: [10, 1], rows: 2, maxCell: 10 };
    const own = paintColumns(quiet, 0, 1, 1);
    const shared = paintColumns(quiet, 0, 1, 1, 0, 1000);
    expect(own[1]).toBe(LUT[255]); // row 0 (10 values) is the bottom pixel row, the last word
    expect(shared[1]).toBe(LUT[colourIndex(10, 1000)]);
    expect(shared[1]).not.toBe(LUT[255]);
  });
});

describe("the page's heatmap lanes and the deck's: one latency axis, the same for both", () => {
  /** A lane of one column in `unit` on its own axis [lo, hi), `count` values of `v` in the row that holds it. */
  const lane = (id: string, lo: number, hi: number, v: number, count: number, recordedUnit: Unit = "ns", rows = 110): HeatmapSeries => {
    const cells = new Float64Array(rows);
    cells[Math.min(rows - 1, Math.floor(valueRow(v, lo, hi, rows)))] = count;
    return { id, recordedUnit, startTime: null, lo, hi, rows, t0: new Float64Array([0]), t1: new Float64Array([1]), max: new Float64Array([v]), cells, maxCell: count };
  };
  const deckLanes = (lanes: HeatmapSeries[]) => {
    const model = deckModel(deckSource({ yLog: false, heatmap: { lanes: lanes.map((d) => ({ name: d.id, data: d })), domain: [0, 1] } }));
    const chart = model.charts.find((c) => c.kind === "heatmap");
    if (chart?.kind !== "heatmap") throw new Error("no heatmap slide");
    return chart;
  };
  const nsAxis = (d: HeatmapSeries) => [d.lo * NANOS_PER_UNIT[d.recordedUnit], d.hi * NANOS_PER_UNIT[d.recordedUnit]];

  // A: 50 µs to 200 ms (a stall); B: 20 µs to 2 ms, recorded in µs. Together: 20 µs to 200 ms.
  const a = lane("A", 5e4, 2e8, 1e6, 700);
  const b = lane("B", 20, 2000, 1000, 7, "us", 60);

  it("overlapping ranges: every lane on the page and on the slide spans the same axis, from the smallest to the largest value", () => {
    const page = lanesOnAxis([a, b]);
    expect(page.axisNs).toEqual([2e4, 2e8]);
    for (const l of page.lanes) {
      const [lo, hi] = nsAxis(l.data);
      expect(lo).toBeCloseTo(2e4, 6);
      expect(hi).toBeCloseTo(2e8, 0);
    }
    // The page's rows are all of one height: as many as make none wider than either lane's own.
    expect(page.lanes[0]!.data.rows).toBe(page.lanes[1]!.data.rows);
    const deck = deckLanes([a, b]);
    expect(deck.subtitle).toContain("All lanes on one latency axis");
    expect(deck.subtitle).toContain("A colour is the same count in every lane.");
    expect(deck.lanes.map((l) => l.axisNs)).toEqual([page.axisNs, page.axisNs]);
    // The slide's latency labels are the same for both lanes.
    expect(deck.lanes[1]!.ticks).toEqual(deck.lanes[0]!.ticks);
  });

  it("one colour scale on the slide, as on the page: a lane of 7 values is not painted as brightly as one of 700", () => {
    /** The distinct colours (RGBA words) of a PNG the deck holds (8-bit RGBA, filter 0 on each row). */
    const colours = (png: Uint8Array, width: number) => {
      const data: Uint8Array[] = [];
      const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
      for (let at = 8; at < png.length;) {
        const len = v.getUint32(at);
        if (String.fromCharCode(...png.subarray(at + 4, at + 8)) === "IDAT") data.push(png.subarray(at + 8, at + 8 + len));
        at += 12 + len;
      }
      const raw = inflateSync(Buffer.concat(data));
      const out = new Set<number>();
      for (let r = 0; r * (width * 4 + 1) < raw.length; r++)
        for (let x = 0; x < width; x++) {
          const o = r * (width * 4 + 1) + 1 + x * 4;
          if (raw[o + 3]) out.add((raw.readUInt32LE(o) >>> 0) as number);
        }
      return out;
    };
    const [la, lb] = deckLanes([a, b]).lanes;
    expect(colours(la!.png, la!.width)).toEqual(new Set([LUT[255]]));
    // The page's legend: 7 of at most 700 is this entry, far from the brightest.
    expect(colours(lb!.png, lb!.width)).toEqual(new Set([LUT[colourIndex(7, 700)]]));
  });

  it("1 ms is at the same height in both lanes on the page: the row of its cells is the same", () => {
    const page = lanesOnAxis([a, b]);
    const rowOf = (d: HeatmapSeries) => [...d.cells.keys()].filter((j) => d.cells[j]! > 0);
    const [ra, rb] = page.lanes.map((l) => rowOf(l.data));
    expect(ra!.length).toBeGreaterThan(0);
    // Each lane's own row of 1 ms, re-drawn, lies where 1 ms is on the shared axis (log(50)/log(10⁴)
    // of the way up from 20 µs to 200 ms), within about one of its own rows.
    const at = Math.log(1e6 / 2e4) / Math.log(2e8 / 2e4);
    const n = page.lanes[0]!.data.rows;
    for (const rows of [ra!, rb!]) for (const j of rows) expect(Math.abs((j + 0.5) / n - at)).toBeLessThan(1 / 60);
    // Counts keep their size: the busiest cell of each lane is the engine's.
    expect(page.lanes.map((l) => l.data.maxCell)).toEqual([700, 7]);
  });

  it("ranges apart: each lane keeps its own axis, on the page and on the slide alike", () => {
    const far = lane("C", 1e9, 1e11, 5e9, 3);
    const small = lane("D", 1e3, 1e5, 1e4, 3);
    const page = lanesOnAxis([far, small]);
    expect(page.axisNs).toBeNull();
    expect(page.lanes.map((l) => l.data)).toEqual([far, small]);
    const deck = deckLanes([far, small]);
    expect(deck.lanes.map((l) => l.axisNs)).toEqual([nsAxis(far), nsAxis(small)]);
    expect(heatmapAxisNs([far, small])).toBeNull();
  });

  it("at most one row per px of the lane, and a lone value in a row of its own is still drawn", () => {
    // C: 1 to 1.2 ms in 110 rows, one value at 1.1 ms; beside A the shared axis spans 4 decades.
    const c = lane("C", 1e6, 1.2e6, 1.1e6, 1);
    const page = lanesOnAxis([a, c], 80);
    expect(page.lanes.map((l) => l.data.rows)).toEqual([80, 80]);
    expect(page.lanes[1]!.data.maxCell).toBe(1);
    expect(page.lanes[1]!.data.cells.filter((x) => x > 0)).toHaveLength(1);
  });

  it("one lane keeps its own axis", () => {
    expect(lanesOnAxis([a]).axisNs).toBeNull();
    expect(deckLanes([a]).lanes[0]!.axisNs).toEqual(nsAxis(a));
  });
});
