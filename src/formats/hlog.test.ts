import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { HlogIngest } from "../engine/hlog-ingest";
import { HlogReader, detectHlog, parseJavaDouble } from "./hlog";

function readAll(text: string, file = "t.hlog") {
  const r = new HlogReader(file);
  const out = text
    .split(/\r\n|\r|\n/)
    .map((l, i) => r.readLine(l, i + 1))
    .filter((x) => x !== null);
  return { r, out };
}

describe("HlogReader", () => {
  it("reads tags, comma or space separated fields, CRLF and trailing white space", () => {
    const { r, out } = readAll(
      '#[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]\r\n"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\r\n0.127,1.007,2.769,HISTFAAAAEV4\r\nTag=A,0.127,1.007,2.769,HISTFAAAAEV4   \r\n1.5 1.0 0.5 HISTFAAAAEV4\n',
    );
    expect(out.map((i) => [i.tag, i.rawStart, i.length, i.maxColumn, i.line])).toEqual([
      ["", 0.127, 1.007, 2.769, 3],
      ["A", 0.127, 1.007, 2.769, 4],
      ["", 1.5, 1.0, 0.5, 5],
    ]);
    expect(r.header.startTime).toBe(1441812279.474);
    expect(r.problems).toEqual([]);
  });

  it.each([
    [
      "more than a year before StartTime as relative (Java's rule)",
      "#[StartTime: 1441812279.474 (seconds since epoch)]\n0.127,1.0,1.0,HISTFAAA\n",
      1441812279.474,
      5.127,
      5.127,
      9,
    ],
    ["near StartTime as absolute", "#[StartTime: 1527510686.000 (seconds since epoch)]\nTag=x,1527510686.313,40.807,0.000,HISTFAAA\n", 0, 1527510686.313, 0.313, 6],
    [
      "against an explicit BaseTime",
      "#[StartTime: 1000000000.000 (seconds since epoch)]\n#[BaseTime: 999999990.000 (seconds since epoch)]\n12.5,1,1,HISTFAAA\n",
      999999990,
      12.5,
      2.5,
      9,
    ],
  ])("treats timestamps %s", (_, text, baseTime, stamp, offset, digits) => {
    const { r } = readAll(text);
    expect(r.baseTime()).toBe(baseTime);
    expect(r.offsetOf(stamp)).toBeCloseTo(offset, digits);
  });

  it("without a StartTime line, the first interval starts the log", () => {
    const { r } = readAll("3.5,1,1,HISTFAAA\n4.5,1,1,HISTFAAA\n");
    expect(r.startTime()).toBe(3.5);
    expect(r.offsetOf(4.5)).toBeCloseTo(1, 9);
  });

  it("reports bad lines with line number and reason, and keeps reading", () => {
    const { r, out } = readAll("0.1,1,1,HISTFAAA\n0.2,1,1\nabc,1,1,HISTFAAA\n0.3,1,1,DHISTwAAA\n0.4,1,1,hello\n0.5,1,1,HISTFAAA\n", "bad.hlog");
    // The DHIST line is a DoubleHistogram: the line reader passes it on to the payload decoder.
    expect(out.length).toBe(3);
    expect(r.skippedLines).toBe(3);
    expect(r.problems.map((p) => p.line)).toEqual([2, 3, 5]);
    expect(r.problems[0]!.reason).toMatch(/truncated/);
    expect(r.problems[1]!.reason).toMatch(/not a number/);
    expect(r.problems[2]!.reason).toMatch(/HIST/);
    expect(r.problems.every((p) => p.file === "bad.hlog")).toBe(true);
  });

  it("detects logs by name, header or data line", () => {
    expect(detectHlog("x.hlog", "")).toBe(true);
    expect(detectHlog("x.txt", "#[Histogram log format version 1.2]\n")).toBe(true);
    expect(detectHlog("x.txt", "0.127,1.007,2.769,HISTFAAAAEV42pNpmSzMwMC\n")).toBe(true);
    expect(detectHlog("x.txt", "Value Percentile TotalCount\n")).toBe(false);
  });
});

