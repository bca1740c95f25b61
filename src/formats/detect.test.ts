import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  gatlingLog,
  generateSamples,
  jmeterCsv,
  jmeterXml,
  k6Csv,
  k6Json,
  plainValues,
  samplesTable,
  vegetaCsv,
  vegetaJson,
} from "../../scripts/lib/loadgen-fixtures";
import { READERS, isHdrHistogramText, pickReader } from "./detect";

const samples = generateSamples({ seed: 3, seconds: 2, rate: 100, labels: ["a", "b"], medianMs: 5, sigma: 0.5, failureRate: 0.1 });
/** What the engine hands pickReader: the first 4 KB or so. */
const head = (text: string) => text.slice(0, 4096);

describe("pickReader", () => {
  it("has the specific readers before generic samples", () => {
    expect(READERS.map((r) => r.id)).toEqual(["jmeter", "gatling", "k6", "vegeta", "samples"]);
  });

  it.each([
    ["results.jtl", jmeterCsv(samples), "jmeter"],
    ["results.csv", jmeterCsv(samples), "jmeter"],
    ["results.xml", jmeterXml(samples), "jmeter"],
    ["results.jtl", jmeterXml(samples), "jmeter"],
    ["simulation.log", gatlingLog(samples), "gatling"],
    ["sim-3.3.log", gatlingLog(samples, { layout: "3.0" }), "gatling"],
    ["simulation.log", "\u0000\u0000\u0000\u0000\u00063.13.1\u0000binary", "gatling"],
    ["k6.json", k6Json(samples), "k6"],
    ["k6.csv", k6Csv(samples), "k6"],
    ["results.csv", vegetaCsv(samples), "vegeta"],
    ["results.json", vegetaJson(samples), "vegeta"],
    ["latencies.txt", plainValues(samples), "samples"],
    ["latencies", plainValues(samples, { header: "latency_ms" }), "samples"],
    ["table.csv", samplesTable(samples), "samples"],
    ["table.tsv", samplesTable(samples, { delimiter: "\t" }), "samples"],
  ])("%s → %s (%#)", (name, text, id) => {
    expect(pickReader(name, head(text))?.id).toBe(id);
  });

  it("leaves unknown text alone", () => {
    expect(pickReader("notes.txt", "Dear diary,\ntoday I ran a load test.\n")).toBeNull();
    expect(pickReader("x.bin", "\u0001\u0002\u0003")).toBeNull();
  });

  const shared = path.resolve(__dirname, "../../../shared/samples");
  describe.skipIf(!existsSync(shared))("never claims HdrHistogram's own formats", () => {
    const files = existsSync(shared)
      ? ["hdrhistogram", "hgrm"].flatMap((d) => readdirSync(path.join(shared, d)).filter((f) => !f.endsWith(".dat")).map((f) => path.join(d, f)))
      : [];
    it.each(files)("%s", (f) => {
      const text = readFileSync(path.join(shared, f), "utf8");
      expect(pickReader(path.basename(f), head(text))).toBeNull();
      // nor under a neutral name
      expect(pickReader("upload.txt", head(text))).toBeNull();
    });
  });

  it("finds an indented #[ header after many blank lines in linear time", () => {
    const blanks = "\n".repeat(100_000);
    const t0 = performance.now();
    expect(pickReader("x.txt", blanks + " \t#[StartTime: 1 (seconds since epoch)]\n")).toBeNull();
    expect(pickReader("x.txt", blanks + "1\n2\n")?.id).toBe("samples");
    // (quadratic: ~0.8 s per 20 000 blank lines, growing with the square)
    expect(performance.now() - t0).toBeLessThan(300);
    // `#[` must start its line (after indentation): not in the middle of one
    expect(isHdrHistogramText("x.txt", "a #[b]\nc\n")).toBe(false);
    expect(isHdrHistogramText("x.txt", "a\n\u00a0\t#[b]\n")).toBe(true);
  });

  it("never claims HdrHistogram headers, payloads or percentile tables", () => {
    expect(pickReader("x.txt", "#[StartTime: 1767323045.250 (seconds since epoch)]\n0.1,1.0,2.0,HISTFAAAAB54nJNpmSzMwMDAxQABzFCaEUzMB\n")).toBeNull();
    expect(pickReader("x.txt", "0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMCgyAABTFCaEUzMByQeJjS\n")).toBeNull();
    expect(pickReader("x.txt", "       Value   Percentile   TotalCount 1/(1-Percentile)\n\n       0.031     0.000000            1         1.00\n")).toBeNull();
    expect(pickReader("x.txt", "  Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n")).toBeNull();
    expect(pickReader("x.csv", '"Value","Percentile","TotalCount","1/(1-Percentile)"\n0.031,0.000000,1,1.00\n')).toBeNull();
  });
});
