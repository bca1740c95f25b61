// Test fixtures: realistic throughput sweeps (2 configs × 4 throughputs) for the size budget.
//
// synthSweep: per-bucket counts of a lognormal body, a queueing tail and a stall tail (requests
// caught in a stall wait uniformly up to its length), with Poisson noise per bucket, as
// 1e6–1e8 independent samples would give: fast at any count. The noise matters: smooth
// expected counts would compress unrealistically well.
// simSweep: the queue simulator's histograms (1 s intervals merged, per-interval maxes as the
// timeline), up to 5e5 requests per series (a bigger run costs seconds of test time).
import type { Histogram } from "hdr-histogram-js";
import { maxOf, mergeAll, newHistogram, valueAtPercentile } from "../../src/core/histogram";
import { mulberry32, simulateQueue } from "./queue-sim";
import type { ShareState, ShareView, SharedSeries } from "../../src/share/schema";

interface Js {
  valueFromIndex(i: number): number;
  highestEquivalentValue(v: number): number;
  countsArrayIndex(v: number): number;
}

function erfc(x: number): number {
  // Numerical Recipes erfc (Chebyshev), relative error < 1.2e-7 everywhere: good in far tails.
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

interface Mix {
  median: number; // ns
  sigma: number;
  queueWeight: number;
  queueScale: number; // ns, exponential
  stallWeight: number;
  stall: number; // ns, uniform [0, stall]
}

/** P(X > x) of the mixture. */
function survival(m: Mix, x: number): number {
  if (x <= 0) return 1;
  const body = 0.5 * erfc(Math.log(x / m.median) / (m.sigma * Math.SQRT2));
  // Queued requests: the median service time plus an exponential wait.
  const queue = x < m.median ? 1 : Math.exp(-(x - m.median) / m.queueScale);
  const stall = Math.max(0, 1 - x / m.stall);
  return (1 - m.queueWeight - m.stallWeight) * body + m.queueWeight * queue + m.stallWeight * stall;
}

function poisson(mean: number, rnd: () => number): number {
  if (mean <= 0) return 0;
  if (mean < 30) {
    const l = Math.exp(-mean);
    let k = 0;
    let p = rnd();
    while (p > l) {
      k++;
      p *= rnd();
    }
    return k;
  }
  const z = Math.sqrt(-2 * Math.log(Math.max(1e-12, rnd()))) * Math.cos(2 * Math.PI * rnd());
  return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
}

export function synthHistogram(m: Mix, total: number, seed: number): Histogram {
  const rnd = mulberry32(seed);
  const h = newHistogram(3, 1, 10 * m.stall);
  const j = h as unknown as Js;
  const end = j.countsArrayIndex(Math.max(m.stall, m.median * 1e3, m.queueScale * 60));
  let prev = 1;
  for (let i = 1; i <= end; i++) {
    const lo = j.valueFromIndex(i);
    const hi = j.highestEquivalentValue(lo) + 1;
    const s = survival(m, hi);
    const c = poisson(total * (prev - s), rnd);
    prev = s;
    if (c > 0) h.recordValueWithCount(lo, c);
  }
  return h;
}

/** A coarse timeline: around the p99.99 with noise, spikes to the stall length now and then. */
function synthTimeline(h: Histogram, rnd: () => number, n = 200): number[] {
  const base = valueAtPercentile(h, 99.99);
  const top = maxOf(h);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const spike = rnd() < 0.03;
    const z = Math.sqrt(-2 * Math.log(Math.max(1e-12, rnd()))) * Math.cos(2 * Math.PI * rnd());
    out.push(Math.round(spike ? top * (0.3 + 0.7 * rnd()) : base * Math.exp(0.35 * z)));
  }
  return out;
}

export const SWEEP_VIEW: ShareView = {
  displayUnit: "ms",
  yLog: true,
  sideBySide: false,
  requirement: "p50<=1ms, p99<=10ms, p99.9<=50ms, max<=1s",
  range: { start: null, end: null },
  timeline: { percentiles: [50, 90, 99, 99.9, 99.99], perLane: false, wallClock: false, log: true },
};

const THROUGHPUTS = [10_000, 20_000, 40_000, 60_000];
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];

/** 2 configs × 4 throughputs, 1e6 to 1e8 counts each, spans of 3–6 decades, 200-bucket timelines. */
export function synthSweep(seed = 1): ShareState {
  const rnd = mulberry32(seed);
  const series: SharedSeries[] = [];
  ["baseline", "patched"].forEach((config, ci) => {
    THROUGHPUTS.forEach((tp, ti) => {
      const load = (ti + 1) / 4;
      const mix: Mix = {
        median: (ci === 0 ? 180_000 : 140_000) * (1 + load),
        sigma: 0.35 + 0.25 * load,
        queueWeight: 0.02 + 0.2 * load * load,
        queueScale: 200_000 + 5_000_000 * load ** 3,
        stallWeight: 1e-4 * (1 + 20 * load),
        stall: (ci === 0 ? 400e6 : 120e6) * (1 + 3 * load),
      };
      const total = Math.round(1.2e6 * (1e8 / 1.2e6) ** ((ci * 4 + ti) / 7)); // 1.2e6 … 1e8
      const h = synthHistogram(mix, total, seed * 100 + ci * 10 + ti);
      series.push({
        name: `${config}-${tp}rps.hlog`,
        source: `results/${config}/tp-${tp}.hlog`,
        tag: "",
        config,
        throughput: tp,
        kind: "response",
        unit: "ns",
        color: COLORS[ci * 4 + ti]!,
        visible: true,
        histogram: h,
        timeline: { t0: 0, t1: 600, max: synthTimeline(h, rnd) },
        startTime: 1_767_225_600 + ci * 3600 + ti * 700,
      });
    });
  });
  return { view: SWEEP_VIEW, series };
}

/** The queue simulator's sweep: up to 5e5 requests per series over 100 s (200 half-second intervals), stalls included. */
export function simSweep(): ShareState {
  const series: SharedSeries[] = [];
  ["baseline", "patched"].forEach((config, ci) => {
    [2_000, 3_500, 4_500, 5_000].forEach((rate, ti) => {
      const intervals = simulateQueue({
        rate,
        seconds: 100,
        intervalSec: 0.5,
        medianServiceSec: ci === 0 ? 150e-6 : 120e-6,
        sigma: 0.5,
        stalls: [
          { at: 37, duration: ci === 0 ? 0.4 : 0.12 },
          { at: 71, duration: ci === 0 ? 1.2 : 0.3 },
        ],
        seed: 7 + ci * 10 + ti,
      });
      series.push({
        name: `${config}-${rate}rps`,
        source: `sim/${config}-${rate}.hlog`,
        tag: "",
        config,
        throughput: rate,
        kind: "response",
        unit: "ns",
        color: COLORS[ci * 4 + ti]!,
        visible: true,
        histogram: mergeAll(intervals.map((iv) => iv.histogram)),
        timeline: { t0: 0, t1: 100, max: intervals.map((iv) => maxOf(iv.histogram)) },
        startTime: null,
      });
    });
  });
  return { view: SWEEP_VIEW, series };
}
