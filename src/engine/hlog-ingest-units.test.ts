// The recorded unit of an interval log: fixed by a producer named in the header, else only
// suggested by the Interval_Max ratio (and then marked as assumed).
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { PRODUCER_HEADERS, writeDoubleHlog, writeHlog } from "../../tests/support/hlog-fixture";
import type { SimInterval } from "../../tests/support/queue-sim";
import { valueAtPercentile } from "../core/histogram";
import { HlogIngest } from "./hlog-ingest";

/** Known values (µs for YCSB: 200 µs … 1.2 s), one interval a second. */
const VALUES = [200, 350, 420, 999, 1500, 2700, 18000, 250000, 1200000];

function intervals(): SimInterval[] {
  return [0, 1, 2].map((i) => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const v of VALUES) h.recordValue(v * (i + 1));
    return { start: i, length: 1, histogram: h };
  });
}

function load(text: string, file = "run.hlog") {
  const ing = new HlogIngest(file);
  ing.push(text);
  const r = ing.finish();
  expect(r.problems).toEqual([]);
  return r.series[0]!;
}

describe("recorded unit of interval logs", () => {
  it("a YCSB log (#[Logging for: READ], µs, Interval_Max ÷10⁶) is in µs, as YCSB states", () => {
    const s = load(writeHlog(intervals(), { ...PRODUCER_HEADERS.ycsb, maxRatio: 1e6 }), "READ.hdr");
    expect(s.recordedUnit).toBe("us");
    expect(s.unitSource).toBe("format");
    // The max is 3 × 1.2 s in µs (to 3 digits), so 3.6 s, not 3.6 ms.
    expect(valueAtPercentile(s.histogram, 100)).toBe(3600383);
  });

  it("without the header, the same log's Interval_Max ratio suggests ns, marked as assumed", () => {
    const s = load(writeHlog(intervals(), { maxRatio: 1e6 }));
    expect(s.recordedUnit).toBe("ns");
    expect(s.unitSource).toBe("interval-max");
  });

  it("jHiccup, cassandra-stress and the demo's logs are in ns, as they state, whatever Interval_Max says", () => {
    for (const header of [PRODUCER_HEADERS.jhiccup, PRODUCER_HEADERS.cassandraStress, PRODUCER_HEADERS.demo]) {
      const s = load(writeHlog(intervals(), { ...header, maxRatio: 1e3 }));
      expect(s.recordedUnit).toBe("ns");
      expect(s.unitSource).toBe("format");
    }
  });

  it("a header comment that names no known producer changes nothing", () => {
    const s = load(writeHlog(intervals(), { comment: "Logged by something else", maxRatio: 1e3 }));
    expect(s.recordedUnit).toBe("us");
    expect(s.unitSource).toBe("interval-max");
  });

  it("a DoubleHistogram log is recorded in ns from values taken as seconds: an assumption", () => {
    const s = load(writeDoubleHlog([{ start: 0, length: 1, samples: [0.001, 0.002, 0.5] }], { ...PRODUCER_HEADERS.ycsb }));
    expect(s.recordedUnit).toBe("ns");
    expect(s.unitSource).toBe("default");
  });
});