describe("HlogReader's data lines: the quick cut of plain lines equals the general split", () => {
  it("any separators (commas, spaces, tabs, runs of them), any numbers, with or without a tag", () => {
    const num = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constantFrom("1.000", "0", "-2.5", "1e3", "x", "", "1.0.0"));
    const sep = fc.constantFrom(",", ", ", " ", "\t", ",,", " ,", ",\t,");
    const payload = fc.oneof(
      fc.constant("HISTFAAAAB54nJNpmSzMwMDAxQABzFCaEUzOmQQmAE8nBB0="),
      fc.stringMatching(/^HIST[A-Za-z0-9+/=]{0,20}$/),
      fc.constantFrom("DHISTxyz", "nothist", "HIST,extra", "HIST x"),
    );
    fc.assert(
      fc.property(fc.option(fc.stringMatching(/^[A-Za-z0-9_]{0,6}$/)), num, num, num, payload, fc.array(sep, { minLength: 3, maxLength: 3 }), (tag, a, b, c, p, [s1, s2, s3]) => {
        const line = `${tag !== null ? `Tag=${tag},` : ""}${a}${s1}${b}${s2}${c}${s3}${p}`;
        // The general way, as the reader does for lines that are not plain.
        const rest = tag !== null ? line.slice(line.search(/[,\s]/) + 1).trimStart() : line;
        const fields = rest.split(/[,\s]+/).filter((f) => f !== "");
        const got = new HlogReader("x.hlog").readLine(line, 1);
        // Java's Scanner grammar for these: decimal numbers (no hex integers, no empty field).
        const num = (f: string) => (/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(f) ? Number(f) : NaN);
        const ok =
          fields.length === 4 &&
          Number.isFinite(num(fields[0]!)) &&
          num(fields[0]!) <= 2 ** 63 &&
          Number.isFinite(num(fields[1]!)) &&
          num(fields[1]!) >= 0 &&
          Number.isFinite(num(fields[2]!)) &&
          (fields[3]!.startsWith("HIST") || fields[3]!.startsWith("DHIST"));
        if (!ok) return got === null;
        return (
          got !== null &&
          got.tag === (tag ?? "") &&
          got.rawStart === num(fields[0]!) &&
          got.length === num(fields[1]!) &&
          got.maxColumn === num(fields[2]!) &&
          got.payload === fields[3]
        );
      }),
      { numRuns: 3000 },
    );
  });
});

// ---- Numbers and timestamps as HdrHistogram Java's reader takes them ----

const TOKENS = [
  "5",
  "+5",
  "-5",
  "5.",
  ".5",
  "-.5",
  "1e3",
  "1E+3",
  "1.5e-3",
  "0x1.8p3",
  "-0x.8p1",
  "0x1.0",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "1_000",
  "1.0.0",
  "e3",
  "1e",
  "abc",
  "12345678901234567890",
  "9223372036854775807",
  "1e400",
];

function fixtureWithStart(second: string): string {
  const ivs = [0, 1, 2].map((i) => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    h.recordValue(1000 * (i + 1));
    return { start: i, length: 1, histogram: h };
  });
  return writeHlog(ivs, { startText: (i, w) => (i === 1 ? second : w) });
}

