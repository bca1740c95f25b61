// A Prometheus answer read as it streams in (each point captured and read on its own, each
// result finished where it closes) gives what reading the whole parsed answer gives: the same
// series, counts, percentiles and per-step counts, and the same problems, however the text is
// cut: inside numbers, strings, keys and multi-byte characters, with the answer on one line or
// pretty-printed, its keys in Prometheus' order or sorted (points before the labels).
import { describe, expect, it } from "vitest";
import { sparseOf, valueAtPercentile } from "../core/histogram";
import { seeded } from "../core/history/stats";
import { queryPrometheus } from "../engine/prometheus-query";
import { prometheusAnswerReader, readPrometheusData, type PrometheusReadOptions } from "./prometheus-api";
import type { ParsedSeries, ParsedSource } from "./source";
import { Problems } from "./support/problems";

/** A small seeded generator (the cuts and the answer are the same on every run). */
const rng = seeded;

const STEP = 60;
const T0 = 1_767_225_600;

/** A query_range answer: native series (cumulative, one with a reset, one appearing late), a classic histogram's buckets, a float series, a bad point, an empty one. */
function answer(seed: number): unknown {
  const r = rng(seed);
  const result: unknown[] = [];
  for (let s = 0; s < 4; s++) {
    const counts = new Array<number>(6).fill(0);
    const points: unknown[] = [];
    const from = s === 3 ? 5 : 0;
    for (let p = from; p <= 30; p++) {
      if (s === 1 && p === 17) counts.fill(0); // a restarted process
      for (let k = 0; k < counts.length; k++) counts[k]! += Math.floor(r() * (k === 5 ? 3 : 40));
      const buckets = counts.map((c, k) => [k === 0 ? 3 : 0, String(2 ** ((k - 60) / 8)), String(2 ** ((k - 59) / 8)), String(c)]);
      points.push([T0 + p * STEP, { count: String(counts.reduce((a, b) => a + b, 0)), sum: "0.5", buckets }]);
    }
    if (s === 2) points.splice(7, 0, [T0 + 7 * STEP + 1, { count: "x", buckets: [[0, "a"]] }]);
    result.push({ metric: { __name__: "api_duration_seconds", instance: `host-${s}:9100`, région: `é\u00e8\u4e2d-${s}`, job: "api" }, histograms: points });
  }
  const cum = [0, 0, 0];
  const series = ["0.005", "0.05", "+Inf"].map((le) => ({ metric: { __name__: "old_duration_seconds_bucket", le, job: "api" }, values: [] as unknown[] }));
  for (let p = 0; p <= 30; p++) {
    cum[0]! += Math.floor(r() * 10);
    cum[1] = cum[0]! + Math.floor(r() * 10) + p;
    cum[2] = cum[1]! + p;
    series.forEach((x, k) => x.values.push([T0 + p * STEP, String(cum[k])]));
  }
  // No point at all: still a native histogram's result (its name's missing unit is said).
  result.push(...series, { metric: { __name__: "up", job: "api" }, values: [[T0, "1"]] }, { metric: { __name__: "queue_wait", job: "api" }, histograms: [] });
  return { status: "success", data: { resultType: "matrix", result } };
}

/** Keys sorted at every level (as jq -S writes them): each result's points come before its labels. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  return v;
}

const OPTIONS: PrometheusReadOptions = { source: "prometheus:q", firstPoint: "baseline", baselineAt: T0, step: STEP, perStep: "cumulative", query: "q" };

/** The text fed as ingest feeds a reader: line by line, each line cut into random pieces. */
function readInPieces(text: string, r: () => number): ParsedSource {
  const p = prometheusAnswerReader(OPTIONS).create("answer.json");
  text.split("\n").forEach((line, i) => {
    let at = 0;
    while (at < line.length) {
      const end = Math.min(line.length, at + 1 + Math.floor(r() * (r() < 0.3 ? 8 : 400)));
      if (end === line.length) break;
      p.piece!(line.slice(at, end), i + 1);
      at = end;
    }
    p.line(line.slice(at), i + 1);
  });
  return p.finish();
}

const PERCENTILES = [0, 25, 50, 90, 99, 99.9, 100];

function facts(s: ParsedSeries) {
  const sp = s.sparse ?? null;
  return {
    name: s.name,
    tag: s.tag,
    unit: s.unit,
    startTime: s.startTime,
    bucketed: s.bucketed,
    count: s.histogram.totalCount,
    percentiles: PERCENTILES.map((p) => valueAtPercentile(s.histogram, p)),
    whole: sparseOf(s.histogram),
    rows: sp && { n: sp.n, starts: [...sp.starts], lengths: [...sp.lengths], rowStart: [...sp.rowStart], indices: [...sp.indices], counts: [...sp.counts], highest: sp.highest },
  };
}

