import fc from "fast-check";
import { fileBaseName as baseName } from "../core/naming";
import { build, type Histogram } from "hdr-histogram-js";
import { newHistogram } from "../core/histogram";
import { describe, expect, it } from "vitest";
import { spectrumSummary } from "../../scripts/lib/loadgen-fixtures";
import {
  Backfill,
  CsvRecords,
  MAX_RECORD_CHARS,
  MAX_RECORD_LINES,
  MAX_SERIES,
  OTHER_LABELS,
  Problems,
  SeriesCollector,
  decimalsOf,
  guessEpochUnit,
  parseDateTime,
  parseLatency,
  parseNumericTime,
  quoteOpenAtEnd,
  scaleDecimalDigits,
  splitCsv,
} from "./reader-support";
import { budgetMs } from "../../scripts/lib/budget";

describe("scaleDecimalDigits", () => {
  it("scales exactly and rounds half up (checked against BigInt arithmetic)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), (n, decimals, scale) => {
        const s = n.toString().padStart(decimals + 1, "0");
        const text = decimals > 0 ? `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}` : s;
        // n / 10^decimals * 10^scale, rounded half up
        const num = n * 10n ** BigInt(scale);
        const den = 10n ** BigInt(decimals);
        const expected = (num * 2n + den) / (2n * den);
        expect(scaleDecimalDigits(text, scale)?.digits).toBe(expected.toString());
      }),
      { numRuns: 2000 },
    );
  });
  it("handles exponents, signs and junk", () => {
    expect(scaleDecimalDigits("1.5e3", 0)?.digits).toBe("1500");
    expect(scaleDecimalDigits("15e-1", 0)?.digits).toBe("2");
    expect(scaleDecimalDigits(".5", 0)?.digits).toBe("1");
    expect(scaleDecimalDigits("-0", 0)).toEqual({ negative: false, digits: "0" });
    expect(scaleDecimalDigits("-2", 0)).toEqual({ negative: true, digits: "2" });
    expect(scaleDecimalDigits("0e999999", 0)?.digits).toBe("0");
    expect(scaleDecimalDigits("1e999999", 0)!.digits.length).toBeGreaterThan(16);
    for (const bad of ["", ".", "e5", "1.2.3", "0x10", "1,5", "NaN", "Infinity", " 1"]) expect(scaleDecimalDigits(bad, 0)).toBeNull();
  });
  it("decimalsOf counts written decimals", () => {
    expect([decimalsOf("12"), decimalsOf("12.50"), decimalsOf("1.234567"), decimalsOf("1e-3"), decimalsOf("1.5e2")]).toEqual([0, 1, 6, 3, 0]);
  });
  it("parseLatency bounds and explains", () => {
    expect(parseLatency("12.5", 3, 1e9)).toEqual({ ok: true, value: 12500 });
    expect(parseLatency("inf", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/not a finite number/) });
    expect(parseLatency("11", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/too large/) });
    expect(parseLatency("", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
  });
});

describe("time", () => {
  it("reads epoch timestamps exactly in every unit", () => {
    expect(parseNumericTime("1767323045250000123", "ns")).toEqual({ ok: true, at: { sec: 1767323045, ns: 250000123 } });
    expect(parseNumericTime("1767323045250", "ms")).toEqual({ ok: true, at: { sec: 1767323045, ns: 250000000 } });
    expect(parseNumericTime("1767323045.5", "s")).toEqual({ ok: true, at: { sec: 1767323045, ns: 500000000 } });
    expect(parseNumericTime("12", "us")).toEqual({ ok: true, at: { sec: 0, ns: 12000 } });
    expect(parseNumericTime("-1", "s").ok).toBe(false);
  });
  it("guesses the unit of an epoch from its magnitude", () => {
    expect(["1767323045", "1767323045250", "1767323045250000", "1767323045250000000", "12.5"].map(guessEpochUnit)).toEqual(["s", "ms", "us", "ns", "s"]);
  });
  it("reads RFC 3339 with offsets and ns, and JMeter-style date-times", () => {
    expect(parseDateTime("2017-05-09T14:34:45.239531499+02:00")).toEqual({ ok: true, at: { sec: Date.UTC(2017, 4, 9, 12, 34, 45) / 1000, ns: 239531499 } });
    expect(parseDateTime("2026-01-02T03:04:05Z")).toEqual({ ok: true, at: { sec: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, ns: 0 } });
    expect(parseDateTime("2026/01/02 03:04:05.25")).toEqual({ ok: true, at: { sec: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, ns: 250000000 } });
    expect(parseDateTime("2026-13-02T03:04:05Z").ok).toBe(false);
    // consecutive times in the same second reuse it; anything else is parsed afresh
    const sec = Date.UTC(2026, 0, 2, 1, 4, 5) / 1000;
    expect(parseDateTime("2026-01-02T03:04:05.5+02:00")).toEqual({ ok: true, at: { sec, ns: 5e8 } });
    expect(parseDateTime("2026-01-02T03:04:05.123456789+02:00")).toEqual({ ok: true, at: { sec, ns: 123456789 } });
    expect(parseDateTime("2026-01-02T03:04:05.25Z")).toEqual({ ok: true, at: { sec: sec + 7200, ns: 25e7 } });
    expect(parseDateTime("2026-01-02T03:04:05.25Zx").ok).toBe(false);
    expect(parseDateTime("yesterday").ok).toBe(false);
  });
});