describe("numbers and timestamps", () => {
  it("a 20-digit start timestamp is refused with file, line and reason; the other lines load", () => {
    const text = fixtureWithStart("12345678901234567890");
    const ing = new HlogIngest("big.hlog");
    ing.push(text);
    const r = ing.finish();
    const line = text.split("\n").findIndex((l) => l.startsWith("12345678901234567890")) + 1;
    expect(r.problems[0]).toEqual({ file: "big.hlog", line, reason: expect.stringMatching(/start timestamp "12345678901234567890…?" is beyond 2\^63 seconds/) });
    expect(r.series[0]!.intervals!.n).toBe(2);
    expect(Math.max(...r.series[0]!.intervals!.offsets.subarray(0, 2))).toBeLessThan(10);
  });

  it("fields Java's Scanner does not read as numbers are refused, hex integers included", () => {
    for (const bad of ["0x10", "1_000", "1.0.0"]) {
      const { r, out } = readAll(`0.1,1,1,HISTFAAA\n${bad},1,1,HISTFAAA\n0.2,${bad},1,HISTFAAA\n0.3,1,${bad},HISTFAAA\n`);
      expect(out.length).toBe(1);
      expect(r.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    }
  });
});

const JAR = process.env.HDRHISTOGRAM_JAR ?? path.join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0 && spawnSync("javac", ["-version"], { stdio: "ignore" }).status === 0 && existsSync(JAR);

const JAVA = `
import org.HdrHistogram.*;
import java.io.*;
import java.util.*;
public class NumberRef {
  public static void main(String[] a) throws Exception {
    if (a[0].equals("tokens")) {
      // As HistogramLogScanner reads the first fields.
      Scanner s = new Scanner(System.in).useLocale(Locale.US).useDelimiter("[ ,\\\\r\\\\n]");
      while (s.hasNext()) {
        if (s.hasNextDouble()) System.out.println("number " + s.nextDouble());
        else System.out.println("refused " + s.next());
      }
    } else {
      HistogramLogReader r = new HistogramLogReader(new File(a[1]));
      int n = 0;
      while (r.nextIntervalHistogram() != null) n++;
      System.out.println("intervals " + n);
    }
  }
}
`;

describe.skipIf(!haveJava)("numbers and timestamps against HdrHistogram Java", () => {
  const dir = haveJava ? mkdtempSync(path.join(tmpdir(), "hdr-numbers-")) : "";
  const compile = () => {
    writeFileSync(path.join(dir, "NumberRef.java"), JAVA);
    const c = spawnSync("javac", ["-cp", JAR, "-d", dir, path.join(dir, "NumberRef.java")], { encoding: "utf8" });
    expect(c.status, c.stderr).toBe(0);
  };
  const run = (args: string[], input?: string) => {
    const j = spawnSync("java", ["-cp", `${JAR}${path.delimiter}${dir}`, "NumberRef", ...args], { encoding: "utf8", input });
    expect(j.status, j.stderr).toBe(0);
    return j.stdout.trim().split("\n");
  };

  it("parseJavaDouble takes exactly the tokens java.util.Scanner's nextDouble takes, with its values", () => {
    compile();
    const out = run(["tokens"], TOKENS.join(",") + "\n");
    expect(out).toHaveLength(TOKENS.length);
    TOKENS.forEach((t, i) => {
      const [kind, value] = out[i]!.split(" ");
      const mine = parseJavaDouble(t);
      if (kind === "refused") expect(mine, t).toBeNull();
      else expect(mine, t).toBe(Number(value));
    });
  });

  it("Java's reader stops at the 20-digit timestamp: that line is what both refuse", () => {
    compile();
    const file = path.join(dir, "big.hlog");
    // The fixture's timestamps are relative to its StartTime (2026), which Java adds before comparing with 2^63.
    for (const [second, javaCount] of [
      ["12345678901234567890", 1],
      ["9223372036854775807", 1],
      ["9223370000000000000", 3],
    ] as const) {
      const text = fixtureWithStart(second);
      writeFileSync(file, text);
      expect(run(["log", file]), second).toEqual([`intervals ${javaCount}`]);
      const ing = new HlogIngest("big.hlog");
      ing.push(text);
      const r = ing.finish();
      expect(r.series[0]!.intervals!.n, second).toBe(javaCount === 1 ? 2 : 3);
      expect(r.problems.length > 0, second).toBe(javaCount === 1);
    }
  });
});

describe("parseJavaDouble on plain decimals", () => {
  it("is Number(text) exactly, for every number of digits and place of the point", () => {
    // Up to 15 digits take a short path of their own; longer ones the general one. Number() is
    // the correctly rounded value, as Java's Double.parseDouble is.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,19}$/), fc.integer({ min: -1, max: 19 }), (digits, at) => {
        const text = at < 0 || at > digits.length ? digits : `${digits.slice(0, at)}.${digits.slice(at)}`;
        expect(Object.is(parseJavaDouble(text), Number(text)), text).toBe(true);
      }),
      { numRuns: 3000 },
    );
    for (const t of ["0.000", "5.", ".5", "000123.4500", "999999999999999", "9007199254740993", "0.1", "86399.000", "1e3", "+1.5", "-0.0"]) {
      expect(Object.is(parseJavaDouble(t), Number(t)), t).toBe(true);
    }
    for (const t of [".", "", "1.2.3", "1,5", "１"]) expect(parseJavaDouble(t), t).toBeNull();
  });
});
