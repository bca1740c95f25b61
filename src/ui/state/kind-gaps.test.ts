import { describe, expect, it } from "vitest";
import { writeHlog } from "../../../tests/support/hlog-fixture";
import { simulateQueue, type SimInterval } from "../../../tests/support/queue-sim";
import { mergeAll } from "../../core/histogram";
import { Store } from "../../engine/store";
import { gapsByConfig } from "./kind-gaps";
import type { SeriesRow } from "../panels/SeriesList";

const rates = ["1k", "2k", "5k", "10k", "20k", "40k", "80k", "160k"];

describe("response against service time, one line per configuration", () => {
  it("a 2 × 8 sweep gives two lines, each with its widest gap and where", async () => {
    const store = new Store();
    const p99 = new Map<string, number>(); // independent reference: hdr-histogram-js on the simulated values (ns)
    const files: [string, SimInterval[]][] = [];
    ["sysA", "sysB"].forEach((c, ci) =>
      rates.forEach((r, k) => {
        const seed = 10 * ci + k + 1;
        const service = simulateQueue({ rate: 400, seconds: 10, medianServiceSec: 1e-3, sigma: 0.4, stalls: [], seed });
        // the response time queues behind a stall: longest at 40k for sysA, at 5k for sysB
        const stall = (ci === 0 ? r === "40k" : r === "5k") ? 0.5 : 0.05 + 0.01 * k;
        const response = simulateQueue({
          rate: 400,
          seconds: 10,
          medianServiceSec: 1e-3,
          sigma: 0.4,
          stalls: [
            { at: 4, duration: stall },
            { at: 7, duration: stall },
          ],
          seed,
        });
        files.push([`${c}_${r}.service.hlog`, service], [`${c}_${r}.response.hlog`, response]);
      }),
    );
    files.sort(([a], [b]) => (a < b ? -1 : 1)); // string order, as a file picker gives them
    for (const [name, ivs] of files) {
      await store.load(name, [writeHlog(ivs, { maxRatio: 1e6 })]);
      p99.set(name.replace(/\.hlog$/, ""), mergeAll(ivs.map((iv) => iv.histogram)).getValueAtPercentile(99));
    }
    const rows: SeriesRow[] = store.views().map((view) => ({ view, color: "#000", dash: "", visible: true, verdict: null }));
    const gaps = gapsByConfig(rows);
    expect(gaps.map((g) => g.config)).toEqual(["sysA", "sysB"]);
    expect(gaps.map((g) => g.pairs.length)).toEqual([8, 8]);
    // the pairs read in throughput order
    expect(gaps[0]!.pairs.map((p) => p.response.view.throughput)).toEqual([1e3, 2e3, 5e3, 1e4, 2e4, 4e4, 8e4, 16e4]);
    expect(gaps.map((g) => [g.worst.response.view.name, g.worst.service.view.name])).toEqual([
      ["sysA_40k.response", "sysA_40k.service"],
      ["sysB_5k.response", "sysB_5k.service"],
    ]);
    for (const g of gaps) {
      for (const p of g.pairs) {
        const want = p99.get(p.response.view.name)! / p99.get(p.service.view.name)!;
        expect(p.gap / want).toBeCloseTo(1, 2);
        expect(p.gap).toBeLessThanOrEqual(g.worst.gap);
      }
      expect(g.worst.gap).toBeGreaterThan(2);
    }
  });

  it("a response-time run without a service partner makes no line", async () => {
    const store = new Store();
    await store.load("sysA_1k.response.hlog", [writeHlog(simulateQueue({ rate: 200, seconds: 3, medianServiceSec: 1e-3, sigma: 0.4, stalls: [], seed: 1 }), { maxRatio: 1e6 })]);
    const rows: SeriesRow[] = store.views().map((view) => ({ view, color: "#000", dash: "", visible: true, verdict: null }));
    expect(gapsByConfig(rows)).toEqual([]);
  });
});
