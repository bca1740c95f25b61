import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Histogram } from "../core/histogram";
import { sparseOf, valueAtPercentile } from "../core/histogram";
import { producerFixture } from "../../tests/support/producer-outputs";
import { parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { prometheusAnswerReader, prometheusApiReader, readPrometheusData } from "./prometheus-api";
import { Problems } from "./support/problems";

// Prometheus 2.42 scraped an exporter (client_golang) that observed three phases of 300 known
// values into a native and a classic histogram (scripts/producers/prometheus.sh).
const PHASES = (JSON.parse(producerFixture("prom-values.json")) as { phases: number[][] }).phases;
const NATIVE = producerFixture("prom-native-range.json");
const CLASSIC = producerFixture("prom-classic-range.json");
const INSTANT = producerFixture("prom-native-instant.json");
const PERCENTILES = [0, 1, 10, 50, 90, 99, 99.9, 100];
const HDR = 1 + 1 / 1024;

/** The recorded value at the rank HdrHistogram's getValueAtPercentile reads. */
function atRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (p >= 100) return sorted[sorted.length - 1]!;
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9)) - 1]!;
}

/** Every percentile is the upper bound (ns) of the bucket that holds the value at its rank. */
function expectAtBounds(h: Histogram, values: readonly number[], uppers: readonly number[], what: string): void {
  expect(h.totalCount, what).toBe(values.length);
  for (const p of PERCENTILES) {
    const v = atRank(values, p);
    const upper = uppers.find((u) => u >= v)!;
    const expected = Math.round(upper * 1e9);
    const ours = valueAtPercentile(h, p);
    if (p === 0) {
      // the lowest bucket's value reads at HdrHistogram's lowest equivalent
      expect(ours, `${what} p0`).toBeGreaterThanOrEqual(expected / HDR);
      continue;
    }
    expect(ours, `${what} p${p}`).toBeGreaterThanOrEqual(expected);
    expect(ours, `${what} p${p}`).toBeLessThanOrEqual(expected * HDR);
  }
}

const nativeUppers = (() => {
  const d = JSON.parse(NATIVE) as { data: { result: { histograms: [number, { buckets: [number, string, string, string][] }][] }[] } };
  const all = d.data.result[0]!.histograms.flatMap(([, h]) => h.buckets.map((b) => Number(b[2])));
  return [...new Set(all)].sort((a, b) => a - b);
})();

describe("Prometheus API answer: native histogram, query_range", () => {
  const parsed = parseByLines(prometheusApiReader, "prom-native-range.json", NATIVE);

  it("is picked by its content", () => {
    for (const t of [NATIVE, CLASSIC, INSTANT]) expect(pickFormat("answer.json", t.slice(0, 4096))?.id).toBe("prometheus-api");
  });

  it("reads the increases between points as intervals, the first point in full: each phase once, never summed", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    expect(parsed.series).toHaveLength(1);
    const s = parsed.series[0]!;
    // job and instance are the same for every result: they name nothing apart
    expect(s.tag).toBe("demo_native_duration_seconds");
    expect(s.histogram.totalCount).toBe(900);
    const counts = s.intervals!.map((iv) => iv.histogram.totalCount);
    expect(counts.filter((n) => n > 0)).toEqual([300, 300, 300]);
    expect(s.intervals![0]!.length).toBe(1);
    const nonEmpty = s.intervals!.filter((iv) => iv.histogram.totalCount > 0);
    nonEmpty.forEach((iv, k) => expectAtBounds(iv.histogram, PHASES[k]!, nativeUppers, `phase ${k}`));
    expectAtBounds(s.histogram, PHASES.flat(), nativeUppers, "whole");
    expect(parsed.problems.map((p) => p.reason).join("\n")).toMatch(/native histogram of schema 3 \(each bucket 9\.05 % wide\): each value is shown at its bucket's upper bound/);
  });

  it("reads an instant query as one histogram without a time axis", () => {
    const p = parseByLines(prometheusApiReader, "prom-native-instant.json", INSTANT);
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.intervals).toBeNull();
    expectAtBounds(p.series[0]!.histogram, PHASES.flat(), nativeUppers, "instant");
  });
});

