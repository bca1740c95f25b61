// The coordinated-omission warning as the app computes it for a loaded interval log: the rate
// test sees the intervals the log carries.
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { simulateQueue, simulateSyncClient, type Stall } from "../../tests/support/queue-sim";
import { Store } from "./store";
import { warningText } from "../core/warnings";

const stalls: Stall[] = [
  { at: 8, duration: 0.35 },
  { at: 20, duration: 0.9 },
];
const sim = { rate: 20000, seconds: 30, medianServiceSec: 30e-6, sigma: 0.3, stalls, seed: 6 };

async function warningsOf(name: string, text: string) {
  const store = new Store();
  const r = await store.load(name, [text]);
  expect(r.problems).toEqual([]);
  const [v] = store.views();
  expect(v!.recordedUnit).toBe("ns");
  return v!.warnings;
}

describe("the coordinated-omission warning of an interval log", () => {
  it("flags a synchronous client's stalls, with the rate, the missing requests and a cliff whose ends read apart", async () => {
    const run = simulateSyncClient({ ...sim, connections: 3 });
    const w = await warningsOf("sync_20k.hlog", writeHlog(run.measured, { maxRatio: 1e6 }));
    expect(w.map((x) => x.kind)).toEqual(["coordinated-omission"]);
    const m = warningText(w[0]!);
    expect(m).toMatch(/At the run's 20k requests\/s, a stall that left a max of 35\d\.\d ms/);
    // 3 connections × 2 stalls above 175 ms; 20000 × 0.35 s requests never sent
    expect(m).toMatch(/this run has 6, and the intervals around 8 s hold (69\d\d|70\d\d) fewer requests/);
    const cliff = /from [\d.]+ µs at p([\d.]+) to [\d.]+ ms at p([\d.]+)/.exec(m);
    expect(cliff).not.toBeNull();
    expect(cliff![1]).not.toBe(cliff![2]);
    expect(Number(cliff![1])).toBeGreaterThan(99.998);
  });

  it("does not flag the same stalls measured open-loop, or corrected", async () => {
    expect(await warningsOf("open_20k.hlog", writeHlog(simulateQueue(sim), { maxRatio: 1e6 }))).toEqual([]);
    const run = simulateSyncClient({ ...sim, connections: 3 });
    expect(await warningsOf("corrected_20k.hlog", writeHlog(run.corrected, { maxRatio: 1e6 }))).toEqual([]);
  });
});
