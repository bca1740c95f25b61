import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { valueAtPercentile } from "../core/histogram";
import { producerFixture } from "../../tests/support/producer-outputs";
import { parseByLines } from "../../tests/support/loadgen-fixtures";
import { itReadsTheSameInChunks, itSurvivesGarbage } from "../../tests/support/reader-tests";
import { pickFormat } from "./detect";
import { jmhReader } from "./jmh";

// JMH 1.37, SampleTime, 2 forks × 2 iterations (scripts/producers/jmh.sh).
const TEXT = producerFixture("jmh-sample.json");
interface JmhResult {
  benchmark: string;
  primaryMetric: { scorePercentiles: Record<string, number>; scoreUnit: string; rawDataHistogram: [number, number][][][] };
}
const RESULTS = JSON.parse(TEXT) as JmhResult[];
const HDR = 1 + 1 / 1024;

/** JMH's SampleBuffer bin of a printed value (its lowest, µs): [low, top] in ns, from its `(t >> b) << b` rule on integers. */
function bin(us: number): [bigint, bigint] {
  const low = BigInt(Math.round(us * 1000));
  const b = BigInt(Math.max(0, low.toString(2).length - 10));
  return [low, low | ((1n << b) - 1n)];
}

describe("JMH SampleTime JSON", () => {
  const parsed = parseByLines(jmhReader, "jmh-sample.json", TEXT);

  it("is picked by its content", () => {
    expect(pickFormat("result.json", TEXT.slice(0, 4096))?.id).toBe("jmh");
  });

  it("gives a histogram per benchmark, forks and iterations merged", () => {
    expect(parsed.problems.filter((p) => !p.note)).toEqual([]);
    expect(parsed.series.map((s) => s.tag)).toEqual(["Sleepy.compute", "Sleepy.park"]);
    RESULTS.forEach((r, i) => {
      const n = r.primaryMetric.rawDataHistogram.flat(2).reduce((a, [, c]) => a + c, 0);
      expect(parsed.series[i]!.histogram.totalCount).toBe(n);
      expect(r.primaryMetric.rawDataHistogram.length).toBe(2); // two forks, both in
    });
  });

  it("reads every percentile at the top of JMH's bin holding that rank, where JMH's own scorePercentiles agree", () => {
    RESULTS.forEach((r, i) => {
      const h = parsed.series[i]!.histogram;
      const sorted: [bigint, bigint][] = [];
      for (const [v, c] of r.primaryMetric.rawDataHistogram.flat(2)) for (let k = 0; k < c; k++) sorted.push(bin(v));
      sorted.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const n = sorted.length;
      for (const [key, jmhUs] of Object.entries(r.primaryMetric.scorePercentiles)) {
        const p = Number(key);
        const rank = Math.max(1, Math.ceil((p / 100) * n - 1e-9));
        const top = Number(sorted[rank - 1]![1]);
        const ours = valueAtPercentile(h, p);
        if (p > 0) {
          expect(ours, `${r.benchmark} p${p}`).toBeGreaterThanOrEqual(top);
          expect(ours, `${r.benchmark} p${p}`).toBeLessThanOrEqual(top * HDR);
        }
        // JMH interpolates between neighbouring samples: its value lies between them.
        const lo = Number(sorted[Math.max(0, rank - 2)]![0]);
        const hi = Number(sorted[Math.min(n - 1, rank)]![1]);
        expect(jmhUs * 1000, `${r.benchmark} JMH p${p}`).toBeGreaterThanOrEqual(lo - 1e-6);
        expect(jmhUs * 1000, `${r.benchmark} JMH p${p}`).toBeLessThanOrEqual(hi + 1e-6);
      }
    });
    expect(parsed.problems.map((p) => p.reason).join("\n")).toMatch(/top of JMH's bin/);
  });

  it("refuses results of the other modes as statistics", () => {
    const avgt = JSON.stringify([{ jmhVersion: "1.37", benchmark: "b.X.y", mode: "avgt", primaryMetric: { score: 1.5, scoreUnit: "us/op", rawData: [[1.4, 1.6]] } }], null, 4);
    expect(pickFormat("avgt.json", avgt)?.id).toBe("jmh");
    const p = parseByLines(jmhReader, "avgt.json", avgt);
    expect(p.series).toEqual([]);
    expect(p.problems.map((x) => x.reason)).toEqual([expect.stringMatching(/^statistics, not samples: JMH results in avgt mode.*-bm sample/)]);
    // the advice is JMH's own, not the load generators' list
    expect(p.problems[0]!.reason).not.toMatch(/JMeter|Gatling|k6|Vegeta|ghz|siege|ab -g/);
  });

  itReadsTheSameInChunks(jmhReader, "jmh-sample.json", TEXT, 4000, 15);
  itSurvivesGarbage(
    jmhReader,
    "x.json",
    fc.array(
      fc.oneof(
        fc.string(),
        fc.constantFrom("[", "{", '"benchmark" : "a",', '"mode" : "sample",', '"scoreUnit" : "us/op",', '"rawDataHistogram" : [', "[ [ [ 1.5, 2 ] ] ]", "]", "}"),
      ),
      { maxLength: 20 },
    ),
  );
});
