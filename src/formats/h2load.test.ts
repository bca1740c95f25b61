// h2load --log-file, written by h2load itself on loopback, compared with the summary h2load
// printed in the same run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, near, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { h2loadReader } from "./h2load";
import { readLines } from "../../tests/support/loadgen-fixtures";

const text = producerText("h2load", "h2load-requests.tsv");
const summary = producerText("h2load", "h2load-summary.txt");

/** h2load's "time for request:" min, max, mean, in µs ("382us", "23.94ms"). */
function requestTimes(): number[] {
  const line = /^time for request:(.*)$/m.exec(summary)![1]!;
  return [...line.matchAll(/(\d+(?:\.\d+)?)(us|ms|s)\b/g)].slice(0, 3).map((m) => Number(m[1]) * { us: 1, ms: 1e3, s: 1e6 }[m[2] as "us" | "ms" | "s"]);
}

describe("h2load --log-file", () => {
  it("is taken by the h2load reader by its lines", () => {
    expect(pickFormat("h2load-requests.tsv", text.slice(0, 4096))?.id).toBe("h2load");
    expect(pickFormat("log", text.slice(0, 4096))?.id).toBe("h2load");
  });

  it("reads every request in µs: count, min, max and mean are h2load's own", async () => {
    const r = await readProducer("h2load", "h2load-requests.tsv");
    expect(r.problems).toEqual([]);
    const f = factsOf(r);
    const [min, max, mean] = requestTimes();
    expect(f.unit).toBe("us");
    expect(f.count).toBe(numberAfter(summary, /requests: /));
    expect(f.failures).toBe(0);
    expect(f.min).toBe(min);
    // h2load prints ms with two decimals: within 5 µs, and within the histogram's 0.1%
    expect(Math.abs(f.max - max!)).toBeLessThanOrEqual(5);
    expect(near(f.mean, mean!, 0.01)).toBe(true);
    expect(f.intervals).toBeGreaterThan(0);
  });

  it("counts failed requests (status -1 or 0, and 4xx/5xx) and names a bad line", () => {
    const out = readLines(h2loadReader.create("r.tsv"), ["1796516129608783\t200\t6200", "1796516129608790\t-1\t0", "1796516129608791\t503\t900", "1796516129608792\t200\tabc"]);
    expect(out.series[0]!.histogram.totalCount).toBe(1);
    expect(out.series[0]!.failures).toBe(2);
    expect(out.problems.map((x) => x.line)).toEqual([4]);
  });

  itReadsTheSameInChunks(h2loadReader, "r.tsv", text, 200, 30);
  itSurvivesGarbage(h2loadReader, "r.tsv", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 5))), { maxLength: 8 }));
});
