// Percentile-distribution text: HdrHistogram's outputPercentileDistribution (plain text and CSV,
// Java, C and wrk2 flavours) and wrk2 `--latency` output, read back into rows plus a histogram
// rebuilt from them.
//
// Plain text, Java ("%12.{d}f %2.12f %10d %14.2f" rows, last row without the last column):
//        Value     Percentile TotalCount 1/(1-Percentile)
//
//         0.02 0.000000000000        356           1.00
//      1803.55 1.000000000000      48761
// #[Mean    =        67.81, StdDeviation   =       258.95]
// #[Max     =      1803.55, Total count    =        48761]
// #[Buckets =           21, SubBuckets     =          256]
//
// Plain text, HdrHistogram_c as in wrk2 ("%12.3f %12f %12lld %12.2f", the last column "inf" at
// 100%, the footer's Max the raw recorded max rather than its bucket's top):
//        Value   Percentile   TotalCount 1/(1-Percentile)
//       64.767     1.000000      3477000          inf
//
// CSV: "Value","Percentile","TotalCount","1/(1-Percentile)" then `v,p,count,x` rows, the last
// `…,Infinity`, and no footer. wrk2 --latency output holds the plain-text C table after a line
// "Detailed Percentile spectrum:". Values are taken to be ms (what wrk2 and Java's
// HistogramLogProcessor print by default).
import { build, type Histogram } from "hdr-histogram-js";
import type { LoadProblem, Unit } from "../core/types";
import type { HdrFormat } from "./source";

export interface PercentileRow {
  /** As printed: the file's display unit (usually ms). */
  value: number;
  /** Fraction 0..1. */
  percentile: number;
  totalCount: number;
}

export interface ParsedPercentileFile {
  kind: "hgrm" | "wrk2";
  rows: PercentileRow[];
  footer: {
    mean?: number;
    stdDeviation?: number;
    max?: number;
    totalCount?: number;
    buckets?: number;
    subBuckets?: number;
  };
  /**
   * Histogram rebuilt from the rows: for each row, (totalCount - previous totalCount) recorded at
   * the row's value scaled to an integer (value × scale: 1 when every value is whole, 1000 for up
   * to 3 decimals that are not trailing zeros, 10^6 for more). The value recorded is the top of the histogram bucket whose top is nearest to
   * the scaled printed value, because a printed row value is HdrHistogram's highestEquivalentValue
   * of a bucket: so getValueAtPercentile at a row's percentile gives back the printed value
   * (exactly when the file came from a same-shaped histogram, within 0.1% otherwise). The last
   * row's counts are recorded at the footer's Max when it fits in that row's bucket, so the
   * histogram's (raw) maxValue is the footer's Max.
   */
  histogram: Histogram;
  /** Unit of histogram values: the file's values are taken as ms, so scale 1000 gives "us" (1: "ms"). */
  histogramUnit: Unit;
  problems: LoadProblem[];
}

const CSV_HEADER = /^\s*"Value"\s*,\s*"Percentile"\s*,\s*"TotalCount"\s*,\s*"1\/\(1-Percentile\)"\s*$/;
const PLAIN_HEADER = /^\s*Value\s+Percentile\s+TotalCount\s+1\/\(1-Percentile\)\s*$/;
const WRK2_SPECTRUM = /^\s*Detailed Percentile spectrum:\s*$/;
// Leading white space that stays on its line: with the m flag `^` matches at every line start,
// and `\s*` (which takes line breaks) rescanned all following blank lines from each of them,
// O(n²) in blank lines (64 K of them: seconds; found by fuzzing). \u2028/\u2029 end a line
// for `^` too, so they are left out as well.
const WRK2_MARKERS = [
  /^[^\S\r\n\u2028\u2029]*Detailed Percentile spectrum:/m,
  /^[^\S\r\n\u2028\u2029]*Latency Distribution \(HdrHistogram/m,
  /^Running \d+(\.\d+)?[a-z]* test @ /m,
];

/** Which percentile-distribution flavour `head` (the start of a file) is, or null. */
export function detectPercentileFile(name: string, head: string): "hgrm" | "wrk2" | null {
  void name; // the content decides: .hgrm, .txt and .log names all occur for both flavours
  const text = head.replace(/^\uFEFF/, "");
  if (WRK2_MARKERS.some((re) => re.test(text))) return "wrk2";
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.some((l) => PLAIN_HEADER.test(l) || CSV_HEADER.test(l))) return "hgrm";
  return null;
}

