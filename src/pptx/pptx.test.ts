// The deck written by the command line, read back from the file (its XML parts): slide 1 holds
// the headline as text, equal to `report --json`'s headlineText; each chart is there with the
// series it draws; the method is in the speaker notes. With LibreOffice present, the deck is
// also converted to PDF and PNG pages, as a person opening it would see it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPptx } from "../../tests/support/pptx-read";
import { main } from "../cli/main";
import { valueRow } from "../charts/heatmap/layout";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import type { HeatmapSeries } from "../engine/query-types";
import { pptxDash, sharedAxisNs } from "./deck-model";
import { dashOf } from "../core/palette/colors";
import { encodePng } from "./heatmap-png";
import { onAxis } from "../charts/heatmap/layout";

const demo = path.resolve(__dirname, "../../public/demo");
const A = path.join(demo, "sysA_2k.response.hlog");
const B = path.join(demo, "sysB_2k.response.hlog");
const haveSoffice = spawnSync("soffice", ["--version"]).status === 0 && spawnSync("pdftoppm", ["-v"]).status === 0;

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

describe("report --out DIR writes DIR/deck.pptx", () => {
  const out = mkdtempSync(path.join(tmpdir(), "hdr-deck-"));
  let json: { comparison: { pairs: { headlineText: string; candidate: string }[] }; series: { name: string }[] };

  it("with --compare: slide 1 is the headline, each side's verdict and the context; charts follow", async () => {
    const r = await run(["report", "--json", "--require", "p99<=10ms", "--compare", A, B, "--out", out]);
    expect(r.code).toBe(0);
    json = JSON.parse(r.stdout) as typeof json;
    const deck = await readPptx(readFileSync(path.join(out, "deck.pptx")));
    const [first, ...rest] = deck.slides;
    const headline = json.comparison.pairs[0]!.headlineText;
    expect(headline).toMatch(/^sysB_2k\.response is [\d,.]+× faster than sysA_2k\.response at p99: /);
    expect(first!.text.startsWith(headline)).toBe(true);
    // sysA's p99 is above 10 ms in the demo (its stalls), sysB's far below.
    expect(first!.text).toMatch(/✗ sysA_2k\.response misses it: p99 is [\d.]+ ms, limit 10 ms/);
    expect(first!.text).toMatch(/✓ sysB_2k\.response meets the requirement/);
    expect(first!.text).toMatch(/at 2k\/s · 60 s each · 120,000 and 120,000 values counted/);
    expect(first!.notes).toMatch(/bootstrap resamples/);
    expect(first!.notes).toMatch(/never averaged/);

    expect(rest.map((s) => s.text.split(/(?<=[a-z])(?=[A-Z])/)[0])).toEqual([
      "Latency at every percentile, against the requirement",
      "The slowest request over time",
      "Where the values lie over time",
    ]);
    // The spectra and the max over time are native charts naming both series; the heatmap an image per series.
    for (const s of rest.slice(0, 2)) {
      expect(s.charts).toHaveLength(1);
      const xml = deck.chartXml[s.charts[0]!]!;
      for (const name of ["sysA_2k.response", "sysB_2k.response"]) expect(xml).toContain(`<c:v>${name}</c:v>`);
      expect(xml).toContain('<c:logBase val="10"/>');
    }
    expect(deck.chartXml[rest[0]!.charts[0]!]).toContain("requirement: p99 ≤ 10 ms");
    expect(rest[2]!.images.filter((x) => x.endsWith(".png"))).toHaveLength(2);
    for (const s of rest) expect(s.notes.length).toBeGreaterThan(20);
  });

  it("the spectra chart's points are the series' own percentiles (p50, p99, max from report --json)", async () => {
    const r = await run(["report", "--json", A, "--out", out]);
    const j = JSON.parse(r.stdout) as { series: { percentiles: Record<string, number> }[] };
    const deck = await readPptx(readFileSync(path.join(out, "deck.pptx")));
    const xml = deck.chartXml[deck.slides[1]!.charts[0]!]!;
    const vals = [...xml.matchAll(/<c:val>[\s\S]*?<\/c:val>/g)][0]![0];
    const points = [...vals.matchAll(/<c:v>([^<]+)<\/c:v>/g)].map((m) => Number(m[1]));
    // The recorded unit is ns; the deck shows ms. Steps of 1/20 of a nine: p90 is point 20, p99 point 40; the last is the max.
    const ms = (ns: number) => ns / 1e6;
    expect(points[20]).toBeCloseTo(ms(j.series[0]!.percentiles["90"]!), 9);
    expect(points[40]).toBeCloseTo(ms(j.series[0]!.percentiles["99"]!), 9);
    expect(points[points.length - 1]).toBeCloseTo(ms(j.series[0]!.percentiles["100"]!), 9);
    // Without a comparison, slide 1 leads with the verdict sentence or the default title.
    expect(deck.slides[0]!.text).toMatch(/^The whole latency spectrum, max included/);
  });

  it.skipIf(!haveSoffice)(
    "opens in LibreOffice Impress: one PDF page per slide, rendered to PNG",
    () => {
      const pdfDir = mkdtempSync(path.join(tmpdir(), "hdr-deck-pdf-"));
      // A profile of its own, so that a LibreOffice already running elsewhere does not take the job.
      const profile = `-env:UserInstallation=file://${mkdtempSync(path.join(tmpdir(), "hdr-deck-lo-"))}`;
      const r = spawnSync("soffice", [profile, "--headless", "--convert-to", "pdf", "--outdir", pdfDir, path.join(out, "deck.pptx")], { encoding: "utf8", timeout: 120_000 });
      expect(r.status).toBe(0);
      const pdf = path.join(pdfDir, "deck.pdf");
      expect(existsSync(pdf)).toBe(true);
      expect(spawnSync("pdftoppm", ["-r", "40", "-png", pdf, path.join(pdfDir, "page")]).status).toBe(0);
      const pages = readdirSync(pdfDir).filter((f) => f.endsWith(".png"));
      // The last deck written (a single series, no requirement): headline, spectra, max over time, heatmap.
      expect(pages).toHaveLength(4);
      for (const p of pages) expect(statSync(path.join(pdfDir, p)).size).toBeGreaterThan(2000);
    },
    150_000,
  );
});

