// A single-server FIFO queue fed at a fixed rate (an open-loop load generator that measures
// from each request's intended start, so there is no coordinated omission), with optional
// stalls during which the server does nothing: a garbage-collection pause, say.
// Produces one histogram of response times per interval. Deterministic for a given seed.
import { build, type Histogram } from "hdr-histogram-js";

// mulberry32: the history's seeded generator, one copy for the app and the simulators.
import { seeded as mulberry32 } from "../../src/core/history/stats";

export { mulberry32 };

export interface Stall {
  at: number; // seconds
  duration: number; // seconds
}

/** Stalls from [start s, length s] pairs: `stallsAt([8, 0.2], [20, 0.45])`. */
export function stallsAt(...pairs: [at: number, duration: number][]): Stall[] {
  return pairs.map(([at, duration]) => ({ at, duration }));
}

export interface SimConfig {
  rate: number; // requests per second
  seconds: number; // run length
  medianServiceSec: number; // lognormal service time median
  sigma: number; // lognormal shape
  stalls: Stall[];
  seed: number;
  intervalSec?: number;
  /** Service times multiplied by this at time t (s): slow drift within a run. */
  slowdown?: (t: number) => number;
}

export interface SimInterval {
  start: number; // seconds since run start
  length: number;
  histogram: Histogram; // response times in ns
}

export function simulateQueue(c: SimConfig): SimInterval[] {
  const step = c.intervalSec ?? 1;
  const n = Math.ceil(c.seconds / step);
  const intervals: SimInterval[] = [];
  for (let i = 0; i < n; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    intervals.push({ start: i * step, length: step, histogram: h });
  }
  simulateQueueInto(c, (i, ns) => intervals[i]!.histogram.recordValue(ns));
  return intervals;
}

/** The same queue, each response (ns) handed to `record` with its interval's index instead of a histogram. */
export function simulateQueueInto(c: SimConfig, record: (interval: number, ns: number) => void): void {
  const rnd = mulberry32(c.seed);
  const step = c.intervalSec ?? 1;
  const n = Math.ceil(c.seconds / step);
  const gap = 1 / c.rate;
  const stalls = [...c.stalls].sort((a, b) => a.at - b.at);
  let free = 0; // when the server is next free
  let si = 0;
  const total = Math.floor(c.seconds * c.rate);
  for (let k = 0; k < total; k++) {
    const arrival = k * gap;
    let start = Math.max(arrival, free);
    // A stall that begins before this request starts holds it until the stall ends.
    while (si < stalls.length && stalls[si]!.at + stalls[si]!.duration <= start) si++;
    const s = stalls[si];
    if (s && s.at <= start) start = s.at + s.duration;
    // Box–Muller normal for a lognormal service time.
    const u = Math.max(1e-12, rnd());
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
    const service = c.medianServiceSec * Math.exp(c.sigma * z) * (c.slowdown ? c.slowdown(start) : 1);
    free = start + service;
    const response = free - arrival;
    // The response is accounted to the interval in which the request was sent.
    record(Math.min(n - 1, Math.floor(arrival / step)), Math.max(1, Math.round(response * 1e9)));
  }
}

/**
 * Garbage-collection-like pauses over a run: they arrive at random (about one every
 * `everySec`), and last a lognormal time around `medianSec`. Deterministic for a given seed.
 */
export function gcPauses(seed: number, seconds: number, everySec: number, medianSec: number, sigma = 0.5): Stall[] {
  const rnd = mulberry32(seed);
  const out: Stall[] = [];
  for (let t = -Math.log(1 - rnd()) * everySec; t < seconds; t += -Math.log(1 - rnd()) * everySec) {
    const u = Math.max(1e-12, rnd());
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
    const duration = medianSec * Math.exp(sigma * z);
    out.push({ at: t, duration });
    t += duration;
  }
  return out;
}

export interface SyncClientConfig {
  /** Connections, each with at most one request in flight. */
  connections: number;
  /** Intended total rate (requests per second): each connection means to send every connections/rate s. */
  rate: number;
  seconds: number;
  medianServiceSec: number;
  sigma: number;
  /** The server does nothing during a stall. */
  stalls: Stall[];
  seed: number;
  intervalSec?: number;
}

export interface SyncClientRun {
  /** What the synchronous client records: from its (late) send to the reply, in ns. */
  measured: SimInterval[];
  /** The same values recorded with recordValueWithExpectedInterval(value, connections/rate). */
  corrected: SimInterval[];
}

/**
 * A synchronous client (each connection sends its next request only after the previous reply,
 * at its next scheduled slot or at once when behind, and never catches up on the slots it
 * missed) against a server that stalls. Each stall is measured once per connection: coordinated
 * omission. Values are recorded in the interval in which the reply arrives, as a recorder that
 * logs intervals (HdrHistogram's Recorder) does. Deterministic for a given seed.
 */
export function simulateSyncClient(c: SyncClientConfig): SyncClientRun {
  const rnd = mulberry32(c.seed);
  const step = c.intervalSec ?? 1;
  const n = Math.ceil(c.seconds / step);
  const make = (): SimInterval[] =>
    Array.from({ length: n }, (_, i) => ({ start: i * step, length: step, histogram: build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 }) }));
  const measured = make();
  const corrected = make();
  const stalls = [...c.stalls].sort((a, b) => a.at - b.at);
  const every = c.connections / c.rate;
  const everyNs = Math.round(every * 1e9);
  for (let k = 0; k < c.connections; k++) {
    let t = (k * every) / c.connections;
    let si = 0;
    while (t < c.seconds) {
      let start = t;
      while (si < stalls.length && stalls[si]!.at + stalls[si]!.duration <= start) si++;
      const s = stalls[si];
      if (s && s.at <= start) start = s.at + s.duration;
      const u = Math.max(1e-12, rnd());
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
      let finish = start + c.medianServiceSec * Math.exp(c.sigma * z);
      for (let j = si; j < stalls.length && stalls[j]!.at < finish; j++) if (stalls[j]!.at > start) finish += stalls[j]!.duration;
      if (finish >= c.seconds) break;
      const latencyNs = Math.max(1, Math.round((finish - t) * 1e9));
      const idx = Math.min(n - 1, Math.floor(finish / step));
      measured[idx]!.histogram.recordValue(latencyNs);
      corrected[idx]!.histogram.recordValueWithExpectedInterval(latencyNs, everyNs);
      t = Math.max(t + every, finish);
    }
  }
  return { measured, corrected };
}
