import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { build, decodeFromCompressedBase64 } from "hdr-histogram-js";
import { simulateQueue } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { valueAtPercentile } from "../core/histogram";
import { viewMeta } from "../../tests/support/share-meta";
import { OPEN_RANGE, Store } from "./store";
import { warningText } from "../core/warnings";
import { spectrumOf } from "../core/spectrum";
import { openShareIn, shareOf } from "./share-query";

const HDR = resolve(__dirname, "../../../shared/samples/hdrhistogram");
const HGRM = resolve(__dirname, "../../../shared/samples/hgrm");

/** Feeds a file in small chunks, as a stream would, to exercise chunk boundaries. */
function chunks(text: string, size = 777): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function loadSample(store: Store, dir: string, name: string, size?: number) {
  return store.load(name, chunks(readFileSync(resolve(dir, name), "utf8"), size));
}

describe.skipIf(!existsSync(HDR))("HdrHistogram's own test logs, read at their own precision as HistogramLogProcessor reads them", () => {
  // These logs are written at 2 significant digits, lowest discernible value 20000 (ns). The
  // page reads them at that precision, as HistogramLogProcessor and jHiccup do: expected values
  // from HdrHistogram Java 2.2.2, the log accumulated as HistogramLogProcessor accumulates it
  // (a copy of the first interval, the others added) and read with getValueAtPercentile and
  // getMaxValue; p50 and max are also the 0.5 row and the "#[Max" line of its .hgrm output
  // (checked against the jar itself below when java is present). HdrHistogram's published
  // values for these logs (V2 p99.9 1745879039, max 1796210687 …) are those of the intervals
  // added into a 3-digit histogram, which records each 2-digit bucket at its lowest value:
  // below what was recorded. formats/hlog-encoding.test.ts keeps them, as a reader test.
  // [file, count, p50, p99.9, max]
  const cases: [string, number, number, number, number][] = [
    ["jHiccup-2.0.7S.logV2.hlog", 48761, 344063, 1753219071, 1803550719],
    ["jHiccup-2.0.6.logV1.hlog", 65964, 393215, 1837105151, 1895825407],
    ["jHiccup-2.0.1.logV0.hlog", 61256, 393215, 1518338047, 1577058303],
  ];
  for (const [file, count, p50, p999, max] of cases) {
    it(`${file}: count ${count}, p50 ${p50}, p99.9 ${p999}, max ${max}, unit ns`, async () => {
      for (const size of [777, 1 << 20]) {
        const store = new Store();
        const r = await loadSample(store, HDR, file, size);
        expect(r.problems).toEqual([]);
        const [v] = store.views();
        expect(v!.spectrum.totalCount).toBe(count);
        expect(v!.spectrum.percentiles["50"]).toBe(p50);
        expect(v!.spectrum.percentiles["99.9"]).toBe(p999);
        expect(v!.spectrum.percentiles["100"]).toBe(max);
        expect(v!.spectrum.max).toBe(max);
        expect(v!.recordedUnit).toBe("ns");
        // Their header says "Logged with jHiccup version …": jHiccup records ns.
        expect(v!.unitSource).toBe("format");
      }
    });
  }

  it("merging a 3-digit log with a 2-digit one reads the sum at 2 digits: never below what either recorded", async () => {
    const sim = simulateQueue({ rate: 2000, seconds: 20, medianServiceSec: 200e-6, sigma: 0.8, stalls: [{ at: 5, duration: 0.5 }], seed: 7 });
    const store = new Store();
    await store.load("fine.hlog", [writeHlog(sim)]);
    await loadSample(store, HDR, "jHiccup-2.0.7S.logV2.hlog");
    const [fine, coarse] = store.series;
    expect(fine!.histogram.numberOfSignificantValueDigits).toBe(3);
    // The finer series first: merging into its layout would record the coarse buckets at their lowest values.
    const id = store.merge([fine!.id, coarse!.id], "both");
    const v = store.views().find((x) => x.id === id)!;
    // Reference: the library's decodes of the jHiccup log and the simulated histograms, added
    // into a library histogram at the coarser layout (2 digits, lowest discernible value 20000).
    const ref = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2, lowestDiscernibleValue: 20000, highestTrackableValue: 2 ** 40 });
    for (const line of readFileSync(resolve(HDR, "jHiccup-2.0.7S.logV2.hlog"), "utf8").split("\n")) {
      if (/^\d/.test(line)) ref.add(decodeFromCompressedBase64(line.split(",")[3]!, 64));
    }
    for (const iv of sim) ref.add(iv.histogram);
    expect(v.spectrum.totalCount).toBe(ref.totalCount);
    for (const p of ["50", "90", "99", "99.9", "100"]) expect(v.spectrum.percentiles[p]).toBe(valueAtPercentile(ref, Number(p)));
    // The jHiccup log's max at its own precision (HistogramLogProcessor: 1803550719), not below.
    expect(v.spectrum.percentiles["100"]).toBe(1803550719);
    // A time window of the merge (its intervals decoded and added) is in the same layout.
    const w = store.views({ start: 0, end: 1e12 }).find((x) => x.id === id)!;
    expect(Array.from(w.spectrum.values)).toEqual(Array.from(v.spectrum.values));
    const tl = store.timeline({ t0: null, t1: null, columns: 1, percentiles: [100] }).series.find((x) => x.id === id)!;
    expect(Math.max(...tl.percentiles["100"]!)).toBe(1803550719);
  });

  it("a share link of the 2-digit log opens with the same numbers; its rounded histogram (default) is within 1 % above", async () => {
    const store = new Store();
    await loadSample(store, HDR, "jHiccup-2.0.7S.logV2.hlog");
    const before = store.views()[0]!.spectrum.percentiles;
    const view = viewMeta();
    const looks = [{ id: store.series[0]!.id, color: "#000", visible: true }];
    for (const full of [true, false]) {
      const link = shareOf(store, view, looks, OPEN_RANGE, full);
      const other = new Store();
      expect(openShareIn(other, link.fragment).ok).toBe(true);
      // HistogramLogProcessor's values (see above), e.g. max 1803550719: carried as shown.
      expect(other.views()[0]!.spectrum.percentiles).toEqual(before);
      // The histogram the curve is drawn from: the same (full precision) or at most 1 % above.
      const curve = spectrumOf(other.histogramFor(other.series[0]!.id, OPEN_RANGE)).percentiles;
      if (full) expect(curve).toEqual(before);
      else for (const p of Object.keys(before)) expect((curve[p]! - before[p]!) / before[p]!).toSatisfy((d: number) => d >= 0 && d <= 0.01);
    }
    expect(before["100"]).toBe(1803550719);
  });

  it("interval counts per version (V0 81, V1 88, V2 62)", async () => {
    const store = new Store();
    for (const f of ["jHiccup-2.0.1.logV0.hlog", "jHiccup-2.0.6.logV1.hlog", "jHiccup-2.0.7S.logV2.hlog"]) await loadSample(store, HDR, f);
    expect(store.views().map((v) => v.intervalCount)).toEqual([81, 88, 62]);
  });

  it("the range 5..20 s after StartTime holds 15 intervals and 11664 counts (HistogramLogProcessor's rule)", async () => {
    const store = new Store();
    await loadSample(store, HDR, "jHiccup-2.0.7S.logV2.hlog");
    const id = store.series[0]!.id;
    expect(store.histogramFor(id, { start: 5, end: 20 }).totalCount).toBe(11664);
    const t = store.series[0]!.intervals!;
    let n = 0;
    for (let i = 0; i < t.n; i++) if (t.offsets[i]! >= 5 && t.offsets[i]! <= 20) n++;
    expect(n).toBe(15);
  });

  it("tagged log: one series per tag, tag A equal to the untagged set, 32290 in all", async () => {
    const store = new Store();
    await loadSample(store, HDR, "tagged-Log.logV2.hlog");
    const v = store.views();
    expect(v.map((x) => x.tag).sort()).toEqual(["", "A"]);
    expect(v[0]!.spectrum.totalCount + v[1]!.spectrum.totalCount).toBe(32290);
    expect(Array.from(v[0]!.spectrum.values)).toEqual(Array.from(v[1]!.spectrum.values));
    expect(Array.from(v[0]!.spectrum.cumulative)).toEqual(Array.from(v[1]!.spectrum.cumulative));
  });

  it("no header and BaseTime variants hold the same histogram as the V2 log", async () => {
    const store = new Store();
    for (const f of ["jHiccup-2.0.7S.logV2.hlog", "jHiccup-no-header-2.0.7S.logV2.hlog", "jHiccup-with-basetime-2.0.7S.logV2.hlog"]) {
      const r = await loadSample(store, HDR, f);
      expect(r.problems).toEqual([]);
    }
    const [a, b, c] = store.views();
    expect(b!.spectrum.totalCount).toBe(a!.spectrum.totalCount);
    expect(c!.spectrum.totalCount).toBe(a!.spectrum.totalCount);
    expect(b!.spectrum.max).toBe(a!.spectrum.max);
    // BaseTime: 0.127 s after BaseTime 1441812123.123 is 156.224 s before StartTime 1441812279.474.
    expect(store.series[2]!.intervals!.offsets[0]).toBeCloseTo(1441812123.123 + 0.127 - 1441812279.474, 6);
    // No header: the first interval starts the log.
    expect(store.series[1]!.intervals!.offsets[0]).toBe(0);
  });

  it("trailing white space and an absolute timestamp", async () => {
    const store = new Store();
    const r = await loadSample(store, HDR, "bug-whitespace.hlog");
    expect(r.problems).toEqual([]);
    const [v] = store.views();
    expect(v!.tag).toBe("bo-global-http");
    expect(store.series[0]!.intervals!.offsets[0]).toBe(0);
  });
});

