import fc from "fast-check";
import { fileBaseName as baseName } from "../../core/naming";
import { build, type Histogram } from "hdr-histogram-js";
import { newHistogram } from "../../core/histogram";
import { describe, expect, it } from "vitest";
import { spectrumSummary } from "../../../tests/support/loadgen-fixtures";
import { Backfill } from "./backfill";
import { MAX_SERIES, OTHER_LABELS, SeriesCollector } from "./collector";
import { Problems } from "./problems";
import { budgetMs } from "../../../tests/support/budget";

describe("Problems", () => {
  it("lists the first 20 bad lines, then one summary", () => {
    const p = new Problems("f");
    for (let i = 1; i <= 25; i++) p.line(i, "bad");
    p.once("k", null, "file-level");
    p.once("k", null, "file-level again");
    const list = p.list();
    expect(list).toHaveLength(22);
    expect(list[0]).toEqual({ file: "f", line: null, reason: "file-level" });
    expect(list[21]!.reason).toBe("25 lines skipped (the first 20 are listed)");
  });
});

describe("SeriesCollector", () => {
  const at = (sec: number, ns = 0) => ({ sec, ns });

  it("names series by label and cuts intervals from the first timestamp", () => {
    const problems = new Problems("dir/run.csv");
    const c = new SeriesCollector({ file: "dir/run.csv", unit: "ms" }, problems);
    c.record("b", 5, at(1767323045, 500e6), 1);
    c.record("a", 6, at(1767323045, 100e6), 2); // before the first: an interval before it
    c.record("a", 7, at(1767323046, 499e6), 3);
    c.record("a", 8, at(1767323046, 500e6), 4);
    const s = c.finish();
    expect(s.map((x) => x.name)).toEqual(["run [b]", "run [a]"]);
    expect(s[0]!.startTime).toBe(1767323044.5);
    expect(s[1]!.intervals!.map((iv) => [iv.start, iv.histogram.totalCount])).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    expect(s[0]!.intervals!.map((iv) => iv.start)).toEqual([1]);
  });

  it("merges labels past the limit into one series", () => {
    const problems = new Problems("f");
    const c = new SeriesCollector({ file: "f", unit: "ms", maxSeries: 3 }, problems);
    for (let i = 0; i < 10; i++) c.record(`l${i}`, 1, null, i + 1);
    const s = c.finish();
    expect(s.map((x) => x.tag)).toEqual(["l0", "l1", "l2", OTHER_LABELS]);
    expect(s[3]!.histogram.totalCount).toBe(7);
    expect(problems.list()[0]!.reason).toMatch(/more than 3 labels/);
    expect(MAX_SERIES).toBeGreaterThanOrEqual(100);
  });

  it("widens intervals when they outgrow the memory budget, keeping every count", () => {
    const problems = new Problems("f");
    const c = new SeriesCollector({ file: "f", unit: "ns", intervalBudgetBytes: 2_000_000 }, problems);
    let n = 0;
    for (let s = 0; s < 600; s++) for (let k = 0; k < 5; k++) c.record("", 1000 + ((s * 7919 + k * 104729) % 5_000_000_000), at(1767323045 + s, k * 1e8), ++n);
    const series = c.finish()[0]!;
    expect(series.histogram.totalCount).toBe(3000);
    expect(series.intervals!.reduce((x, iv) => x + iv.histogram.totalCount, 0)).toBe(3000);
    const length = series.intervals![0]!.length;
    expect(length).toBeGreaterThan(1);
    expect(Math.log2(length) % 1).toBe(0);
    expect(c.currentIntervalSec).toBe(length);
    expect(series.intervals!.every((iv) => iv.start % length === 0)).toBe(true);
    // each widened interval holds exactly the samples of its seconds
    for (const iv of series.intervals!) expect(iv.histogram.totalCount).toBe(Math.min(length, 600 - iv.start) * 5);
    expect(problems.list().map((p) => p.reason)).toContainEqual(expect.stringMatching(/intervals widened to \d+ s/));
  });

  it.each([
    { value: 250, expected: 10 },
    { value: 123_456_789, expected: 1000 },
    { value: 3_600_000_000_000, expected: 1_000_000 },
    { value: 999, expected: 1000 },
  ])("corrects for coordinated omission like recordValueWithExpectedInterval, also for huge back-fills ($value every $expected)", ({ value, expected }) => {
    const c = new SeriesCollector({ file: "f", unit: "ns", expectedInterval: expected }, new Problems("f"));
    c.record("", value, null, 1);
    const mine = c.finish()[0]!.histogram;
    const ref = build({ bitBucketSize: 64 });
    ref.recordValueWithExpectedInterval(value, expected); // up to 3.6 million back-filled values
    expect(spectrumSummary(mine)).toEqual(spectrumSummary(ref));
  });
});

/** Every count by value (bucket lowest value → count), the total, min and max: two histograms are the same when these are. */
function contents(h: Histogram): { counts: [number, number][]; total: number; min: number; max: number } {
  const js = h as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number; valueFromIndex(i: number): number };
  const counts: [number, number][] = [];
  for (let i = 0; i < js.countsArrayLength; i++) if (js.getCountAtIndex(i) > 0) counts.push([js.valueFromIndex(i), js.getCountAtIndex(i)]);
  return { counts, total: h.totalCount, min: h.minNonZeroValue, max: h.maxValue };
}