describe("two throughputs of one configuration in the deck", () => {
  /** Each line of a chart: its name, colour and PowerPoint dash, read from the chart's XML. */
  const linesOf = (xml: string) =>
    [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((m) => ({
      name: /<c:tx>[\s\S]*?<c:v>([^<]+)<\/c:v>/.exec(m[1]!)![1]!,
      color: /<c:spPr>[\s\S]*?<a:srgbClr val="([0-9A-F]{6})"/i.exec(m[1]!)![1]!,
      dash: /<a:prstDash val="([a-zA-Z]+)"/.exec(m[1]!)![1]!,
    }));

  it("differ by dash as on the page (the higher throughput solid), on both charts; the requirement is dashed", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "hdr-deck-dash-"));
    const A4 = path.join(demo, "sysA_4k.response.hlog");
    const r = await run(["report", A, A4, B, "--require", "p99<=20ms", "--out", out]);
    expect(r.code).toBe(0);
    const deck = await readPptx(readFileSync(path.join(out, "deck.pptx")));
    for (const slide of deck.slides.slice(1, 3)) {
      const lines = linesOf(deck.chartXml[slide.charts[0]!]!);
      const by = new Map(lines.map((l) => [l.name, l]));
      expect(by.get("sysA_4k.response")!.dash).toBe("solid");
      expect(by.get("sysA_2k.response")!.dash).not.toBe("solid");
      expect(by.get("sysB_2k.response")!.dash).toBe("solid");
      // No two lines look alike.
      expect(new Set(lines.map((l) => `${l.color}|${l.dash}`)).size).toBe(lines.length);
    }
    const spectra = linesOf(deck.chartXml[deck.slides[1]!.charts[0]!]!);
    expect(spectra.find((l) => l.name.startsWith("requirement"))!.dash).not.toBe("solid");
  });

  it("each of the page's first six dashes has a preset of its own; the corrected view's dash is not solid", () => {
    const presets = [0, 1, 2, 3, 4, 5].map((i) => pptxDash(dashOf(i)));
    expect(presets[0]).toBe("solid");
    expect(new Set(presets).size).toBe(6);
    expect(pptxDash("1 3")).not.toBe("solid");
    expect(pptxDash("5 5")).toBe("dash");
  });
});