describe.skipIf(!existsSync(HGRM))("percentile files", () => {
  it("loads .hgrm and wrk2 output as series without intervals, counts exact", async () => {
    const store = new Store();
    for (const f of ["12Krps.hgrm", "16Krps_CO.hgrm", "wrk2-latency-output.txt"]) {
      const r = await loadSample(store, HGRM, f);
      expect(r.problems).toEqual([]);
    }
    const v = store.views();
    expect(Object.fromEntries(v.map((x) => [x.name, x.format]))).toEqual({ "12Krps": "hgrm", "16Krps_CO": "hgrm", "wrk2-latency-output": "wrk2" });
    expect(v.find((x) => x.name === "12Krps")!.spectrum.totalCount).toBe(3477000);
    expect(v.every((x) => x.intervalCount === 0)).toBe(true);
  });
});

describe("bad input", () => {
  it("a file that is not a log is one clear problem, nothing else changes", async () => {
    const store = new Store();
    const r = await store.load("notes.txt", ["hello\nworld\n"]);
    expect(r.added).toEqual([]);
    expect(r.problems).toEqual([{ file: "notes.txt", line: null, reason: expect.stringContaining("not a recognised format") }]);
  });

  it.skipIf(!existsSync(HDR))("a damaged log keeps its good lines and says how many were skipped", async () => {
    const lines = readFileSync(resolve(HDR, "jHiccup-2.0.7S.logV2.hlog"), "utf8").split("\n");
    lines[5] = lines[5]!.replace(/,HIST(.{10})/, ",HIST!!!!$1");
    lines[7] = lines[7]!.slice(0, 12);
    const store = new Store();
    const r = await store.load("broken.hlog", chunks(lines.join("\n")));
    expect(r.problems.map((p) => p.line)).toEqual([6, 8, null]);
    expect(r.problems[2]!.reason).toBe("2 lines skipped; 60 intervals loaded");
    expect(store.views()[0]!.intervalCount).toBe(60);
  });
});

