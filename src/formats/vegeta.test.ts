import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itReadsTheSameInChunks, itSurvivesGarbage, expectProblems, expectReadExactly } from "../../tests/support/reader-tests";
import { byCompletion, factsOfParsed, factsOfSamples, generateSamples, nsValue, parseByLines, vegetaCsv, vegetaJson } from "../../tests/support/loadgen-fixtures";
import { vegetaReader } from "./vegeta";

const samples = generateSamples({ seed: 31, seconds: 12, rate: 300, labels: [""], medianMs: 2, sigma: 0.9, failureRate: 0.05, stalls: [{ at: 3, duration: 0.8 }] });
const written = byCompletion(samples);
const us = (s: (typeof samples)[number]) => s.startUs; // Vegeta writes ns; the fixtures' times are whole µs

describe("Vegeta CSV", () => {
  it("reads `vegeta encode -to csv`: latency in ns, errors and non-2xx/3xx as failures", () => {
    const p = parseByLines(vegetaReader, "results.csv", vegetaCsv(written));
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("vegeta");
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.unit).toBe("ns");
    expect(p.series[0]!.name).toBe("results");
    const exp = factsOfSamples(written, nsValue, us, 1e6);
    expect(factsOfParsed(p, exp.minIndex)).toEqual(exp.facts);
    expect(p.series[0]!.startTime).toBeCloseTo(written[0]!.startUs / 1e6 + exp.minIndex, 6);
  });

  it("reads the 9-column CSV of Vegeta before 12.8, and one series per attack name", () => {
    const named = written.map((s, i) => ({ ...s, label: i % 3 === 0 ? "warmup" : "main" }));
    expectReadExactly(vegetaReader, "r.csv", vegetaCsv(named, { columns: 9 }), named, nsValue, us, 1e6);
  });

  itReadsTheSameInChunks(vegetaReader, "r.csv", vegetaCsv(written.slice(0, 400)), 500, 40);
});

describe("Vegeta JSON", () => {
  it("reads `vegeta encode -to json`", () => {
    expectReadExactly(vegetaReader, "results.json", vegetaJson(written), written, nsValue, us, 1e6);
  });
});

describe("Vegeta bad input", () => {
  it("CSV: reports bad lines with their numbers and keeps the good ones", () => {
    const lines = [
      "1767323045250000000,200,1500000,0,13,,aGk=,,0,GET,http://x/,",
      "1767323045250000000,200,15000", // truncated
      "1767323045250000000,200,abc,0,13,,aGk=,,1,GET,http://x/,",
      "1767323045250000000,200,-5,0,13,,aGk=,,2,GET,http://x/,",
      "1767323045250000000,200,NaN,0,13,,aGk=,,3,GET,http://x/,",
      "1767323045250000000,200,99999999999999999,0,13,,aGk=,,4,GET,http://x/,",
      "soon,200,1500000,0,13,,aGk=,,5,GET,http://x/,",
      "1767323045250000000,OK,1500000,0,13,,aGk=,,6,GET,http://x/,",
      '1767323046250000000,0,3000000,0,0,"Get ""http://x/"": connection refused",,,7,GET,http://x/,',
      "1767323046250000000,200,1700000,0,13,,aGk=,,8,GET,http://x/,",
    ];
    const p = parseByLines(vegetaReader, "bad.csv", lines.join("\n"));
    expectProblems(p, [
      [2, /found 3/],
      [3, null],
      [4, /negative/],
      [5, /not a finite number/],
      [6, /too large/],
      [7, null],
      [8, null],
    ]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.series[0]!.failures).toBe(1);
  });

  it("JSON: truncated lines and wrong types", () => {
    const ok = { attack: "", seq: 0, code: 200, timestamp: "2026-01-02T03:04:05.25+01:00", latency: 1500000, bytes_out: 0, bytes_in: 2, error: "" };
    const lines = [
      JSON.stringify(ok),
      JSON.stringify(ok).slice(0, 50),
      JSON.stringify({ ...ok, latency: "fast" }),
      JSON.stringify({ ...ok, code: null }),
      JSON.stringify({ ...ok, timestamp: 5 }),
      "[]",
      JSON.stringify(ok),
    ];
    const p = parseByLines(vegetaReader, "bad.json", lines.join("\n"));
    expect(p.problems.map((x) => x.line)).toEqual([2, 3, 4, 5, 6]);
    expect(p.series[0]!.histogram.totalCount).toBe(2);
    expect(p.series[0]!.startTime).toBe(Date.UTC(2026, 0, 2, 2, 4, 5, 250) / 1000);
  });

  itSurvivesGarbage(vegetaReader, "x", fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.json()), { maxLength: 30 }));
});

describe("Vegeta detection", () => {
  it("by content", () => {
    expect(vegetaReader.detect("r.csv", vegetaCsv(written.slice(0, 3)))).toBe(true);
    expect(vegetaReader.detect("r.json", vegetaJson(written.slice(0, 3)))).toBe(true);
    expect(vegetaReader.detect("r.csv", "1,2,3,4,5,6\n")).toBe(false);
  });
});
