// Histories of runs for the change-point tests and the calibration harness: each run is
// queue-sim's open-loop queue with garbage-collection-like pauses (and the queue each leaves),
// service times drifting slowly within the run (a period longer than a bootstrap block), and
// a speed that differs a little from run to run (another machine, another build cache). A
// change is a step in every value from a given run on, or longer pauses from a given run on
// (a tail-only change: p50 steady, p99.9 up). Deterministic for a given seed.
import { build } from "hdr-histogram-js";
import { percentileOfSparse, layoutOf } from "../../src/engine/sparse-percentile";
import type { RunInput, Sparse } from "../../src/core/compare";
import { summarizeSide } from "../../src/core/history/summary";
import { SUMMARY_PERCENTILES, type RunSummary } from "../../src/core/history/types";
import { writeHlog } from "./hlog-fixture";
import { gcPauses, mulberry32, simulateQueue, simulateQueueInto } from "./queue-sim";

export interface HistoryRunOptions {
  seed: number;
  seconds?: number;
  rate?: number;
  /** Every recorded value multiplied by this (a step). */
  scale?: number;
  /** Pause lengths multiplied by this (a tail-only change). */
  pauseScale?: number;
  /** Run-to-run spread of the speed (sd of its log). */
  runSpread?: number;
}

/** Counts-array index of v in HdrHistogram's layout for 3 significant digits and lowest value 1. */
function index3(v: number): number {
  const bucket = Math.max(0, Math.floor(Math.log2(v)) - 10);
  return bucket * 1024 + Math.floor(v / 2 ** bucket);
}

const LAYOUT = layoutOf(build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 }));

function normal(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, rnd()))) * Math.cos(2 * Math.PI * rnd());
}

/** One run: its interval histograms (sparse, ns) and its percentiles as the report gives them. */
export function historyRun(o: HistoryRunOptions): { input: RunInput; count: number; percentiles: Record<string, number> } {
  const rnd = mulberry32(o.seed ^ 0x5bd1e995);
  const seconds = o.seconds ?? 300;
  const speed = Math.exp((o.runSpread ?? 0.02) * normal(rnd));
  const phase = 2 * Math.PI * rnd();
  const period = 150 + 150 * rnd();
  const scale = o.scale ?? 1;
  // Responses come in the order they were sent, so interval by interval: one scratch array of
  // counts, emptied into a sparse histogram (and the whole run's) when the interval ends.
  const intervals: Sparse[] = [];
  const dense = new Float64Array(64 * 1024);
  const touched: number[] = [];
  const whole = new Float64Array(dense.length);
  const flush = () => {
    touched.sort((a, b) => a - b);
    intervals.push({ indices: Int32Array.from(touched), counts: Float64Array.from(touched, (x) => dense[x]!) });
    for (const x of touched) {
      whole[x]! += dense[x]!;
      dense[x] = 0;
    }
    touched.length = 0;
  };
  simulateQueueInto(
    {
      rate: o.rate ?? 300,
      seconds,
      medianServiceSec: 0.001 * speed,
      sigma: 0.4,
      stalls: gcPauses(o.seed ^ 0x27d4eb2d, seconds, 15, 0.04 * (o.pauseScale ?? 1)),
      seed: o.seed,
      slowdown: (t) => 1 + 0.05 * Math.sin(phase + (2 * Math.PI * t) / period),
    },
    (i, ns) => {
      while (intervals.length < i) flush();
      const x = index3(Math.round(ns * scale));
      if (dense[x] === 0) touched.push(x);
      dense[x]! += 1;
    },
  );
  while (intervals.length < Math.ceil(seconds)) flush();
  const idx: number[] = [];
  whole.forEach((c, x) => {
    if (c > 0) idx.push(x);
  });
  const sum: Sparse = { indices: Int32Array.from(idx), counts: Float64Array.from(idx, (x) => whole[x]!) };
  const total = idx.reduce((a, x) => a + whole[x]!, 0);
  const percentiles: Record<string, number> = {};
  for (const p of SUMMARY_PERCENTILES) percentiles[String(p)] = percentileOfSparse(sum, p, LAYOUT, total);
  return {
    input: { name: "run", layout: { digits: 3, lowest: 1 }, unitNs: 1, recordedUnit: "ns", data: { kind: "intervals", intervals, intervalSeconds: 1 } },
    count: total,
    percentiles,
  };
}

export interface HistorySpec {
  seed: number;
  runs: number;
  /** From this run on, the change applies (none when absent). */
  changeAt?: number;
  scale?: number;
  pauseScale?: number;
  seconds?: number;
  rate?: number;
  runSpread?: number;
  /** Keep the data of this many of the last runs (for the gate). */
  keep?: number;
}

/** The runs of a history, as the runs' summaries (series "svc", ns), named run-000 … */
export function historySummaries(spec: HistorySpec): { summaries: RunSummary[]; kept: RunInput[]; run: (i: number, change?: boolean) => ReturnType<typeof historyRun> } {
  const options = (i: number, changed = spec.changeAt !== undefined && i >= spec.changeAt): HistoryRunOptions => {
    return {
      seed: spec.seed * 7919 + i * 104729,
      seconds: spec.seconds,
      rate: spec.rate,
      runSpread: spec.runSpread,
      scale: changed ? spec.scale : 1,
      pauseScale: changed ? spec.pauseScale : 1,
    };
  };
  const summaries: RunSummary[] = [];
  const kept: RunInput[] = [];
  for (let i = 0; i < spec.runs; i++) {
    const r = historyRun(options(i));
    if (i >= spec.runs - (spec.keep ?? 0)) kept.push(r.input);
    const s = summarizeSide({ name: "svc", unit: "ns", count: r.count, percentiles: r.percentiles }, [r.input]);
    summaries.push({ id: `run-${String(i).padStart(3, "0")}`, start: 1.8e9 + i * 3600, series: [s] });
  }
  return { summaries, kept, run: (i, change) => historyRun(options(i, change)) };
}

export interface HistoryLogSpec {
  seed: number;
  runs: number;
  /** From this run on, service times are multiplied by `scale` (a step). */
  changeAt?: number;
  scale?: number;
  seconds?: number;
  rate?: number;
  /** StartTime of run 0 (ms since epoch); the runs are an hour apart. */
  startMs?: number;
}

/** The interval log of each run of a history, as text (queue-sim's queue, written with hdr-histogram-js's writer). */
export function historyLogs(spec: HistoryLogSpec): { id: string; startMs: number; text: string }[] {
  const out: { id: string; startMs: number; text: string }[] = [];
  for (let i = 0; i < spec.runs; i++) {
    const seed = spec.seed * 7919 + i * 104729;
    const rnd = mulberry32(seed ^ 0x5bd1e995);
    const seconds = spec.seconds ?? 60;
    const speed = Math.exp(0.02 * normal(rnd)) * (spec.changeAt !== undefined && i >= spec.changeAt ? (spec.scale ?? 1) : 1);
    const startMs = (spec.startMs ?? Date.UTC(2026, 10, 1, 0, 0, 0)) + i * 3_600_000;
    const intervals = simulateQueue({
      rate: spec.rate ?? 200,
      seconds,
      medianServiceSec: 0.001 * speed,
      sigma: 0.4,
      stalls: gcPauses(seed ^ 0x27d4eb2d, seconds, 15, 0.04),
      seed,
    });
    out.push({ id: `run-${String(i).padStart(3, "0")}`, startMs, text: writeHlog(intervals, { startMs }) });
  }
  return out;
}
