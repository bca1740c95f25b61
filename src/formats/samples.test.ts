import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { expectSamplesRead } from "../../tests/support/reader-tests";
import {
  abGnuplot,
  expectedIntervals,
  jmeterAggregate,
  jmeterCsv,
  locustStats,
  fixed,
  generateSamples,
  msValue,
  parseByChunks,
  parseByLines,
  plainValues,
  referenceHistogram,
  samplesTable,
  spectrumSummary,
  usValue,
  readLines,
} from "../../tests/support/loadgen-fixtures";
import { pickReader } from "./detect";
import { MAX_SNIFF_COLUMNS, samplesReader } from "./samples";
import { unitFromHeader } from "./samples-columns";
import type { ParsedSeries, ParsedSource } from "./source";
import { budgetMs } from "../../tests/support/budget";

/** Labels, one with a comma (quoted in CSV). */
const labels = ["login", "search, paged", "checkout"];
const samples = generateSamples({ seed: 7, seconds: 12, rate: 300, labels, medianMs: 4, sigma: 0.6, failureRate: 0, stalls: [{ at: 5, duration: 1.2 }] });

function series(p: ParsedSource, tag = ""): ParsedSeries {
  const s = p.series.find((x) => x.tag === tag);
  if (!s) throw new Error(`no series ${JSON.stringify(tag)} in ${p.series.map((x) => x.tag).join(", ")}`);
  return s;
}

function intervalMap(s: ParsedSeries, minIndex: number, intervalSec = 1): Map<number, number> {
  return new Map((s.intervals ?? []).map((iv) => [Math.round(iv.start / intervalSec) + minIndex, iv.histogram.totalCount]));
}

describe("plain values", () => {
  it("ms with 3 decimals are recorded in µs, exactly", () => {
    const text = plainValues(samples, { decimals: 3 });
    const p = parseByLines(samplesReader, "run.txt", text);
    expect(p.problems).toEqual([]);
    expect(p.format).toBe("samples");
    expect(p.series).toHaveLength(1);
    const s = p.series[0]!;
    expect(s.unit).toBe("us");
    expect(s.name).toBe("run");
    expect(s.tag).toBe("");
    expect(s.intervals).toBeNull();
    expect(s.startTime).toBeNull();
    expect(spectrumSummary(s.histogram)).toEqual(spectrumSummary(referenceHistogram(samples.map(usValue))));
  });

  it("whole ms stay ms; 6 decimals become ns; a header line is skipped", () => {
    const ms = parseByLines(samplesReader, "a.txt", plainValues(samples, { decimals: 0, header: "latency" }));
    expect(ms.problems).toEqual([]);
    expect(ms.series[0]!.unit).toBe("ms");
    expect(spectrumSummary(ms.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram(samples.map(msValue))));
    const ns = parseByLines(samplesReader, "a.txt", plainValues(samples, { decimals: 6 }));
    expect(ns.series[0]!.unit).toBe("ns");
    expect(spectrumSummary(ns.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram(samples.map((s) => s.latencyNs))));
  });

  it("valueUnit overrides the default, and seconds with decimals go finer", () => {
    const p = parseByLines(samplesReader, "v.txt", "1.5\n0.25\n2\n", { valueUnit: "s" });
    expect(p.series[0]!.unit).toBe("ms");
    expect(spectrumSummary(p.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram([1500, 250, 2000])));
    const us = parseByLines(samplesReader, "v.txt", "15\n25\n", { valueUnit: "us" });
    expect(us.series[0]!.unit).toBe("us");
    expect(us.series[0]!.histogram.totalCount).toBe(2);
  });

  it("rounds half up on the digits, not on floating point", () => {
    // 1.0005 ms * 1000 is 1000.4999999999999 in floating point; the text says 1000.5 µs → 1001.
    const p = parseByLines(samplesReader, "v.txt", "1.0005\n2.5\n", { valueUnit: "ms" });
    expect(p.series[0]!.unit).toBe("ns"); // 4 decimals need ns
    const q = parseByLines(samplesReader, "v.txt", "1.5\n1.0005\n".repeat(1) + "0.1\n".repeat(300), { valueUnit: "ms" });
    expect(q.series[0]!.unit).toBe("ns");
    expect(spectrumSummary(q.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram([1500000, 1000500, ...Array<number>(300).fill(100000)])));
    const r = parseByLines(samplesReader, "v.txt", "1.5\n1.0005\n", { valueUnit: "us" });
    expect(r.series[0]!.unit).toBe("ns");
    expect(spectrumSummary(r.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram([1500, 1001])));
  });

  it("expectedInterval corrects for coordinated omission as the library does", () => {
    const values = [1, 2, 1, 250, 3, 1, 1, 100, 2];
    const text = values.join("\n");
    const p = parseByLines(samplesReader, "co.txt", text, { expectedInterval: 10 });
    const ref = build({ bitBucketSize: 64 });
    for (const v of values) ref.recordValueWithExpectedInterval(v, 10);
    expect(spectrumSummary(p.series[0]!.histogram)).toEqual(spectrumSummary(ref));
    expect(p.series[0]!.histogram.totalCount).toBe(values.length + 24 + 9);
  });
});

