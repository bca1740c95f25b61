// cyclictest -h output, written by cyclictest itself (two threads): each thread's histogram in
// µs, compared with the Min, Max, Total and overflows cyclictest printed below it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { cyclictestReader } from "./cyclictest";
import { pickFormat } from "./detect";
import { linesOf, readLines } from "../../tests/support/loadgen-fixtures";

const text = producerText("cyclictest", "cyclictest-h.txt");
const stat = (name: string): number[] =>
  [...text.matchAll(/^# (.+?):((?:\s+\d+)+)\s*$/gm)]
    .find((m) => m[1] === name)![2]!
    .trim()
    .split(/\s+/)
    .map(Number);

describe("cyclictest -h", () => {
  it("is taken by the cyclictest reader (the generic samples reader took its rows for values)", () => {
    expect(pickFormat("cyclictest-h.txt", text.slice(0, 4096))?.id).toBe("cyclictest");
  });

  it("one series per thread in µs: min and max are cyclictest's, every cycle counted, overflows said", async () => {
    const r = await readProducer("cyclictest", "cyclictest-h.txt");
    const [min, max, total, over] = [stat("Min Latencies"), stat("Max Latencies"), stat("Total"), stat("Histogram Overflows")];
    expect(r.series.map((s) => s.tag)).toEqual(["thread 0", "thread 1"]);
    r.series.forEach((_, t) => {
      const f = factsOf(r, t);
      expect(f.unit).toBe("us");
      expect(f.min).toBe(min[t]);
      expect(f.max).toBe(max[t]);
      expect(f.count).toBe(total[t]! + over[t]!);
    });
    const overflows = over.reduce((a, b) => a + b, 0);
    if (overflows > 0)
      expect(r.problems).toEqual([
        expect.objectContaining({ note: true, reason: expect.stringMatching(new RegExp(`^${overflows} latenc.* overflowed the histogram \\(-h 200\\)`)) }),
      ]);
    else expect(r.problems).toEqual([]);
  });

  it("overflows are placed at the thread's max, never below", () => {
    const printed = linesOf`
      # Histogram
      000000 000000
      000001 000003
      000002 000001
      # Total: 000000004
      # Min Latencies: 00001
      # Max Latencies: 00950
      # Histogram Overflows: 00002
    `;
    const out = readLines(cyclictestReader.create("c.txt"), printed);
    const h = out.series[0]!.histogram;
    expect(h.totalCount).toBe(6);
    expect(h.maxValue).toBe(950);
    expect(h.getValueAtPercentile(70)).toBeGreaterThanOrEqual(950);
    expect(out.problems[0]!.reason).toMatch(/^2 latencies of 3 µs or more overflowed/);
  });

  itReadsTheSameInChunks(cyclictestReader, "c.txt", text, 300, 20);
  itSurvivesGarbage(cyclictestReader, "c.txt", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 6), ...text.split("\n").slice(-8))), { maxLength: 10 }));
});