// HdrHistogram Java's HistogramLogProcessor is the reference for the .hgrm export (skipped
// when java or the jar is missing; .ci/run fetches the jar with Maven).
const JAR = process.env.HDRHISTOGRAM_JAR ?? resolve(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = existsSync(JAR) && existsSync(HDR) && spawnSync("java", ["-version"]).status === 0;

function processorOutput(args: string[]): string {
  const r = spawnSync("java", ["-cp", JAR, "org.HdrHistogram.HistogramLogProcessor", ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  // Its first line is the log's StartTime, printed in the machine's time zone.
  return r.stdout.replace(/^#\[StartTime:[^\n]*\n/, "");
}

describe.skipIf(!haveJava)("export .hgrm equals HistogramLogProcessor's output", () => {
  const log = resolve(HDR, "jHiccup-2.0.7S.logV2.hlog");
  it.each([
    [null, null, "ms", "1000000"],
    [5, 20, "ms", "1000000"],
    [null, null, "us", "1000"],
  ] as const)("range %s..%s in %s", async (start, end, unit, ratio) => {
    const store = new Store();
    await loadSample(store, HDR, "jHiccup-2.0.7S.logV2.hlog");
    const args = ["-i", log, "-outputValueUnitRatio", ratio];
    if (start !== null) args.push("-start", String(start), "-end", String(end));
    expect(store.exportHgrm(store.series[0]!.id, { start, end }, unit)).toBe(processorOutput(args));
  });
});

describe.skipIf(!haveJava)("the table's numbers equal HistogramLogProcessor's for the same log", () => {
  // Its .hgrm rows at percentile 0.5 and 0.9, its "#[Max" line and its total count, against
  // the table's p50, p90, max and count: one number per fact, whichever way it is read.
  it.each([
    ["jHiccup-2.0.7S.logV2.hlog", null],
    ["jHiccup-2.0.6.logV1.hlog", null],
    ["jHiccup-2.0.1.logV0.hlog", null],
    ["tagged-Log.logV2.hlog", "A"],
  ] as const)("%s (tag %s)", async (file, tag) => {
    const store = new Store();
    await loadSample(store, HDR, file);
    const v = store.views().find((x) => x.tag === (tag ?? ""))!;
    const out = processorOutput(["-i", resolve(HDR, file), "-outputValueUnitRatio", "1", ...(tag ? ["-tag", tag] : [])]);
    const row = (q: string) => Number(new RegExp(`^\\s*([0-9.]+) ${q.replace(".", "\\.")}0* `, "m").exec(out)![1]);
    const footer = /#\[Max\s*=\s*([0-9.]+), Total count\s*=\s*(\d+)\]/.exec(out)!;
    expect(v.spectrum.percentiles["50"]).toBe(row("0.5"));
    expect(v.spectrum.percentiles["90"]).toBe(row("0.9"));
    expect(v.spectrum.percentiles["100"]).toBe(Number(footer[1]));
    expect(v.spectrum.totalCount).toBe(Number(footer[2]));
  });
});

describe.skipIf(!existsSync(HGRM))("coordinated omission", () => {
  it("flags the 16Krps_CO cliff, not the correctly measured runs; corrected copies sit beside", async () => {
    const store = new Store();
    for (const f of ["16Krps_CO.hgrm", "16Krps.hgrm", "12Krps.hgrm"]) await loadSample(store, HGRM, f);
    const v = store.views();
    expect(v.map((x) => x.warnings.map((w) => w.kind))).toEqual([["coordinated-omission"], [], []]);
    expect(warningText(v[0]!.warnings[0]!)).toMatch(/Control-Z/);
    store.setCoInterval(1e6); // 1 ms
    const c = store.views();
    expect(c.map((x) => x.correctedFrom)).toEqual([null, v[0]!.id, null, v[1]!.id, null, v[2]!.id]);
    expect(c[1]!.name).toBe("16Krps_CO (CO-corrected, 1 ms)");
    // The corrected copy is HdrHistogram's own correction of the same histogram (values in µs here).
    const ref = (store.series[0]!.histogram as unknown as { copyCorrectedForCoordinatedOmission(i: number): { totalCount: number } }).copyCorrectedForCoordinatedOmission(1000);
    expect(c[1]!.spectrum.totalCount).toBe(ref.totalCount);
    expect(c[1]!.spectrum.totalCount).toBeGreaterThan(c[0]!.spectrum.totalCount);
    expect(c[1]!.spectrum.percentiles["99.9"]).toBeGreaterThan(c[0]!.spectrum.percentiles["99.9"]!);
    // The export works on corrected views too, and clearing removes them.
    expect(store.exportHgrm(c[1]!.id, OPEN_RANGE, "ms")).toContain(`Total count    = ${String(ref.totalCount).padStart(12)}`);
    store.setCoInterval(null);
    expect(store.views().length).toBe(3);
  });
});

describe("a log whose intervals change precision", () => {
  it("is read at the coarsest layout among its intervals: never below what a coarser interval recorded", async () => {
    // 3 digits first (as HistogramLogProcessor would keep), then 2 digits with a 1000 ns unit.
    const fine = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let v = 100_000; v < 200_000; v += 997) fine.recordValue(v);
    const coarse = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2, lowestDiscernibleValue: 1000, highestTrackableValue: 2 ** 40 });
    for (let v = 150_000; v < 5_000_000; v += 31_337) coarse.recordValue(v);
    coarse.recordValue(7_777_777); // 2 digits, unit 512 (2^floor(log2 1000)): bucket 7766016..7798783
    const text = writeHlog([
      { start: 0, length: 1, histogram: fine },
      { start: 1, length: 1, histogram: coarse },
    ]);
    const store = new Store();
    const r = await store.load("mixed.hlog", [text]);
    expect(r.problems).toEqual([]);
    const [v] = store.views();
    // Reference: the library's decodes added into a library histogram of the coarser layout.
    const ref = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2, lowestDiscernibleValue: 1000, highestTrackableValue: 2 ** 40 });
    for (const line of text.split("\n")) if (/^\d/.test(line)) ref.add(decodeFromCompressedBase64(line.split(",")[3]!, 64));
    expect(v!.spectrum.totalCount).toBe(ref.totalCount);
    for (const p of ["50", "90", "99", "100"]) expect(v!.spectrum.percentiles[p]).toBe(valueAtPercentile(ref, Number(p)));
    expect(v!.spectrum.percentiles["100"]).toBe(7798783);
    // Kept in the first interval's 3-digit layout (HistogramLogProcessor's way), that bucket would be
    // recorded at 7766016 and read back as 7770111: below the 7777777 recorded.
    const timeline = store.timeline({ t0: null, t1: null, columns: 2, percentiles: [100] }).series[0]!;
    expect(Array.from(timeline.max)).toContain(7798783);
    expect(Math.max(...timeline.percentiles["100"]!)).toBe(7798783);
  });
});