describe("splitCsv", () => {
  const quote = (f: string) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  it("reads back what an RFC 4180 writer wrote", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 8 }), (fields) => {
        fc.pre(!fields.some((f) => f.includes("\n") || f.includes("\r")));
        expect(splitCsv(fields.map(quote).join(","), ",")).toEqual(fields);
      }),
      { numRuns: 1000 },
    );
  });
  it("says when a quoted field continues on the next line", () => {
    expect(splitCsv('a,"b', ",")).toBeNull();
    expect(splitCsv('a,"b\nc",d', ",")).toEqual(["a", "b\nc", "d"]);
  });
});

/** The record assembly as it was (the whole pending record re-split on every line, unbounded): the reference for what records come out. */
function referenceRecords(lines: string[], delimiter: string): { fields: string[]; lineNo: number }[] {
  const out: { fields: string[]; lineNo: number }[] = [];
  let pending: string | null = null;
  let first = 0;
  lines.forEach((text, i) => {
    const record: string = pending === null ? text : `${pending}\n${text}`;
    if (pending === null) first = i + 1;
    const fields = splitCsv(record, delimiter);
    if (fields) {
      out.push({ fields, lineNo: first });
      pending = null;
    } else pending = record;
  });
  return out;
}

function recordsOf(lines: string[], delimiter: string, problems = new Problems("f")): { fields: string[]; lineNo: number }[] {
  const r = new CsvRecords(delimiter, problems);
  const out: { fields: string[]; lineNo: number }[] = [];
  lines.forEach((text, i) => {
    const rec = r.push(text, i + 1);
    if (rec) out.push(rec);
  });
  r.finish();
  return out;
}

describe("CsvRecords", () => {
  it("assembles the same records as re-splitting the whole pending record did (property)", () => {
    const piece = fc.constantFrom('"', '""', ",", ";", "a", "b c", " ", '","', '"x"', "\t");
    const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom(",", ";", "\t"), (lines, d) => {
        expect(recordsOf(lines, d)).toEqual(referenceRecords(lines, d));
        // quoteOpenAtEnd agrees with splitCsv on a record read from its start
        const text = lines.join("\n");
        expect(quoteOpenAtEnd(text, d, false)).toBe(splitCsv(text, d) === null);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a record whose quoted field spans lines, with escaped quotes", () => {
    expect(recordsOf(['1,"a', 'b""c', 'd",2', "3,4"], ",")).toEqual([
      { fields: ["1", 'a\nb"c\nd', "2"], lineNo: 1 },
      { fields: ["3", "4"], lineNo: 4 },
    ]);
  });

  it("bounds a record left open by a stray quote: one problem on the quote's line, then reading goes on", () => {
    const problems = new Problems("f");
    const lines = ["h1,h2", '1,"open', ...Array.from({ length: 20_000 }, (_, i) => `${i},x`)];
    const recs = recordsOf(lines, ",", problems);
    // line 2 and the next MAX_RECORD_LINES - 1 lines are the dropped record
    const resume = 2 + MAX_RECORD_LINES;
    expect(recs[0]).toEqual({ fields: ["h1", "h2"], lineNo: 1 });
    expect(recs[1]).toEqual({ fields: [String(resume - 3), "x"], lineNo: resume });
    expect(recs).toHaveLength(1 + lines.length - resume + 1);
    expect(problems.list()).toEqual([
      {
        file: "f",
        line: 2,
        reason: `a quoted field opened on this line is not closed within ${MAX_RECORD_LINES} lines: lines 2–${resume - 1} skipped, reading goes on at line ${resume}`,
      },
    ]);
  });

  it("bounds an open record by characters too, and reports one still open at the end", () => {
    const problems = new Problems("f");
    const long = "y".repeat(100_000);
    const recs = recordsOf(['"a', ...Array.from({ length: 12 }, () => long), "1,2", '3,"b', "c"], ",", problems);
    // 2 + 11 × 100 001 characters (line breaks counted) by line 12: over MAX_RECORD_CHARS
    expect(recs).toEqual([
      { fields: [long], lineNo: 13 },
      { fields: ["1", "2"], lineNo: 14 },
    ]);
    expect(problems.list().map((p) => [p.line, p.reason])).toEqual([
      [1, `a quoted field opened on this line is not closed within ${MAX_RECORD_CHARS} characters: lines 1–12 skipped, reading goes on at line 13`],
      [15, "the file ends inside a quoted field (opened on this line): last record skipped"],
    ]);
  });

  it("keeps the quote state across lines: 300 000 lines after a stray quote in linear time (re-scanning took minutes)", () => {
    const r = new CsvRecords(",", new Problems("f"));
    const t0 = performance.now();
    r.push('1,"open', 1);
    for (let i = 0; i < 300_000; i++) r.push("x,y", i + 2);
    r.finish();
    expect(performance.now() - t0).toBeLessThan(budgetMs(300));
  });
});

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

  it("corrects for coordinated omission like recordValueWithExpectedInterval, also for huge back-fills", () => {
    for (const [value, expected] of [
      [250, 10],
      [123_456_789, 1000],
      [3_600_000_000_000, 1_000_000],
      [999, 1000],
    ] as const) {
      const c = new SeriesCollector({ file: "f", unit: "ns", expectedInterval: expected }, new Problems("f"));
      c.record("", value, null, 1);
      const mine = c.finish()[0]!.histogram;
      const ref = build({ bitBucketSize: 64 });
      ref.recordValueWithExpectedInterval(value, expected); // up to 3.6 million back-filled values
      expect(spectrumSummary(mine)).toEqual(spectrumSummary(ref));
    }
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
