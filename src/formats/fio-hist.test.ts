import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newHistogram, valueAtPercentile } from "../core/histogram";
import { fioBinTopByC, producerFixture } from "../../tests/support/producer-outputs";
import { parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { fioHistReader } from "./fio-hist";

// One fio 3.33 run (scripts/producers/fio.sh) wrote both logs: the histogram log every 500 ms and
// the per-I/O log, whose latencies are the independent reference for the histogram rows.
const HIST = producerFixture("fio_clat_hist.1.log");
const LAT = producerFixture("fio_clat.1.log");
const ios = LAT.trim()
  .split("\n")
  .map((l) => l.split(", ").map(Number) as [number, number, number, number, number]);
const rows = HIST.trim()
  .split("\n")
  .map((l) => l.split(", ").map(Number));

describe("fio histogram log", () => {
  const parsed = parseByLines(fioHistReader, "fio_clat_hist.1.log", HIST);

  it("is picked by its name, and by its content when the name says nothing", () => {
    expect(pickFormat("fio_clat_hist.1.log", HIST.slice(0, 4096))?.id).toBe("fio-hist");
    expect(pickFormat("x.txt", HIST.slice(0, 4096))?.id).toBe("fio-hist");
    expect(pickFormat("x.csv", HIST)?.id).toBe("fio-hist");
  });

  it("gives a series of intervals per direction, each holding that interval's I/Os of the per-I/O log at their bins' tops", () => {
    expect(parsed.series.map((s) => s.tag)).toEqual(["read", "write"]);
    for (const [dir, s] of parsed.series.map((x, i) => [i, x] as const)) {
      const mine = rows.filter((r) => r[1] === dir);
      expect(s.unit).toBe("ns");
      expect(s.intervals!.length).toBe(mine.length);
      let prev = 0;
      mine.forEach((r, k) => {
        const iv = s.intervals![k]!;
        expect(iv.start).toBeCloseTo(prev / 1000, 9);
        expect(iv.length).toBeCloseTo((r[0]! - prev) / 1000, 9);
        // the same I/Os, from the per-I/O log: completed in (previous line, this line], the first from 0
        const ref = newHistogram();
        for (const [t, v, d] of ios) if (d === dir && (t > prev || (k === 0 && t === 0)) && t <= r[0]!) ref.recordValue(Number(fioBinTopByC(BigInt(v))));
        expect(iv.histogram.totalCount).toBe(ref.totalCount);
        for (const p of [0, 10, 50, 90, 99, 100]) expect(valueAtPercentile(iv.histogram, p), `${dir}@${r[0]} p${p}`).toBe(valueAtPercentile(ref, p));
        prev = r[0]!;
      });
      expect(s.histogram.totalCount).toBe(mine.reduce((a, r) => a + r.slice(3).reduce((x, y) => x + y, 0), 0));
    }
  });

  it("says the bins' resolution, and nothing else", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    expect(parsed.problems.map((p) => p.reason).join("\n")).toMatch(/upper bound/);
  });

  it("reads coarsened bins (log_hist_coarseness) at the top of the bins they merge", () => {
    // Coarseness 2: four of fio's bins summed into one, as fio's hist_sum does.
    const coarse = rows.map((r) => {
      const out = r.slice(0, 3);
      for (let j = 3; j < r.length; j += 4) out.push(r[j]! + r[j + 1]! + r[j + 2]! + r[j + 3]!);
      return out.join(", ");
    });
    const p = parseByLines(fioHistReader, "c_clat_hist.1.log", coarse.join("\n") + "\n");
    expect(p.problems.filter((x) => !x.note)).toEqual([]);
    const read = p.series[0]!;
    const ref = newHistogram();
    for (const [t, v, d] of ios)
      if (d === 0 && t <= rows.filter((r) => r[1] === 0).at(-1)![0]!) {
        // the top of the 4-bin group the fine bin belongs to
        const groupLast = fioIndex(BigInt(v)) | 3;
        let x = BigInt(v);
        while (fioIndex(x) < groupLast) x = fioBinTopByC(x) + 1n;
        const top = fioBinTopByC(x);
        ref.recordValue(Number(top));
      }
    expect(read.histogram.totalCount).toBe(ref.totalCount);
    for (const q of [1, 50, 99, 100]) expect(valueAtPercentile(read.histogram, q)).toBe(valueAtPercentile(ref, q));
    expect(p.problems.map((x) => x.reason).join("\n")).toMatch(/4 of fio's bins merged/);
  });

  it("names the line and the reason of a damaged line, and keeps the others", () => {
    const lines = HIST.trim().split("\n");
    lines[1] = lines[1]!.split(", ").slice(0, 100).join(", ");
    lines[2] = lines[2]!.replace(/^(\d+), 1,/, "$1, 7,");
    const p = parseByLines(fioHistReader, "fio_clat_hist.1.log", lines.join("\n"));
    expect(p.problems.filter((x) => !x.note).map((x) => x.line)).toEqual([2, 3]);
    expect(p.problems[0]!.reason).toMatch(/100 fields/);
    expect(p.problems[1]!.reason).toMatch(/direction "7"/);
    expect(p.series.reduce((a, s) => a + s.intervals!.length, 0)).toBe(rows.length - 2);
  });

  itReadsTheSameInChunks(fioHistReader, "fio_clat_hist.1.log", HIST, 9000, 15);
  itSurvivesGarbage(fioHistReader, "x_clat_hist.1.log", fc.array(fc.oneof(fc.string(), fc.constant(rows[0]!.join(", "))), { maxLength: 8 }));
});

function fioIndex(v: bigint): number {
  // bins below 128 ns are one value each; above, a group of 64 per power of two
  const msb = v.toString(2).length - 1;
  if (msb <= 6) return Number(v);
  return ((msb - 6 + 1) << 6) + Number((v >> BigInt(msb - 6)) & 63n);
}
