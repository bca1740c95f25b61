// JSON readers and values longer than the scanner's default 1 MiB: each reader holds what its
// producer writes (a JMH fork's bins, a hyperfine result of 100,000 runs, an OTLP export of
// thousands of points: read whole) and names a value longer than its own limit (file, line,
// character on the line, what it is), never a silently smaller result. The expected counts are
// those written into the generated documents.
import { describe, expect, it } from "vitest";
import { byCompletion, generateSamples, parseByLines } from "../../tests/support/loadgen-fixtures";
import { fioJsonPlus } from "../../tests/support/structured-fixtures";
import { ghzJson } from "../../tests/support/producer-fixtures";
import { MAX_LINE_CHARS } from "../core/lines";
import { ingestWith } from "../engine/ingest";
import { fioJsonReader } from "./fio-json";
import { fortioReader } from "./fortio";
import { ghzReader } from "./ghz";
import { hyperfineReader } from "./hyperfine";
import { jmhReader } from "./jmh";
import { otlpReader } from "./otlp";
import type { FormatReader } from "./source";
import { JsonStream, MAX_VALUE_CHARS, type TooLongValue } from "./support/json-stream";

const MIB = 1024 * 1024;

/** Streams `text` through the app's line splitter in 1 MiB chunks (a compact line of more than MAX_LINE_CHARS comes in pieces). */
function ingestText(reader: FormatReader, name: string, text: string) {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += MIB) chunks.push(text.slice(i, i + MIB));
  return ingestWith(name, reader, chunks);
}

/** 1-based line and character of the first match of `re` in `text`. */
function whereIn(text: string, re: RegExp): { line: number; column: number } {
  const at = text.search(re);
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  return { line, column: at - before.lastIndexOf("\n") };
}

describe("the scanner's limit", () => {
  const values = (text: string, limit: number, pieces = 1) => {
    const got: string[] = [];
    const long: TooLongValue[] = [];
    const s = new JsonStream(
      [["v", "*"]],
      (_p, t) => got.push(t),
      limit,
      (v) => long.push(v),
    );
    const step = Math.ceil(text.length / pieces);
    const parts: string[] = [];
    for (let i = 0; i < text.length; i += step) parts.push(text.slice(i, i + step));
    parts.slice(0, -1).forEach((x) => s.piece(x, 1));
    s.line(parts[parts.length - 1]!, 1);
    return { got, long, tooLong: s.tooLong };
  };

  it("names a value longer than the limit once, where it starts, whether it came in one piece or in several", () => {
    const text = `{"v": ["short", "${"x".repeat(100)}", [1, 2]]}`;
    for (const pieces of [1, 3, 40]) {
      const r = values(text, 50, pieces);
      expect(r.got).toEqual(['"short"', "[1, 2]"]);
      expect(r.tooLong).toBe(1);
      expect(r.long).toEqual([{ path: "v/*", line: 1, column: text.indexOf('"xxx') + 1, limit: 50 }]);
    }
  });

  it("keeps a value at the limit", () => {
    const r = values(`{"v": ["${"y".repeat(48)}"]}`, 50);
    expect(r.got).toHaveLength(1);
    expect(r.long).toEqual([]);
  });
});

