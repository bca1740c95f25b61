// The command line against independent references: HdrHistogram Java's HistogramLogProcessor
// (when java and its jar are here) for `hgrm` and the .hgrm files, the values of known samples
// for the JSON, and the exit codes and messages a CI job relies on.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { build, type Histogram } from "hdr-histogram-js";
import { beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { sparseOf } from "../core/histogram";
import { decodeShare } from "../share";
import { loadMerged, mergeShare, type MergeHelpers } from "./load";
import { main } from "./main";
import type { JsonSeries } from "./report";

const root = path.resolve(__dirname, "../..");
const samples = path.resolve(root, "../../shared/samples/hdrhistogram");
const sharedSamples = existsSync(samples) ? samples : path.resolve("/work/shared/samples/hdrhistogram");
const haveSamples = existsSync(path.join(sharedSamples, "jHiccup-2.0.7S.logV2.hlog"));
const jar = process.env.HDRHISTOGRAM_JAR ?? path.resolve(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = existsSync(jar) && spawnSync("java", ["-version"]).status === 0;
const bin = path.join(root, "dist-cli/hdr-spectrum.mjs");

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stderrIsTTY: false });
  return { code, stdout, stderr };
}

/** A small log of `digits` significant digits with known samples. */
function smallLog(seed: number, digits: 2 | 3, intervals = 4, perInterval = 50, startMs = Date.UTC(2026, 0, 5, 10, 0, 0)): { text: string; values: number[] } {
  const rnd = mulberry32(seed);
  const values: number[] = [];
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: digits });
    for (let k = 0; k < perInterval; k++) {
      const v = 1000 + Math.floor(rnd() * 5_000_000);
      h.recordValue(v);
      values.push(v);
    }
    ivs.push({ start: i, length: 1, histogram: h });
  }
  return { text: writeHlog(ivs, { startMs }), values };
}

function java(args: string[]): string {
  const r = spawnSync("java", ["-cp", jar, "org.HdrHistogram.HistogramLogProcessor", ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

/** A 3-digit log of known samples (lognormal around `medianUs` µs, in ns) and the samples. */
function knownLog(seed: number, medianUs: number, intervals = 30, perInterval = 400): { text: string; values: number[] } {
  const rnd = mulberry32(seed);
  const values: number[] = [];
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < perInterval; k++) {
      const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
      const v = Math.max(1, Math.round(medianUs * 1000 * Math.exp(0.6 * z)));
      h.recordValue(v);
      values.push(v);
    }
    ivs.push({ start: i, length: 1, histogram: h });
  }
  return { text: writeHlog(ivs, { startMs: Date.UTC(2026, 0, 5, 10, 0, 0) }), values };
}

/**
 * HdrHistogram's value at a percentile, from the sorted samples: the highest equivalent of the
 * ceil(p·N)-th smallest, p taken a hair below itself as Java does (Math.nextAfter toward -∞),
 * so that 99.9 % of 24,000 is the 23,976th, not the 23,977th.
 */
function expectedAt(values: number[], p: number, layout: Histogram): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p >= 100 ? sorted.length : Math.max(1, Math.ceil((p / 100) * sorted.length * (1 - 1e-15)));
  return (layout as unknown as { highestEquivalentValue(v: number): number }).highestEquivalentValue(sorted[rank - 1]!);
}

const dir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-cli-"));
const runs = [
  { file: "sysA_2k.hlog", seed: 1, median: 200 },
  { file: "sysA_4k.hlog", seed: 2, median: 900 },
  { file: "sysB_2k.hlog", seed: 3, median: 150 },
  { file: "sysB_4k.hlog", seed: 4, median: 300 },
].map((r) => {
  const { text, values } = knownLog(r.seed, r.median);
  const p = path.join(dir, r.file);
  writeFileSync(p, text);
  return { ...r, path: p, values };
});