describe("CSV with a header", () => {
  const text = samplesTable(samples);
  it("guesses value, timestamp and label columns; one series per label; intervals per second", () => {
    const p = parseByLines(samplesReader, "results.csv", text);
    expect(p.problems).toEqual([]);
    expect(p.series.map((s) => s.tag).sort()).toEqual(["checkout", "login", "search, paged"]);
    const exp = expectedIntervals(samples, (s) => Math.floor(s.startUs / 1000), 1000);
    for (const label of ["checkout", "login", "search, paged"]) {
      const s = series(p, label);
      expect(s.name).toBe(`results [${label}]`);
      expect(s.unit).toBe("us");
      const mine = samples.filter((x) => x.label === label);
      expect(spectrumSummary(s.histogram)).toEqual(spectrumSummary(referenceHistogram(mine.map(usValue))));
      expect(intervalMap(s, exp.minIndex)).toEqual(exp.byLabel.get(label));
      for (const iv of s.intervals!) expect(iv.length).toBe(1);
    }
    expect(series(p, "login").startTime).toBe(exp.t0 / 1000 + exp.minIndex);
  });

  it("reads TSV and semicolon files with decimal commas", () => {
    const tsv = parseByLines(samplesReader, "r.tsv", samplesTable(samples, { delimiter: "\t" }));
    expect(tsv.problems).toEqual([]);
    expect(tsv.series).toHaveLength(3);
    const semi = samplesTable(samples.slice(0, 50), { delimiter: ";" }).replace(/(\d)\.(\d)/g, "$1,$2");
    const p = parseByLines(samplesReader, "r.csv", semi);
    expect(p.problems).toEqual([]);
    const all = p.series.reduce((n, s) => n + s.histogram.totalCount, 0);
    expect(all).toBe(50);
    expect(spectrumSummary(series(p, "login").histogram)).toEqual(
      spectrumSummary(
        referenceHistogram(
          samples
            .slice(0, 50)
            .filter((s) => s.label === "login")
            .map(usValue),
        ),
      ),
    );
  });

  it("honours column options by name and by index, and null to ignore a column", () => {
    const byName = parseByLines(samplesReader, "r.csv", text, { valueColumn: "latency_ms", timestampColumn: null, labelColumn: null });
    expect(byName.series).toHaveLength(1);
    expect(byName.series[0]!.intervals).toBeNull();
    expect(byName.series[0]!.histogram.totalCount).toBe(samples.length);
    const byIndex = parseByLines(samplesReader, "r.csv", text, { valueColumn: 1, timestampColumn: 0, labelColumn: 2, timestampUnit: "ms", intervalSec: 5 });
    expect(byIndex.series).toHaveLength(3);
    const exp = expectedIntervals(samples, (s) => Math.floor(s.startUs / 1000), 1000, 5);
    expect(intervalMap(series(byIndex, "login"), exp.minIndex, 5)).toEqual(exp.byLabel.get("login"));
    const missing = parseByLines(samplesReader, "r.csv", text, { valueColumn: "rt" });
    expect(missing.series).toHaveLength(0);
    expect(missing.problems[0]!.reason).toMatch(/no value column named "rt"/);
  });

  it("takes the unit from the header and epoch seconds with decimals as timestamps", () => {
    const lines = ["time,elapsed (us)", "1767323045.5,1200", "1767323045.9,800", "1767323046.1,950", "1767323047.0,4000"];
    const p = parseByLines(samplesReader, "x.csv", lines.join("\n"));
    expect(p.problems).toEqual([]);
    const s = p.series[0]!;
    expect(s.unit).toBe("us");
    expect(s.startTime).toBe(1767323045.5);
    expect(s.intervals!.map((iv) => [iv.start, iv.histogram.totalCount])).toEqual([
      [0, 3],
      [1, 1],
    ]);
  });

  it("without a header, finds the value column after an epoch timestamp column", () => {
    const body = samples.slice(0, 40).map((s) => `${Math.floor(s.startUs / 1000)},${fixed(usValue(s), 3)}`);
    const p = parseByLines(samplesReader, "x.csv", body.join("\n"));
    expect(p.problems).toEqual([]);
    expect(p.series[0]!.intervals).not.toBeNull();
    expect(spectrumSummary(p.series[0]!.histogram)).toEqual(spectrumSummary(referenceHistogram(samples.slice(0, 40).map(usValue))));
  });

  it("accepts quoted fields that span lines", () => {
    const p = parseByLines(samplesReader, "x.csv", 'latency,label\n12,"multi\nline label"\n13,plain\n');
    expect(p.problems).toEqual([]);
    expect(p.series.map((s) => s.tag).sort()).toEqual(["multi\nline label", "plain"]);
  });
});

