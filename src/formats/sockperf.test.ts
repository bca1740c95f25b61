// sockperf --full-log, written by sockperf 3.7 itself (ping-pong on loopback), compared with the
// observations and percentiles sockperf printed at the top of the same file.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsOf, numberAfter, producerText, readProducer } from "../../tests/support/real-producers";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { sockperfReader } from "./sockperf";

const text = producerText("sockperf", "sockperf-full-log.csv");

describe("sockperf --full-log", () => {
  it("is taken by the sockperf reader, colour codes and all (it was refused as a binary file)", () => {
    expect(text).toContain("\u001b[");
    expect(pickFormat("sockperf-full-log.csv", text.slice(0, 4096))?.id).toBe("sockperf");
  });

  it("reads every observation in ns, half the round trip as sockperf reports it: count, min, max and percentiles are sockperf's", async () => {
    const r = await readProducer("sockperf", "sockperf-full-log.csv");
    expect(r.problems).toEqual([expect.objectContaining({ note: true, reason: expect.stringMatching(/half the round trip/) })]);
    const f = factsOf(r);
    expect(f.unit).toBe("ns");
    expect(f.count).toBe(numberAfter(text, /Total (?:\W\[[\d;]*m)?/));
    expect(f.min).toBe(Math.round(numberAfter(text, /<MIN> observation =\s+/) * 1000));
    expect(f.max).toBe(Math.round(numberAfter(text, /<MAX> observation =\s+/) * 1000));
    // sockperf ranks a percentile one observation lower than HdrHistogram does on a few hundred
    // observations: each read back is never below sockperf's and at most the next observation
    const observed = [...text.matchAll(/^\d+, [\d.]+, [\d.]+, ([\d.]+)$/gm)].map((m) => Math.round(Number(m[1]) * 1000)).sort((a, b) => a - b);
    for (const q of ["25.000", "50.000", "75.000", "90.000", "99.000"]) {
      const theirs = Math.round(numberAfter(text, new RegExp(`percentile ${q.replace(".", "\\.")} =\\s+`)) * 1000);
      const next = observed.find((v) => v > theirs)!;
      expect(f.p(Number(q))).toBeGreaterThanOrEqual(theirs * 0.999);
      expect(f.p(Number(q))).toBeLessThanOrEqual(next * 1.001);
    }
    expect(f.intervals).toBeGreaterThan(0);
    expect(r.series[0]!.startTime).toBeNull();
  });

  it("names a damaged line", () => {
    const p = sockperfReader.create("s.csv");
    ["packet, txTime(sec), rxTime(sec), latency(usec)", "0, 2.403066597, 2.403118555, 25.979", "1, 2.404066596, 2.404117121", "2, 2.405066584, 2.405117409, 25.413"].forEach(
      (l, i) => p.line(l, i + 1),
    );
    const out = p.finish();
    expect(out.series[0]!.histogram.totalCount).toBe(2);
    expect(out.problems.filter((x) => !x.note).map((x) => x.line)).toEqual([3]);
  });

  itReadsTheSameInChunks(sockperfReader, "s.csv", text, 300, 20);
  itSurvivesGarbage(sockperfReader, "s.csv", fc.array(fc.oneof(fc.string(), fc.constantFrom(...text.split("\n").slice(18, 26))), { maxLength: 10 }));
});