describe("ghz: a report whose calls hold more than 1 MiB, and a call that does", () => {
  const calls = byCompletion(generateSamples({ seed: 7, seconds: 12, rate: 1000, labels: [""], medianMs: 2, sigma: 0.5, failureRate: 0.02 }));
  const failed = calls.filter((c) => !c.success).length;

  it("reads every call of a details array of more than 1 MiB", () => {
    const text = ghzJson(calls, { pretty: true });
    expect(text.length).toBeGreaterThan(MIB);
    const p = parseByLines(ghzReader, "r.json", text);
    expect(p.problems).toEqual([]);
    expect([p.series[0]!.histogram.totalCount, p.series[0]!.failures]).toEqual([calls.length - failed, failed]);
  });

  it.each([
    ["pretty: its line held whole", true, 2 * MIB],
    ["compact: one line longer than the app holds, streamed in pieces", false, MAX_LINE_CHARS + MIB],
  ])("names a call longer than 1 MiB (%s) and reads the others", async (_what, pretty, errorChars) => {
    const few = calls.slice(0, 500);
    const text = ghzJson(few, { pretty }).replace(/"error": ?""/, `"error": "${"e".repeat(errorChars)}"`);
    const at = whereIn(text, /\{\s*"timestamp"[^{}]*"error": "eee/);
    const r = await ingestText(ghzReader, "r.json", text);
    expect(r.problems).toEqual([
      { file: "r.json", line: at.line, reason: expect.stringMatching(new RegExp(`^a call starting at character ${at.column.toLocaleString("en-US")} is longer than 1 MiB \\(`)) },
    ]);
    expect(r.problems[0]!.reason).toMatch(/: not read, so the results lack it$/);
    const s = r.series[0]!;
    expect(s.histogram.totalCount + s.failures!).toBe(few.length - 1);
  });
});

describe("Fortio: a histogram of more than 1 MiB, and labels longer than that", () => {
  /** A Fortio result with `n` buckets of 1 call each, 1 µs wide from 1 ms. */
  const fortio = (n: number, labels = "sysA") =>
    JSON.stringify(
      {
        RunType: "HTTP",
        Labels: labels,
        StartTime: "2026-01-02T03:04:05Z",
        DurationHistogram: {
          Count: n,
          Min: 0.001,
          Max: 0.001 + n * 1e-6,
          Data: Array.from({ length: n }, (_, k) => ({ Start: 0.001 + k * 1e-6, End: 0.001 + (k + 1) * 1e-6, Percent: ((k + 1) / n) * 100, Count: 1 })),
        },
        RetCodes: { "200": n },
      },
      null,
      2,
    );

  it("reads every bucket of a histogram of more than 1 MiB", () => {
    const text = fortio(12_000);
    expect(text.length).toBeGreaterThan(MIB);
    const p = parseByLines(fortioReader, "f.json", text);
    expect(p.problems).toEqual([]);
    expect(p.series[0]!.histogram.totalCount).toBe(12_000);
  });

  it("names Labels longer than 1 MiB, with its line", () => {
    const text = fortio(10, "L".repeat(MIB + 1));
    const p = parseByLines(fortioReader, "f.json", text);
    expect(p.problems).toEqual([
      { file: "f.json", line: whereIn(text, /"Labels"/).line, reason: expect.stringMatching(/^"Labels" starting at character \d+ is longer than 1 MiB/) },
    ]);
  });
});

describe("OTLP JSON: a resourceMetrics entry of more than 1 MiB", () => {
  /** One export of `n` delta data points a second apart, each holding `k + 1` values in the 10 ms bucket. */
  const otlp = (n: number, pretty: boolean) => {
    const t0 = 1_767_322_800n * 1_000_000_000n;
    const dataPoints = Array.from({ length: n }, (_, k) => ({
      attributes: [{ key: "route", value: { stringValue: "/checkout" } }],
      startTimeUnixNano: String(t0 + BigInt(k) * 1_000_000_000n),
      timeUnixNano: String(t0 + BigInt(k + 1) * 1_000_000_000n),
      count: String(k + 1),
      bucketCounts: ["0", "0", String(k + 1), "0"],
      explicitBounds: [1, 5, 10],
    }));
    const doc = {
      resourceMetrics: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "shop" } }] },
          scopeMetrics: [{ scope: { name: "x" }, metrics: [{ name: "rpc.duration", unit: "ms", histogram: { aggregationTemporality: 1, dataPoints } }] }],
        },
      ],
    };
    return JSON.stringify(doc, null, pretty ? 2 : undefined) + "\n";
  };

  it.each([
    ["pretty", true],
    ["one line, as the Collector writes it", false],
  ])("reads every data point (%s)", async (_what, pretty) => {
    const n = 6000;
    const text = otlp(n, pretty);
    expect(text.length).toBeGreaterThan(MIB);
    const r = await ingestText(otlpReader, "m.json", text);
    expect(r.problems.filter((x) => !x.note)).toEqual([]);
    expect(r.series.reduce((a, s) => a + s.histogram.totalCount, 0)).toBe((n * (n + 1)) / 2);
  });
});