describe("bad input", () => {
  it("reports bad lines with their numbers and keeps the good ones", () => {
    const lines = ["latency_ms,label", "12.5,a", "abc,a", "-3,a", "NaN,a", "Infinity,a", "1e30,a", "", "13,a", "14", '"15,a', "16,a"];
    const p = parseByLines(samplesReader, "bad.csv", lines.join("\n"));
    const byLine = new Map(p.problems.map((x) => [x.line, x.reason]));
    expect(byLine.get(3)).toMatch(/not a number/);
    expect(byLine.get(4)).toMatch(/negative/);
    expect(byLine.get(5)).toMatch(/not a finite number/);
    expect(byLine.get(6)).toMatch(/not a finite number/);
    expect(byLine.get(7)).toMatch(/too large/);
    expect(byLine.get(10)).toMatch(/expected at least 2 columns/);
    expect(byLine.get(11)).toMatch(/ends inside a quoted field/);
    expect(p.series[0]!.histogram.totalCount).toBe(2); // 12.5 and 13: "16,a" is inside the open quote
  });

  it("caps the listed problems and summarises the rest", () => {
    const lines = ["v"];
    for (let i = 0; i < 100; i++) lines.push(i % 2 ? "x" : "5");
    const p = parseByLines(samplesReader, "bad.txt", lines.join("\n"));
    expect(p.problems).toHaveLength(21);
    expect(p.problems[20]!.reason).toBe("50 lines skipped (the first 20 are listed)");
    expect(p.problems[0]!.line).toBe(3);
    expect(p.series[0]!.histogram.totalCount).toBe(50);
  });

  it("refuses latencies over an hour; a timestamp years away keeps its latency, in no interval, with a note", () => {
    const p = parseByLines(samplesReader, "x.csv", "timestamp,latency_ms\n1767323045000,5\n1767323046000,3600001\n1999999999999,5\n1767323047000,7\n");
    expect(p.problems.map((x) => [x.line, x.note ?? false])).toEqual([
      [3, false],
      [4, true],
    ]);
    expect(p.problems[0]!.reason).toMatch(/too large/);
    expect(p.problems[1]!.reason).toMatch(/^timestamp is 2693 days after the others .*counted in the totals, in no interval/);
    expect(p.series[0]!.histogram.totalCount).toBe(3);
    expect(p.series[0]!.intervals!.reduce((n, iv) => n + iv.histogram.totalCount, 0)).toBe(2);
  });

  it("never throws, whatever the lines", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 40 }), fc.constantFrom("a.txt", "a.csv", "b.tsv"), (lines, name) => {
        const r = readLines(samplesReader.create(name), lines);
        expect(Array.isArray(r.problems)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("only a column the header or the format names is read as latency", () => {
  const withFailures = generateSamples({ seed: 11, seconds: 6, rate: 200, labels: ["login", "search", "checkout"], medianMs: 30, sigma: 0.5, failureRate: 0.05 });

  it("refuses a JMeter CSV saved without its elapsed column instead of reading responseCode as 200 ms", () => {
    // without elapsed and Latency (time to first byte), as jmeter.save.saveservice.time/latency=false write it
    const text = jmeterCsv(withFailures, { omit: ["elapsed", "Latency"] });
    const p = parseByLines(samplesReader, "results.csv", text);
    expect(p.series).toEqual([]);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.reason).toMatch(/^no latency column found among "timeStamp", "label", "responseCode", /);
    // the app hands it, and one without elapsed alone, to the JMeter reader, which says what is missing
    expect(pickReader("results.csv", text)?.id).toBe("jmeter");
    expect(pickReader("results.csv", jmeterCsv(withFailures, { omit: ["elapsed"] }))?.id).toBe("jmeter");
  });

  it("refuses Locust's *_stats.csv: statistics, not samples, naming the requests per row and the line", () => {
    const text = locustStats(withFailures);
    const p = parseByLines(samplesReader, "run_stats.csv", text);
    expect(p.series).toEqual([]);
    expect(p.problems).toHaveLength(1);
    const first = [...new Set(withFailures.map((s) => s.label))].sort()[0]!;
    const n = withFailures.filter((s) => s.label === first).length;
    expect(p.problems[0]).toEqual({
      file: "run_stats.csv",
      line: 2,
      reason: expect.stringMatching(new RegExp(`^statistics, not samples: a summary table, ${n} requests per row \\(column "Request Count"\\)`)),
    });
    expect(pickReader("run_stats.csv", text)?.id).toBe("samples");
  });

  it("refuses JMeter's aggregate report CSV the same way", () => {
    const p = parseByLines(samplesReader, "aggregate.csv", jmeterAggregate(withFailures));
    expect(p.series).toEqual([]);
    const n = withFailures.filter((s) => s.label === "checkout").length;
    expect(p.problems).toEqual([
      { file: "aggregate.csv", line: 2, reason: expect.stringMatching(new RegExp(`^statistics, not samples: a summary table, ${n} requests per row \\(column "# Samples"\\)`)) },
    ]);
  });

  it("reads such a file when the options name its value column", () => {
    const p = parseByLines(samplesReader, "run_stats.csv", locustStats(withFailures), { valueColumn: "Median Response Time" });
    expect(p.series.reduce((a, x) => a + x.histogram.totalCount, 0)).toBe(4);
  });

  it("reads ApacheBench -g output: ttime in ms as the latency, seconds as epoch timestamps", () => {
    const ok = generateSamples({ seed: 12, seconds: 8, rate: 150, labels: [""], medianMs: 40, sigma: 0.7, failureRate: 0, stalls: [{ at: 3, duration: 0.8 }] });
    const text = abGnuplot(ok);
    expect(pickReader("ab.tsv", text)?.id).toBe("samples");
    expect(pickReader("ab.dat", text)?.id).toBe("samples");
    const p = parseByLines(samplesReader, "ab.tsv", text);
    expect(p.problems).toEqual([]);
    expect(p.series).toHaveLength(1);
    expect(p.series[0]!.unit).toBe("ms");
    // in the order ab wrote them (sorted by ttime), timestamps in whole seconds
    const written = [...ok].sort((a, b) => msValue(a) - msValue(b) || a.startUs - b.startUs);
    expectSamplesRead(p, written, msValue, (s) => Math.floor(s.startUs / 1e6), 1);
    expect(p.series[0]!.startTime).toBe(Math.floor(Math.min(...ok.map((s) => s.startUs)) / 1e6));
  });

  it("names the column in a value or timestamp error", () => {
    const ab = parseByLines(samplesReader, "ab.tsv", abGnuplot(samples.slice(0, 5)), { valueColumn: "seconds" });
    expect(ab.problems[0]!.reason).toMatch(/^column "seconds": value 17\d{8} is too large/);
    const bad = parseByLines(samplesReader, "x.csv", "timestamp,latency_ms\n1767323045000,5\n1767323046000,x\nnever,7\n");
    expect(bad.problems.map((x) => [x.line, x.reason.replace(/:.*/, "")])).toEqual([
      [3, 'column "latency_ms"'],
      [4, 'column "timestamp"'],
    ]);
    const headerless = parseByLines(samplesReader, "x.csv", "1767323045000,5\n1767323046000,x\n1767323047000,6\n");
    expect(headerless.problems.map((x) => x.reason.replace(/:.*/, ""))).toEqual(["column 2"]);
  });

  it("says which column it read when, without a header, several could be the latency", () => {
    const p = parseByLines(samplesReader, "x.csv", "5,200,3\n6,200,4\n7,404,5\n");
    expect(p.problems).toEqual([
      { file: "x.csv", line: null, reason: "no header line: column 1 of 3 read as the latency in ms; 2 other numeric columns left out (choose another in Raw sample options)" },
    ]);
    expect(p.series[0]!.histogram.maxValue).toBe(7);
  });
});

describe("streaming", () => {
  it("chunked feeding gives the same series as line-by-line feeding", () => {
    const text = samplesTable(samples.slice(0, 800));
    const whole = parseByLines(samplesReader, "r.csv", text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }), (sizes) => {
        const chunked = parseByChunks(samplesReader, "r.csv", text, sizes);
        expect(chunked.series.map((s) => [s.tag, spectrumSummary(s.histogram), s.intervals!.map((iv) => iv.histogram.totalCount)])).toEqual(
          whole.series.map((s) => [s.tag, spectrumSummary(s.histogram), s.intervals!.map((iv) => iv.histogram.totalCount)]),
        );
      }),
      { numRuns: 40 },
    );
  });

  it("decides its layout from the first lines only, then streams (a million values)", () => {
    const p = samplesReader.create("big.txt");
    let n = 0;
    p.line("latency_us", ++n);
    for (let i = 0; i < 1_000_000; i++) p.line(String(100 + (i % 997)), ++n);
    const r = p.finish();
    expect(r.problems).toEqual([]);
    expect(r.series[0]!.unit).toBe("us");
    expect(r.series[0]!.histogram.totalCount).toBe(1_000_000);
  });
});

