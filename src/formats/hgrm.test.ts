import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { formatPercentileDistribution } from "../core/hgrm-export";
import { maxOf } from "../core/histogram";
import { detectPercentileFile, parsePercentileFile, type ParsedPercentileFile } from "./hgrm";
import { budgetMs } from "../../tests/support/budget";

const dir = path.resolve(__dirname, "../../../shared/samples/hgrm");
const read = (f: string) => readFileSync(path.join(dir, f), "utf8");

/** HdrHistogram's percentile iteration levels (percent) for ticksPerHalfDistance = 5: 0, 10, …, 50, 55, … */
function tickLevels(n: number): number[] {
  const levels = [0];
  let level = 0;
  while (levels.length < n) {
    const ticks = 5 * Math.trunc(2 ** (Math.trunc(Math.log(100 / (100 - level)) / Math.log(2)) + 1));
    level += 100 / ticks;
    levels.push(level);
  }
  return levels;
}

/**
 * Each printed row is one step of the percentile iterator: row i was printed at tick level i (the
 * last at 100%). The printed percentile is that level rounded (6 decimals in C/wrk2 files), so
 * the exact level comes from the tick sequence; check the rounding agrees, then ask the rebuilt
 * histogram for its value there.
 */
function expectRowsReproduced(p: ParsedPercentileFile, scale: number, printedPercentileDecimals: number) {
  const levels = tickLevels(p.rows.length);
  levels[p.rows.length - 1] = 100;
  p.rows.forEach((row, i) => {
    const printedError = Math.abs(row.percentile - levels[i] / 100);
    expect(printedError, `row ${i} percentile`).toBeLessThanOrEqual(0.5 * 10 ** -printedPercentileDecimals + 1e-15);
    const got = p.histogram.getValueAtPercentile(levels[i]) / scale;
    const tolerance = Math.max(row.value * 1e-3, 0.5 / scale);
    expect(Math.abs(got - row.value), `row ${i}: ${row.value} at ${levels[i]}% gave ${got}`).toBeLessThanOrEqual(tolerance);
  });
}

/** Rows of a percentile distribution text, as numbers. */
function printedRows(text: string) {
  return text
    .split("\n")
    .filter((l) => /^\s*\d/.test(l))
    .map((l) => l.trim().split(/\s+/).map(Number));
}

const SAMPLES = [
  { file: "12Krps.hgrm", rows: 106, first: [0.189, 0, 1], last: [64.767, 1, 3477000], max: 64.736 },
  { file: "12Krps_CO.hgrm", rows: 111, first: [0.031, 0, 1], last: [63.487, 1, 3477000], max: 63.456 },
  { file: "16Krps.hgrm", rows: 95, first: [0.181, 0, 1], last: [779.263, 1, 4632000], max: 778.752 },
  { file: "16Krps_CO.hgrm", rows: 106, first: [0.022, 0, 1], last: [778.239, 1, 4632000], max: 777.728 },
  { file: "wrk2-latency-output.txt", rows: 79, first: [0.921, 0, 1], last: [12.503, 1, 39500], max: 12.496 },
] as const;

