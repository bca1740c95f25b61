import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { build, decodeFromCompressedBase64, type Histogram } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { parsePercentileFile } from "../formats/hgrm";
import { formatPercentileDistribution, javaFixed, percentileSteps } from "./hgrm-export";

const HEADER = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n";

/** HdrHistogram's percentile iteration levels (percent), ticksPerHalfDistance = 5. */
function tickLevels(n: number): number[] {
  const levels = [0];
  let level = 0;
  while (levels.length < n) {
    level += 100 / (5 * 2 ** (Math.trunc(Math.log(100 / (100 - level)) / Math.log(2)) + 1));
    levels.push(level);
  }
  return levels;
}

function oneToTenThousand(): Histogram {
  const h = build({ bitBucketSize: 64 }); // lowest 1, 3 significant digits: 2048 sub-buckets
  for (let v = 1; v <= 10000; v++) h.recordValue(v);
  return h;
}

/** Bucket width for a 3-digit histogram with unit 1: exact below 2048, then 2, 4, 8, … */
const width = (v: number) => (v < 2048 ? 1 : 2 ** (Math.floor(Math.log2(v)) - 10));
const bucketTop = (v: number) => Math.floor(v / width(v)) * width(v) + width(v) - 1;
const bucketMedian = (v: number) => Math.floor(v / width(v)) * width(v) + Math.floor(width(v) / 2);

describe("formatPercentileDistribution: values 1..10000 recorded once each", () => {
  const text = formatPercentileDistribution(oneToTenThousand(), 1);
  const lines = text.split("\n");

  it("prints Java's header and the first rows, as derived by hand", () => {
    expect(text.startsWith(HEADER)).toBe(true);
    // Level L% needs ceil(L × 100) values: the row is the top of the bucket holding that value
    // (1-wide below 2048, 2-wide to 4095, 4-wide to 8191, 8-wide above), the count up to it,
    // and 1/(1-L).
    expect(lines.slice(2, 19)).toEqual([
      "       1.000 0.000000000000          1           1.00",
      "    1000.000 0.100000000000       1000           1.11",
      "    2000.000 0.200000000000       2000           1.25",
      "    3001.000 0.300000000000       3001           1.43",
      "    4001.000 0.400000000000       4001           1.67",
      "    5003.000 0.500000000000       5003           2.00",
      "    5503.000 0.550000000000       5503           2.22",
      "    6003.000 0.600000000000       6003           2.50",
      "    6503.000 0.650000000000       6503           2.86",
      "    7003.000 0.700000000000       7003           3.33",
      "    7503.000 0.750000000000       7503           4.00",
      "    7751.000 0.775000000000       7751           4.44",
      "    8003.000 0.800000000000       8003           5.00",
      "    8255.000 0.825000000000       8255           5.71",
      "    8503.000 0.850000000000       8503           6.67",
      "    8751.000 0.875000000000       8751           8.00",
      "    8879.000 0.887500000000       8879           8.89",
    ]);
  });

  it("every row follows the same rule, down to the last bucket", () => {
    const rows = lines.slice(2).filter((l) => /^\s*\d/.test(l));
    const levels = tickLevels(rows.length);
    rows.slice(0, -1).forEach((row, i) => {
      const [value, percentile, count, inverse] = row.trim().split(/\s+/);
      // The iterator stops at the first value v with 100 × (count up to v) / 10000 >= level.
      let needed = Math.max(1, Math.ceil(levels[i] * 100));
      while (needed > 1 && (100 * (needed - 1)) / 10000 >= levels[i]) needed--;
      while ((100 * needed) / 10000 < levels[i]) needed++;
      expect(Number(value), row).toBe(bucketTop(needed));
      expect(Number(count), row).toBe(Math.min(bucketTop(needed), 10000));
      expect(Math.abs(Number(percentile) - levels[i] / 100), row).toBeLessThanOrEqual(5e-13 + 1e-15);
      expect(inverse, row).toBe((1 / (1 - levels[i] / 100)).toFixed(2));
      expect(row).toHaveLength(12 + 1 + 14 + 1 + 10 + 1 + 14);
    });
    // The first level past 99.99% needs value 10000, in the 8-wide bucket [10000, 10007].
    expect(rows.slice(-2)).toEqual(["   10007.000 0.999902343750      10000       10240.00", "   10007.000 1.000000000000      10000"]);
  });

  it("rounds the percentile HALF_UP on its shortest decimal form, as java.util.Formatter does", () => {
    // 1 - 9/40960 = 0.9997802734375 exactly: a tie at 12 decimals.
    expect(lines).toContain("    9999.000 0.999780273438       9999        4551.11");
    expect(lines).toContain("    9999.000 0.999829101563       9999        5851.43");
  });

  it("prints the footer: median-equivalent mean and deviation, Java's max (bucket top), total, buckets", () => {
    let sum = 0;
    for (let v = 1; v <= 10000; v++) sum += bucketMedian(v);
    const mean = sum / 10000; // 5000.5 + (1024 + 2048 + 904 + 4) / 10000
    let dev = 0;
    for (let v = 1; v <= 10000; v++) dev += (bucketMedian(v) - mean) ** 2;
    expect(mean.toFixed(3)).toBe("5000.898");
    expect(
      text.endsWith(
        `#[Mean    =     5000.898, StdDeviation   = ${Math.sqrt(dev / 10000)
          .toFixed(3)
          .padStart(12)}]\n` +
          "#[Max     =    10007.000, Total count    =        10000]\n" +
          "#[Buckets =            4, SubBuckets     =         2048]\n",
      ),
    ).toBe(true);
  });

  it("divides values by the output ratio and prints as many decimals as significant digits", () => {
    const ms = formatPercentileDistribution(oneToTenThousand(), 1000).split("\n");
    expect(ms[2]).toBe("       0.001 0.000000000000          1           1.00");
    expect(ms[5]).toBe("       3.001 0.300000000000       3001           1.43");
    const two = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2 });
    for (let v = 1; v <= 1000; v++) two.recordValue(v * 1000);
    const t = formatPercentileDistribution(two, 1e6).split("\n");
    expect(t[2]).toBe("        0.00 0.000000000000          1           1.00");
    expect(t.at(-3)).toBe("#[Max     =         1.00, Total count    =         1000]");
    expect(t.at(-2)).toBe("#[Buckets =           13, SubBuckets     =          256]");
  });

  it("the step list behind it: one step per level, then exactly 100%", () => {
    const steps = percentileSteps(oneToTenThousand());
    expect(steps[0]).toEqual({ valueIteratedTo: 1, percentileLevelIteratedTo: 0, totalCountToThisValue: 1 });
    expect(steps.at(-1)).toEqual({ valueIteratedTo: 10007, percentileLevelIteratedTo: 100, totalCountToThisValue: 10000 });
    expect(steps.map((s) => s.percentileLevelIteratedTo).slice(0, -1)).toEqual(tickLevels(steps.length - 1));
  });
});

