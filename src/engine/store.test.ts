import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { OPEN_RANGE, Store } from "./store";

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

describe.skipIf(!existsSync(HDR))("HdrHistogram's own test logs, against HdrHistogram Java's published values", () => {
  // Values from HdrHistogram Java's HistogramLogReaderWriterTest: total count, p99.9, max (ns).
  const cases: [string, number, number, number][] = [
    ["jHiccup-2.0.7S.logV2.hlog", 48761, 1745879039, 1796210687],
    ["jHiccup-2.0.6.logV1.hlog", 65964, 1829765119, 1888485375],
    ["jHiccup-2.0.1.logV0.hlog", 61256, 1510998015, 1569718271],
  ];
  for (const [file, count, p999, max] of cases) {
    it(`${file}: count ${count}, p99.9 ${p999}, max ${max}, unit ns`, async () => {
      for (const size of [777, 1 << 20]) {
        const store = new Store();
        const r = await loadSample(store, HDR, file, size);
        expect(r.problems).toEqual([]);
        const [v] = store.views();
        expect(v!.spectrum.totalCount).toBe(count);
        expect(v!.spectrum.percentiles["99.9"]).toBe(p999);
        expect(v!.spectrum.percentiles["100"]).toBe(max);
        expect(v!.spectrum.max).toBe(max);
        expect(v!.recordedUnit).toBe("ns");
        expect(v!.unitSource).toBe("interval-max");
      }
    });
  }

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

describe.skipIf(!existsSync(HGRM))("coordinated omission", () => {
  it("flags the 16Krps_CO cliff, not the correctly measured runs; corrected copies sit beside", async () => {
    const store = new Store();
    for (const f of ["16Krps_CO.hgrm", "16Krps.hgrm", "12Krps.hgrm"]) await loadSample(store, HGRM, f);
    const v = store.views();
    expect(v.map((x) => x.warnings.map((w) => w.kind))).toEqual([["coordinated-omission"], [], []]);
    expect(v[0]!.warnings[0]!.message).toMatch(/Control-Z/);
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