/** The registry's entry for percentile distributions and wrk2 output (formats/detect.ts); the engine reads them whole. */
export const percentileFormat: HdrFormat = {
  id: "percentiles",
  nameMatch: (name) => /\.hgrm$/i.test(name),
  detect: (name, head) => detectPercentileFile(name, head) !== null,
};

/** Bad rows listed one by one; past this, only their number. */
const MAX_ROW_PROBLEMS = 100;
/** Largest printed value (ms) that still scales to a safe integer at 10^6 per unit. */
const MAX_VALUE = 9e9;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INFINITE = /^[+]?(inf|infinity)$/i;

/** Digits printed after the decimal point (0 for "12", 3 for "0.189"). */
function decimalsOf(token: string): number {
  const m = /\.(\d*)/.exec(token.replace(/[eE].*$/, ""));
  return m ? m[1].length : 0;
}

/** Decimals that are not trailing zeros ("282111.000" → 0, "0.250" → 2); exponents counted ("1.5e-3" → 4). */
function significantDecimalsOf(token: string): number {
  const m = /^[+-]?\d*(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(token);
  if (!m) return decimalsOf(token);
  return Math.max(0, (m[1] ?? "").replace(/0+$/, "").length - Number(m[2] ?? 0));
}

interface RawRow extends PercentileRow {
  line: number;
  decimals: number;
  significantDecimals: number;
}

type RowResult = { ok: true; row: RawRow } | { ok: false; reason: string };

function parseRow(line: string, lineNo: number, csv: boolean): RowResult {
  const fields = csv ? line.split(",").map((f) => f.trim()) : line.trim().split(/\s+/);
  if (fields.length < 3 || fields.length > 4) {
    return { ok: false, reason: `not a percentile row: expected "value percentile totalCount [1/(1-percentile)]", got ${JSON.stringify(line.trim().slice(0, 80))}` };
  }
  const [v, p, c, x] = fields;
  if (!NUMBER.test(v)) return { ok: false, reason: `value ${JSON.stringify(v)} is not a number` };
  if (!NUMBER.test(p)) return { ok: false, reason: `percentile ${JSON.stringify(p)} is not a number` };
  if (!/^\d+$/.test(c)) return { ok: false, reason: `total count ${JSON.stringify(c)} is not a non-negative integer` };
  if (x !== undefined && !NUMBER.test(x) && !INFINITE.test(x)) {
    return { ok: false, reason: `1/(1-percentile) ${JSON.stringify(x)} is neither a number nor inf` };
  }
  const value = Number(v);
  const percentile = Number(p);
  const totalCount = Number(c);
  if (!(value >= 0) || !Number.isFinite(value)) return { ok: false, reason: `value ${v} is negative or not finite` };
  if (value > MAX_VALUE) return { ok: false, reason: `value ${v} is too large (over ${MAX_VALUE})` };
  if (!(percentile >= 0 && percentile <= 1 + 1e-9)) return { ok: false, reason: `percentile ${p} is outside 0..1` };
  if (!Number.isSafeInteger(totalCount)) return { ok: false, reason: `total count ${c} is too large` };
  return { ok: true, row: { value, percentile: Math.min(percentile, 1), totalCount, line: lineNo, decimals: decimalsOf(v), significantDecimals: significantDecimalsOf(v) } };
}

type Footer = ParsedPercentileFile["footer"];
const FOOTER_KEYS: Record<string, keyof Footer> = {
  mean: "mean",
  stddeviation: "stdDeviation",
  max: "max",
  "total count": "totalCount",
  buckets: "buckets",
  subbuckets: "subBuckets",
};

/** Reads "#[Key = number, Key = number]" (line `lineNo`, noted per key in `at`); returns whether the line held any footer key. */
function parseFooterLine(line: string, lineNo: number, footer: Footer, at: Partial<Record<keyof Footer, number>>): boolean {
  const m = /^\s*#\[(.*)\]\s*$/.exec(line);
  if (!m) return false;
  let found = false;
  for (const part of m[1].split(",")) {
    // indexOf, not a regex: a lazy key pattern and \s* both taking spaces backtracked
    // quadratically on a long run of spaces (found by fuzzing).
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!/^[A-Za-z][A-Za-z ]*$/.test(name) || /\s/.test(value)) continue;
    const key = FOOTER_KEYS[name.replace(/ +/g, " ").toLowerCase()];
    if (!key || !NUMBER.test(value)) continue;
    footer[key] = Number(value);
    at[key] = lineNo;
    found = true;
  }
  return found;
}