describe("formatPercentileDistribution: small cases", () => {
  it.each([
    ["an empty histogram has a header and a zero footer", 0, ""],
    ["only zeros", 5, "       0.000 0.000000000000          5           1.00\n       0.000 1.000000000000          5\n"],
  ])("%s", (_, zeros, rows) => {
    const h = build({ bitBucketSize: 64 });
    if (zeros > 0) h.recordValueWithCount(0, zeros);
    expect(formatPercentileDistribution(h, 1)).toBe(
      HEADER +
        rows +
        "#[Mean    =        0.000, StdDeviation   =        0.000]\n" +
        `#[Max     =        0.000, Total count    =            ${zeros}]\n` +
        "#[Buckets =            1, SubBuckets     =         2048]\n",
    );
  });

  it("large counts are printed whole, wider than the column if need be", () => {
    const h = build({ bitBucketSize: 64 });
    h.recordValueWithCount(7, 123_456_789_012_345);
    const lines = formatPercentileDistribution(h, 1).split("\n");
    expect(lines[2]).toBe("       7.000 0.000000000000 123456789012345           1.00");
    expect(lines.at(-3)).toBe("#[Max     =        7.000, Total count    = 123456789012345]");
  });

  it("differs from hdr-histogram-js's own output only where the library's max is off", () => {
    // Java prints getMaxValue() = highestEquivalentValue(max); the library prints its raw field.
    const h = oneToTenThousand();
    const lib = h.outputPercentileDistribution(5, 1);
    const ours = formatPercentileDistribution(h, 1);
    expect(lib.replace(/#\[Max {5}= +[\d.]+,/, "")).toBe(ours.replace(/#\[Max {5}= +[\d.]+,/, ""));
    expect(lib).toContain("#[Max     =    10000.000,");
    expect(ours).toContain("#[Max     =    10007.000,");
  });
});

describe("javaFixed (java.util.Formatter %.Nf, Locale.US)", () => {
  it.each([
    [0.15, 1, "0.2"], // C and toFixed: 0.1 (0.15 is 0.1499999… in binary)
    [1.005, 2, "1.01"],
    [0.125, 2, "0.13"],
    [2.0005, 3, "2.001"],
    [9.9995, 3, "10.000"],
    [0.0005, 3, "0.001"],
    [1e-7, 3, "0.000"],
    [0.5, 0, "1"],
    [2.5, 0, "3"],
    [1e21, 2, "1000000000000000000000.00"],
    [123456.789, 0, "123457"],
    [-0, 3, "-0.000"],
    [-1.25, 1, "-1.3"],
    [NaN, 3, "NaN"],
    [Infinity, 2, "Infinity"],
  ])("%s with %i decimals → %s", (x, p, s) => {
    expect(javaFixed(x, p)).toBe(s);
  });
});

const samples = path.resolve(__dirname, "../../../shared/samples");

describe.skipIf(!existsSync(path.join(samples, "hgrm")))("the .hgrm samples' format (written by wrk2's HdrHistogram_c)", () => {
  it("rebuilt and re-printed in Java's format: same values and counts; header, widths, max differ", () => {
    const text = readFileSync(path.join(samples, "hgrm/12Krps.hgrm"), "utf8");
    const p = parsePercentileFile("12Krps.hgrm", text);
    const ours = formatPercentileDistribution(p.histogram, 1000).split("\n");
    const theirs = text.split("\n");
    // C: "%12s %12s %12s %12s" header, "%12.3f %12f %12lld %12.2f" rows (6-decimal percentile),
    // "inf" on the 100% row, and the raw recorded max in the footer.
    expect(theirs[0]).toBe("       Value   Percentile   TotalCount 1/(1-Percentile)");
    expect(ours[0]).toBe("       Value     Percentile TotalCount 1/(1-Percentile)");
    const rows = (ls: string[]) => ls.filter((l) => /^\s*\d/.test(l)).map((l) => l.trim().split(/\s+/));
    const a = rows(ours);
    const b = rows(theirs);
    expect(a).toHaveLength(b.length);
    a.forEach((r, i) => {
      expect(r[0]).toBe(b[i][0]);
      expect(r[2]).toBe(b[i][2]);
      expect(Number(r[1]).toFixed(6)).toBe(b[i][1]);
    });
    expect(theirs.at(-3)).toBe("#[Max     =       64.736, Total count    =      3477000]");
    // Re-printed the Java way the max is the top of its bucket (the 100% row's value).
    expect(ours.at(-3)).toBe("#[Max     =       64.767, Total count    =      3477000]");
  });
});

// ---- HdrHistogram Java as the reference (skipped when java or the jar is missing) ----

const JAR = process.env.HDRHISTOGRAM_JAR ?? path.join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0 && existsSync(JAR);

function java(args: string[], input?: string): string {
  const r = spawnSync("java", args, { input, maxBuffer: 1 << 28, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`java ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** Interval histograms of a V2 log merged like HistogramLogProcessor: into a copy of the first's shape. */
function mergeLog(text: string, tag?: string): Histogram {
  let acc: Histogram | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.trim() || line.startsWith("#") || line.startsWith('"')) continue;
    const fields = line.trim().split(",");
    const lineTag = fields[0].startsWith("Tag=") ? fields.shift()!.slice(4) : undefined;
    if (lineTag !== tag) continue;
    const h = decodeFromCompressedBase64(fields[3], 64) as Histogram & {
      lowestDiscernibleValue: number;
    };
    acc ??= build({
      bitBucketSize: 64,
      autoResize: true,
      lowestDiscernibleValue: h.lowestDiscernibleValue,
      highestTrackableValue: h.highestTrackableValue,
      numberOfSignificantValueDigits: h.numberOfSignificantValueDigits as 1 | 2 | 3 | 4 | 5,
    });
    acc.add(h);
  }
  if (!acc) throw new Error("no histograms");
  return acc;
}

// It reads HdrHistogram's own logs from ../shared/samples: skipped without them too (a clone
// without shared/ beside it had java print nothing for a missing file, and fail).
describe.skipIf(!haveJava || !existsSync(path.join(samples, "hdrhistogram")))("against HdrHistogram Java 2.2.2", () => {
  it.each([
    ["jHiccup-2.0.7S.logV2.hlog", undefined],
    ["tagged-Log.logV2.hlog", "A"],
  ])("HistogramLogProcessor -i %s (tag %s) prints exactly our text", (file, tag) => {
    const log = path.join(samples, "hdrhistogram", file);
    const args = ["-cp", JAR, "org.HdrHistogram.HistogramLogProcessor", "-i", log, "-outputValueUnitRatio", "1000000"];
    const out = java(tag ? [...args, "-tag", tag] : args);
    // stdout: "#[StartTime: … (seconds since epoch), <java.util.Date>]" then the distribution.
    const [first, ...rest] = out.split("\n");
    expect(first).toMatch(/^#\[StartTime: [\d.]+ \(seconds since epoch\), /);
    const expected = rest.join("\n");
    expect(expected.startsWith(HEADER)).toBe(true);
    expect(formatPercentileDistribution(mergeLog(readFileSync(log, "utf8"), tag), 1e6)).toBe(expected);
  });

  it("random histograms: every parameter mix prints byte for byte like Java", () => {
    // Values stay below 2^53: above that JDK 17 prints a double's exact integer digits and
    // JDK 21+ (like JS) its shortest ones.
    let seed = 12345;
    const rnd = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
    const cases: { h: Histogram; ratio: number; ticks: number; spec: string }[] = [];
    for (let k = 0; k < 120; k++) {
      const lowest = pick([1, 1, 1, 1000, 20000, 7, 1 + Math.floor(rnd() * 5000)]);
      const sig = pick([0, 1, 2, 3, 3, 3, 4, 5] as const);
      const ratio = pick([1, 1000, 1e6, 1e6, 1e9, 3.7, 0.001, 1024]);
      const ticks = pick([5, 5, 5, 1, 2, 3, 10, 7]);
      const highest = Math.max(2 * lowest, pick([2, 1000, 3600e9]));
      const h = build({
        bitBucketSize: 64,
        lowestDiscernibleValue: lowest,
        highestTrackableValue: highest,
        numberOfSignificantValueDigits: sig as 1 | 2 | 3 | 4 | 5,
        autoResize: true,
      }); // (0 digits: valid at runtime and in Java, not in the typings)
      let spec = `H ${lowest} ${highest} ${sig} ${ratio} ${ticks}\n`;
      const n = pick([0, 1, 2, 10, 100, 1000]);
      const magnitude = pick([3, 6, 9, 12, 14]);
      for (let i = 0; i < n; i++) {
        const v = Math.floor(Math.exp(rnd() * rnd() * magnitude * Math.LN10));
        const c = pick([1, 1, 2, 10, 1000, Math.floor(rnd() * 1e6), Math.floor(rnd() * 1e12)]);
        h.recordValueWithCount(v, c);
        spec += `${v} ${c}\n`;
      }
      cases.push({ h, ratio, ticks, spec: spec + "E\n" });
    }
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-java-"));
    const src = path.join(dir, "Ref.java");
    writeFileSync(src, JAVA_REFERENCE);
    const out = java(["-cp", JAR, src], cases.map((c) => c.spec).join(""))
      .split("=====\n")
      .slice(1);
    expect(out).toHaveLength(cases.length);
    cases.forEach((c, i) => {
      expect(formatPercentileDistribution(c.h, c.ratio, c.ticks), c.spec.split("\n")[0]).toBe(out[i]);
    });
  });
});

/** Reads "H lowest highest sig ratio ticks", "value count" lines and "E"; prints Java's text per case. */
const JAVA_REFERENCE = `
import org.HdrHistogram.Histogram;
import java.io.*;
public class Ref {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
    String line; Histogram h = null; double ratio = 1; int ticks = 5;
    while ((line = r.readLine()) != null) {
      String[] f = line.trim().split("\\\\s+");
      if (f[0].equals("H")) {
        h = new Histogram(Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3]));
        h.setAutoResize(true);
        ratio = Double.parseDouble(f[4]);
        ticks = Integer.parseInt(f[5]);
      } else if (f[0].equals("E")) {
        out.print("=====\\n");
        h.outputPercentileDistribution(out, ticks, ratio);
      } else {
        h.recordValueWithCount(Long.parseLong(f[0]), Long.parseLong(f[1]));
      }
    }
    out.flush();
  }
}
`;
