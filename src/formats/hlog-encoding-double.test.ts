// DoubleHistogram logs (`DHIST…` payloads): read, mapped to integer ns, and checked against
// HdrHistogram Java's DoubleHistogram (when java, javac and the jar are present) and against
// a reference built here from known samples.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeDoubleHlog, type DoubleInterval } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import { maxOf, valueAtPercentile } from "../core/histogram";
import { HlogIngest } from "../engine/hlog-ingest";
import { decodeHistogramPayload } from "./hlog-encoding";
import { DOUBLE_TO_RECORDED } from "./hlog-encoding-double";
import { doubleHistogramOf, encodeDoubleHistogram, encodeDoubleHistogramBytes, toBase64 } from "../../tests/support/hlog-encoders";

const PERCENTILES = [50, 90, 99, 99.9, 99.99, 99.999] as const;
/** The target layout's resolution at 3 digits (one digit finer: 2^14 sub-buckets per half). */
const TARGET_RESOLUTION = 2 ** -14;

/** Latencies in seconds: mostly 0.2-3 ms, a tail to ~2 s. */
function samples(seed: number, n: number): number[] {
  const r = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = r();
    out.push(u < 0.995 ? 0.0002 + 0.0028 * r() : 0.05 + 2 * r() * r());
  }
  return out;
}

function load(text: string, file = "double.hlog") {
  const ing = new HlogIngest(file);
  ing.push(text);
  return ing.finish();
}

/**
 * HdrHistogram's percentile rule over (value, count) pairs in ascending order: the first value
 * whose cumulative count reaches ceil(p/100 * n), less one ulp (0.999 * 3000 is 2997.0000000000005).
 */
function percentileOf(pairs: readonly [number, number][], p: number): number {
  const n = pairs.reduce((s, [, c]) => s + c, 0);
  const fp = (p / 100) * n;
  const target = Math.max(1, Math.ceil(fp - 2 ** (Math.floor(Math.log2(fp)) - 52)));
  let run = 0;
  for (const [v, c] of pairs) {
    run += c;
    if (run >= target) return v;
  }
  return pairs[pairs.length - 1]![0];
}

/** Within the target layout's resolution above the reference, never below it (1 ns for the floor). */
function expectNear(got: number, referenceNs: number): void {
  expect(got).toBeGreaterThanOrEqual(Math.floor(referenceNs) - 1);
  expect(got).toBeLessThanOrEqual(referenceNs * (1 + TARGET_RESOLUTION) + 1);
}

describe("DoubleHistogram payloads against a reference built from known samples", () => {
  const intervals: DoubleInterval[] = [0, 1, 2, 3].map((i) => ({ start: i, length: 1, samples: samples(11 + i, 3000) }));
  const text = writeDoubleHlog(intervals);

  it("loads every interval and every count", () => {
    const r = load(text);
    expect(r.problems).toEqual([]);
    expect(r.series).toHaveLength(1);
    expect(r.series[0]!.histogram.totalCount).toBe(12000);
    expect(r.series[0]!.intervals!.n).toBe(4);
  });

  it("percentiles and max are DoubleHistogram's (each sample's bucket top x ratio), in ns", () => {
    // Independent of the reader: each sample's integer value, its bucket's highest equivalent
    // value (Java's reported value) and the ratio, from doubleHistogramOf alone.
    const pairs: [number, number][] = [];
    for (const iv of intervals) {
      const d = doubleHistogramOf(iv.samples, 3);
      for (const i of d.integers) {
        // Bucket width for lowest 1, 3 digits (2048 sub-buckets): 1 below 2048, then doubling.
        const width = i < 2048 ? 1 : 2 ** (Math.floor(Math.log2(i)) - 10);
        const top = Math.floor(i / width) * width + width - 1;
        pairs.push([top * d.ratio * DOUBLE_TO_RECORDED, 1]);
      }
    }
    pairs.sort((a, b) => a[0] - b[0]);
    const h = load(text).series[0]!.histogram;
    for (const p of PERCENTILES) expectNear(valueAtPercentile(h, p), percentileOf(pairs, p));
    expectNear(maxOf(h), pairs[pairs.length - 1]![0]);
    // A unit or ratio mistake would be off by far more than that: 1 ms-ish median.
    expect(valueAtPercentile(h, 50)).toBeGreaterThan(1e6);
    expect(valueAtPercentile(h, 50)).toBeLessThan(2e6);
  });

  it("the uncompressed form and a V1 wrapped histogram read the same", () => {
    const d = doubleHistogramOf(samples(5, 500), 3);
    const a = decodeHistogramPayload(encodeDoubleHistogram(d));
    const b = decodeHistogramPayload(toBase64(encodeDoubleHistogramBytes({ ...d, compressed: false })));
    const c = decodeHistogramPayload(encodeDoubleHistogram({ ...d, version: 1 }));
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(a.value.double).toEqual({ ratio: d.ratio, digits: 3 });
    expect(a.value.numberOfSignificantValueDigits).toBe(4);
    for (const x of [b, c]) {
      expect([...x.value.indices]).toEqual([...a.value.indices]);
      expect([...x.value.counts]).toEqual([...a.value.counts]);
    }
    expect(a.value.totalCount).toBe(500);
  });

  it("refuses what Java refuses, with a reason", () => {
    const d = doubleHistogramOf([0.001, 0.002], 3);
    const bad = (x: Parameters<typeof encodeDoubleHistogram>[0]) => {
      const r = decodeHistogramPayload(encodeDoubleHistogram(x));
      return r.ok ? "ok" : r.reason;
    };
    expect(bad({ ...d, inner: { ...d.inner, lowest: 2 } })).toMatch(/lowest discernible value 2; it must be 1/);
    expect(bad({ ...d, ratio: 0 })).toMatch(/conversion ratio 0/);
    const r = decodeHistogramPayload(encodeDoubleHistogram(d).slice(0, 12));
    expect(r.ok).toBe(false);
  });
});