describe("report --json", () => {
  it("gives every series with the contract's fields, values of the known samples in the recorded unit", async () => {
    const r = await run(["report", "--json", ...runs.map((x) => x.path)]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { version: number; series: JsonSeries[]; sustainable: unknown[] };
    expect(j.version).toBe(1);
    expect(j.series.map((s) => [s.name, s.source, s.tag, s.config, s.throughput, s.kind, s.unit, s.verdict])).toEqual([
      ["sysA_2k", "sysA_2k.hlog", null, "sysA", 2000, null, "ns", null],
      ["sysA_4k", "sysA_4k.hlog", null, "sysA", 4000, null, "ns", null],
      ["sysB_2k", "sysB_2k.hlog", null, "sysB", 2000, null, "ns", null],
      ["sysB_4k", "sysB_4k.hlog", null, "sysB", 4000, null, "ns", null],
    ]);
    const layout = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    j.series.forEach((s, i) => {
      expect(s.count).toBe(runs[i]!.values.length);
      expect(Object.keys(s.percentiles).sort()).toEqual(["50", "90", "99", "99.9", "99.99", "99.999", "100"].sort());
      for (const p of [50, 90, 99, 99.9, 99.99, 99.999, 100]) expect(s.percentiles[String(p)], `${s.name} p${p}`).toBe(expectedAt(runs[i]!.values, p, layout));
    });
  });

  it("judges each series and each configuration's sustainable throughput", async () => {
    // sysA's median at 4k is ~0.9 ms: it fails p50 <= 0.5 ms; sysB passes at both throughputs.
    const r = await run(["report", "--json", "--require", "p50<=0.5ms", ...runs.map((x) => x.path)]);
    const j = JSON.parse(r.stdout) as { series: JsonSeries[]; sustainable: { config: string; maxThroughput: number | null }[]; sentence: string };
    expect(j.series.map((s) => s.verdict)).toEqual(["pass", "fail", "pass", "pass"]);
    expect(j.sustainable.map((s) => [s.config, s.maxThroughput])).toEqual([
      ["sysA", 2000],
      ["sysB", 4000],
    ]);
    expect(j.sentence).toMatch(/sysB sustains 4k\/s/);
  });

  it("takes the time window as HistogramLogProcessor's -start/-end: intervals starting in it", async () => {
    const r = await run(["report", "--json", "--start", "10", "--end", "19", runs[0]!.path]);
    const s = (JSON.parse(r.stdout) as { series: JsonSeries[] }).series[0]!;
    // Intervals start at 0, 1, … s after StartTime: 10 … 19 are ten of them.
    expect(s.count).toBe(10 * 400);
    const layout = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    expect(s.percentiles["99"]).toBe(expectedAt(runs[0]!.values.slice(10 * 400, 20 * 400), 99, layout));
  });

  it.skipIf(!haveSamples)("reads every HdrHistogram sample log: HdrHistogram's published total counts", async () => {
    const r = await run(["report", "--json", ...["jHiccup-2.0.7S.logV2.hlog", "jHiccup-2.0.6.logV1.hlog", "jHiccup-2.0.1.logV0.hlog"].map((f) => path.join(sharedSamples, f))]);
    expect(r.code, r.stderr).toBe(0);
    // Series are listed by configuration, throughput and name, as in the page: look them up by file.
    const bySource = Object.fromEntries((JSON.parse(r.stdout) as { series: JsonSeries[] }).series.map((s) => [s.source, s.count]));
    expect(bySource).toEqual({ "jHiccup-2.0.7S.logV2.hlog": 48761, "jHiccup-2.0.6.logV1.hlog": 65964, "jHiccup-2.0.1.logV0.hlog": 61256 });
  });

  it("--merge adds the histograms of the files of each configuration and throughput", async () => {
    const r = await run(["report", "--json", "--merge", runs[0]!.path, runs[2]!.path, path.join(dir, "again"), "--no-workers"].filter((a) => !a.endsWith("again")));
    const j = JSON.parse(r.stdout) as { series: JsonSeries[] };
    expect(j.series.map((s) => s.count)).toEqual([12000, 12000]);
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "hdr-spectrum-merge-")), "sysA_2k.hlog");
    writeFileSync(copy, readFileSync(runs[0]!.path));
    const m = JSON.parse((await run(["report", "--json", "--merge", runs[0]!.path, copy, runs[1]!.path])).stdout) as { series: JsonSeries[] };
    expect(m.series.map((s) => [s.name, s.count, s.throughput])).toEqual([
      ["sysA 2k/s", 24000, 2000],
      ["sysA 4k/s", 12000, 4000],
    ]);
    const layout = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    expect(m.series[0]!.percentiles["99.9"]).toBe(expectedAt([...runs[0]!.values, ...runs[0]!.values], 99.9, layout));
  });
});

