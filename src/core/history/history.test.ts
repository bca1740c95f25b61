// The change-point method on generated histories: a known step is found at the run where it
// starts, a steady history stays quiet, a run's own interval decides how much it weighs, and a
// step inside the margin is not reported. Then on runs of the queue simulator (pauses, the
// queue they leave, slow drift), through the same summaries the command line makes.
import { describe, expect, it } from "vitest";
import { historySummaries } from "../../../scripts/lib/history-sim";
import { detectChanges, detectSplits, judgeNewRun, orderRuns, runToRunSd, seriesSentence, stableStretch, type Change, type Observation } from ".";
import { seeded } from "./stats";

function gauss(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, rnd()))) * Math.cos(2 * Math.PI * rnd());
}

/** Log values: run-to-run scatter `sd`, each run's own error `se`, a step of `step` (a ratio) from run `at`. */
function sequence(seed: number, n: number, o: { sd?: number; se?: number; at?: number; step?: number } = {}): Observation[] {
  const rnd = seeded(seed);
  return Array.from({ length: n }, (_, i) => {
    const se = o.se ?? 0.01;
    const shift = o.at !== undefined && i >= o.at ? Math.log(o.step ?? 1) : 0;
    return { x: Math.log(1e6) + shift + (o.sd ?? 0.02) * gauss(rnd) + se * gauss(rnd), se };
  });
}

describe("run order", () => {
  it("orders by StartTime, ties by name, runs without one last by name (numbers as numbers)", () => {
    const runs = [
      { id: "run-10", start: null },
      { id: "b", start: 200 },
      { id: "a", start: 200 },
      { id: "run-9", start: null },
      { id: "c", start: 100 },
    ];
    expect(orderRuns(runs).map((r) => r.id)).toEqual(["c", "a", "b", "run-9", "run-10"]);
  });
});

describe("change points in one sequence", () => {
  it("finds a ×1.15 step at the run where it starts, with an interval holding 1.15", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const at = 10 + seed * 5;
      const splits = detectSplits(sequence(seed, 60, { at, step: 1.15 }));
      expect(splits.map((s) => s.at)).toEqual([at]);
      const s = splits[0]!;
      const z = 1.96;
      expect(Math.exp(s.diff - z * s.seDiff)).toBeLessThan(1.15);
      expect(Math.exp(s.diff + z * s.seDiff)).toBeGreaterThan(1.15);
    }
  });

  it("stays quiet on steady histories of 30 to 100 runs", () => {
    let called = 0;
    for (let seed = 1; seed <= 40; seed++) if (detectSplits(sequence(seed, 30 + (seed % 3) * 35)).length > 0) called++;
    expect(called).toBeLessThanOrEqual(1);
  });

  it("does not report a real step smaller than the margin", () => {
    const obs = sequence(7, 80, { sd: 0.003, se: 0.002, at: 40, step: 1.03 });
    expect(detectSplits(obs)).toEqual([]);
    // The same step with a 2 % margin is reported.
    expect(detectSplits(obs, { margin: 0.02 }).map((s) => s.at)).toEqual([40]);
  });

  it("weighs a run by its own interval: the last runs ×1.6 with wide intervals make no change, with narrow ones they do", () => {
    const base = sequence(11, 40, { sd: 0.01, se: 0.01 });
    const wild = (se: number) => base.map((o, i) => (i >= 36 ? { x: o.x + Math.log(1.6), se } : o));
    expect(detectSplits(wild(0.5))).toEqual([]);
    expect(detectSplits(wild(0.01)).map((s) => s.at)).toEqual([36]);
  });

  it("estimates the run-to-run scatter despite a step", () => {
    const obs = sequence(3, 100, { sd: 0.05, se: 0, at: 50, step: 1.5 });
    const runs = obs.map((o, i) => ({ id: `r${i}`, start: i, series: [{ name: "s", unit: "ns", count: 1e6, percentiles: { "50": Math.exp(o.x) }, se: { "50": 0 } }] }));
    expect(runToRunSd(runs, "s", 50)).toBeGreaterThan(0.04);
    expect(runToRunSd(runs, "s", 50)).toBeLessThan(0.065);
  });
});

describe("words", () => {
  it("names each change with its interval and the run, then the steady percentiles", () => {
    const c: Change = {
      series: "s",
      run: "run-2026-11-03",
      index: 4,
      percentile: 99.9,
      before: 10,
      after: 11.8,
      ratio: 1.18,
      low: 1.12,
      high: 1.25,
      direction: "worse",
      beforeRuns: [0, 4],
      afterRuns: [4, 9],
      p: 0.005,
    };
    expect(seriesSentence("s", [c], [50, 99.9])).toBe("p99.9 rose 18 % (12–25 %) at run-2026-11-03; p50 steady; p90, p99, p99.99 not supported by the runs' data");
  });
});

describe("histories of simulated runs (pauses, their queues, drift)", () => {
  it("finds a ×1.15 step in every value at the right run, and nothing else", { timeout: 120_000 }, () => {
    const h = historySummaries({ seed: 42, runs: 24, changeAt: 12, scale: 1.15, seconds: 180 });
    const changes = detectChanges(h.summaries);
    const p50 = changes.filter((c) => c.percentile === 50);
    expect(p50.map((c) => c.index)).toEqual([12]);
    expect(p50[0]!.direction).toBe("worse");
    expect(p50[0]!.run).toBe("run-012");
    expect(p50[0]!.low).toBeLessThan(1.15);
    expect(p50[0]!.high).toBeGreaterThan(1.15);
    // p99.9 hangs on a few pauses per run: its change may be placed a run or two off.
    expect(changes.every((c) => Math.abs(c.index - 12) <= 2 && c.direction === "worse")).toBe(true);
    const last = Math.max(...changes.map((c) => c.index));
    expect(stableStretch(h.summaries, changes, "svc")).toEqual(Array.from({ length: 24 - last }, (_, i) => last + i));
  });

  it("stays quiet on a steady history, and its gate passes a run like the others and fails one 30 % slower", { timeout: 120_000 }, () => {
    const h = historySummaries({ seed: 43, runs: 24, seconds: 180, keep: 8, scale: 1.3 });
    const changes = detectChanges(h.summaries);
    expect(changes).toEqual([]);
    const stretch = stableStretch(h.summaries, changes, "svc", 8);
    const base = { label: "history", runs: h.kept };
    const spread = (p: number) => runToRunSd(h.summaries, "svc", p, stretch);
    expect(judgeNewRun(base, { label: "new", runs: [h.run(24, false).input] }, spread).worse).toEqual([]);
    // Worse somewhere (where depends on what the comparison judges: it widens p50 for drift slower than its blocks).
    expect(judgeNewRun(base, { label: "new", runs: [h.run(24, true).input] }, spread).worse.length).toBeGreaterThan(0);
  });
});