describe("the heatmap slide: lanes whose ranges overlap share one latency axis", () => {
  /** One column, one value per lane: `v` (recorded unit) in the row the engine puts it on an axis [lo, hi). */
  const lane = (lo: number, hi: number, v: number, recordedUnit: Unit = "ns"): HeatmapSeries => {
    const rows = 110;
    const cells = new Float64Array(rows);
    cells[Math.min(rows - 1, Math.floor(valueRow(v, lo, hi, rows)))] = 7;
    return { id: "x", recordedUnit, startTime: null, lo, hi, rows, t0: new Float64Array([0]), t1: new Float64Array([1]), max: new Float64Array([v]), cells, maxCell: 7 };
  };

  it("one axis from the smallest to the largest value when the ranges overlap (in ns, whatever each lane's unit); none when apart", () => {
    expect(sharedAxisNs([lane(1e4, 1e8, 1e5), lane(5e4, 2e6, 1e5)])).toEqual([1e4, 1e8]);
    expect(sharedAxisNs([lane(10, 1e5, 100, "us"), lane(5e6, 2e9, 1e7)])).toEqual([1e4, 2e9]);
    expect(sharedAxisNs([lane(1e3, 1e5, 1e4), lane(1e9, 1e10, 2e9)])).toBeNull();
  });

  const onAxisCells = (...a: Parameters<typeof onAxis>) => {
    const c = onAxis(...a);
    return { cells: Float64Array.from(c.cells) };
  };

  it("a value is drawn at the height of its latency on the shared axis, in every lane", () => {
    const [lo, hi] = [1e3, 1e9];
    const rows = 380;
    for (const l of [lane(1e3, 1e9, 1e6), lane(1e5, 1e7, 1e6), lane(1, 1e4, 1e3, "us")]) {
      const c = onAxisCells(l, lo / NANOS_PER_UNIT[l.recordedUnit], hi / NANOS_PER_UNIT[l.recordedUnit], rows);
      const drawn = [...c.cells.keys()].filter((j) => c.cells[j]! > 0);
      expect(drawn.length).toBeGreaterThan(0);
      // 1 ms on a log axis from 1 µs to 1 s is half way up; each lane's row of it is drawn there (within its own row's height).
      for (const j of drawn) expect(Math.abs((j + 0.5) / rows - 0.5)).toBeLessThan(1 / 110 + 1 / rows);
      expect(Math.max(...c.cells)).toBe(7);
    }
  });

  it("the deck's slide: both lanes' latency labels are the same, and the axis is named once", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "hdr-deck-hm-"));
    expect((await run(["report", A, B, "--out", out])).code).toBe(0);
    const deck = await readPptx(readFileSync(path.join(out, "deck.pptx")));
    const slide = deck.slides.find((s) => s.text.startsWith("Where the values lie over time"))!;
    expect(slide.text).toContain("All lanes on one latency axis");
    expect(slide.text.split("latency (ms), log scale")).toHaveLength(2);
    const [, a, b] = slide.text.split(/sysA_2k\.response|sysB_2k\.response/);
    const labels = (t: string) => t.match(/[\d.,]+ (?:ns|µs|ms|s)(?![a-z])/g) ?? [];
    expect(labels(a!).length).toBeGreaterThan(1);
    expect(labels(b!)).toEqual(labels(a!));
    // sysA's stalls reach past 100 ms: the shared axis goes there for sysB too.
    expect(labels(b!)).toContain("100 ms");
  });
});

describe("encodePng", () => {
  it("writes a PNG whose header and chunks a reader checks: signature, IHDR size, CRC of IEND", () => {
    const png = encodePng(new Uint8Array(2 * 3 * 4).fill(200), 2, 3);
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const v = new DataView(png.buffer);
    expect(v.getUint32(16)).toBe(2);
    expect(v.getUint32(20)).toBe(3);
    // IEND's CRC is a constant of the format.
    expect(v.getUint32(png.length - 4)).toBe(0xae426082);
  });
});