describe("wide rows", () => {
  const total = (p: ParsedSource) => p.series.reduce((n, x) => n + x.histogram.totalCount, 0);

  it("guesses columns in time linear in the sniffed text: 49 rows and one row of 1 M fields", () => {
    const text = "1,2\n".repeat(49) + "1,".repeat(1_000_000) + "\n";
    const t0 = performance.now();
    const p = parseByLines(samplesReader, "v.csv", text);
    // (columns × rows: ~1.6 s before)
    expect(performance.now() - t0).toBeLessThan(budgetMs(500));
    expect(total(p)).toBe(50); // column 0 of every row, the wide one too
  });

  it("guesses only among the first MAX_SNIFF_COLUMNS columns of a 200 000-column header, and clips the names it lists", () => {
    const cols = 200_000;
    const header = Array.from({ length: cols }, (_, i) => `c${i}`).join(",");
    const row = Array.from({ length: cols }, () => "x").join(",");
    const t0 = performance.now();
    const p = parseByLines(samplesReader, "v.csv", `${header}\n${row}\n${row}\n`);
    expect(performance.now() - t0).toBeLessThan(budgetMs(1000));
    expect(p.series).toEqual([]);
    const reason = p.problems[0]!.reason;
    expect(reason).toMatch(/^no latency column found among "c0", "c1", .*"c11" … \(200000 columns\): choose one$/);
  });

  it("a column past the guessing window can still be chosen by option, by name or index", () => {
    const cols = MAX_SNIFF_COLUMNS + 50;
    const names = Array.from({ length: cols }, (_, i) => (i === cols - 1 ? "latency_ms" : `c${i}`));
    const rows = [1, 2, 3].map((v) => Array.from({ length: cols }, (_, i) => (i === cols - 1 ? String(v) : "x")).join(","));
    const text = `${names.join(",")}\n${rows.join("\n")}\n`;
    // not guessed (outside the window) …
    expect(parseByLines(samplesReader, "v.csv", text).series).toEqual([]);
    // … but read when named
    for (const valueColumn of ["latency_ms", cols - 1]) {
      const p = parseByLines(samplesReader, "v.csv", text, { valueColumn });
      expect({ valueColumn, problems: p.problems, total: total(p), unit: p.series[0]?.unit }).toEqual({ valueColumn, problems: [], total: 3, unit: "ms" });
    }
  });
});