/** The bucket-top helpers of the library's JS histograms (not in its public typings). */
interface BucketMath {
  lowestEquivalentValue(value: number): number;
  highestEquivalentValue(value: number): number;
}

/** The integer to record so the bucket top is as near as the histogram allows to `v`. */
function nearestBucketTop(h: BucketMath, v: number): number {
  const hi = h.highestEquivalentValue(v);
  if (hi === v) return v;
  const lo = h.lowestEquivalentValue(v);
  if (lo === 0) return hi;
  const below = lo - 1; // top of the bucket under v's
  return v - below < hi - v ? below : hi;
}

/** wrk --latency output: four percentiles, no spectrum; the app ships a script that makes wrk print it. */
export const WRK_LATENCY_REASON =
  "statistics, not samples: wrk --latency output (an average, a max and four percentiles: 50%, 75%, 90%, 99%); run wrk with the app's wrk-spectrum.lua script " +
  "(wrk -s wrk-spectrum.lua …, served beside the app and kept in its public/ folder) to print the whole spectrum wrk recorded, and load that output";

export function parsePercentileFile(name: string, text: string): ParsedPercentileFile {
  const problems: LoadProblem[] = [];
  const problem = (line: number | null, reason: string) => problems.push({ file: name, line, reason });
  const footer: Footer = {};
  const footerLine: Partial<Record<keyof Footer, number>> = {};
  const histogram = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  const src = text.replace(/^\uFEFF/, "");
  const kind = detectPercentileFile(name, src.slice(0, 64 * 1024)) ?? "hgrm";
  const lines = src.split(/\r\n|\r|\n/);
  const rows: RawRow[] = [];

  // Where the table starts: after the header (wrk2: the header after "Detailed Percentile spectrum:").
  let start = -1;
  let csv = false;
  let from = 0;
  if (kind === "wrk2") {
    const spectrum = lines.findIndex((l) => WRK2_SPECTRUM.test(l));
    if (spectrum < 0) {
      // wrk (not wrk2) prints the same banner and, with --latency, only four percentiles.
      const four = lines.findIndex((l) => /^\s*Latency Distribution\s*$/.test(l));
      if (four >= 0) problem(four + 1, WRK_LATENCY_REASON);
      else problem(null, 'no "Detailed Percentile spectrum:" section (run wrk2 with --latency)');
    } else from = spectrum + 1;
  }
  for (let i = from; i < lines.length && start < 0; i++) {
    if (PLAIN_HEADER.test(lines[i])) start = i + 1;
    else if (CSV_HEADER.test(lines[i])) {
      start = i + 1;
      csv = true;
    }
  }
  if (start < 0) {
    if (kind === "wrk2" && from === 0) return finish();
    problem(null, 'no "Value Percentile TotalCount 1/(1-Percentile)" header line; reading rows from the top');
    start = from;
    csv = lines.slice(start).some((l) => /^\s*[\d.]+\s*,/.test(l));
  }

  let inFooter = false;
  let badRows = 0;
  const badRow = (line: number, reason: string) => {
    if (++badRows <= MAX_ROW_PROBLEMS) problem(line, reason);
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i].trimEnd();
    const lineNo = i + 1;
    if (line.trim() === "") continue;
    if (line.trimStart().startsWith("#")) {
      if (parseFooterLine(line, lineNo, footer, footerLine)) inFooter = true;
      continue; // other comments ("#[StartTime: …]") are not rows
    }
    // Text after the footer (wrk2's request summary, a second spectrum) is not ours.
    if (inFooter || /^\s*-{3,}\s*$/.test(line)) break;
    const r = parseRow(line, lineNo, csv);
    if (!r.ok) {
      badRow(lineNo, r.reason);
      continue;
    }
    const prev = rows[rows.length - 1];
    if (prev && r.row.totalCount < prev.totalCount) {
      badRow(lineNo, `total count ${r.row.totalCount} is below the previous row's ${prev.totalCount}; row skipped`);
      continue;
    }
    if (prev && r.row.value < prev.value) {
      badRow(lineNo, `value ${r.row.value} is below the previous row's ${prev.value}; row skipped`);
      continue;
    }
    if (prev && r.row.percentile < prev.percentile) {
      badRow(lineNo, `percentile ${r.row.percentile} is below the previous row's ${prev.percentile}; row skipped`);
      continue;
    }
    rows.push(r.row);
  }

  if (badRows > MAX_ROW_PROBLEMS) problem(null, `${badRows - MAX_ROW_PROBLEMS} more bad rows not listed`);
  if (rows.length === 0) {
    problem(null, "no percentile rows found");
    return finish();
  }
  const last = rows[rows.length - 1];
  // A count or a latency is never negative: such a footer is damaged, and its Max must not reach
  // the histogram (the library refuses negative values with its own words, naming no line).
  for (const key of ["max", "totalCount"] as const) {
    const v = footer[key];
    if (v !== undefined && !(v >= 0)) {
      problem(footerLine[key] ?? null, `footer ${key === "max" ? "Max" : "Total count"} ${v} is negative: ignored`);
      delete footer[key];
    }
  }
  if (!csv && !inFooter) {
    problem(null, "no #[Mean …] / #[Max …, Total count …] footer after the rows: the file may be truncated");
  }
  if (footer.totalCount !== undefined && footer.totalCount !== last.totalCount) {
    problem(footerLine.totalCount ?? null, `footer Total count ${footer.totalCount} differs from the last row's total count ${last.totalCount}`);
  }

  // Scale printed values to integers: µs for up to 3 decimals of ms, ns beyond. But the stated
  // Max must come back as the max, which the app shows as the top of its bucket: Java prints as
  // many decimals as the histogram's significant digits, so a µs histogram printed with ratio 1
  // reads "282111.000", and scaled by 1000 its Max fell in a bucket whose top is 282329.087.
  // When the Max scaled so is not a bucket top, a coarser scale that still holds every printed
  // value exactly (decimals that are only trailing zeros do not count) and makes it one is used.
  const decimals = rows.reduce((d, r) => Math.max(d, r.decimals), 0);
  const significant = Math.max(
    rows.reduce((d, r) => Math.max(d, r.significantDecimals), 0),
    footer.max !== undefined ? significantDecimalsOf(String(footer.max)) : 0,
  );
  let scale = decimals <= 3 ? 1e3 : 1e6;
  if (footer.max !== undefined) {
    const bucketTop = (sc: number) => {
      const v = Math.round(footer.max! * sc);
      return (histogram as unknown as BucketMath).highestEquivalentValue(v) === v;
    };
    if (!bucketTop(scale)) {
      const coarser = [1e3, 1].filter((sc) => sc < scale && significant <= Math.log10(sc));
      scale = coarser.find(bucketTop) ?? scale;
    }
  }
  const math = histogram as unknown as BucketMath;
  const tops = rows.map((r) => nearestBucketTop(math, Math.round(r.value * scale)));
  let lastWithCount = 0;
  rows.forEach((r, i) => {
    if (r.totalCount > (i > 0 ? rows[i - 1].totalCount : 0)) lastWithCount = i;
  });
  // The footer's Max lies in the last row's bucket: at most that row's (rounded) value, above the
  // previous distinct value. C/wrk2 print the raw recorded max there, Java the bucket top.
  const below = rows.filter((r) => r.value < last.value).pop();
  const maxFits = footer.max !== undefined && footer.max <= last.value + 0.5 * 10 ** -decimals && (below === undefined || footer.max > below.value);
  if (footer.max !== undefined && !maxFits) {
    problem(footerLine.max ?? null, `footer Max ${footer.max} is outside the last row's bucket (value ${last.value})`);
  }
  let previous = 0;
  rows.forEach((r, i) => {
    const delta = r.totalCount - previous;
    previous = r.totalCount;
    if (delta <= 0) return;
    // Record the last counts at the footer's Max, so the histogram's max is the file's.
    const at = i === lastWithCount && maxFits ? Math.round(footer.max! * scale) : tops[i];
    histogram.recordValueWithCount(at, delta);
  });
  return finish(scale);

  function finish(scale = 1e3): ParsedPercentileFile {
    return {
      kind,
      rows: rows.map(({ value, percentile, totalCount }) => ({ value, percentile, totalCount })),
      footer,
      histogram,
      histogramUnit: scale === 1 ? "ms" : scale === 1e3 ? "us" : "ns",
      problems,
    };
  }
}
