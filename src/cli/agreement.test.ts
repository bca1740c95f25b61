// The page and the command line read a file alike: the same series, counts and problems. The
// case that once split them: a Vegeta JSON file with one timestamp years from the rest (the page
// skipped the line and showed the rest; the command line refused the whole file). Now both read
// every latency, keep the stray one out of the intervals and say so on its line, and the command
// line judges (a note loses nothing); a damaged line still stops the command line.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateSamples, vegetaJson, type LoadSample } from "../../tests/support/loadgen-fixtures";
import { loadFiles } from "../engine/load-files";
import { Store } from "../engine/store";
import { main } from "./main";
import type { JsonSeries } from "./report";

const YEAR_US = 3 * 365 * 86400e6;
const base = generateSamples({ seed: 5, seconds: 20, rate: 50, labels: [""], medianMs: 2, sigma: 0.5, failureRate: 0 });

function withFar(at: number): LoadSample[] {
  return base.map((s, i) => (i === at ? { ...s, startUs: s.startUs - YEAR_US, latencyNs: 987_654_321 } : s));
}

async function page(name: string, text: string) {
  const store = new Store();
  const [outcome] = await loadFiles(store, [new File([text], name)], () => undefined, undefined, undefined, null);
  const s = store.series[0]!;
  const inIntervals = s.intervals ? Array.from({ length: s.intervals.n }, (_, i) => s.intervals!.counts[i]!).reduce((a, b) => a + b, 0) : 0;
  const percentiles = store.views({ start: null, end: null })[0]!.spectrum.percentiles;
  return { problems: outcome!.problems, count: s.histogram.totalCount, max: s.histogram.maxValue, inIntervals, percentiles };
}

async function cli(name: string, text: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "agree-"));
  const file = path.join(dir, name);
  writeFileSync(file, text);
  let stdout = "";
  let stderr = "";
  const code = await main(["report", "--json", "--no-workers", file], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stderr, series: code === 0 ? (JSON.parse(stdout) as { series: JsonSeries[] }).series : [] };
}

describe("page and command line agree", () => {
  it.each([
    ["in the middle", 300],
    ["on the first line", 0],
  ])("a Vegeta JSON file with one timestamp 3 years from the rest (%s)", async (_where, at) => {
    const text = vegetaJson(withFar(at));
    const p = await page("far.json", text);
    // Every latency counted, the stray one too (it is the max); only it is outside the intervals.
    expect(p.count).toBe(base.length);
    expect(p.max).toBeGreaterThanOrEqual(987_654_321);
    expect(p.inIntervals).toBe(base.length - 1);
    expect(p.problems).toEqual([
      { file: "far.json", line: at + 1, reason: expect.stringMatching(/^timestamp is 109[56] days before the others .*counted in the totals, in no interval$/), note: true },
    ]);

    const c = await cli("far.json", text);
    expect(c.code).toBe(0);
    expect(c.stderr).toBe(`far.json:${at + 1}: ${p.problems[0]!.reason}\n`); // the command line names files as the page does
    expect(c.series.map((s) => s.count)).toEqual([p.count]);
    for (const [k, v] of Object.entries(c.series[0]!.percentiles)) expect([k, v]).toEqual([k, p.percentiles[k]]);
  });

  it("a damaged line: the page reads the rest, the command line judges nothing (exit 2), both name the line", async () => {
    const lines = vegetaJson(base).split("\n");
    lines[9] = lines[9]!.slice(0, 30);
    const text = lines.join("\n");
    const p = await page("cut.json", text);
    expect(p.count).toBe(base.length - 1);
    expect(p.problems).toEqual([{ file: "cut.json", line: 10, reason: "not valid JSON (a truncated line?)" }]);
    const c = await cli("cut.json", text);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/cut\.json:10: not valid JSON \(a truncated line\?\)\n.*nothing was judged/);
  });
});
