import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { build, decodeFromCompressedBase64, type Histogram } from "hdr-histogram-js";
import { simulateQueue } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { parseRequirement } from "../core/requirements";
import { judgeWindows, type WindowStats } from "../core/windows";
import { NANOS_PER_UNIT } from "../core/types";
import { Store } from "./store";
import { heatmapQuery, tailQuery, windowQuery, type WindowSeries } from "./time-queries";
import { setKeptBudget, WORKER_KEPT_BUDGET } from "./intervals/kept";

// As in the page's workers: windows read the counts kept from the load (intervals/kept.test.ts
// compares them with the plain path).
setKeptBudget(WORKER_KEPT_BUDGET);

// The shared samples beside the checkout (HDR_SAMPLES overrides, for a worktree elsewhere).
const HDR = process.env.HDR_SAMPLES ?? resolve(__dirname, "../../../shared/samples/hdrhistogram");
const JAR = process.env.HDRHISTOGRAM_JAR ?? resolve(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = existsSync(JAR) && existsSync(HDR) && spawnSync("javac", ["-version"]).status === 0;

async function loaded(name: string, text: string): Promise<Store> {
  const store = new Store();
  await store.load(name, [text]);
  return store;
}

/** Library internals the reference counts use (not the app's own index arithmetic). */
interface JsInternals {
  countsArrayIndex(v: number): number;
  getCountAtIndex(i: number): number;
  countsArrayLength: number;
}

/** Values in buckets wholly above t: every index past the one holding t, counted by the library. */
function libraryCountAbove(h: Histogram, t: number): number {
  const js = h as unknown as JsInternals;
  let n = 0;
  for (let i = js.countsArrayIndex(t) + 1; i < js.countsArrayLength; i++) n += js.getCountAtIndex(i);
  return n;
}

/** A queue at 2000 requests/s for 120 s with one 1.5 s stall at 63.3 s: only the window 60–70 s suffers. */
const sim = simulateQueue({ rate: 2000, seconds: 120, medianServiceSec: 200e-6, sigma: 0.5, stalls: [{ at: 63.3, duration: 1.5 }], seed: 7 });
const simLog = writeHlog(sim);

function statsOf(w: WindowSeries, percentiles: number[]): WindowStats[] {
  const f = NANOS_PER_UNIT[w.recordedUnit];
  return Array.from(w.start, (start, k) => ({
    start,
    end: w.end[k]!,
    count: w.count[k]!,
    covered: w.covered[k]!,
    valuesNs: percentiles.map((p) => w.values[String(p)]![k]! * f),
  }));
}

describe("windows on a generated run with a known stall", () => {
  it("finds the one failing 10 s window, the stall's, and its values are the merged histogram's", async () => {
    const store = await loaded("stall.hlog", simLog);
    const [w] = windowQuery(store.series, { length: 10, wallClock: false, percentiles: [99, 100] });
    expect(w!.start.length).toBe(12);
    // Reference: the simulated intervals of each window added into one histogram by the library.
    for (let k = 0; k < 12; k++) {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (const iv of sim) if (iv.start >= k * 10 && iv.start < (k + 1) * 10) h.add(iv.histogram);
      expect(w!.count[k]).toBe(h.totalCount);
      expect(w!.values["99"]![k]).toBe(h.getValueAtPercentile(99));
      expect(w!.values["100"]![k]).toBe((h as unknown as { highestEquivalentValue(v: number): number }).highestEquivalentValue(h.maxValue));
    }
    const req = parseRequirement("p99<=5ms, max<=100ms");
    if (!req.ok || !req.value) throw new Error("requirement");
    const j = judgeWindows(statsOf(w!, [99, 100]), req.value);
    expect(j.windows).toBe(12);
    expect(j.passing).toBe(11);
    expect(j.pass.findIndex((p) => !p)).toBe(6);
    expect(j.worst!.start).toBe(60);
    // 1.5 s of requests queued behind the stall are ~15 % of the window: p99 is far over its
    // limit (hundreds of times), more than the max is over its own.
    expect(j.worst!.percentile).toBe(99);
    expect(j.worst!.ratio).toBe(w!.values["99"]![6]! / 5e6);
    expect(j.worst!.ratio).toBeGreaterThan(100);
    // The whole run holds 2000 values a second, each window alike (response times are
    // accounted to the interval a request was sent in).
    expect(j.throughput.every((t) => Math.abs(t - 2000) < 2)).toBe(true);
  });

  it("aligned to the wall clock, windows start where UTC time is a multiple of the length", async () => {
    // StartTime 09:00:05 UTC: 10 s windows on the wall clock start at offsets −5, 5, 15, …
    const store = await loaded("stall.hlog", writeHlog(sim, { startMs: Date.UTC(2026, 10, 1, 9, 0, 5) }));
    const [w] = windowQuery(store.series, { length: 10, wallClock: true, percentiles: [50] });
    expect(Array.from(w!.start.slice(0, 3))).toEqual([-5, 5, 15]);
    expect(w!.count[0]).toBe(sim.slice(0, 5).reduce((a, iv) => a + iv.histogram.totalCount, 0));
    expect(w!.covered[0]).toBe(5);
  });

  it("counts values above a threshold per interval as the library's buckets do, and attributes them to the stall", async () => {
    const store = await loaded("stall.hlog", simLog);
    const [t] = tailQuery(store.series, { thresholdNs: 100e6, keep: 20, maxMarks: 100000 });
    const ref = sim.map((iv) => libraryCountAbove(iv.histogram, 100e6));
    expect(t!.above).toBe(ref.reduce((a, b) => a + b, 0));
    expect(t!.above).toBeGreaterThan(1000);
    const byStart = new Map(Array.from(t!.marks.start, (s, k) => [s, t!.marks.above[k]!]));
    sim.forEach((iv, i) => expect(byStart.get(iv.start) ?? 0).toBe(ref[i]));
    expect(t!.top[0]!.start).toBe(ref.indexOf(Math.max(...ref)));
    expect([63, 64]).toContain(t!.top[0]!.start);
    expect(t!.share).toBeGreaterThan(0.5);
  });

  it("a threshold inside a bucket counts only the buckets wholly above it", async () => {
    // 3 significant digits, values in ns: 100,000,000 lies in a bucket [99,942,400, 100,007,935]
    // wide 65,536: a value recorded at 100,000,000 is not above 99,999,999 by this rule.
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    h.recordValueWithCount(100_000_000, 3);
    h.recordValueWithCount(200_000_000, 2);
    const store = await loaded("one.hlog", writeHlog([{ start: 0, length: 1, histogram: h }]));
    const [t] = tailQuery(store.series, { thresholdNs: 99_999_999, keep: 5, maxMarks: 10 });
    expect(t!.above).toBe(2);
    expect(libraryCountAbove(h, 99_999_999)).toBe(2);
    const [t2] = tailQuery(store.series, { thresholdNs: 99_000_000, keep: 5, maxMarks: 10 });
    expect(t2!.above).toBe(5);
  });

  it("heatmap columns merge their intervals' histograms: every column's cells sum to its intervals' counts", async () => {
    const store = await loaded("stall.hlog", simLog);
    // 30 columns: 4 intervals each, decoded one by one; 7: 17 each, so columns of whole pre-merged blocks.
    for (const columns of [30, 7]) {
      const r = heatmapQuery(store.series, { ids: [store.series[0]!.id], t0: null, t1: null, columns, rows: 40 });
      const s = r.series[0]!;
      let total = 0;
      for (let k = 0; k < s.t0.length; k++) {
        let col = 0;
        for (let row = 0; row < s.rows; row++) col += s.cells[k * s.rows + row]!;
        const ref = sim.filter((iv) => iv.start >= s.t0[k]! && iv.start < s.t1[k]!).reduce((a, iv) => a + iv.histogram.totalCount, 0);
        // A bucket wider than a row is spread over its rows (shares of its count): equal to within rounding.
        expect(col).toBeCloseTo(ref, 6);
        total += col;
      }
      expect(total).toBeCloseTo(
        sim.reduce((a, iv) => a + iv.histogram.totalCount, 0),
        5,
      );
      if (columns !== 30) continue;
      // The stall's column has counts in the top rows; a quiet column none.
      const stallCol = Array.from(s.t0).findIndex((a, k) => a <= 63.3 && s.t1[k]! > 63.3);
      const top = (k: number) => s.cells.slice(k * s.rows + s.rows - 10, (k + 1) * s.rows).reduce((a, b) => a + b, 0);
      expect(top(stallCol)).toBeGreaterThan(0);
      expect(top(0)).toBe(0);
    }
  });
});

describe("heatmap rows narrower than a bucket", () => {
  it("a bucket's count is spread evenly over every row it covers: no empty stripes between filled rows", async () => {
    // Values 10–40 recorded with unit-wide buckets (3 digits): on a log axis of 120 rows from
    // 10 to 41, a bucket near 10 covers about eight rows.
    const intervals = Array.from({ length: 40 }, (_, k) => {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (let v = 10; v <= 40; v++) h.recordValueWithCount(v, 1 + ((v + k) % 3));
      return { start: k, length: 1, histogram: h };
    });
    const store = await loaded("narrow.hlog", writeHlog(intervals));
    const r = heatmapQuery(store.series, { ids: [store.series[0]!.id], t0: null, t1: null, columns: 40, rows: 120 });
    const s = r.series[0]!;
    expect(s.lo).toBe(10);
    for (let k = 0; k < s.t0.length; k++) {
      const col = Array.from(s.cells.subarray(k * s.rows, (k + 1) * s.rows));
      // Every row from the lowest value's to the top is filled.
      expect(col.every((c) => c > 0)).toBe(true);
      // The rows of the value 10 (from the axis' start to the row where 11 begins) share its count equally.
      const rowOf11 = Math.floor((s.rows * Math.log(11 / s.lo)) / Math.log(s.hi / s.lo));
      expect(rowOf11).toBeGreaterThan(4);
      const first = col.slice(0, rowOf11);
      for (const c of first) expect(c).toBeCloseTo(first[0]!, 9);
      const count10 = 1 + ((10 + k) % 3); // as recorded above
      expect(first.reduce((a, b) => a + b, 0)).toBeCloseTo(count10, 9);
      const sum = col.reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(intervals[k]!.histogram.totalCount, 9);
    }
  });
});

/** A tiny Java program against HdrHistogram's jar: each window's histogram and each interval's count above a value. */
const JAVA_SOURCE = `
import org.HdrHistogram.*;
import java.util.*;
public class WindowsRef {
  public static void main(String[] a) throws Exception {
    String tag = a[1].equals("-") ? null : a[1];
    double length = Double.parseDouble(a[2]);
    long threshold = Long.parseLong(a[3]);
    HistogramLogReader r = new HistogramLogReader(a[0]);
    TreeMap<Long, Histogram> windows = new TreeMap<>();
    StringBuilder iv = new StringBuilder();
    EncodableHistogram e;
    while ((e = r.nextIntervalHistogram()) != null) {
      if (!(e instanceof Histogram)) continue;
      Histogram h = (Histogram) e;
      if (tag == null ? h.getTag() != null : !tag.equals(h.getTag())) continue;
      double offset = h.getStartTimeStamp() / 1000.0 - r.getStartTimeSec();
      long above = h.getMaxValue() > threshold ? h.getCountBetweenValues(h.nextNonEquivalentValue(threshold), h.getMaxValue()) : 0;
      iv.append("I ").append(above).append('\\n');
      long k = (long) Math.floor(offset / length);
      Histogram w = windows.get(k);
      if (w == null) windows.put(k, h.copy()); else w.add(h);
    }
    for (Map.Entry<Long, Histogram> en : windows.entrySet()) {
      Histogram w = en.getValue();
      StringBuilder out = new StringBuilder("W " + en.getKey() + " " + w.getTotalCount());
      for (double p : new double[] {50, 90, 99, 99.9}) out.append(' ').append(w.getValueAtPercentile(p));
      out.append(' ').append(w.getMaxValue());
      System.out.println(out);
    }
    System.out.print(iv);
  }
}`;

let classDir: string | null = null;
function javaRef(log: string, tag: string, length: number, threshold: number): { windows: Map<number, number[]>; above: number[] } {
  if (!classDir) {
    classDir = mkdtempSync(join(tmpdir(), "windows-ref-"));
    writeFileSync(join(classDir, "WindowsRef.java"), JAVA_SOURCE);
    const c = spawnSync("javac", ["-cp", JAR, "-d", classDir, join(classDir, "WindowsRef.java")], { encoding: "utf8" });
    if (c.status !== 0) throw new Error(c.stderr);
  }
  const r = spawnSync("java", ["-cp", `${JAR}:${classDir}`, "WindowsRef", log, tag || "-", String(length), String(threshold)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  const windows = new Map<number, number[]>();
  const above: number[] = [];
  for (const line of r.stdout.trim().split("\n")) {
    const f = line.split(" ");
    if (f[0] === "W") windows.set(Number(f[1]), f.slice(2).map(Number));
    else above.push(Number(f[1]));
  }
  return { windows, above };
}

function hlp(args: string[]): string {
  const r = spawnSync("java", ["-cp", JAR, "org.HdrHistogram.HistogramLogProcessor", ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout;
}

describe.skipIf(!haveJava)("against HdrHistogram Java 2.2.2, window by window and interval by interval", () => {
  const cases: [string, string][] = [
    ["jHiccup-2.0.7S.logV2.hlog", ""],
    ["jHiccup-2.0.6.logV1.hlog", ""],
    ["jHiccup-2.0.1.logV0.hlog", ""],
    ["jHiccup-with-basetime-2.0.7S.logV2.hlog", ""],
    ["jHiccup-no-header-2.0.7S.logV2.hlog", ""],
    ["tagged-Log.logV2.hlog", "A"],
  ];
  for (const [file, tag] of cases) {
    it(`${file}${tag ? ` tag ${tag}` : ""}: 10 s windows' counts, p50/p90/p99/p99.9/max and counts above 1 ms per interval`, async () => {
      const { readFileSync } = await import("node:fs");
      const path = join(HDR, file);
      const store = await loaded(file, readFileSync(path, "utf8"));
      const s = store.series.find((x) => x.tag === tag)!;
      expect(s).toBeDefined();
      const threshold = 1e6 / NANOS_PER_UNIT[s.recordedUnit];
      const ref = javaRef(path, tag, 10, threshold);
      const w = windowQuery([s], { length: 10, wallClock: false, percentiles: [50, 90, 99, 99.9, 100] })[0]!;
      let compared = 0;
      for (let k = 0; k < w.start.length; k++) {
        const j = ref.windows.get(Math.round(w.start[k]! / 10));
        if (w.count[k] === 0) {
          expect(j).toBeUndefined();
          continue;
        }
        expect([w.count[k], ...[50, 90, 99, 99.9, 100].map((p) => w.values[String(p)]![k])]).toEqual(j);
        compared++;
      }
      expect(compared).toBe(ref.windows.size);
      const t = tailQuery([s], { thresholdNs: 1e6, keep: 5, maxMarks: 1e6 })[0]!;
      const counts = new Array<number>(s.intervals!.n).fill(0);
      t.marks.start.forEach((st, k) => (counts[Array.from(s.intervals!.offsets.subarray(0, s.intervals!.n)).indexOf(st)] = t.marks.above[k]!));
      expect(counts).toEqual(ref.above);
      expect(t.above).toBe(ref.above.reduce((a, b) => a + b, 0));
    });
  }

  it("a window's percentiles equal HistogramLogProcessor's with -start/-end (half-open: -end just below the next window)", async () => {
    const { readFileSync } = await import("node:fs");
    const path = join(HDR, "jHiccup-2.0.7S.logV2.hlog");
    const store = await loaded("v2.hlog", readFileSync(path, "utf8"));
    const w = windowQuery(store.series, { length: 20, wallClock: false, percentiles: [50, 90, 99, 100] })[0]!;
    for (const k of [0, 1, 2]) {
      const out = hlp(["-i", path, "-start", String(w.start[k]), "-end", String(w.end[k]! - 1e-6)]);
      // Values in ms (its default unit ratio), with as many decimals as the log's digits.
      const rows = out
        .split("\n")
        .filter((l) => /^\s+\d/.test(l))
        .map((l) => l.trim().split(/\s+/));
      const decimals = rows[0]![0]!.split(".")[1]!.length;
      const at = (p: number) => rows.find((r) => Math.abs(Number(r[1]) - p / 100) < 1e-12)![0]!;
      for (const p of [50, 90]) expect((w.values[String(p)]![k]! / 1e6).toFixed(decimals)).toBe(at(p)); // rows it prints exactly
      const max = /#\[Max\s*=\s*([\d.]+)/.exec(out)![1]!;
      expect((w.values["100"]![k]! / 1e6).toFixed(decimals)).toBe(max);
      const total = Number(/Total count\s*=\s*(\d+)/.exec(out)![1]);
      expect(w.count[k]).toBe(total);
    }
  });
});

describe("decodes the reference way", () => {
  it("the generated log's payloads are what the simulation recorded", () => {
    const lines = simLog.split("\n").filter((l) => /^\d/.test(l));
    expect(decodeFromCompressedBase64(lines[63]!.split(",")[3]!, 64).totalCount).toBe(sim[63]!.histogram.totalCount);
  });
});

describe("heatmap of a log read in parts (as the page's helper workers read a big one)", () => {
  it("columns of whole stored blocks, part by part: the same counts as the log read whole, almost nothing decoded", async () => {
    const { readFileSync } = await import("node:fs");
    const { writeDayLog } = await import("../../tests/support/day-log");
    const { ingestHlogInParts, ingestHlogPart } = await import("./ingest");
    const { kernelStats } = await import("../wasm/kernel");
    const dir = mkdtempSync(join(tmpdir(), "heat-parts-"));
    const text = readFileSync(writeDayLog(join(dir, "d.hlog"), { intervals: 16_500, seed: 3, distinctPerInterval: 8, samplesPerInterval: 40 }).path, "utf8");
    const whole = await loaded("d.hlog", text);
    // Cut at a line that is no multiple of 64 intervals into the log: the second part's blocks are
    // aligned to its own start.
    const cut = text.indexOf("\n", Math.floor(text.length * 0.4137)) + 1;
    const parted = new Store();
    parted.add(await ingestHlogInParts("d.hlog", [text.slice(0, cut)], [ingestHlogPart("d.hlog", [text.slice(cut)], undefined, new TextEncoder().encode(text.slice(cut)))]));
    expect(parted.series[0]!.blocks?.constructor.name).toBe("JoinedBlocks");
    const q = (s: Store) => heatmapQuery(s.series, { ids: [s.series[0]!.id], t0: null, t1: null, columns: 100, rows: 40 });
    const a = q(whole).series[0]!;
    const before = kernelStats.handled + kernelStats.declined;
    const b = q(parted).series[0]!;
    const decoded = kernelStats.handled + kernelStats.declined - before;
    // Only each part's ragged last intervals (fewer than a block each) are decoded.
    expect(decoded).toBeLessThan(2 * 64);
    const sum = (c: Float64Array) => c.reduce((x, y) => x + y, 0);
    expect(sum(b.cells)).toBe(sum(a.cells));
    expect(sum(b.cells)).toBe(parted.series[0]!.histogram.totalCount);
    expect(Math.max(...b.max)).toBe(Math.max(...a.max));
    // Every column's cells are its intervals' counts (the columns follow the parts' blocks), its
    // max their highest max and its end their latest end, asked first and again (kept facts).
    const t = parted.series[0]!.intervals!;
    for (const c of [b, q(parted).series[0]!]) {
      for (let k = 0; k < c.t0.length; k++) {
        let col = 0;
        for (let row = 0; row < c.rows; row++) col += c.cells[k * c.rows + row]!;
        let ref = 0;
        let max = 0;
        let end = -Infinity;
        for (let i = 0; i < t.n; i++) {
          if (t.offsets[i]! < c.t0[k]! || t.offsets[i]! >= c.t1[k]!) continue;
          ref += t.counts[i]!;
          max = Math.max(max, t.maxes[i]!);
          end = Math.max(end, t.offsets[i]! + t.lengths[i]!);
        }
        expect(col).toBe(ref);
        expect(c.max[k]).toBe(max);
        expect(c.t1[k]).toBe(end);
      }
    }
  });
});
