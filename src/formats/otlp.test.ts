import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Histogram } from "../core/histogram";
import { maxOf, valueAtPercentile } from "../core/histogram";
import { producerFixture } from "../../tests/support/producer-outputs";
import { parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { otlpReader } from "./otlp";
import type { ParsedSource } from "./source";

// The OpenTelemetry JS SDK 2.x recorded these values (ms) in three periods, collected after each
// (scripts/producers/otel.mjs).
const VALUES = (JSON.parse(producerFixture("otel-values.json")) as { periods: number[][] }).periods;
const CUMULATIVE = producerFixture("otel-sdk-cumulative.jsonl");
const DELTA = producerFixture("otel-collector-delta.jsonl");
const EXP = "http.client.request.duration.exp {route=/api}";
const EXPLICIT = "http.client.request.duration {route=/api}";
const BOUNDS = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
const PERCENTILES = [0, 1, 10, 25, 50, 75, 90, 95, 99, 99.5, 100];
const HDR = 1 + 1 / 1024;

/** The recorded value at the rank HdrHistogram's getValueAtPercentile reads (ms). */
function atRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (p >= 100) return sorted[sorted.length - 1]!;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9));
  return sorted[rank - 1]!;
}

function series(p: ParsedSource, tag: string) {
  const s = p.series.find((x) => x.tag === tag);
  if (!s) throw new Error(`no series ${tag}: ${p.series.map((x) => x.tag).join(", ")}`);
  return s;
}

/** Exponential buckets: never below the recorded value, at most a bucket (scale ≥ 3: 9 %) and HdrHistogram's resolution above it. */
function expectExponential(h: Histogram, values: readonly number[], what: string): void {
  expect(h.totalCount).toBe(values.length);
  for (const p of PERCENTILES) {
    const trueNs = Math.round(atRank(values, p) * 1e6);
    const ours = valueAtPercentile(h, p);
    expect(ours, `${what} p${p}`).toBeGreaterThanOrEqual(trueNs * (1 - 1 / 1024));
    expect(ours, `${what} p${p}`).toBeLessThanOrEqual(trueNs * 1.0905 * HDR);
  }
}

/** Explicit buckets: exactly the bucket's upper bound (or the max, when it is inside that bucket). */
function expectExplicit(h: Histogram, values: readonly number[], maxSoFar: number, what: string): void {
  expect(h.totalCount).toBe(values.length);
  for (const p of PERCENTILES) {
    const v = atRank(values, p);
    const bound = BOUNDS.find((b) => b >= v) ?? Infinity;
    const expected = Math.round(Math.min(bound, maxSoFar) * 1e6);
    const ours = valueAtPercentile(h, p);
    if (p === 0 && v === Math.min(...values)) continue; // the min of a period may be exact
    expect(ours, `${what} p${p}`).toBeGreaterThanOrEqual(expected);
    expect(ours, `${what} p${p}`).toBeLessThanOrEqual(expected * HDR);
  }
}

describe("OTLP JSON metrics (OpenTelemetry SDK, cumulative)", () => {
  const parsed = parseByLines(otlpReader, "otel.jsonl", CUMULATIVE);
  const all = VALUES.flat();

  it("is picked by its content", () => {
    expect(pickFormat("otel.jsonl", CUMULATIVE.slice(0, 4096))?.id).toBe("otlp");
    expect(pickFormat("metrics.json", DELTA.slice(0, 4096))?.id).toBe("otlp");
  });

  it("reads each histogram as intervals: the increase between collections, not their sum", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    for (const tag of [EXP, EXPLICIT]) {
      const s = series(parsed, tag);
      expect(s.unit).toBe("ns");
      expect(s.histogram.totalCount).toBe(all.length);
      expect(s.intervals!.map((iv) => iv.histogram.totalCount)).toEqual(VALUES.map((v) => v.length));
      // intervals start at the first data point's start time (the two instruments' differ by a ms)
      expect(s.intervals![0]!.start).toBeCloseTo(0, 1);
      expect(s.startTime).toBeGreaterThan(1.7e9);
    }
  });

  it("gives exponential buckets' percentiles at or just above the recorded values, min and max exact", () => {
    const s = series(parsed, EXP);
    expectExponential(s.histogram, all, "whole");
    s.intervals!.forEach((iv, k) => expectExponential(iv.histogram, VALUES[k]!, `period ${k}`));
    expect(s.histogram.minNonZeroValue).toBe(Math.round(Math.min(...all) * 1e6));
    expect(maxOf(s.histogram)).toBeGreaterThanOrEqual(Math.round(Math.max(...all) * 1e6));
    expect(maxOf(s.histogram)).toBeLessThanOrEqual(Math.round(Math.max(...all) * 1e6) * HDR);
  });

  it("gives explicit buckets' percentiles at their bounds, and says they are known only there", () => {
    const s = series(parsed, EXPLICIT);
    expectExplicit(s.histogram, all, Math.max(...all), "whole");
    let maxSoFar = 0;
    s.intervals!.forEach((iv, k) => {
      maxSoFar = Math.max(maxSoFar, ...VALUES[k]!);
      expectExplicit(iv.histogram, VALUES[k]!, maxSoFar, `period ${k}`);
    });
    const said = parsed.problems.map((p) => p.reason).join("\n");
    expect(said).toMatch(/explicit-bucket histogram, known only at its 15 bucket bounds.*not interpolated|nothing between them is interpolated/);
    expect(said).toMatch(/exponential histogram at scale \d+/);
  });
});