describe("--merge with the files shared between threads", () => {
  // A stand-in for the helper threads: the same share merge, its result copied as a message would be.
  const sharers: MergeHelpers = { count: 1, merge: async (_h, paths, range) => structuredClone(await mergeShare(paths, range)) };
  const files = (digitsOf: (i: number) => 2 | 3) => {
    const d = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-shares-"));
    const values: Record<string, number[]> = { sysA: [], sysB: [] };
    const paths = Array.from({ length: 14 }, (_, i) => {
      const config = i % 3 === 0 ? "sysB" : "sysA";
      const { text, values: v } = smallLog(100 + i, digitsOf(i), 4, 50, Date.UTC(2026, 0, 5, 10, 0, 0) + i * 4000);
      values[config]!.push(...v);
      const p = path.join(d, String(i).padStart(2, "0"), `${config}_2k.hlog`);
      mkdirSync(path.dirname(p));
      writeFileSync(p, text);
      return p;
    });
    return { paths, values };
  };
  const summary = (l: Awaited<ReturnType<typeof loadMerged>>) =>
    l.store.series.map((s) => ({ name: s.name, source: s.source, mergedFrom: s.mergedFrom, timeline: s.coarseTimeline, startTime: s.startTime, counts: sparseOf(s.histogram) }));
  const range = { start: 2, end: null };

  it("gives the series, sources, counts and timeline that merging on one thread gives", async () => {
    const { paths, values } = files(() => 3);
    const one = await loadMerged(paths, range, null, false);
    const shared = await loadMerged(paths, range, null, false, sharers, 2);
    expect(summary(shared)).toEqual(summary(one));
    // Against the samples: intervals 2 and 3 of each file (the range), every file of each configuration.
    const inRange = (vs: number[]) => vs.filter((_, k) => k % 200 >= 100).length;
    expect(shared.store.series.map((s) => [s.name, s.histogram.totalCount])).toEqual([
      ["sysB 2k/s", inRange(values.sysB!)],
      ["sysA 2k/s", inRange(values.sysA!)],
    ]);
    expect(shared.store.series.map((s) => s.source)).toEqual(["5 files", "9 files"]);
  });

  it("files of one series in different layouts: the shares are merged again in order, the same as on one thread", async () => {
    const { paths } = files((i) => (i === 7 ? 2 : 3));
    const one = await loadMerged(paths, range, null, false);
    let asked = 0;
    const counting: MergeHelpers = { count: 1, merge: (h, p, r) => (asked++, sharers.merge(h, p, r)) };
    const shared = await loadMerged(paths, range, null, false, counting, 2);
    expect(asked).toBeGreaterThan(0);
    expect(summary(shared)).toEqual(summary(one));
    // A helper that fails: its shares are merged here.
    const failing: MergeHelpers = { count: 1, merge: () => Promise.reject(new Error("gone")) };
    expect(summary(await loadMerged(paths, range, null, false, failing, 2))).toEqual(summary(one));
  });

  it("files of one series in different layouts, the finer first: the sum is in the coarsest layout, as the page's merge makes it", async () => {
    // sysA's first file has 3 digits, its fifth (file 7) 2: the sum reads as the library's 2-digit histogram of every value.
    const { paths, values } = files((i) => (i === 7 ? 2 : 3));
    const merged = (await loadMerged(paths, { start: null, end: null }, null, false)).store.series.find((s) => s.name === "sysA 2k/s")!;
    const ref = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2 });
    for (const v of values.sysA!) ref.recordValue(v);
    expect(merged.histogram.numberOfSignificantValueDigits).toBe(2);
    expect(merged.histogram.totalCount).toBe(ref.totalCount);
    for (const p of [50, 99, 99.9, 100]) expect(merged.histogram.getValueAtPercentile(p)).toBe(ref.getValueAtPercentile(p));
  });
});