describe.skipIf(!existsSync(dir))("real samples", () => {
  it.each(SAMPLES)("$file: rows, footer, rebuilt histogram", (s) => {
    const text = read(s.file);
    const kind = s.file.endsWith(".txt") ? "wrk2" : "hgrm";
    expect(detectPercentileFile(s.file, text.slice(0, 4096))).toBe(kind);
    const p = parsePercentileFile(s.file, text);
    expect(p.problems).toEqual([]);
    expect(p.kind).toBe(kind);
    expect(p.rows).toHaveLength(s.rows);
    const row = (r: { value: number; percentile: number; totalCount: number }) => [r.value, r.percentile, r.totalCount];
    expect(row(p.rows[0])).toEqual(s.first);
    expect(row(p.rows[p.rows.length - 1])).toEqual(s.last);
    expect(p.footer.totalCount).toBe(s.last[2]);
    expect(p.footer.max).toBe(s.max);
    expect(p.footer.buckets).toBe(27);
    expect(p.footer.subBuckets).toBe(2048);
    expect(p.footer.mean).toBeGreaterThan(0);
    expect(p.footer.stdDeviation).toBeGreaterThan(0);

    expect(p.histogramUnit).toBe("us");
    expect(p.histogram.totalCount).toBe(p.footer.totalCount);
    expect(Math.abs(p.histogram.maxValue / 1000 - p.footer.max!)).toBeLessThanOrEqual(0.0005);
    expectRowsReproduced(p, 1000, 6);
    // The footer's mean is the original histogram's (median-equivalent) mean: the rebuilt one,
    // which only has mass at row values, should still be close.
    expect(p.histogram.mean / 1000).toBeCloseTo(p.footer.mean!, 0);
  });

  it.each(SAMPLES)("$file: re-printing the rebuilt histogram gives the file's rows back exactly", (s) => {
    const p = parsePercentileFile(s.file, read(s.file));
    const again = printedRows(formatPercentileDistribution(p.histogram, 1000));
    expect(again).toHaveLength(p.rows.length);
    again.forEach(([value, percentile, totalCount], i) => {
      expect(value, `row ${i}`).toBe(p.rows[i].value);
      expect(totalCount, `row ${i}`).toBe(p.rows[i].totalCount);
      expect(percentile, `row ${i}`).toBeCloseTo(p.rows[i].percentile, 6);
    });
  });

  it("CRLF line ends, trailing whitespace and extra blank lines change nothing", () => {
    for (const s of SAMPLES) {
      const text = read(s.file);
      const plain = parsePercentileFile(s.file, text);
      const messy = text
        .split("\n")
        .flatMap((l, i) => (i % 7 === 3 ? [l + " \t ", "", "   "] : [l + "  "]))
        .join("\r\n");
      const p = parsePercentileFile(s.file, messy);
      expect(p.problems).toEqual([]);
      expect(p.rows).toEqual(plain.rows);
      expect(p.footer).toEqual(plain.footer);
      expect(p.histogram.totalCount).toBe(plain.histogram.totalCount);
    }
  });

  it("a damaged row is reported with its 1-based line number and the rest is still read", () => {
    const lines = read("12Krps.hgrm").split("\n");
    // Line 10 (index 9) is a row; corrupt it, and make line 20's count go backwards.
    lines[9] = "       6.027     0.8000x0      2784432         5.00";
    const l20 = lines[19].trim().split(/\s+/);
    lines[19] = `${l20[0]} ${l20[1]} 12 ${l20[3]}`;
    const p = parsePercentileFile("12Krps.hgrm", lines.join("\n"));
    expect(p.problems.map((q) => q.line)).toEqual([10, 20]);
    expect(p.problems[0]).toMatchObject({ file: "12Krps.hgrm", reason: expect.stringContaining("percentile") });
    expect(p.problems[1].reason).toContain("below the previous row");
    expect(p.rows).toHaveLength(104);
    expect(p.histogram.totalCount).toBe(3477000);
  });

  it("wrk2: the summary list is not mistaken for the spectrum, the text after the footer is ignored", () => {
    const p = parsePercentileFile("w.txt", read("wrk2-latency-output.txt"));
    expect(p.rows.every((r) => r.totalCount >= 1)).toBe(true);
    expect(p.rows[1]).toEqual({ value: 4.053, percentile: 0.1, totalCount: 3951 });
  });
});

describe("detectPercentileFile", () => {
  it("recognises the flavours by content", () => {
    expect(detectPercentileFile("x.hgrm", "       Value     Percentile TotalCount 1/(1-Percentile)\n\n")).toBe("hgrm");
    expect(detectPercentileFile("x.csv", '"Value","Percentile","TotalCount","1/(1-Percentile)"\r\n0.1,0,1,1.00')).toBe("hgrm");
    expect(
      detectPercentileFile(
        "out.hgrm",
        "#[Overall percentile distribution between 0.000 and <Infinite> seconds (relative to StartTime)]\n" +
          "#[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 15:24:39 UTC 2015]\n" +
          "       Value     Percentile TotalCount 1/(1-Percentile)\n",
      ),
    ).toBe("hgrm");
    expect(detectPercentileFile("run.log", "Running 30s test @ http://x/\n  2 threads and 100 connections\n")).toBe("wrk2");
    expect(detectPercentileFile("a.txt", "  Latency Distribution (HdrHistogram - Recorded Latency)\n 50.000%    6.67ms\n")).toBe("wrk2");
  });

  it("finds the wrk2 markers after blank lines and under indentation (tabs, no-break spaces), on their own line only", () => {
    const marker = "Detailed Percentile spectrum:\n       Value   Percentile   TotalCount 1/(1-Percentile)\n";
    for (const lead of ["", "\n\n\n", "\r\n\r\n", "  \t", "\u00a0 ", "x\n \t\n  ", "x\u2028  "]) {
      expect({ lead, kind: detectPercentileFile("run.txt", lead + marker) }).toEqual({ lead, kind: "wrk2" });
    }
    expect(detectPercentileFile("run.txt", "see: Detailed Percentile spectrum:\n")).toBeNull();
    expect(detectPercentileFile("run.txt", "\n\n  \t\n  Latency Distribution (HdrHistogram - Recorded Latency)\n")).toBe("wrk2");
  });

  it("reads a file of many blank lines in linear time (200 000 blank lines; quadratic took minutes)", () => {
    // 64 K characters are sniffed: the old /^\s*…/m markers took ~1.6 s at 40 000 blank lines
    // and grow with the square; linear is a few ms.
    const text = "\n".repeat(200_000) + "       Value     Percentile TotalCount 1/(1-Percentile)\n\n       1.000 0.500000000000          5           2.00\n";
    const t0 = performance.now();
    const r = parsePercentileFile("x.hgrm", text);
    expect(performance.now() - t0).toBeLessThan(budgetMs(300));
    expect(r.histogram.totalCount).toBe(5);
    const blanks = "\n".repeat(60_000);
    const t1 = performance.now();
    expect(detectPercentileFile("x.hgrm", blanks + " \t Detailed Percentile spectrum:\n")).toBe("wrk2");
    expect(detectPercentileFile("x.hgrm", blanks + "x")).toBeNull();
    expect(performance.now() - t1).toBeLessThan(budgetMs(100));
  });

  it("rejects other files", () => {
    expect(detectPercentileFile("a.hlog", "#[Histogram log format version 1.2]\n#[StartTime: 1 (seconds since epoch)]\n")).toBeNull();
    expect(detectPercentileFile("a.csv", "latency_ms\n1.2\n3.4\n")).toBeNull();
    expect(detectPercentileFile("a.hgrm", "")).toBeNull();
  });
});

