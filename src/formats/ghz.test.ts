import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itReadsTheSameInChunks, itSurvivesGarbage, expectSamplesRead, expectProblems } from "../../tests/support/reader-tests";
import { byCompletion, generateSamples, nsValue, parseByLines } from "../../tests/support/loadgen-fixtures";
import { ghzJson } from "../../tests/support/producer-fixtures";
import { MAX_LINE_CHARS } from "../core/lines";
import { ingest } from "../engine/ingest";
import { pickFormat } from "./detect";
import { ghzReader } from "./ghz";

// gRPC calls with a stall and the queue it leaves; some fail (Unavailable).
const samples = generateSamples({ seed: 41, seconds: 15, rate: 200, labels: [""], medianMs: 1.5, sigma: 0.7, failureRate: 0.03, stalls: [{ at: 6, duration: 0.5 }] });
const written = byCompletion(samples);
const us = (s: (typeof samples)[number]) => s.startUs;

describe("ghz JSON", () => {
  it.each([
    ["pretty (-O pretty)", true],
    ["compact (-O json, one line)", false],
  ])("reads every call of a %s report: latency in ns, failed calls counted, not recorded", (_what, pretty) => {
    const p = parseByLines(ghzReader, "report.json", ghzJson(written, { pretty }));
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("ghz");
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.unit).toBe("ns");
    expect(p.series[0]!.failures).toBe(written.filter((s) => !s.success).length);
    expectSamplesRead(p, written, nsValue, us, 1e6);
  });

  it("is picked by content, and through ingest gives the same series", async () => {
    const text = ghzJson(written, { pretty: true });
    expect(pickFormat("results.json", text.slice(0, 4096))?.id).toBe("ghz");
    expect(pickFormat("results.json", ghzJson(written).slice(0, 4096))?.id).toBe("ghz");
    const r = await ingest("results.json", [text]);
    expect(r.problems).toEqual([]);
    expect(r.series.map((s) => [s.histogram.totalCount, s.failures])).toEqual([[written.filter((s) => s.success).length, written.filter((s) => !s.success).length]]);
  });

  it("names a damaged call's line and reads the others; says when ghz listed fewer calls than it made; says a truncated report", () => {
    const lines = ghzJson(written.slice(0, 50), { pretty: true, count: 80 }).split("\n");
    const details = lines.findIndex((l) => /"details": \[/.test(l));
    const at = lines.findIndex((l, i) => i > details + 10 && /"latency": \d/.test(l));
    lines[at] = lines[at]!.replace(/"latency": \d+/, '"latency": "12ms"');
    const p = parseByLines(ghzReader, "r.json", lines.join("\n"));
    const callLine = at - 1; // 1-based line of the call's "{", two lines above its latency
    expectProblems(p, [
      [null as unknown as number, /made 80 calls and lists 50/],
      [callLine, /latency "12ms" is not a whole number of ns/],
    ]);
    expect(p.series[0]!.histogram.totalCount + (p.series[0]!.failures ?? 0)).toBe(49);
    const cut = parseByLines(ghzReader, "r.json", ghzJson(written.slice(0, 50), { pretty: true }).split("\n").slice(0, 200).join("\n"));
    expect(cut.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/truncated/)]);
    expect(cut.series[0]!.histogram.totalCount).toBeGreaterThan(0);
  });

  it("reads a compact report longer than the longest line the app holds (one line of 60,000 calls)", async () => {
    const many = byCompletion(
      generateSamples({ seed: 43, seconds: 60, rate: 1000, labels: [""], medianMs: 1.5, sigma: 0.7, failureRate: 0.02, stalls: [{ at: 20, duration: 0.4 }] }),
    );
    const text = ghzJson(many);
    expect(text.trimEnd().includes("\n")).toBe(false); // one line
    expect(text.length).toBeGreaterThan(MAX_LINE_CHARS);
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += 1 << 20) chunks.push(text.slice(i, i + (1 << 20)));
    const r = await ingest("report.json", chunks);
    expect(r.problems).toEqual([]);
    const ok = many.filter((s) => s.success);
    expect(r.series.map((s) => [s.histogram.totalCount, s.failures])).toEqual([[ok.length, many.length - ok.length]]);
    // The largest latency recorded is the largest written (ns, within the histogram's precision).
    const maxNs = Math.max(...ok.map((s) => nsValue(s)));
    expect(Math.abs(r.series[0]!.histogram.maxValue - maxNs) / maxNs).toBeLessThan(0.001);
  });

  itReadsTheSameInChunks(ghzReader, "r.json", ghzJson(written.slice(0, 300), { pretty: true }), 700, 30);
  itSurvivesGarbage(
    ghzReader,
    "r.json",
    fc.array(fc.oneof(fc.string(), fc.constantFrom('{"details": [', '{"timestamp":"2026-01-02T03:04:05Z","latency":5,"error":"","status":"OK"},', "]}", "{", "}", '"\\"')), {
      maxLength: 30,
    }),
  );
});