// ---- HdrHistogram Java's DoubleHistogram as the reference (skipped when java, javac or the jar is missing) ----

const JAR = process.env.HDRHISTOGRAM_JAR ?? path.join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0 && spawnSync("javac", ["-version"], { stdio: "ignore" }).status === 0 && existsSync(JAR);

// Writes a DoubleHistogram log with Java's own HistogramLogWriter, reads it back with its
// HistogramLogReader and prints, per percentile, the accumulated DoubleHistogram's value and the
// exact value Java reports for the bucket that percentile falls in (the union of every
// interval's recorded values, with HdrHistogram's rule), then the max.
const JAVA = `
import org.HdrHistogram.*;
import java.io.*;
import java.util.*;
public class DoubleRef {
  public static void main(String[] a) throws Exception {
    String file = a[0];
    Random r = new Random(42);
    try (PrintStream out = new PrintStream(new FileOutputStream(file))) {
      HistogramLogWriter w = new HistogramLogWriter(out);
      w.outputLogFormatVersion();
      w.outputStartTime(1700000000000L);
      w.outputLegend();
      for (int i = 0; i < 5; i++) {
        DoubleHistogram h = new DoubleHistogram(3);
        for (int k = 0; k < 4000; k++) {
          double u = r.nextDouble();
          h.recordValue(u < 0.99 ? 0.0001 + 0.004 * r.nextDouble() : 0.02 + 3 * r.nextDouble() * r.nextDouble());
        }
        if (i == 2) h.recordValue(7.25);
        w.outputIntervalHistogram(i, i + 1, h);
      }
    }
    HistogramLogReader reader = new HistogramLogReader(file);
    DoubleHistogram acc = new DoubleHistogram(3);
    TreeMap<Double, Long> union = new TreeMap<>();
    double max = 0;
    EncodableHistogram e;
    while ((e = reader.nextIntervalHistogram()) != null) {
      DoubleHistogram h = (DoubleHistogram) e;
      acc.add(h);
      max = Math.max(max, h.getMaxValue());
      for (DoubleHistogramIterationValue v : h.recordedValues()) union.merge(v.getValueIteratedTo(), v.getCountAtValueIteratedTo(), Long::sum);
    }
    long n = acc.getTotalCount();
    System.out.println("count " + n);
    for (double p : new double[] {50, 90, 99, 99.9, 99.99, 99.999}) {
      double fp = p / 100 * n;
      long target = Math.max(1, (long) Math.ceil(fp - Math.ulp(fp)));
      long run = 0;
      double exact = 0;
      for (Map.Entry<Double, Long> en : union.entrySet()) { run += en.getValue(); if (run >= target) { exact = en.getKey(); break; } }
      System.out.println("p " + p + " " + acc.getValueAtPercentile(p) + " " + exact);
    }
    System.out.println("max " + acc.getMaxValue() + " " + max + " " + union.lastKey());
  }
}
`;

describe.skipIf(!haveJava)("DoubleHistogram logs written and read by HdrHistogram Java", () => {
  it("percentiles and max match Java's DoubleHistogram, in ns", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-double-"));
    writeFileSync(path.join(dir, "DoubleRef.java"), JAVA);
    const c = spawnSync("javac", ["-cp", JAR, "-d", dir, path.join(dir, "DoubleRef.java")], { encoding: "utf8" });
    expect(c.status, c.stderr).toBe(0);
    const log = path.join(dir, "double.hlog");
    const j = spawnSync("java", ["-cp", `${JAR}${path.delimiter}${dir}`, "DoubleRef", log], { encoding: "utf8" });
    expect(j.status, j.stderr).toBe(0);
    const lines = j.stdout
      .trim()
      .split("\n")
      .map((l) => l.split(" "));
    const text = readFileSync(log, "utf8");
    expect(text).toMatch(/,DHIST/);
    const r = load(text);
    expect(r.problems).toEqual([]);
    const h = r.series[0]!.histogram;
    expect(h.totalCount).toBe(Number(lines[0]![1]));
    for (const [, p, acc, exact] of lines.filter((l) => l[0] === "p")) {
      const got = valueAtPercentile(h, Number(p));
      // The value Java reports for that bucket, to the target's resolution.
      expectNear(got, Number(exact) * DOUBLE_TO_RECORDED);
      // Java's accumulated DoubleHistogram re-records each bucket's lowest value into its own
      // range, so it may differ from the bucket's own value by one integer unit (< 1/1024).
      expect(Math.abs(got / (Number(acc) * DOUBLE_TO_RECORDED) - 1)).toBeLessThan(2 ** -9);
    }
    const [, accMax, intervalMax, lastValue] = lines.find((l) => l[0] === "max")!;
    expectNear(maxOf(h), Number(lastValue) * DOUBLE_TO_RECORDED);
    // Java's getMaxValue is the bucket's top edge less an ulp: one integer unit above its percentile value.
    expect(Math.abs(maxOf(h) / (Number(intervalMax) * DOUBLE_TO_RECORDED) - 1)).toBeLessThan(2 ** -9);
    expect(Math.abs(maxOf(h) / (Number(accMax) * DOUBLE_TO_RECORDED) - 1)).toBeLessThan(2 ** -9);
    expect(maxOf(h)).toBeGreaterThan(7.25e9);
  });
});