describe("Backfill (coordinated-omission correction in bulk)", () => {
  const layout = fc.record({ digits: fc.constantFrom(1, 2, 3), lowest: fc.constantFrom(1, 1, 2, 4, 1000) });

  it("gives the histogram of hdr-histogram-js's own recordValueWithExpectedInterval (property, random small cases)", () => {
    fc.assert(
      fc.property(
        layout,
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.integer({ min: 1, max: 12_000 }), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (l, e, values, publicPath) => {
          const opts = {
            bitBucketSize: 64 as const,
            autoResize: true,
            lowestDiscernibleValue: l.lowest,
            highestTrackableValue: 2 * l.lowest,
            numberOfSignificantValueDigits: l.digits as 1 | 2 | 3,
          };
          const ref = build(opts);
          for (const v of values) ref.recordValueWithExpectedInterval(v, e);
          const mine = build(opts);
          const b = new Backfill(e);
          for (const v of values) {
            mine.recordValue(v);
            if (v >= 2 * e) b.add(v);
          }
          // the fallback through recordValueWithCount, for a histogram without the internals used
          const js = mine as unknown as { countsArrayIndex(v: number): number; valueFromIndex(i: number): number };
          const narrow = {
            numberOfSignificantValueDigits: mine.numberOfSignificantValueDigits,
            recordValueWithCount: (v: number, c: number) => mine.recordValueWithCount(v, c),
            countsArrayIndex: (v: number) => js.countsArrayIndex(v),
            valueFromIndex: (i: number) => js.valueFromIndex(i),
          };
          b.flushInto(publicPath ? (narrow as unknown as Histogram) : mine);
          expect(contents(mine)).toEqual(contents(ref));
        },
      ),
      { numRuns: 600 },
    );
  });

  it("flushed in several batches, or into a histogram that already holds counts, still matches", () => {
    const values = Array.from({ length: 3000 }, (_, i) => 1 + ((i * 7919) % 20_000));
    const ref = newHistogram();
    ref.recordValue(3);
    for (const v of values) ref.recordValueWithExpectedInterval(v, 13);
    const mine = newHistogram();
    mine.recordValue(3);
    const b = new Backfill(13);
    values.forEach((v, i) => {
      mine.recordValue(v);
      if (v >= 26) b.add(v);
      if (i % 700 === 0) b.flushInto(mine);
    });
    b.flushInto(mine);
    expect(contents(mine)).toEqual(contents(ref));
  });

  it("costs buckets, not values over e: 200 values of 100 ms at e = 1 ns, series and intervals", () => {
    const c = new SeriesCollector({ file: "f", unit: "ns", expectedInterval: 1 }, new Problems("f"));
    const t0 = performance.now();
    for (let i = 0; i < 200; i++) c.record("", 100_000_000 + i, { sec: 1_700_000_000 + Math.floor(i / 100), ns: (i % 100) * 1e7 }, i + 1);
    const s = c.finish()[0]!;
    // (one recordValueWithCount per bucket and value: ~1 s; the library's loop: 2·10^10 values)
    expect(performance.now() - t0).toBeLessThan(budgetMs(100));
    // each value v back-fills v - 1 values (1 … v - 1 ns)
    const expected = Array.from({ length: 200 }, (_, i) => 100_000_000 + i).reduce((a, v) => a + v, 0);
    expect(s.histogram.totalCount).toBe(expected);
    expect(s.intervals!.reduce((a, iv) => a + iv.histogram.totalCount, 0)).toBe(expected);
    expect(s.histogram.minNonZeroValue).toBe(1);
  });

  it("SeriesCollector: series and interval histograms match the library's, across batches and interval merges", () => {
    const e = 7;
    const n = 70_000; // past one histogram's batch (65 536)
    const value = (i: number) => 1 + ((i * 104_729) % 400);
    const c = new SeriesCollector({ file: "f", unit: "us", expectedInterval: e, intervalBudgetBytes: 300_000 }, new Problems("f"));
    for (let i = 0; i < n; i++) c.record("", value(i), { sec: 1_700_000_000 + Math.floor(i / 500), ns: 0 }, i + 1);
    const s = c.finish()[0]!;
    const ref = newHistogram();
    for (let i = 0; i < n; i++) ref.recordValueWithExpectedInterval(value(i), e);
    expect(contents(s.histogram)).toEqual(contents(ref));
    const length = s.intervals![0]!.length;
    expect(length).toBeGreaterThan(1); // the budget made intervals merge
    for (const iv of s.intervals!) {
      const r = newHistogram();
      for (let i = iv.start * 500; i < Math.min(n, (iv.start + length) * 500); i++) r.recordValueWithExpectedInterval(value(i), e);
      expect(contents(iv.histogram)).toEqual(contents(r));
    }
  });
});

describe("baseName", () => {
  it("drops folders and extensions", () => {
    expect(["a/b/run.jtl", "C:\\x\\simulation.log", "out.csv.gz", "plain", ".hidden"].map(baseName)).toEqual(["run", "simulation", "out", "plain", ".hidden"]);
  });
});
