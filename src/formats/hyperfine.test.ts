// hyperfine --export-json, written by hyperfine 1.15 itself: every timed run as a sample, one
// series per command, compared with the statistics hyperfine wrote beside the times.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { hyperfineReader } from "./hyperfine";
import { readLines } from "../../tests/support/loadgen-fixtures";

const text = producerText("hyperfine", "hyperfine.json");
const results = (JSON.parse(text) as { results: { command: string; min: number; max: number; median: number; times: number[] }[] }).results;

describe("hyperfine --export-json", () => {
  it("is taken by the hyperfine reader", () => {
    expect(pickFormat("hyperfine.json", text.slice(0, 4096))?.id).toBe("hyperfine");
  });

  it("one series per command in ns: count, min, max and median are hyperfine's", async () => {
    const r = await readProducer("hyperfine", "hyperfine.json");
    expect(r.problems).toEqual([]);
    expect(r.series.map((s) => s.tag)).toEqual(results.map((x) => x.command));
    results.forEach((x, i) => {
      const f = factsOf(r, i);
      expect(f.unit).toBe("ns");
      expect(f.count).toBe(x.times.length);
      expect(f.min).toBe(Math.round(x.min * 1e9));
      expect(f.max).toBe(Math.round(x.max * 1e9));
      // hyperfine's median of an even count is the mean of the two middle runs: between them
      const sorted = [...x.times].sort((a, b) => a - b).map((t) => Math.round(t * 1e9));
      const n = sorted.length;
      expect(Math.round(x.median * 1e9)).toBeGreaterThanOrEqual(sorted[Math.ceil(n / 2) - 1]! - 1);
      expect(f.p(50)).toBeGreaterThanOrEqual(sorted[Math.ceil(n / 2) - 1]!);
      expect(f.p(50)).toBeLessThanOrEqual(sorted[Math.ceil(n / 2) - 1]! * 1.001);
    });
  });

  it("notes runs that exited non-zero, and names a result without times", () => {
    const doc = JSON.stringify({ results: [{ command: "false", times: [0.001, 0.002], exit_codes: [1, 0] }, { command: "x" }] }, null, 2);
    const out = readLines(hyperfineReader.create("h.json"), doc.split("\n"));
    expect(out.series).toHaveLength(1);
    expect(out.problems.map((x) => [x.note ?? false, x.reason.slice(0, 30)])).toEqual([
      [false, 'a result without "command" and'],
      [true, "1 run exited non-zero (hyperfi"],
    ]);
  });

  itReadsTheSameInChunks(hyperfineReader, "h.json", text, 200, 20);
  itSurvivesGarbage(hyperfineReader, "h.json", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 20))), { maxLength: 12 }));
});