describe("OTLP JSON metrics (the Collector's file exporter shape, delta)", () => {
  const parsed = parseByLines(otlpReader, "collector.json", DELTA);

  it("reads counts written as strings and fields left out, each delta point its own interval", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    const exp = series(parsed, EXP);
    expect(exp.intervals!.map((iv) => iv.histogram.totalCount)).toEqual([200, 200, 200]);
    exp.intervals!.forEach((iv, k) => expectExponential(iv.histogram, VALUES[k]!, `delta period ${k}`));
    const explicit = series(parsed, EXPLICIT);
    explicit.intervals!.forEach((iv, k) => expectExplicit(iv.histogram, VALUES[k]!, Math.max(...VALUES[k]!), `delta period ${k}`));
    // each delta period's min and max are its own
    exp.intervals!.forEach((iv, k) => expect(iv.histogram.minNonZeroValue).toBe(Math.round(Math.min(...VALUES[k]!) * 1e6)));
  });
});

describe("OTLP JSON metrics: what is not a latency", () => {
  it("passes over histograms that are not durations and says so", () => {
    const doc = JSON.parse(CUMULATIVE.split("\n")[0]!) as { resourceMetrics: { scopeMetrics: { metrics: { unit: string }[] }[] }[] };
    for (const m of doc.resourceMetrics[0]!.scopeMetrics[0]!.metrics) m.unit = "By";
    const p = parseByLines(otlpReader, "bytes.json", JSON.stringify(doc, null, 2));
    expect(p.series).toEqual([]);
    expect(p.problems.map((x) => x.reason).join("\n")).toMatch(/no histogram of durations.*unit "By" is not a duration/);
  });

  it("says when values lie above the last bound with no max stated", () => {
    const line = CUMULATIVE.split("\n")[0]!.replace(/"max":[0-9.]+,/g, "");
    const p = parseByLines(otlpReader, "nomax.json", line.replace(/"bucketCounts":\[0,/, '"bucketCounts":[0,').replace(/(\],"explicitBounds")/, "$1"));
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    const doc = JSON.parse(line) as { resourceMetrics: { scopeMetrics: { metrics: { histogram?: { dataPoints: { bucketCounts: number[] }[] } }[] }[] }[] };
    const h = doc.resourceMetrics[0]!.scopeMetrics[0]!.metrics.find((m) => m.histogram)!.histogram!.dataPoints[0]!;
    h.bucketCounts[15] = 3;
    const q = parseByLines(otlpReader, "over.json", JSON.stringify(doc));
    expect(q.problems.filter((x) => !x.note).map((x) => x.reason)).toEqual([expect.stringMatching(/3 values above the last bucket bound \(10000 ms\).*below their true values/)]);
  });

  itReadsTheSameInChunks(otlpReader, "otel.jsonl", CUMULATIVE, 2000, 20);
  itSurvivesGarbage(
    otlpReader,
    "x.json",
    fc.array(
      fc.oneof(
        fc.string(),
        fc.constantFrom(
          CUMULATIVE.split("\n")[0]!,
          '{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"unit":"ms","histogram":{"dataPoints":[{"timeUnixNano":"5","bucketCounts":["1"]}]}}]}]}]}',
        ),
      ),
      { maxLength: 6 },
    ),
  );
});