describe("JMH: a fork's rawDataHistogram of more than 1 MiB, beside a rawData of more than 1 MiB", () => {
  it.each([
    ["pretty, as JMH writes it", 4],
    ["compact", undefined],
  ])("reads every bin of the sample-mode fork and passes over the other mode's scores (%s)", async (_what, indent) => {
    // 150,000 bins a nanosecond apart from 100 ns: more than 1 MiB however it is written.
    const pairs = Array.from({ length: 150_000 }, (_, k) => [100 + k, (k % 3) + 1] as [number, number]);
    const samples = pairs.reduce((a, p) => a + p[1], 0);
    const doc = [
      {
        benchmark: "bench.Fast.thrpt",
        mode: "thrpt",
        primaryMetric: { score: 1, scoreUnit: "ops/s", rawData: [Array.from({ length: 100_000 }, (_, k) => 1000 + k / 7)] },
      },
      { benchmark: "bench.Slow.call", mode: "sample", primaryMetric: { score: 1, scoreUnit: "ns/op", rawDataHistogram: [[pairs.slice(0, 75_000), pairs.slice(75_000)]] } },
    ];
    const text = JSON.stringify(doc, null, indent) + "\n";
    expect(text.length).toBeGreaterThan(2 * MIB);
    const r = await ingestText(jmhReader, "jmh.json", text);
    expect(r.problems.filter((x) => !x.note)).toEqual([]);
    expect(r.series.map((s) => [s.tag, s.histogram.totalCount])).toEqual([["Slow.call", samples]]);
  });
});

describe("hyperfine: a result of 100,000 runs (more than 1 MiB)", () => {
  it("reads every run's time", async () => {
    const times = Array.from({ length: 100_000 }, (_, k) => 0.01 + (k % 1000) * 1e-6);
    const text = JSON.stringify({ results: [{ command: "sleep 0.01", mean: 0.0105, times, exit_codes: times.map(() => 0) }] }, null, 2) + "\n";
    expect(text.length).toBeGreaterThan(MIB);
    const r = await ingestText(hyperfineReader, "h.json", text);
    expect(r.problems.filter((x) => !x.note)).toEqual([]);
    expect(r.series.map((s) => s.histogram.totalCount)).toEqual([100_000]);
  });
});

describe("fio JSON: a latency object longer than 1 MiB", () => {
  it("is named with its line, and the other direction is read", () => {
    const samples = generateSamples({ seed: 3, seconds: 2, rate: 500, labels: [""], medianMs: 0.2, sigma: 0.4, failureRate: 0 });
    const doc = JSON.parse(fioJsonPlus(samples).text) as { jobs: { read: { clat_ns: { bins: Record<string, number> } }; write: { clat_ns: { N: number } } }[] };
    // Bins no fio writes (it has 1,856 at most): zero counts, to pass the limit.
    for (let k = 0; k < 80_000; k++) doc.jobs[0]!.read.clat_ns.bins[String(10_000_000 + k)] = 0;
    const text = JSON.stringify(doc, null, 2);
    expect(text.length).toBeGreaterThan(MIB);
    const p = parseByLines(fioJsonReader, "fio.json", text);
    const line = whereIn(text, /"read": \{\s*"clat_ns"/).line + 1;
    expect(p.problems.filter((x) => !x.note)).toEqual([
      { file: "fio.json", line, reason: expect.stringMatching(/^job read clat_ns starting at character \d+ is longer than 1 MiB/) },
    ]);
    expect(p.series.map((s) => s.histogram.totalCount)).toEqual([doc.jobs[0]!.write.clat_ns.N]);
  });
});

it("the default limit is 1 MiB", () => {
  expect(MAX_VALUE_CHARS).toBe(MIB);
});