describe("detection", () => {
  it("claims a tab-separated table whose last column is empty (no trimming of the trailing tab)", () => {
    const text = "timestamp\tlatency_ms\terror\n" + Array.from({ length: 5 }, (_, i) => `${1700000000000 + i}\t12.5\t`).join("\n") + "\n";
    for (const name of ["x.tsv", "x.csv", "x.txt"]) expect({ name, claims: samplesReader.detect(name, text) }).toEqual({ name, claims: true });
    const p = parseByLines(samplesReader, "x.tsv", text);
    expect(p.problems).toEqual([]);
    expect(p.series.map((x) => x.histogram.totalCount)).toEqual([5]);
    // a row really one field short still does not count
    expect(samplesReader.detect("x.tsv", "a\tb\tc\n1\t2\n3\t4\n")).toBe(false);
  });

  it("claims numeric tables and one number per line", () => {
    expect(samplesReader.detect("x.txt", "12\n13.5\n7\n")).toBe(true);
    expect(samplesReader.detect("noext", "latency\n12\n13.5\n7\n")).toBe(true);
    expect(samplesReader.detect("r.csv", samplesTable(samples.slice(0, 30)))).toBe(true);
    expect(samplesReader.detect("r.dat", "1 2\n3 4\n5 6\n")).toBe(true);
  });
  it("leaves other text alone", () => {
    expect(samplesReader.detect("notes.txt", "hello\nworld\nagain\n")).toBe(false);
    expect(samplesReader.detect("noext", "a,b\n1,2\n")).toBe(false);
  });
});

describe("unitFromHeader", () => {
  it.each([
    ["latency_ms", "ms"],
    ["elapsed (us)", "us"],
    ["latencyMs", "ms"],
    ["duration[s]", "s"],
    ["rt µs", "us"],
    ["response_time_nanos", "ns"],
    ["latency", null],
    ["response_time", null],
  ])("%s → %s", (name, unit) => {
    expect(unitFromHeader(name)).toBe(unit);
  });
});
