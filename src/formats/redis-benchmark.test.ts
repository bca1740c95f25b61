// redis-benchmark 7's default output, written by redis-benchmark itself against a local
// redis-server: each test's spectrum read like a percentile file, compared with the summary
// redis-benchmark printed for that test.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, producerText, readProducer } from "../../tests/support/real-producers";
import { itSurvivesGarbage } from "../../tests/support/reader-tests";
import { parseByChunks, parseByLines, factsOfParsed, linesOf, readLines } from "../../tests/support/loadgen-fixtures";
import { pickFormat } from "./detect";
import { redisBenchmarkReader } from "./redis-benchmark";

const text = producerText("redis-benchmark", "redis-benchmark.txt");

/** Each test's name and its summary row (avg, min, p50, p95, p99, max), in µs. */
function summaries(): { name: string; avg: number; min: number; p50: number; p95: number; p99: number; max: number }[] {
  const out = [];
  const re = /====== (.+?) ======[\s\S]*?avg\s+min\s+p50\s+p95\s+p99\s+max\s*\n\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/g;
  for (const m of text.matchAll(re)) {
    const [avg, min, p50, p95, p99, max] = m.slice(2, 8).map((x) => Math.round(Number(x) * 1000));
    out.push({ name: m[1]!, avg: avg!, min: min!, p50: p50!, p95: p95!, p99: p99!, max: max! });
  }
  return out;
}

describe("redis-benchmark default output", () => {
  it("is taken by the redis-benchmark reader", () => {
    expect(pickFormat("redis-benchmark.txt", text.slice(0, 4096))?.id).toBe("redis-benchmark");
  });

  it("one series per test, whose min, p50 and max are redis-benchmark's and whose p95, p99 are never below its own", async () => {
    const r = await readProducer("redis-benchmark", "redis-benchmark.txt");
    const tests = summaries();
    expect(tests.map((t) => t.name)).toEqual(["SET", "GET", "LPUSH"]);
    expect(r.series.map((s) => s.tag)).toEqual(tests.map((t) => t.name));
    expect(r.problems).toEqual([expect.objectContaining({ note: true, reason: expect.stringMatching(/percentile steps/) })]);
    tests.forEach((t, i) => {
      const f = factsOf(r, i);
      expect(f.unit).toBe("us");
      expect(f.count).toBe(5000);
      expect(f.min).toBe(t.min);
      expect(f.max).toBe(t.max);
      expect(f.p(50)).toBe(t.p50);
      expect(f.p(95)).toBeGreaterThanOrEqual(t.p95);
      expect(f.p(99)).toBeGreaterThanOrEqual(t.p99);
    });
  });

  it("reads the same in chunks of any size (its progress lines end in carriage returns)", () => {
    const whole = factsOfParsed(parseByLines(redisBenchmarkReader, "r.txt", text), 0);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 8 }), (sizes) => {
        expect(factsOfParsed(parseByChunks(redisBenchmarkReader, "r.txt", text, sizes), 0)).toEqual(whole);
      }),
      { numRuns: 20 },
    );
  });

  it("names a row whose cumulative count goes down", () => {
    const printed = linesOf`
      ====== SET ======
      Latency by percentile distribution:
      0.000% <= 0.023 milliseconds (cumulative count 13)
      50.000% <= 0.047 milliseconds (cumulative count 10)
    `;
    const out = readLines(redisBenchmarkReader.create("r.txt"), printed);
    expect(out.series[0]!.histogram.totalCount).toBe(13);
    expect(out.problems[0]).toEqual({ file: "r.txt", line: 4, reason: expect.stringMatching(/below the previous row/) });
  });

  itSurvivesGarbage(redisBenchmarkReader, "r.txt", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 30))), { maxLength: 12 }));
});
