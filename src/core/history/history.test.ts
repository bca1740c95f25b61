// The change-point method on generated histories: a known step is found at the run where it
// starts, a steady history stays quiet, a run's own interval decides how much it weighs, and a
// step inside the margin is not reported. Then on runs of the queue simulator (pauses, the
// queue they leave, slow drift), through the same summaries the command line makes.
import { describe, expect, it } from "vitest";
import { historySummaries } from "../../../tests/support/history-sim";
import {
  detectChanges,
  detectSplits,
  judgedPercentiles,
  judgeNewRun,
  orderRuns,
  runToRunSd,
  seriesSentence,
  stableStretch,
  type Change,
  type Observation,
  type RunSummary,
} from ".";
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

/**
 * p99.9 of 14 of the 100 runs of a steady simulated history (tests/support/history-sim.ts, seed
 * 2): [run, ns, se]. The other runs are left out, as runs with too few values above p99.9 are.
 */
const TAIL_OF_STEADY: [number, number, number][] = [
  [4, 38043647, 0.237],
  [26, 41975807, 0.112],
  [28, 41123839, 0.11],
  [29, 33619967, 0.197],
  [37, 41254911, 0.152],
  [42, 35553279, 0.162],
  [46, 30113791, 0.297],
  [53, 27213823, 0.125],
  [54, 29425663, 0.125],
  [64, 32636927, 0.11],
  [68, 25821183, 0.182],
  [79, 36143103, 0.202],
  [87, 35356671, 0.237],
  [95, 33619967, 0.217],
];

/**
 * A history of one series "svc": p50, p90 and p99 in every run (each its own steady sequence,
 * 2 % apart from run to run), p99.9 only in the runs `tail` lists.
 */
function history(seed: number, n: number, tail: readonly [number, number, number][], step?: { at: number; ratio: number }): RunSummary[] {
  const body = [50, 90, 99].map((p, k) => ({ p, obs: sequence(seed * 10 + k, n, { at: step?.at, step: step?.ratio }) }));
  return Array.from({ length: n }, (_, i) => {
    const percentiles: Record<string, number> = {};
    const se: Record<string, number | null> = { "99.9": null, "99.99": null };
    for (const { p, obs } of body) {
      percentiles[String(p)] = Math.exp(obs[i]!.x) * (1 + p / 100);
      se[String(p)] = obs[i]!.se;
    }
    const t = tail.find((r) => r[0] === i);
    if (t) {
      percentiles["99.9"] = t[1];
      se["99.9"] = t[2];
    }
    return { id: `run-${i}`, start: i, series: [{ name: "svc", unit: "ns", count: 90_000, percentiles, se }] };
  });
}

describe("change points across a series' percentiles", () => {
  it("calls no change in a steady history whose p99.9, resting on a few runs, splits by chance (one test among four percentiles)", () => {
    const runs = history(2, 100, TAIL_OF_STEADY);
    const tail = TAIL_OF_STEADY.map(([, v, se]) => ({ x: Math.log(v), se }));
    // Alone, at the series' whole 5 %, the p99.9 split is taken (p between 1.25 % and 5 %) …
    expect(detectSplits(tail).length).toBe(1);
    // … but the series judges four percentiles, and a steady one stays quiet at all of them
    // together at 5 %.
    expect(judgedPercentiles(runs, "svc")).toEqual([50, 90, 99, 99.9]);
    expect(detectChanges(runs)).toEqual([]);
  });

  it("keeps the chance of a change in a steady series at about alpha, however many percentiles it judges", () => {
    // Four steady percentiles, each a sequence with no margin to hide behind (a tiny margin):
    // with alpha per percentile this calls about four times as often.
    let called = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const runs = history(seed, 30 + (seed % 3) * 35, []).map((r, i) => {
        const s = r.series[0]!;
        const extra = sequence(seed * 10 + 7, 100, { sd: 0.02 })[i]!;
        return { ...r, series: [{ ...s, percentiles: { ...s.percentiles, "99.9": Math.exp(extra.x) * 3 }, se: { ...s.se, "99.9": extra.se } }] };
      });
      if (detectChanges(runs, { margin: 0.0001 }).length > 0) called++;
    }
    expect(called).toBeLessThanOrEqual(6);
  });

  it("still finds a ×1.15 step at every percentile, and a tail-only step at p99.9", () => {
    const runs = history(5, 50, [], { at: 20, ratio: 1.15 });
    const changes = detectChanges(runs);
    expect(changes.map((c) => [c.percentile, c.index, c.direction])).toEqual([
      [50, 20, "worse"],
      [90, 20, "worse"],
      [99, 20, "worse"],
    ]);
    // p99.9 in every third run, ×1.6 from run 24 on, each run 15 % off its stretch.
    const rnd = seeded(9);
    const tail = Array.from({ length: 20 }, (_, k): [number, number, number] => [3 * k, 3e7 * (3 * k >= 24 ? 1.6 : 1) * Math.exp(0.15 * gauss(rnd)), 0.15]);
    const withTail = history(6, 60, tail);
    expect(detectChanges(withTail).map((c) => [c.percentile, c.index, c.direction])).toEqual([[99.9, 24, "worse"]]);
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

  it("finds longer pauses at p99.9 at the run they start, though each run's p99.9 then rests on too few pauses for its own interval", { timeout: 120_000 }, () => {
    const h = historySummaries({ seed: 44, runs: 24, changeAt: 12, pauseScale: 1.6, seconds: 180 });
    // After the change the values above p99.9 come from a few long pauses: no run has an
    // interval of its own there, but each still gives its value.
    expect(h.summaries.slice(12).every((r) => r.series[0]!.se["99.9"] === 0)).toBe(true);
    const changes = detectChanges(h.summaries);
    const tail = changes.filter((c) => c.percentile === 99.9);
    expect(tail.length).toBe(1);
    // Each run's p99.9 rests on a few pauses: one run after the change may look like those before it.
    expect(Math.abs(tail[0]!.index - 12)).toBeLessThanOrEqual(2);
    expect(tail[0]!.direction).toBe("worse");
    expect(changes.some((c) => c.percentile === 50)).toBe(false);
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
