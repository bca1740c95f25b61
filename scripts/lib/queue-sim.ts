// A single-server FIFO queue fed at a fixed rate (an open-loop load generator that measures
// from each request's intended start, so there is no coordinated omission), with optional
// stalls during which the server does nothing: a garbage-collection pause, say.
// Produces one histogram of response times per interval. Deterministic for a given seed.
import { build, type Histogram } from "hdr-histogram-js";

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Stall {
  at: number; // seconds
  duration: number; // seconds
}

export interface SimConfig {
  rate: number; // requests per second
  seconds: number; // run length
  medianServiceSec: number; // lognormal service time median
  sigma: number; // lognormal shape
  stalls: Stall[];
  seed: number;
  intervalSec?: number;
}

export interface SimInterval {
  start: number; // seconds since run start
  length: number;
  histogram: Histogram; // response times in ns
}

export function simulateQueue(c: SimConfig): SimInterval[] {
  const rnd = mulberry32(c.seed);
  const step = c.intervalSec ?? 1;
  const n = Math.ceil(c.seconds / step);
  const intervals: SimInterval[] = [];
  for (let i = 0; i < n; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    intervals.push({ start: i * step, length: step, histogram: h });
  }
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
    const service = c.medianServiceSec * Math.exp(c.sigma * z);
    free = start + service;
    const response = free - arrival;
    // The response is accounted to the interval in which the request was sent.
    const idx = Math.min(n - 1, Math.floor(arrival / step));
    intervals[idx]!.histogram.recordValue(Math.max(1, Math.round(response * 1e9)));
  }
  return intervals;
}