/** `text` as the engine's query fetches it, its bytes arriving in pieces of 1 to `maxCut` (seeded). */
async function fetchedInCuts(text: string, seed: number, maxCut: number) {
  const bytes = new TextEncoder().encode(text);
  const r = rng(seed);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.length;) {
        const end = Math.min(bytes.length, at + 1 + Math.floor(r() * maxCut));
        c.enqueue(bytes.slice(at, end));
        at = end;
      }
      c.close();
    },
  });
  return queryPrometheus(
    { url: "http://127.0.0.1:9090", query: "q", start: T0, end: T0 + 30 * STEP, step: STEP },
    { fetch: (async () => new Response(body, { headers: { "content-type": "application/json" } })) as typeof fetch },
  );
}

/** The fetched series have the whole answer's names, counts and percentiles. */
function expectSameSeries(got: { name: string; histogram: ParsedSeries["histogram"] }[], whole: ParsedSeries[]): void {
  expect(got.map((s) => s.name)).toEqual(whole.map((s) => s.name));
  expect(got.map((s) => s.histogram.totalCount)).toEqual(whole.map((s) => s.histogram.totalCount));
  for (const [i, s] of got.entries()) expect(PERCENTILES.map((p) => valueAtPercentile(s.histogram, p))).toEqual(PERCENTILES.map((p) => valueAtPercentile(whole[i]!.histogram, p)));
}

describe("a Prometheus answer read as it streams in", () => {
  for (const [what, make] of [
    ["compact", (a: unknown) => JSON.stringify(a)],
    ["pretty-printed", (a: unknown) => JSON.stringify(a, null, 2)],
    ["keys sorted (points before labels)", (a: unknown) => JSON.stringify(sorted(a))],
  ] as const)
    it(`reads what the whole parsed answer holds, cut anywhere (${what})`, () => {
      for (let seed = 1; seed <= 6; seed++) {
        const a = make(answer(seed));
        const problems = new Problems("answer.json");
        const whole = readPrometheusData((JSON.parse(a) as { data: unknown }).data, OPTIONS, problems);
        const r = rng(1000 + seed);
        const streamed = readInPieces(a, r);
        // Four native series (one with an unreadable point), one classic; the float series is left out.
        expect(whole.series.map((s) => s.tag)).toHaveLength(5);
        expect(streamed.series.map(facts)).toEqual(whole.series.map(facts));
        expect(streamed.problems.filter((p) => !p.note).map((p) => p.reason)).toEqual(problems.list().map((p) => p.reason));
        expect(streamed.problems.filter((p) => p.note).map((p) => p.reason)).toEqual(whole.notes);
        // The reset is said, the unreadable point too: what the test is about is there.
        expect(whole.notes.join("\n")).toMatch(/1 counter resets/);
        expect(
          problems
            .list()
            .map((p) => p.reason)
            .join("\n"),
        ).toMatch(/result 3 .*a histogram point is not/);
        expect(
          problems
            .list()
            .map((p) => p.reason)
            .join("\n"),
        ).toMatch(/queue_wait: the name does not say its unit/);
      }
    });

  it("through the engine's fetch, an answer of many results on one line, read in pieces as it comes", async () => {
    // Twelve answers' results in one (each instance its own): half a megabyte on one line.
    const result = Array.from({ length: 12 }, (_, k) =>
      (answer(20 + k) as { data: { result: { metric: Record<string, string> }[] } }).data.result.map((x) => ({
        ...x,
        metric: { ...x.metric, instance: `${x.metric.instance ?? ""}-${k}` },
      })),
    ).flat();
    const text = JSON.stringify({ status: "success", data: { resultType: "matrix", result } });
    expect(text.length).toBeGreaterThan(8 * 64 * 1024);
    const got = await fetchedInCuts(text, 78, 40_000);
    const problems = new Problems("x");
    const whole = readPrometheusData({ result }, { ...OPTIONS, name: (tag) => `q [${tag}]` }, problems);
    expect(whole.series.length).toBe(60);
    expectSameSeries(got.series, whole.series);
  });

  it("through the engine's fetch, the body's bytes cut anywhere (inside multi-byte characters too)", async () => {
    const text = JSON.stringify(answer(7));
    const got = await fetchedInCuts(text, 77, 300);
    const problems = new Problems("x");
    const whole = readPrometheusData((JSON.parse(text) as { data: unknown }).data, { ...OPTIONS, name: (tag) => `q [${tag}]` }, problems);
    expectSameSeries(got.series, whole.series);
    expect(got.series.map((s) => s.intervals?.n)).toEqual(whole.series.map((s) => s.sparse?.n));
  });
});
