// The engine's side of A vs B: loaded series become the comparison's inputs. Logs are written
// by the project's own generator (a queue simulation through hdr-histogram-js's log writer).
import { describe, expect, it } from "vitest";
import { simulateQueue, type SimConfig } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { Store } from "./store";
import { compareInputs, compareQuery, repeatsOf } from "./compare-query";
import { valueAtPercentile } from "../core/histogram";

const OPEN = { start: null, end: null };
const sim = (o: Partial<SimConfig>) => writeHlog(simulateQueue({ rate: 400, seconds: 200, medianServiceSec: 0.0005, sigma: 0.5, stalls: [], seed: 1, ...o }));

async function store(files: [string, string][]): Promise<Store> {
  const s = new Store();
  for (const [name, text] of files) await s.load(name, [text]);
  return s;
}

const id = (s: Store, name: string) => s.series.find((x) => x.name.startsWith(name))!.id;

describe("compare query", () => {
  it("values are the table's (the series' own histograms), and a doubled run reads 2", async () => {
    const s = await store([
      ["sysA_400.hlog", sim({})],
      ["sysB_400.hlog", sim({ rate: 200, seconds: 400, medianServiceSec: 0.001, intervalSec: 2 })],
    ]);
    const r = await compareQuery(s, { baseline: id(s, "sysA"), candidate: id(s, "sysB"), range: OPEN });
    const [a, b] = s.views();
    for (const p of r.points.filter((x) => x.supported)) {
      expect(p.base).toBe(a!.spectrum.percentiles[String(p.percentile)]);
      expect(p.cand).toBe(b!.spectrum.percentiles[String(p.percentile)]);
      expect(Math.abs(p.ratio - 2)).toBeLessThan(0.01);
      expect(p.verdict).toBe(p.judged ? "worse" : "unknown");
    }
    // B ran 400 s to A's 200 s (said in a warning); with no stalls, the values above p99 are
    // spread through both runs, so the longer run's tail is still called worse.
    expect(r.points.slice(0, 3).map((p) => p.verdict)).toEqual(["worse", "worse", "worse"]);
    expect(r.base.method[0]).toMatch(/moving blocks of \d+ intervals/);
    expect(r.warnings.map((w) => w.kind)).toEqual(["lengths"]);
  });

  it("a time window compares only its intervals", async () => {
    const s = await store([
      ["a.hlog", sim({ stalls: [{ at: 150, duration: 0.5 }] })],
      ["b.hlog", sim({ seed: 2 })],
    ]);
    const range = { start: 0, end: 99 };
    const r = await compareQuery(s, { baseline: id(s, "a"), candidate: id(s, "b"), range });
    const h = s.histogramFor(id(s, "a"), range);
    expect(r.base.totalCount).toBe(h.totalCount);
    expect(r.points[2]!.base).toBe(valueAtPercentile(h, 99));
    // Without the stall in the window, the two runs are the same at p50.
    expect(r.points[0]!.verdict).toBe("same");
  });

  it("repeated runs (run1, run2 …) are pooled on each side, unless the two sides overlap", async () => {
    const s = await store([
      ["sysA_400_run1.hlog", sim({ seed: 1 })],
      ["sysA_400_run2.hlog", sim({ seed: 2 })],
      ["sysA_400_run3.hlog", sim({ seed: 3 })],
      ["sysB_400_run1.hlog", sim({ seed: 4 })],
      ["sysB_400_run2.hlog", sim({ seed: 5 })],
    ]);
    const a1 = id(s, "sysA_400_run1");
    expect(repeatsOf(s, a1).map((x) => x.name)).toHaveLength(3);
    const inputs = compareInputs(s, { baseline: a1, candidate: id(s, "sysB_400_run2"), range: OPEN });
    expect(inputs.base.runs).toHaveLength(3);
    expect(inputs.cand.runs).toHaveLength(2);
    expect(inputs.base.label).toContain("(3 runs)");
    const own = compareInputs(s, { baseline: a1, candidate: id(s, "sysA_400_run2"), range: OPEN });
    expect(own.base.runs).toHaveLength(1);
    const r = await compareQuery(s, { baseline: a1, candidate: id(s, "sysB_400_run1"), range: OPEN });
    expect(r.points[0]!.baseSpread).not.toBeNull();
    expect(r.warnings.map((w) => w.kind)).toContain("repeats");
    const flat = compareInputs(s, { baseline: a1, candidate: id(s, "sysB_400_run1"), range: OPEN, repeats: false });
    expect(flat.base.runs).toHaveLength(1);
  });

  it("a merge is one side; a CO-corrected copy is compared by its counts, with a warning", async () => {
    const s = await store([
      ["a.hlog", sim({ seed: 1 })],
      ["b.hlog", sim({ seed: 2 })],
    ]);
    const m = s.merge([id(s, "a"), id(s, "b")]);
    const r = await compareQuery(s, { baseline: id(s, "a"), candidate: m, range: OPEN });
    expect(r.cand.totalCount).toBe(s.get(m).histogram.totalCount);
    expect(r.cand.method[0]).toMatch(/moving blocks/);
    s.setCoInterval(1e6);
    const co = await compareQuery(s, { baseline: id(s, "a"), candidate: `${id(s, "a")}~co`, range: OPEN });
    expect(co.warnings.map((w) => w.kind)).toEqual(expect.arrayContaining(["co-correction", "no-intervals"]));
  });
});

