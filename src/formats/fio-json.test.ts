import { describe, expect, it } from "vitest";
import { valueAtPercentile, maxOf } from "../core/histogram";
import { fioBinTopByC, producerFixture } from "../../tests/support/producer-outputs";
import { parseByChunks, parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { fioJsonReader } from "./fio-json";
import fc from "fast-check";

// One fio 3.33 run (scripts/producers/fio.sh): randrw, 4 KB, psync, 100 IOPS for 2 s.
const JSONPLUS = producerFixture("fio-jsonplus.json");
const PLAIN = producerFixture("fio-plain.json");

interface FioLat {
  N: number;
  min: number;
  max: number;
  percentile: Record<string, number>;
}
const fio = JSON.parse(JSONPLUS) as { jobs: { read: { clat_ns: FioLat }; write: { clat_ns: FioLat } }[] };

describe("fio json+ output", () => {
  const parsed = parseByLines(fioJsonReader, "fio-jsonplus.json", JSONPLUS);

  it("is picked by its content, whatever its name", () => {
    for (const name of ["fio-jsonplus.json", "out.txt", "results"]) expect(pickFormat(name, JSONPLUS.slice(0, 4096))?.id).toBe("fio-json");
  });

  it("reads a histogram per job and direction, with fio's count and its exact min and max", () => {
    expect(parsed.series.map((s) => s.tag)).toEqual(["job read clat", "job write clat"]);
    for (const [i, dir] of (["read", "write"] as const).entries()) {
      const s = parsed.series[i]!;
      const c = fio.jobs[0]![dir].clat_ns;
      expect(s.unit).toBe("ns");
      expect(s.intervals).toBeNull();
      expect(s.histogram.totalCount).toBe(c.N);
      expect(s.histogram.minNonZeroValue).toBe(c.min);
      // HdrHistogram keeps the max to its 3 significant digits
      expect(maxOf(s.histogram)).toBeGreaterThanOrEqual(c.max);
      expect(maxOf(s.histogram)).toBeLessThanOrEqual(c.max * (1 + 1 / 1024));
    }
  });

  it("gives, at every percentile fio printed, the top of the bin fio's own value is in (never below it)", () => {
    for (const [i, dir] of (["read", "write"] as const).entries()) {
      const h = parsed.series[i]!.histogram;
      const c = fio.jobs[0]![dir].clat_ns;
      for (const [p, fioValue] of Object.entries(c.percentile)) {
        const ours = valueAtPercentile(h, Number(p));
        // the bin's top, or the max when the max is below it (the last bin)
        const top = Math.min(Number(fioBinTopByC(BigInt(fioValue))), c.max);
        expect(ours, `${dir} p${p}`).toBeGreaterThanOrEqual(top);
        expect(ours, `${dir} p${p}`).toBeLessThanOrEqual(top * (1 + 1 / 1024));
      }
    }
  });

  it("says the bins' resolution", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    expect(parsed.problems.map((p) => p.reason).join("\n")).toMatch(/upper bound.*1\.6 %/);
  });

  it("refuses fio's plain JSON (percentiles only) as statistics, naming json+", () => {
    expect(pickFormat("fio-plain.json", PLAIN.slice(0, 4096))?.id).toBe("fio-json");
    const p = parseByLines(fioJsonReader, "fio-plain.json", PLAIN);
    expect(p.series).toEqual([]);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.reason).toMatch(/^statistics, not samples: .*json\+/);
    // the advice is fio's own, not the load generators' list
    expect(p.problems[0]!.reason).not.toMatch(/JMeter|Gatling|k6|Vegeta|ghz|siege|ab -g/);
  });

  it("passes over fio's notes printed before the JSON", () => {
    const text = "note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1\n" + JSONPLUS;
    expect(pickFormat("out.json", text.slice(0, 4096))?.id).toBe("fio-json");
    const p = parseByChunks(fioJsonReader, "out.json", text, [777]);
    expect(p.series.map((s) => s.histogram.totalCount)).toEqual(parsed.series.map((s) => s.histogram.totalCount));
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
  });

  it("says when the file is cut short", () => {
    const p = parseByLines(fioJsonReader, "cut.json", JSONPLUS.slice(0, Math.floor(JSONPLUS.length * 0.6)));
    expect(p.problems.some((x) => !x.note && /truncated/.test(x.reason))).toBe(true);
  });

  itReadsTheSameInChunks(fioJsonReader, "fio-jsonplus.json", JSONPLUS, 3000, 20);
  itSurvivesGarbage(
    fioJsonReader,
    "x.json",
    fc.array(fc.oneof(fc.string(), fc.constantFrom('"bins" : {', '"clat_ns" : {', "{", "}", '"jobs" : [', '"read" : {')), { maxLength: 30 }),
  );
});
