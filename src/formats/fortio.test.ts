import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itSurvivesGarbage } from "../../tests/support/reader-tests";
import { generateSamples, parseByLines, referenceHistogram, spectrumSummary } from "../../tests/support/loadgen-fixtures";
import { fortioExpected, fortioHistogram, fortioJson } from "../../tests/support/producer-fixtures";
import { ingest } from "../engine/ingest";
import { pickFormat } from "./detect";
import { fortioReader } from "./fortio";
import { nighthawkJson } from "../../tests/support/structured-fixtures";

// HTTP calls around 4 ms with a GC-like stall's queue reaching ~300 ms, a few failures.
const samples = generateSamples({ seed: 43, seconds: 20, rate: 150, labels: [""], medianMs: 4, sigma: 0.6, failureRate: 0.01, stalls: [{ at: 8, duration: 0.3 }] });

describe("Fortio JSON", () => {
  it("rebuilds the spectrum from DurationHistogram's buckets: each call at its bucket's End, the min and max exact", () => {
    const p = parseByLines(fortioReader, "fortio.json", fortioJson(samples));
    expect(p.format).toBe("fortio");
    expect(p.series).toHaveLength(1);
    const s = p.series[0]!;
    expect(s.unit).toBe("ns");
    expect(s.intervals).toBeNull(); // no time axis, like a percentile file
    expect(s.name).toBe("fortio [sysA]");
    expect(spectrumSummary(s.histogram)).toEqual(spectrumSummary(fortioExpected(samples)));
    expect(s.histogram.minNonZeroValue).toBe(Math.min(...samples.map((x) => x.latencyNs)));
    expect(s.histogram.maxValue).toBe(Math.max(...samples.map((x) => x.latencyNs)));
    // Against the known calls: never below, and within the bucket holding the true value.
    const truth = referenceHistogram(samples.map((x) => x.latencyNs));
    const buckets = fortioHistogram(samples).Data;
    for (const q of [50, 90, 99, 99.9]) {
      const ours = s.histogram.getValueAtPercentile(q);
      const real = truth.getValueAtPercentile(q);
      expect(ours).toBeGreaterThanOrEqual(real * 0.999); // within the reference's own bucket
      const holding = buckets.find((b) => real / 1e9 <= b.End * 1.001)!;
      expect(ours).toBeLessThanOrEqual(Math.round(holding.End * 1e9 * 1.001));
    }
    // RetCodes: the failed calls are said, and counted (they are inside Fortio's histogram).
    const failed = samples.filter((x) => !x.success).length;
    expect(s.failures).toBe(failed);
    expect(p.problems).toEqual([
      { file: "fortio.json", line: null, reason: `${failed} calls failed (RetCodes): Fortio's histogram holds their durations too, so they are in the spectrum`, note: true },
    ]);
  });

  it("reads a run whose Min sits within Fortio's rounding above its first bucket's End, as Fortio and Nighthawk write it", () => {
    // Fortio files 4.000033 ms into ]3, 4] ms (it rounds a value down by 0.0001 of its divider),
    // and its first bucket starts at the Min: Start 0.004000033, End 0.004.
    const near = samples.map((x, i) => (i === 0 ? { ...x, latencyNs: 4_000_033 } : { ...x, latencyNs: Math.max(x.latencyNs, 4_100_000) }));
    const json = fortioJson(near);
    expect(json).toMatch(/"Start": 0\.004000033,\s*"End": 0\.004,/);
    for (const [name, text] of [
      ["fortio.json", json],
      ["nighthawk.json", nighthawkJson(near)],
    ] as const) {
      const p = parseByLines(fortioReader, name, text);
      expect(
        p.problems.filter((x) => !x.note),
        name,
      ).toEqual([]);
      const h = p.series[0]!.histogram;
      expect(h.totalCount, name).toBe(near.length);
      expect(h.minNonZeroValue, name).toBe(4_000_033);
      expect(h.getValueAtPercentile(0.0001), name).toBeGreaterThanOrEqual(4_000_033 * 0.999);
    }
  });

  it("is picked by content and loads through ingest", async () => {
    const text = fortioJson(samples);
    expect(pickFormat("result.json", text.slice(0, 4096))?.id).toBe("fortio");
    const r = await ingest("result.json", [text]);
    expect(r.series.map((s) => s.histogram.totalCount)).toEqual([samples.length]);
  });

  it("names a damaged bucket's line and a Count that disagrees with the buckets", () => {
    const lines = fortioJson(samples).split("\n");
    const at = lines.findIndex((l) => /"End": /.test(l) && lines.slice(0, lines.indexOf(l)).some((x) => /"Data"/.test(x)));
    lines[at] = lines[at]!.replace(/"End": [^,]+/, '"End": -0.5');
    const p = parseByLines(fortioReader, "f.json", lines.join("\n"));
    const reasons = p.problems.map((x) => [x.line, x.reason]);
    expect(reasons).toContainEqual([at - 1, expect.stringMatching(/bucket End -0.5 is negative/)]);
    expect(reasons).toContainEqual([lines.findIndex((l) => /"Count": \d+,$/.test(l)) + 1, expect.stringMatching(/^DurationHistogram Count \d+ differs from its buckets' total/)]);
  });

  itSurvivesGarbage(
    fortioReader,
    "f.json",
    fc.array(fc.oneof(fc.string(), fc.constantFrom('{"DurationHistogram": {', '"Data": [', '{"Start": 0.001, "End": 0.002, "Percent": 50, "Count": 3},', "]}", "}")), {
      maxLength: 30,
    }),
  );
});

describe("Fortio JSON as Envoy's Nighthawk writes it (counts as strings)", () => {
  const text = nighthawkJson(samples);

  it("is picked and read like Fortio's own: the same spectrum, min and max exact, failures from RetCodes", () => {
    expect(pickFormat("nighthawk.json", text.slice(0, 4096))?.id).toBe("fortio");
    const p = parseByLines(fortioReader, "nighthawk.json", text);
    const failed = samples.filter((x) => !x.success).length;
    expect(p.problems).toEqual([
      { file: "nighthawk.json", line: null, reason: `${failed} calls failed (RetCodes): Fortio's histogram holds their durations too, so they are in the spectrum`, note: true },
    ]);
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.name).toBe("nighthawk [Nighthawk]");
    expect(spectrumSummary(p.series[0]!.histogram)).toEqual(spectrumSummary(fortioExpected(samples)));
  });

  it("checks the stated Count written as a string", () => {
    const p = parseByLines(fortioReader, "nighthawk.json", text.replace(`"Count": "${samples.length}"`, `"Count": "${samples.length + 5}"`));
    expect(p.problems.some((x) => !x.note && new RegExp(`Count ${samples.length + 5} differs from its buckets' total ${samples.length}`).test(x.reason))).toBe(true);
  });
});
