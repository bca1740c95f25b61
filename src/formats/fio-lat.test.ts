import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxOf, newHistogram, valueAtPercentile } from "../core/histogram";
import { producerFixture } from "../../tests/support/producer-outputs";
import { parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { fioLatReader } from "./fio-lat";

// One fio 3.33 run (scripts/producers/fio.sh) wrote the per-I/O log and the json+ output.
const LAT = producerFixture("fio_clat.1.log");
const AVG = producerFixture("fio-avg_clat.1.log");
const fio = JSON.parse(producerFixture("fio-jsonplus.json")) as { jobs: Record<"read" | "write", { clat_ns: { N: number; min: number; max: number } }>[] };
const ios = LAT.trim()
  .split("\n")
  .map((l) => l.split(", ").map(Number) as [number, number, number, number, number]);

describe("fio per-I/O latency log", () => {
  const parsed = parseByLines(fioLatReader, "fio_clat.1.log", LAT);

  it("is picked by its content", () => {
    for (const name of ["fio_clat.1.log", "x.csv", "x.txt"]) expect(pickFormat(name, LAT.slice(0, 4096))?.id).toBe("fio-lat");
  });

  it("holds every I/O in ns, a series per direction: the count, min and max fio's json+ gives for the same run", () => {
    expect(parsed.problems).toEqual([]);
    expect(parsed.series.map((s) => s.tag)).toEqual(["read", "write"]);
    for (const [i, dir] of (["read", "write"] as const).entries()) {
      const s = parsed.series[i]!;
      const c = fio.jobs[0]![dir].clat_ns;
      expect(s.unit).toBe("ns");
      expect(s.histogram.totalCount).toBe(c.N);
      expect(s.histogram.minNonZeroValue).toBeLessThanOrEqual(c.min);
      expect(maxOf(s.histogram)).toBeGreaterThanOrEqual(c.max);
      const ref = newHistogram();
      for (const [, v, d] of ios) if (d === i) ref.recordValue(v);
      for (const p of [50, 90, 99, 100]) expect(valueAtPercentile(s.histogram, p)).toBe(valueAtPercentile(ref, p));
      // a second a interval: times are ms since the job's start
      expect(s.intervals!.map((iv) => iv.histogram.totalCount).reduce((a, b) => a + b, 0)).toBe(c.N);
      expect(s.intervals!.length).toBe(Math.floor(Math.max(...ios.map((x) => x[0])) / 1000) + 1);
    }
  });

  it("refuses a log averaged over log_avg_msec windows as statistics", () => {
    expect(pickFormat("fio-avg_clat.1.log", AVG)?.id).toBe("fio-lat");
    const p = parseByLines(fioLatReader, "fio-avg_clat.1.log", AVG);
    expect(p.series).toEqual([]);
    expect(p.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/^statistics, not samples: a fio latency log averaged.*without --log_avg_msec/)]);
    // the advice is fio's own, not the load generators' list
    expect(p.problems[0]!.reason).not.toMatch(/JMeter|Gatling|k6|Vegeta|ghz|siege|ab -g/);
  });

  it("refuses bandwidth and IOPS logs (same layout) by their names", () => {
    for (const name of ["fio_bw.1.log", "job_iops.log"]) {
      const p = parseByLines(fioLatReader, name, LAT);
      expect(p.series).toEqual([]);
      expect(p.problems[0]!.reason).toMatch(/not latencies/);
    }
  });

  it("names the line and the reason of a damaged line", () => {
    const lines = LAT.trim().split("\n");
    lines[4] = "12, abc, 0, 4096, 0";
    lines[6] = "13, 1000, 5, 4096, 0";
    const p = parseByLines(fioLatReader, "fio_clat.1.log", lines.join("\n"));
    expect(p.problems.map((x) => x.line)).toEqual([5, 7]);
    expect(p.series.reduce((a, s) => a + s.histogram.totalCount, 0)).toBe(ios.length - 2);
  });

  itReadsTheSameInChunks(fioLatReader, "fio_clat.1.log", LAT, 500, 20);
  itSurvivesGarbage(fioLatReader, "x_clat.1.log", fc.array(fc.oneof(fc.string(), fc.constantFrom("0, 5, 0, 4096, 0", "1, 0, 3, 0", "5, 9, 1, 0, 0")), { maxLength: 20 }));
});