/** A histogram in ns with every value in `values` recorded once. */
function nsHistogram(values: number[], sig: 2 | 3 = 3) {
  const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: sig });
  for (const v of values) h.recordValue(v);
  return h;
}

describe("Java-written text (formatted here exactly as Java prints it)", () => {
  // Log-normal-ish latencies in ns, 0.05 ms .. 2 s.
  const values = Array.from({ length: 20000 }, (_, i) => Math.round(50_000 * Math.exp(((i * 7919) % 20000) / 2000)));

  it.each([3, 2] as const)("round trip of a %i-digit ns histogram printed in ms", (sig) => {
    const h = nsHistogram(values, sig);
    const text = formatPercentileDistribution(h, 1e6);
    const p = parsePercentileFile("java.hgrm", text);
    expect(p.problems).toEqual([]);
    expect(p.kind).toBe("hgrm");
    const printed = printedRows(text);
    expect(p.rows.map((r) => [r.value, r.percentile, r.totalCount])).toEqual(printed.map((r) => r.slice(0, 3)));
    expect(p.footer.totalCount).toBe(20000);
    expect(p.histogram.totalCount).toBe(20000);
    const decimals = sig;
    expect(p.histogramUnit).toBe("us");
    expect(Math.abs(p.histogram.maxValue / 1000 - p.footer.max!)).toBeLessThanOrEqual(0.5 * 10 ** -decimals);
    expectRowsReproduced(p, 1000, 12);
  });

  it.each([3, 2] as const)('the stated Max is the max: a %i-digit µs histogram printed with ratio 1 ("282111.000")', (sig) => {
    // µs values up to ~0.3 s whose max lies in the bucket topped by 282111 (3 digits: [281856, 282111])
    const us = values.map((v) => Math.min(282_000, Math.round(v / 7)));
    const h = nsHistogram(us, sig);
    const text = formatPercentileDistribution(h, 1);
    const stated = maxOf(h); // HdrHistogram's getMaxValue, what the footer prints
    if (sig === 3) expect(text).toMatch(/#\[Max {5}= +282111\.000,/);
    const p = parsePercentileFile("ratio1.hgrm", text);
    expect(p.problems).toEqual([]);
    expect(p.footer.max).toBe(stated);
    // the max the app shows (HdrHistogram's getMaxValue of the rebuilt histogram) in the file's unit
    const scale = { ms: 1, us: 1e3, ns: 1e6 }[p.histogramUnit as "ms" | "us" | "ns"];
    expect(maxOf(p.histogram) / scale).toBe(stated);
    expect(p.histogram.totalCount).toBe(us.length);
    // and every printed row comes back exactly (the file's own buckets)
    expectRowsReproduced(p, scale, 12);
    p.rows.forEach((row, i) => {
      if (i < p.rows.length - 1) expect(p.histogram.getValueAtPercentile(row.percentile * 100) / scale).toBeLessThanOrEqual(row.value);
    });
  });

  it("more than 3 decimals are kept by scaling to ns", () => {
    const h = nsHistogram(values.map((v) => Math.round(v / 100)));
    const text = formatPercentileDistribution(h, 1e3); // µs → "ms" with 3 decimals
    const finer = text.replace(/^(\s*)(\d+\.\d{3})(\s)/gm, (_m, a: string, v: string, b: string) => `${a}${v}7${b}`);
    const p = parsePercentileFile("fine.hgrm", finer);
    expect(p.histogramUnit).toBe("ns");
    expect(p.rows[0].value).toBe(Number(printedRows(finer)[0][0]));
    expectRowsReproduced(p, 1e6, 12);
  });
});

describe("CSV variant", () => {
  it("reads Java's CSV (no footer, last row Infinity)", () => {
    const h = nsHistogram(Array.from({ length: 1000 }, (_, i) => (i + 1) * 1000));
    const csv = h.outputPercentileDistribution(5, 1e6, true as false);
    expect(csv.startsWith('"Value","Percentile","TotalCount","1/(1-Percentile)"\n')).toBe(true);
    expect(csv.trimEnd().endsWith(",Infinity")).toBe(true);
    const p = parsePercentileFile("d.csv", csv);
    expect(p.problems).toEqual([]);
    expect(p.rows[0]).toEqual({ value: 0.001, percentile: 0, totalCount: 1 });
    expect(p.rows[p.rows.length - 1]).toEqual({ value: 1, percentile: 1, totalCount: 1000 });
    expect(p.footer).toEqual({});
    expect(p.histogram.totalCount).toBe(1000);
    expectRowsReproduced(p, 1000, 12);
  });

  it("hand-written CSV with CRLF and a bad row", () => {
    const csv = [
      '"Value","Percentile","TotalCount","1/(1-Percentile)"',
      "1.000,0.000000000000,10,1.00",
      "2.000,0.500000000000,50,2.00",
      "oops,0.6,60,2.5",
      "4.000,1.000000000000,100,Infinity",
      "",
    ].join("\r\n");
    const p = parsePercentileFile("h.csv", csv);
    expect(p.rows).toHaveLength(3);
    expect(p.problems).toEqual([{ file: "h.csv", line: 4, reason: expect.stringContaining("value") }]);
    expect(p.histogram.totalCount).toBe(100);
    expect(p.histogram.getValueAtPercentile(50)).toBe(2000);
    // 4000 lies in a 2-wide bucket [4000, 4001]: its top is as near as this histogram gets.
    expect(p.histogram.getValueAtPercentile(100)).toBe(4001);
  });
});

describe("plain text edge cases", () => {
  const header = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n";
  const footer =
    "#[Mean    =        1.500, StdDeviation   =        0.500]\n#[Max     =        2.000, Total count    =            4]\n#[Buckets =           22, SubBuckets     =         2048]\n";

  it.each(["", " inf", " Infinity", " INF"])("last row with last column %j", (tail) => {
    const text = `${header}       1.000 0.000000000000          2           1.00\n       2.000 1.000000000000          4${tail}\n${footer}`;
    const p = parsePercentileFile("e.hgrm", text);
    expect(p.problems).toEqual([]);
    expect(p.rows).toEqual([
      { value: 1, percentile: 0, totalCount: 2 },
      { value: 2, percentile: 1, totalCount: 4 },
    ]);
    expect(p.footer).toEqual({ mean: 1.5, stdDeviation: 0.5, max: 2, totalCount: 4, buckets: 22, subBuckets: 2048 });
    expect(p.histogram.totalCount).toBe(4);
    expect(p.histogram.maxValue).toBe(2000);
  });

  it("reports a footer whose total disagrees, a missing footer, and a percentile outside 0..1", () => {
    const bad = `${header}       1.000 0.000000000000          2           1.00\n       1.500 1.700000000000          3           1.00\n       2.000 1.000000000000          4\n`;
    const p = parsePercentileFile("t.hgrm", bad + footer.replace("           4]", "           5]"));
    expect(p.problems.map((q) => [q.line, q.reason.split(" ").slice(0, 2).join(" ")])).toEqual([
      [4, "percentile 1.700000000000"],
      [7, "footer Total"], // the footer's own line
    ]);
    expect(p.histogram.totalCount).toBe(4);
    const truncated = parsePercentileFile("t.hgrm", bad);
    expect(truncated.problems.at(-1)).toMatchObject({ line: null, reason: expect.stringContaining("truncated") });
  });

  it("no header, no rows, empty input", () => {
    for (const text of ["", "\n\n", "hello\nworld\n"]) {
      const p = parsePercentileFile("x.hgrm", text);
      expect(p.rows).toEqual([]);
      expect(p.histogram.totalCount).toBe(0);
      expect(p.problems.length).toBeGreaterThan(0);
    }
    const wrk2 = parsePercentileFile("w.txt", "Running 10s test @ http://x\n  Latency     6.60ms\n");
    expect(wrk2.kind).toBe("wrk2");
    expect(wrk2.problems[0].reason).toContain("Detailed Percentile spectrum");
  });

  it("lists at most 100 bad rows one by one", () => {
    const p = parsePercentileFile("big.hgrm", header + "junk\n".repeat(250));
    expect(p.problems.filter((q) => q.line !== null)).toHaveLength(100);
    expect(p.problems.map((q) => q.reason)).toContain("150 more bad rows not listed");
  });

  it("never throws, whatever the input", () => {
    const rowish = fc.oneof(
      fc.string(),
      fc.tuple(fc.double(), fc.double(), fc.nat(), fc.double()).map((t) => t.join(" ")),
      fc.constantFrom(header, footer, "#[Max = x]", "       1.0 0.5 3", "1,0.5,3,Infinity", "---"),
    );
    fc.assert(
      fc.property(fc.array(rowish, { maxLength: 30 }), fc.constantFrom("\n", "\r\n", "\r"), (lines, eol) => {
        const p = parsePercentileFile("f.hgrm", lines.join(eol));
        expect(p.histogram.totalCount).toBe(p.rows.length ? p.rows[p.rows.length - 1].totalCount : 0);
      }),
      { numRuns: 300 },
    );
  });
});

// A .hgrm as HdrHistogram Java's HistogramLogProcessor writes it ("-o NAME" → NAME.hgrm), when
// java and the jar are here (scripts/java-reference.sh fetches the jar).
const JAR = process.env.HDRHISTOGRAM_JAR ?? path.join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const hlog = path.resolve(__dirname, "../../../shared/samples/hdrhistogram/jHiccup-2.0.7S.logV2.hlog");
const haveJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0 && existsSync(JAR) && existsSync(hlog);

describe.skipIf(!haveJava)("a .hgrm written by HistogramLogProcessor (Java 2.2.2)", () => {
  it("reads it: comment lines before the header, 2 decimals, 12-decimal percentiles", () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "hgrm-")), "run");
    const r = spawnSync("java", ["-cp", JAR, "org.HdrHistogram.HistogramLogProcessor", "-i", hlog, "-o", out], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const text = readFileSync(out + ".hgrm", "utf8");
    expect(text.startsWith("#[Overall percentile distribution between 0.000 and <Infinite> seconds")).toBe(true);
    expect(detectPercentileFile("run.hgrm", text.slice(0, 1024))).toBe("hgrm");
    const p = parsePercentileFile("run.hgrm", text);
    expect(p.problems).toEqual([]);
    expect(p.rows).toHaveLength(printedRows(text).length);
    expect(p.footer).toEqual({ mean: 67.81, stdDeviation: 258.95, max: 1803.55, totalCount: 48761, buckets: 21, subBuckets: 256 });
    expect(p.histogram.totalCount).toBe(48761);
    expect(Math.abs(p.histogram.maxValue / 1000 - 1803.55)).toBeLessThanOrEqual(0.005);
    expectRowsReproduced(p, 1000, 12);
  });
});

describe("wrk 4 with the app's wrk-spectrum.lua (fixtures/producers/wrk)", () => {
  it("reads the whole spectrum the script printed; max and mean are the ones wrk printed", async () => {
    const text = readFileSync(new URL("../../fixtures/producers/wrk/wrk-spectrum.txt", import.meta.url), "utf8");
    const parsed = parsePercentileFile("wrk-spectrum.txt", text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.kind).toBe("wrk2");
    const h = parsed.histogram;
    // wrk's "Latency   420.17us  264.75us   3.96ms": avg, stdev, max
    const m = /^\s*Latency\s+([\d.]+)(us|ms|s)\s+[\d.]+(?:us|ms|s)\s+([\d.]+)(us|ms|s)/m.exec(text)!;
    const us = (v: string, u: string) => Number(v) * { us: 1, ms: 1e3, s: 1e6 }[u as "us"];
    expect(Math.abs(h.maxValue - us(m[3]!, m[4]!))).toBeLessThanOrEqual(5);
    expect(Math.abs(h.mean - us(m[1]!, m[2]!)) / us(m[1]!, m[2]!)).toBeLessThan(0.002);
    expect(h.totalCount).toBe(Number(/Total count\s+=\s+(\d+)/.exec(text)![1]));
  });
});