describe("a log read in parts (as the page's helper workers read a big one)", () => {
  it("the store's pre-merged blocks give exactly what the intervals decoded and summed give", async () => {
    const { compareSides, planBlocks } = await import("../core/compare");
    const { decodePayload } = await import("./intervals");
    const { sumSparse } = await import("../../tests/support/latency-process");
    // 3,000 intervals of 0.1 s: sub-blocks of 128 intervals, two of the store's blocks each.
    const o = { seconds: 300, rate: 200, intervalSec: 0.1 };
    const s = await store([
      ["a.hlog", sim({ ...o, stalls: [{ at: 150, duration: 0.3 }] })],
      ["b.hlog", sim({ ...o, seed: 2 })],
    ]);
    // The whole run, and a window whose ends are inside blocks.
    for (const range of [OPEN, { start: 10.05, end: 260.33 }]) {
      const req = { baseline: id(s, "a"), candidate: id(s, "b"), range, resamples: 300 };
      const viaBlocks = await compareQuery(s, req);
      const { base, cand } = compareInputs(s, req);
      expect(base.runs[0]!.data.kind).toBe("blocks");
      // The same sub-blocks (multiples of the stride from the log's start, cut to the window),
      // each the sum of its intervals decoded one by one.
      const decoded = (side: typeof base, seriesId: string) => {
        const t = s.get(seriesId).intervals!;
        const rows: number[] = [];
        for (let i = 0; i < t.n; i++) if (range.start === null || (t.offsets[i]! >= range.start && t.offsets[i]! <= range.end!)) rows.push(i);
        const plan = planBlocks(rows.length, 0.1);
        const groups = new Map<number, number[]>();
        for (const i of rows) {
          const k = Math.floor(i / plan.stride);
          if (!groups.has(k)) groups.set(k, []);
          groups.get(k)!.push(i);
        }
        const sums = [...groups.values()].map((g) =>
          sumSparse(
            g.map((i) => {
              const d = decodePayload(t.payload(i));
              if (!d.ok) throw new Error(d.reason);
              return { indices: d.value.indices.slice(), counts: d.value.counts.slice() };
            }),
          ),
        );
        const subBlocks = { length: sums.length, at: (k: number) => sums[k] };
        return { ...side, runs: [{ ...side.runs[0]!, data: { kind: "blocks" as const, subBlocks, plan, total: sumSparse(sums), intervalSeconds: 0.1 } }] };
      };
      const viaSums = compareSides(decoded(base, req.baseline), decoded(cand, req.candidate), { resamples: 300 });
      expect(viaBlocks.base.method[0]).toMatch(/× 128, from the data/);
      expect(viaBlocks.points).toEqual(viaSums.points);
      expect(viaBlocks.base.method).toEqual(viaSums.base.method);
    }
  });

  it("compares exactly as the log read whole, decoding almost nothing", async () => {
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { writeDayLog } = await import("../../tests/support/day-log");
    const { ingestHlogInParts, ingestHlogPart } = await import("./ingest");
    const { intervalsBefore } = await import("./piece-origins");
    const { kernelStats } = await import("../wasm/kernel");
    // 16,500 intervals: blocks of ⌈√n⌉ = 129 intervals, sub-blocks of 64 (the store's own).
    const dir = mkdtempSync(join(tmpdir(), "cmp-parts-"));
    const texts = [1, 2].map((seed) =>
      readFileSync(writeDayLog(join(dir, `d${seed}.hlog`), { intervals: 16_500, seed, distinctPerInterval: 8, samplesPerInterval: 40 }).path, "utf8"),
    );
    const whole = await store(texts.map((t, i) => [`d${i + 1}.hlog`, t]));
    const parted = new Store();
    for (const [i, t] of texts.entries()) {
      // Cut at a line that is no multiple of 64 intervals into the log; the part is told how
      // many intervals come before it, as a helper is.
      const cut = t.indexOf("\n", Math.floor(t.length * 0.4137)) + 1;
      const origins = await intervalsBefore(new Blob([t.slice(0, cut)]));
      expect((origins.get("") ?? 0) % 64).not.toBe(0);
      parted.add(
        await ingestHlogInParts(
          `d${i + 1}.hlog`,
          [t.slice(0, cut)],
          [ingestHlogPart(`d${i + 1}.hlog`, [t.slice(cut)], undefined, new TextEncoder().encode(t.slice(cut)), { origins })],
        ),
      );
    }
    expect(parted.series[0]!.blocks?.constructor.name).toBe("JoinedBlocks");
    const req = (s: Store) => ({ baseline: s.series[0]!.id, candidate: s.series[1]!.id, range: OPEN, resamples: 300 });
    const a = await compareQuery(whole, req(whole));
    const before = kernelStats.handled + kernelStats.declined;
    const b = await compareQuery(parted, req(parted));
    const decoded = kernelStats.handled + kernelStats.declined - before;
    // Per side, only the block the cut runs through and the log's unfinished last block are decoded.
    expect(decoded).toBeLessThan(4 * 64);
    expect(b.points.map((p) => [p.base, p.cand, p.ratio])).toEqual(a.points.map((p) => [p.base, p.cand, p.ratio]));
    expect(b.base.method[0]).toMatch(/moving blocks of \d+ intervals \(\d+ × 64, from the data\)/);
  });
});