describe("report (Markdown)", () => {
  it("prints the page's Markdown with a link that opens the same series", async () => {
    const r = await run(["report", "--require", "p50<=0.5ms", "--link-base", "https://example.org/spectrum/", ...runs.map((x) => x.path)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\*\*At p50 ≤ 0\.5 ms, sysB sustains 4k\/s/);
    expect(r.stdout).toContain("Requirement: `p50<=0.5ms`");
    expect(r.stdout).toMatch(/\| sysA_4k \| .* \| ❌ fails at p50 \|/);
    const url = /\[Open this view\]\((https:\/\/example\.org\/spectrum\/#[^)]+)\)/.exec(r.stdout)?.[1];
    expect(url).toBeDefined();
    const d = decodeShare(url!);
    if (!d.ok) throw new Error(d.reason);
    expect(d.state.series.map((s) => [s.name, s.histogram.totalCount])).toEqual(runs.map((x) => [x.file.replace(".hlog", ""), x.values.length]));
    expect(d.state.view.requirement).toBe("p50<=0.5ms");
  });

  it("--compare: a candidate that is the baseline with every value doubled reads 2.0, worse, at every supported percentile", async () => {
    const d = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-compare-"));
    const base = knownLog(21, 300, 120, 500);
    const ivs = (k: number) =>
      Array.from({ length: 120 }, (_, i) => {
        const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
        for (const v of base.values.slice(i * 500, (i + 1) * 500)) h.recordValue(v * k);
        return { start: i, length: 1, histogram: h };
      });
    const A = path.join(d, "before.hlog");
    const B = path.join(d, "after.hlog");
    const C = path.join(d, "again.hlog");
    writeFileSync(A, writeHlog(ivs(1), { startMs: Date.UTC(2026, 0, 5, 10) }));
    writeFileSync(B, writeHlog(ivs(2), { startMs: Date.UTC(2026, 0, 5, 10) }));
    writeFileSync(C, writeHlog(ivs(1), { startMs: Date.UTC(2026, 0, 5, 10) }));
    const r = await run(["report", "--json", "--compare", A, A, B]);
    expect(r.code, r.stderr).toBe(0);
    const cmp = (
      JSON.parse(r.stdout) as {
        comparison: {
          baseline: string;
          pairs: {
            candidate: string;
            points: { percentile: number; ratio: number; low: number | null; high: number | null; verdict: string; judged: boolean }[];
            worse: number[];
          }[];
        };
      }
    ).comparison;
    expect(cmp.baseline).toBe("before");
    const pair = cmp.pairs.find((x) => x.candidate === "after")!;
    const supported = pair.points.filter((x) => x.low !== null);
    expect(supported.map((x) => x.percentile)).toEqual(expect.arrayContaining([50, 90, 99]));
    for (const x of supported) {
      // Doubling moves a value to a bucket of twice the width: the ratio is 2 within 3 digits.
      expect(Math.abs(x.ratio / 2 - 1)).toBeLessThan(2e-3);
      expect(x.low!).toBeLessThanOrEqual(2 * (1 + 2e-3));
      expect(x.high!).toBeGreaterThanOrEqual(2 * (1 - 2e-3));
      // Judged where the values above come from 10+ separate stretches of time on each side.
      expect(x.verdict).toBe(x.judged ? "worse" : "unknown");
    }
    const judged = supported.filter((x) => x.judged);
    expect(judged.map((x) => x.percentile)).toEqual(expect.arrayContaining([50, 90, 99]));
    expect(pair.worse).toEqual(judged.map((x) => x.percentile));
    // The Markdown has the page's comparison section; check fails on the worse candidate only.
    const md = await run(["report", "--compare", "before", A, B]);
    expect(md.stdout).toMatch(/### after vs before/);
    expect(md.stdout).toMatch(/^\| p50 \| [^|]+ \| [^|]+ \| 2(\.0+)?×? \| [^|]+ \| ❌ worse \|$/m);
    const worse = await run(["check", "--compare", A, A, B]);
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stdout).toMatch(/^WORSE after at p50/m);
    const same = await run(["check", "--compare", A, A, C]);
    expect(same.code, same.stderr + same.stdout).toBe(0);
    expect(same.stdout).toMatch(/^not worse again/m);
    // Beyond p99.9 the 60,000 values leave too few above: said, and with --strict it fails.
    expect(same.stdout).toMatch(/^ {2}not judged: .*p99\.999 \(\S+'s [\d,]+ values are too few for p99\.999 \(10 above it needed\); about \d+ minutes of this run would\)/m);
    const strict = await run(["check", "--strict", "--compare", A, A, C]);
    expect(strict.code, strict.stderr + strict.stdout).toBe(1);
    expect(strict.stdout).toMatch(/^NOT JUDGED again \(--strict\)/m);
    const unknown = await run(["report", "--compare", "nothing", A, B]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--compare nothing: no such series or file/);
  });
});

describe("report --compare: the headline", () => {
  /** A run in ns with a GC-like pause every 8 intervals and the queue it leaves behind (values wait for it to drain). */
  function stallLog(seed: number, medianUs: number, stalls: boolean, digits: 2 | 3 = 3): { text: string; values: number[] } {
    const rnd = mulberry32(seed);
    const values: number[] = [];
    const ivs = Array.from({ length: 200 }, (_, i) => {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: digits });
      let queue = stalls && i % 8 === 4 ? 150_000_000 : 0;
      for (let k = 0; k < 300; k++) {
        const z = Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
        const v = Math.max(1, Math.round(medianUs * 1000 * Math.exp(0.4 * z))) + queue;
        queue = Math.max(0, queue - 3_000_000);
        h.recordValue(v);
        values.push(v);
      }
      return { start: i, length: 1, histogram: h };
    });
    return { text: writeHlog(ivs, { startMs: Date.UTC(2026, 0, 5, 10) }), values };
  }
  const d = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-headline-"));
  const A = path.join(d, "sysA_4k.hlog");
  const B = path.join(d, "sysB_4k.hlog");
  const a = stallLog(31, 900, true);
  const b = stallLog(32, 200, false);
  writeFileSync(A, a.text);
  writeFileSync(B, b.text);
  type Out = { series: JsonSeries[]; comparison: { pairs: { candidate: string; headline: Record<string, number | string | null>; headlineText: string }[] } };

  it("states the requirement's highest supported percentile, values equal to the series' percentiles there; else p99", async () => {
    // 60,000 values a side: p99.99 has 6 above it (not supported), p99.9 has 60.
    const r = await run(["report", "--json", "--require", "p50<=1ms, p99.9<=20ms, p99.99<=50ms, max<=200ms", "--compare", "sysA_4k", A, B]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    const h = out.comparison.pairs[0]!.headline;
    const series = (n: string) => out.series.find((x) => x.name === n)!;
    expect(Object.keys(h).sort()).toEqual(["baseline", "basis", "candidate", "high", "low", "percentile", "ratio", "verdict"]);
    expect(h.percentile).toBe(99.9);
    expect(h.baseline).toBe(series("sysA_4k").percentiles["99.9"]);
    expect(h.candidate).toBe(series("sysB_4k").percentiles["99.9"]);
    expect(h.verdict).toBe("better");
    expect(["values", "events"]).toContain(h.basis);
    // The headline in plain words, the same string as the Markdown's first line.
    expect(out.comparison.pairs[0]!.headlineText).toMatch(/^sysB_4k is \d+× faster than sysA_4k at p99\.9: [\d.]+ ms → [\d.]+ ms \(.+\)$/);
    expect(h.low as number).toBeLessThanOrEqual(h.ratio as number);
    expect(h.high as number).toBeGreaterThanOrEqual(h.ratio as number);
    // Without a requirement: p99.
    const plain = JSON.parse((await run(["report", "--json", "--compare", "sysA_4k", A, B])).stdout) as Out;
    expect(plain.comparison.pairs[0]!.headline.percentile).toBe(99);
    expect(plain.comparison.pairs[0]!.headline.baseline).toBe(series("sysA_4k").percentiles["99"]);
    // A requirement percentile the table does not hold: the value is HdrHistogram's own there.
    const odd = JSON.parse((await run(["report", "--json", "--require", "p99.5<=20ms", "--compare", "sysA_4k", A, B])).stdout) as Out;
    const whole = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const v of a.values) whole.recordValue(v);
    expect(odd.comparison.pairs[0]!.headline.percentile).toBe(99.5);
    expect(odd.comparison.pairs[0]!.headline.baseline).toBe(whole.getValueAtPercentile(99.5));
    // Logs at 2 significant digits (jHiccup's): still the series' own values, as the table's.
    const A2 = path.join(d, "sysA_2k.hlog");
    const B2 = path.join(d, "sysB_2k.hlog");
    writeFileSync(A2, stallLog(33, 900, true, 2).text);
    writeFileSync(B2, stallLog(34, 200, false, 2).text);
    const coarse = JSON.parse((await run(["report", "--json", "--compare", "sysA_2k", A2, B2])).stdout) as Out;
    const hc = coarse.comparison.pairs[0]!.headline;
    expect(hc.baseline).toBe(coarse.series.find((x) => x.name === "sysA_2k")!.percentiles["99"]);
    expect(hc.candidate).toBe(coarse.series.find((x) => x.name === "sysB_2k")!.percentiles["99"]);
  });

  it("leads the Markdown; --out writes a ratio chart per pair and latency on a log axis when it spans more than two decades", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-headline-out-"));
    const r = await run(["report", "--require", "p99.9<=20ms", "--compare", "sysA_4k", "--out", out, A, B]);
    expect(r.code, r.stderr).toBe(0);
    const first = r.stdout.split("\n")[0]!;
    const json = JSON.parse((await run(["report", "--json", "--require", "p99.9<=20ms", "--compare", "sysA_4k", A, B])).stdout) as Out;
    expect(first).toBe(`**${json.comparison.pairs[0]!.headlineText.replace(/([\\|*`[\]<>#])/g, "\\$1")}**`);
    expect(first).toMatch(/^\*\*sysB_4k is \d+× faster than sysA_4k at p99\.9: [\d.]+ ms → [\d.]+ ms \(.+\)\*\*$/);
    expect(readdirSync(out).filter((f) => f.startsWith("ratio-"))).toEqual(["ratio-sysA_4k-vs-sysB_4k.svg"]);
    const ratio = readFileSync(path.join(out, "ratio-sysA_4k-vs-sysB_4k.svg"), "utf8");
    expect(ratio).toContain('data-testid="ratio-chart"');
    expect(ratio).toMatch(/p99\.9: [\d.]+ ms → [\d.]+ ms/);
    // 0.1 ms to 150 ms: more than two decades.
    expect(readFileSync(path.join(out, "percentile-plot.svg"), "utf8")).toContain("Latency (ms), log");
    expect(readFileSync(path.join(out, "max-over-time.svg"), "utf8")).toContain("Max per interval (ms, log)");
    const lin = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-headline-lin-"));
    expect((await run(["report", "--log-axis", "off", "--out", lin, A, B])).code).toBe(0);
    expect(readFileSync(path.join(lin, "percentile-plot.svg"), "utf8")).not.toContain("Latency (ms), log");
    expect((await run(["report", "--log-axis", "sometimes", A])).code).toBe(2);
  });
});

describe("check: exit codes", () => {
  it("0 when every series passes, 1 when one fails, with the failing percentile", async () => {
    const pass = await run(["check", "--require", "p50<=5ms, max<=1s", ...runs.map((x) => x.path)]);
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout.split("\n").filter((l) => l.startsWith("pass "))).toHaveLength(4);
    const fail = await run(["check", "--require", "p50<=0.5ms", ...runs.map((x) => x.path)]);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/^FAIL sysA_4k: p50 \d/m);
  });

  it("2 when a file cannot be read: file, line and reason on stderr, nothing on stdout", async () => {
    const lines = readFileSync(runs[0]!.path, "utf8").split("\n");
    const n = lines.findIndex((l) => /HIST/.test(l)) + 3;
    lines[n - 1] = lines[n - 1]!.replace(/,HIST[A-Za-z0-9+/]{8}/, ",HISTxxxxxxxx");
    const damaged = path.join(dir, "sysC_2k.hlog");
    writeFileSync(damaged, lines.join("\n"));
    const r = await run(["check", "--require", "p50<=5ms", runs[1]!.path, damaged]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`sysC_2k.hlog:${n}: `);
    const garbage = path.join(dir, "notes.bin");
    writeFileSync(garbage, Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 7]));
    const g = await run(["report", "--json", garbage]);
    expect(g.code).toBe(2);
    expect(g.stdout).toBe("");
    expect(g.stderr).toMatch(/^notes\.bin: /);
    expect((await run(["check", "--require", "p50<=5ms", path.join(dir, "missing.hlog")])).stderr).toMatch(/missing\.hlog: no such file/);
  });

  it("2 on a usage error: no requirement, a bad requirement, an unknown option", async () => {
    expect((await run(["check", runs[0]!.path])).code).toBe(2);
    const bad = await run(["check", "--require", "p99<=fast", runs[0]!.path]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--require/);
    expect((await run(["report", "--frobnicate", runs[0]!.path])).stderr).toMatch(/unknown option --frobnicate/);
  });

  it("every command has --help", async () => {
    for (const c of ["report", "check", "hgrm", "watch"]) {
      const r = await run([c, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: hdr-spectrum ${c}`));
    }
    expect((await run(["--help"])).stdout).toMatch(/report FILES/);
  });
});

// HistogramLogProcessor's argument sets: the same output byte for byte.
const ARGUMENT_SETS: [string, string[]][] = [
  ["jHiccup-2.0.7S.logV2.hlog", []],
  ["jHiccup-2.0.7S.logV2.hlog", ["-start", "10", "-end", "40"]],
  ["jHiccup-2.0.7S.logV2.hlog", ["-start", "30.5", "-outputValueUnitRatio", "1000"]],
  ["jHiccup-2.0.6.logV1.hlog", ["-end", "25", "-outputValueUnitRatio", "1"]],
  ["jHiccup-2.0.1.logV0.hlog", []],
  ["jHiccup-2.0.1.logV0.hlog", ["-start", "40.2", "-end", "70"]],
  ["jHiccup-no-header-2.0.7S.logV2.hlog", ["-start", "10", "-end", "60"]],
  // Its BaseTime is 156 s before its StartTime: the intervals start at about -156 s.
  ["jHiccup-with-basetime-2.0.7S.logV2.hlog", ["-start", "-150", "-end", "-120"]],
  ["tagged-Log.logV2.hlog", []],
  ["tagged-Log.logV2.hlog", ["-tag", "A"]],
  ["tagged-Log.logV2.hlog", ["-tag", "A", "-start", "20", "-end", "50.5", "-outputValueUnitRatio", "1"]],
  ["bug-whitespace.hlog", ["-tag", "bo-global-http", "-outputValueUnitRatio", "1000"]],
];

describe.skipIf(!haveJava || !haveSamples)("hgrm: HistogramLogProcessor byte for byte", () => {
  it.each(ARGUMENT_SETS)("%s %j", async (file, args) => {
    const ours: string[] = ["hgrm", path.join(sharedSamples, file)];
    for (let i = 0; i < args.length; i += 2) ours.push({ "-start": "--start", "-end": "--end", "-tag": "--tag", "-outputValueUnitRatio": "--ratio" }[args[i]!]!, args[i + 1]!);
    const r = await run(ours);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(java(["-i", path.join(sharedSamples, file), ...args]));
  });

  it("report --out writes each series' .hgrm as the processor prints it (display unit ms)", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-out-"));
    const log = path.join(sharedSamples, "jHiccup-2.0.7S.logV2.hlog");
    const r = await run(["report", "--out", out, log]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["deck.pptx", "jHiccup-2.0.7S.logV2.hgrm", "max-over-time.svg", "percentile-plot.svg", "report.json", "summary.md"]);
    expect(readFileSync(path.join(out, "jHiccup-2.0.7S.logV2.hgrm"), "utf8")).toBe(java(["-i", log]).replace(/^#\[StartTime:[^\n]*\n/, ""));
    expect(readFileSync(path.join(out, "summary.md"), "utf8")).toBe(r.stdout);
    const svg = readFileSync(path.join(out, "percentile-plot.svg"), "utf8");
    expect(svg).toMatch(/^<\?xml[^>]*>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('data-series="jHiccup-2.0.7S.logV2"');
    expect(readFileSync(path.join(out, "max-over-time.svg"), "utf8")).toMatch(/<path d="M[\d.]+,[\d.]+L/);
  });
});

describe("hgrm: where the processor has no answer", () => {
  it("no interval of the tag or in the window: exit 2 and why", async () => {
    const r = await run(["hgrm", runs[0]!.path, "--tag", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/no intervals tagged "nope"/);
    expect((await run(["hgrm", runs[0]!.path, "--start", "1000"])).code).toBe(2);
  });
});

// The built executable: what `npx hdr-spectrum` runs (helper threads included).
describe("the built command line", () => {
  beforeAll(() => {
    const b = spawnSync(process.execPath, [path.join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
    if (b.status !== 0) throw new Error(b.stderr);
  }, 120_000);

  it("reads with helper threads what main() reads on one thread; exit codes pass through", async () => {
    const args = ["report", "--json", ...runs.map((x) => x.path)];
    const spawned = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    expect(spawned.status, spawned.stderr).toBe(0);
    expect(spawned.stdout).toBe((await run(args)).stdout);
    const fail = spawnSync(process.execPath, [bin, "check", "--require", "p50<=0.5ms", ...runs.map((x) => x.path)], { encoding: "utf8" });
    expect(fail.status).toBe(1);
    // The charts render in the bundle too (the page's components under React's production build).
    const out = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-built-out-"));
    const charts = spawnSync(process.execPath, [bin, "report", "--out", out, runs[0]!.path], { encoding: "utf8" });
    expect(charts.status, charts.stderr).toBe(0);
    expect(readFileSync(path.join(out, "percentile-plot.svg"), "utf8")).toContain('data-series="sysA_2k"');
    const bad = spawnSync(process.execPath, [bin, "check", "--require", "p50<=0.5ms", path.join(dir, "missing.hlog")], { encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
  });

  it("cuts a big log into parts read on helper threads, equal to reading it whole", async () => {
    // Over the loader's 4 MB split size.
    const { text } = knownLog(9, 400, 12000, 200);
    const big = path.join(dir, "big_1k.hlog");
    writeFileSync(big, text);
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    const args = ["report", "--json", "--start", "100", "--end", "5000", big];
    const spawned = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    expect(spawned.status, spawned.stderr).toBe(0);
    expect(spawned.stdout).toBe((await run(args)).stdout);
  });

  it("compares two big logs read in parts (no payload text held: the intervals it decodes are read back from the files)", async () => {
    const { text, values } = knownLog(9, 400, 12000, 200);
    const big = path.join(dir, "big_1k.hlog");
    writeFileSync(big, text);
    const doubled = Array.from({ length: 12000 }, (_, i) => {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (const v of values.slice(i * 200, (i + 1) * 200)) h.recordValue(2 * v);
      return { start: i, length: 1, histogram: h };
    });
    const big2 = path.join(dir, "big_2k.hlog");
    writeFileSync(big2, writeHlog(doubled, { startMs: Date.UTC(2026, 0, 5, 10, 0, 0) }));
    // The whole run, and a window whose edges are inside 64-interval blocks of both parts.
    for (const window of [[], ["--start", "1000.5", "--end", "9037"]]) {
      const spawned = spawnSync(process.execPath, [bin, "report", "--json", ...window, "--compare", big, big, big2], { encoding: "utf8" });
      expect(spawned.status, spawned.stderr).toBe(0);
      const j = JSON.parse(spawned.stdout) as { series: JsonSeries[]; comparison: { pairs: { points: { ratio: number; low: number | null }[] }[] } };
      expect(j.series.map((s) => s.count)).toEqual(window.length ? [8037 * 200, 8037 * 200] : [values.length, values.length]);
      const supported = j.comparison.pairs[0]!.points.filter((x) => x.low !== null);
      expect(supported.length).toBeGreaterThan(3);
      for (const x of supported) expect(Math.abs(x.ratio / 2 - 1)).toBeLessThan(2e-3);
    }
  }, 60_000);

  it("merges hundreds of files on the helper threads and here, equal to merging them on one thread", async () => {
    const d = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-many-"));
    // More files than one share (MERGE_CHUNK), so that shares go to the helper thread.
    const paths = Array.from({ length: 600 }, (_, i) => {
      const p = path.join(d, String(i).padStart(3, "0"), `${i % 2 ? "sysA" : "sysB"}_4k.hlog`);
      mkdirSync(path.dirname(p));
      writeFileSync(p, smallLog(1000 + i, 3, 2, 20, Date.UTC(2026, 0, 5, 10, 0, 0) + i * 2000).text);
      return p;
    });
    const args = ["report", "--json", "--merge", "--start", "1", ...paths];
    const spawned = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
    expect(spawned.status, spawned.stderr).toBe(0);
    const here = await run([...args, "--no-workers"]);
    expect(spawned.stdout).toBe(here.stdout);
    expect((JSON.parse(here.stdout) as { series: JsonSeries[] }).series.map((s) => s.count)).toEqual([6000, 6000]);
  });

  const npm = spawnSync("npm", ["--version"], { encoding: "utf8" });
  it.skipIf(npm.status !== 0)(
    "installs from the packed tarball and runs as npx hdr-spectrum",
    () => {
      const packDir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-pack-"));
      const pack = spawnSync("npm", ["pack", "--pack-destination", packDir, "--ignore-scripts"], { cwd: root, encoding: "utf8" });
      expect(pack.status, pack.stderr).toBe(0);
      const tgz = readdirSync(packDir).find((f) => f.endsWith(".tgz"))!;
      expect(tgz).toBe("hdr-spectrum-0.1.0.tgz");
      const app = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-install-"));
      writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "try-hdr-spectrum", private: true }));
      // The executable bundles what it runs; npm still installs the package's dependencies (from its cache when it has them).
      const inst = spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(packDir, tgz)], { cwd: app, encoding: "utf8" });
      expect(inst.status, inst.stderr).toBe(0);
      const r = spawnSync("npx", ["--offline", "hdr-spectrum", "report", "--json", runs[0]!.path], { cwd: app, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout) as { version: number; series: JsonSeries[] };
      expect(j.version).toBe(1);
      expect(j.series[0]!.count).toBe(runs[0]!.values.length);
    },
    180_000,
  );
});