describe("Prometheus API answer: classic _bucket series", () => {
  const parsed = parseByLines(prometheusApiReader, "prom-classic-range.json", CLASSIC);
  const DEF = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

  it("joins the le series into one histogram known only at its bounds, and says so", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    expect(parsed.series.map((s) => s.tag)).toEqual(["demo_classic_duration_seconds"]);
    const s = parsed.series[0]!;
    expect(s.intervals!.map((iv) => iv.histogram.totalCount).filter((n) => n > 0)).toEqual([300, 300, 300]);
    s.intervals!.filter((iv) => iv.histogram.totalCount > 0).forEach((iv, k) => expectAtBounds(iv.histogram, PHASES[k]!, DEF, `phase ${k}`));
    expect(parsed.problems.map((p) => p.reason).join("\n")).toMatch(
      /classic histogram, known only at its bucket bounds \(0\.005, 0\.01, 0\.025, 0\.05, … 5, 10 s\).*nothing between them is interpolated/,
    );
  });
});

describe("Prometheus answers built by hand: resets, rates, the live form", () => {
  const point = (t: number, counts: number[]) => [
    t,
    { count: String(counts.reduce((a, b) => a + b, 0)), sum: "1", buckets: counts.map((c, i) => [0, String(i * 0.001), String((i + 1) * 0.001), String(c)]) },
  ];
  const answer = (points: unknown[]) => ({ resultType: "matrix", result: [{ metric: { __name__: "x_seconds" }, histograms: points }] });

  it("takes a count that goes down as a counter reset: the new point counts in full", () => {
    const problems = new Problems("x.json");
    const r = readPrometheusData(answer([point(10, [2, 3]), point(20, [4, 4]), point(30, [1, 0]), point(40, [1, 2])]), { source: "x.json", firstPoint: "whole" }, problems);
    const s = r.series[0]!;
    expect(s.intervals!.map((iv) => iv.histogram.totalCount)).toEqual([5, 3, 1, 2]);
    expect(s.intervals!.map((iv) => [iv.start, iv.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
      [30, 10],
    ]);
    expect(s.startTime).toBe(0);
    expect(s.histogram.totalCount).toBe(11);
    // 1 ms buckets: the highest value observed after the reset is at most 2 ms
    expect(valueAtPercentile(s.intervals![3]!.histogram, 100)).toBeGreaterThanOrEqual(2e6);
    // handled, nothing lost: a note, not a problem
    expect(r.notes.join("\n")).toMatch(/1 counter resets/);
    expect(problems.list()).toEqual([]);
  });

  it("names results apart by the labels that differ between them", () => {
    const r = readPrometheusData(
      {
        resultType: "matrix",
        result: ["a", "b"].map((route) => ({ metric: { __name__: "x_seconds", job: "api", route }, histograms: [point(10, [1, 1])] })),
      },
      { source: "x.json", firstPoint: "whole" },
      new Problems("x.json"),
    );
    expect(r.series.map((s) => s.tag)).toEqual(['x_seconds{route="a"}', 'x_seconds{route="b"}']);
  });

  it("in the live form, takes the first point as the baseline only", () => {
    const problems = new Problems("q");
    const r = readPrometheusData(answer([point(10, [2, 3]), point(20, [4, 4])]), { source: "prometheus:x_seconds", firstPoint: "baseline" }, problems);
    expect(r.series[0]!.intervals!.map((iv) => iv.histogram.totalCount)).toEqual([3]);
    expect(r.series[0]!.startTime).toBe(10);
  });

  it("refuses counts that are not whole numbers (rate, increase)", () => {
    const text = NATIVE.replace(/"count":"300"/g, '"count":"0.5"').replace(/("0\.0[0-9]+","0\.0[0-9]+",)"1"/, '$1"0.25"');
    const p = parseByLines(prometheusApiReader, "rate.json", text);
    expect(p.problems.some((x) => !x.note && /not whole numbers: the result of rate\(\) or increase\(\)/.test(x.reason))).toBe(true);
  });

  // Found by fuzzing: a count of 2^53 overflowed the histogram and surfaced as an internal error.
  it("refuses a count too large to be real, naming it, without an internal error", () => {
    const p = parseByLines(prometheusApiReader, "big.json", INSTANT.replace(/"1"\]/, '"9007199254740992"]'));
    expect(p.problems.some((x) => /internal error/.test(x.reason))).toBe(false);
    expect(p.problems.some((x) => !x.note && /not \[time, \{count, buckets\}\]: skipped/.test(x.reason))).toBe(true);
  });

  it("says an error answer's error", () => {
    const p = parseByLines(
      prometheusApiReader,
      "err.json",
      '{"status":"error","errorType":"bad_data","error":"invalid parameter \\"query\\"","data":{"resultType":"matrix","result":[]}}',
    );
    expect(p.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/the answer is an error: invalid parameter "query"/)]);
  });

  // A day at a one-minute step of a native histogram with a few dozen buckets is megabytes of
  // one series' points: read whole, not dropped as too long a value.
  it("reads a series whose points are megabytes long, every step counted", () => {
    const steps = 4000;
    const buckets = Array.from({ length: 30 }, (_, k) => [0, String(2 ** ((k - 60) / 8)), String(2 ** ((k - 59) / 8)), ""] as [number, string, string, string]);
    const points = Array.from({ length: steps + 1 }, (_, p) => [1000 + 60 * p, { count: String(30 * p), sum: "1", buckets: buckets.map((b) => [b[0], b[1], b[2], String(p)]) }]);
    const text = JSON.stringify({ status: "success", data: { resultType: "matrix", result: [{ metric: { __name__: "x_seconds" }, histograms: points }] } });
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    // As the load hands a line longer than it holds: in pieces, its end as the line.
    const parser = prometheusApiReader.create("long.json");
    const piece = 1024 * 1024;
    for (let at = 0; at < text.length; at += piece) {
      if (at + piece < text.length) parser.piece!(text.slice(at, at + piece), 1);
      else parser.line(text.slice(at), 1);
    }
    const p = parser.finish();
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    expect(p.series).toHaveLength(1);
    // The first point holds nothing; each later one 30 values more.
    expect(p.series[0]!.histogram.totalCount).toBe(30 * steps);
    expect(p.series[0]!.intervals).toHaveLength(steps + 1);
  });

  it("leaves out a result too long to read, naming the answer, its line and where it starts", () => {
    const values = (n: number) => Array.from({ length: n }, (_, p) => [1000 + 60 * p, String(p)]);
    const result = [
      { metric: { __name__: "x_seconds_bucket", le: "0.1" }, values: values(3) },
      { metric: { __name__: "x_seconds_bucket", le: "+Inf" }, values: values(3) },
      { metric: { __name__: "y_seconds_bucket", le: "0.1" }, values: values(400) },
      { metric: { __name__: "y_seconds_bucket", le: "+Inf" }, values: values(500) },
    ];
    const text = ['{"status":"success","data":{"resultType":"matrix","result":[', ...result.map((r, i) => (i > 0 ? "," : "") + JSON.stringify(r)), "]}}"].join("\n");
    const reader = prometheusAnswerReader({ source: "prometheus:x_seconds_bucket", firstPoint: "whole", maxResultChars: 4000 });
    const parser = reader.create("prometheus:x_seconds_bucket");
    text.split("\n").forEach((line, k) => parser.line(line, k + 1));
    const p = parser.finish();
    const long = p.problems.filter((x) => !x.note);
    // Results 3 and 4 (lines 4 and 5) are over 4,000 characters of values; the first of them starts on line 4.
    expect(long).toEqual([
      {
        file: "prometheus:x_seconds_bucket",
        line: 4,
        reason: expect.stringMatching(/^2 series hold more than 4,000 characters of points each: left out \(the first one's "values" starts at character \d+; ask for/),
      },
    ]);
    const at = Number(/character (\d+)/.exec(long[0]!.reason)![1]);
    expect(text.split("\n")[3]!.slice(at - 1, at + 1)).toBe("[[");
    expect(p.series.map((s) => s.tag)).toEqual(["x_seconds"]);
  });

  // A fleet's results are read one after another through columns they borrow in turn, and hold
  // their steps' times once when they share them: each series' own counts, whatever was read before it.
  it("reads results of different lengths one after another, each step its own, the shared times held once", () => {
    // Series 0: 3,000 steps of 20 buckets (past the columns' first size); 1: 5 steps of 2; 2: as 0 but 1 + k per step.
    const bucket = (k: number) => [0, String(2 ** ((k - 60) / 8)), String(2 ** ((k - 59) / 8))];
    const series = (steps: number, buckets: number, per: (k: number) => number) =>
      Array.from({ length: steps + 1 }, (_, p) => [
        1000 + 60 * p,
        { count: "0", sum: "1", buckets: Array.from({ length: buckets }, (_, k) => [...bucket(k), String(p * per(k))]) },
      ]);
    const result = [
      { metric: { __name__: "x_seconds", i: "0" }, histograms: series(3000, 20, () => 1) },
      { metric: { __name__: "x_seconds", i: "1" }, histograms: series(5, 2, () => 7) },
      { metric: { __name__: "x_seconds", i: "2" }, histograms: series(3000, 20, (k) => 1 + k) },
    ];
    const text = JSON.stringify({ status: "success", data: { resultType: "matrix", result } });
    const reader = prometheusAnswerReader({ source: "prometheus:x_seconds", firstPoint: "baseline", baselineAt: 1000, step: 60 });
    const parser = reader.create("prometheus:x_seconds");
    parser.line(text, 1);
    const p = parser.finish();
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    const [a, b, c] = p.series;
    // Each step holds what its point added: 20 values a step, 2 × 7, and 1 + 2 + … + 20 = 210.
    expect(a!.histogram.totalCount).toBe(20 * 3000);
    expect(b!.histogram.totalCount).toBe(14 * 5);
    expect(c!.histogram.totalCount).toBe(210 * 3000);
    expect(a!.intervals!.map((i) => i.histogram.totalCount)).toEqual(new Array(3000).fill(20));
    expect(b!.intervals!.map((i) => i.histogram.totalCount)).toEqual(new Array(5).fill(14));
    expect(c!.intervals!.map((i) => i.histogram.totalCount)).toEqual(new Array(3000).fill(210));
    // Bucket k of series 2 holds 1 + k values a step, each at its own upper bound.
    expect([...sparseOf(c!.intervals![2999]!.histogram).counts]).toEqual(Array.from({ length: 20 }, (_, k) => 1 + k));
    // Its top at the top bucket's upper bound, 2^-5 s, within HdrHistogram's resolution.
    const top = valueAtPercentile(c!.intervals![2999]!.histogram, 100);
    expect(top).toBeGreaterThanOrEqual(31_250_000);
    expect(top).toBeLessThanOrEqual(31_250_000 * HDR);
    // Steps at the same times: one column of starts and lengths for series 0 and 2, series 1's its own.
    expect(c!.sparse!.starts).toBe(a!.sparse!.starts);
    expect(c!.sparse!.lengths).toBe(a!.sparse!.lengths);
    expect(b!.sparse!.starts).not.toBe(a!.sparse!.starts);
    expect([...a!.sparse!.starts.subarray(0, 3)]).toEqual([0, 60, 120]);
    expect([...b!.sparse!.lengths]).toEqual([60, 60, 60, 60, 60]);
  });

  itReadsTheSameInChunks(prometheusApiReader, "prom-classic-range.json", CLASSIC, 1500, 20);
  itReadsTheSameInChunks(prometheusApiReader, "prom-native-range.json", NATIVE, 700, 13);
  itSurvivesGarbage(
    prometheusApiReader,
    "x.json",
    fc.array(
      fc.oneof(fc.string(), fc.constantFrom(NATIVE.slice(0, 400), '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"le":"1"},"values":[[1,"2"]]}]}}')),
      { maxLength: 6 },
    ),
  );
});
