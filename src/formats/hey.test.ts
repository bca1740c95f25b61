// hey -o csv, written by hey itself on loopback: seconds with four decimals, read in µs (the
// generic samples reader took them for ms).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { factsOf, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { heyReader } from "./hey";
import { readLines } from "../../tests/support/loadgen-fixtures";

const text = producerText("hey", "hey.csv");
/** The response-time column in µs, straight from the text (4 decimals of a second). */
const times = text
  .trim()
  .split("\n")
  .slice(1)
  .map((l) => Math.round(Number(l.split(",")[0]) * 1e6));

describe("hey -o csv", () => {
  it("is taken by the hey reader, by its header, whatever its name", () => {
    for (const name of ["hey.csv", "results.txt", "out"]) expect(pickFormat(name, text.slice(0, 4096))?.id).toBe("hey");
  });

  it("reads every request in µs: count, min and max are hey's own response-times (not 1,000 times too small)", async () => {
    const r = await readProducer("hey", "hey.csv");
    expect(r.problems).toEqual([]);
    const f = factsOf(r);
    expect(f.unit).toBe("us");
    expect(f.count).toBe(times.length);
    expect(f.min).toBe(Math.min(...times));
    expect(f.max).toBe(Math.max(...times));
    // hey writes 0.1 ms steps: a median of a few hundred µs to a few ms, never below 100 µs
    const sorted = [...times].sort((a, b) => a - b);
    expect(f.p(50)).toBeGreaterThanOrEqual(sorted[Math.ceil(times.length / 2) - 1]!);
    expect(f.p(50)).toBeLessThanOrEqual(sorted[Math.ceil(times.length / 2) - 1]! * 1.001);
    expect(r.series[0]!.startTime).toBeNull();
  });

  it("counts a status of 400 and more as failed, and names a bad line", async () => {
    const lines = text.trim().split("\n");
    const bad = [lines[0], lines[1], lines[2]!.replace(/,200,/, ",503,"), "0.0x,0,0,0,0,0,200,0.1", lines[3]].join("\n");
    const out = readLines(heyReader.create("h.csv"), bad.split("\n"));
    expect(out.series[0]!.histogram.totalCount).toBe(2);
    expect(out.series[0]!.failures).toBe(1);
    expect(out.problems).toEqual([{ file: "h.csv", line: 4, reason: expect.stringMatching(/response-time "0.0x" is not a number/) }]);
  });

  itReadsTheSameInChunks(heyReader, "hey.csv", text, 300, 30);
  itSurvivesGarbage(heyReader, "hey.csv", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(0, 5))), { maxLength: 8 }));
});
