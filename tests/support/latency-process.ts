// A latency process shaped like a real service's, simulated straight into per-interval
// histograms (sparse counts by index, HdrHistogram's layout at 3 significant digits, ns), fast
// enough to make hundreds of 20-minute runs at 5,000 requests/s:
//
// - open-loop arrivals (Poisson: each 1 s interval holds a Poisson number of requests, at
//   uniform times within it), so a stall is measured by every request it delays;
// - a steady response time, lognormal, scaled by a slowly drifting load factor: an
//   Ornstein–Uhlenbeck process in log space with time constant `tau` seconds and stationary
//   standard deviation `sd` (0.05 = 5 %);
// - GC-like pauses (a Poisson process, one every `every` seconds on average, each 50–500 ms
//   long, log-uniform): the server stops, requests arriving during a pause wait for its end and
//   for the work queued ahead of them, and the queue it leaves drains at the spare capacity
//   (1 − utilisation) afterwards (the fluid approximation of a queue), so many requests in the
//   following moments are delayed too.
//
// Deterministic for a seed. Used by scripts/calibrate-compare.ts and the comparison's tests.
import { makeRng, normal, type Rng } from "../../src/core/compare/rng";
import type { BucketLayout, RunInput, Sparse } from "../../src/core/compare/types";

export const PROCESS_LAYOUT: BucketLayout = { digits: 3, lowest: 1 };

export interface ProcessOptions {
  /** Run length in seconds (intervals of 1 s). */
  seconds: number;
  /** Requests per second (the Poisson mean per interval). */
  rate?: number;
  /** The steady response time's median (ms) and lognormal shape. */
  medianMs?: number;
  sigma?: number;
  /** Slow load drift on the response time: OU in log space (time constant s, stationary sd). */
  drift?: { tau: number; sd: number } | null;
  /**
   * Pauses: mean seconds between them, duration range (ms, log-uniform). `regular`: one pause
   * in each `every`-second slot, at a uniform moment within it (a stall every 20 s), instead of
   * a Poisson process. `count`: exactly that many pauses, at uniform moments of the run (a run
   * that happened to meet that many).
   */
  pauses?: { every: number; minMs: number; maxMs: number; regular?: boolean; count?: number } | null;
  /** Fraction of capacity in use: the queue a pause leaves drains at 1 − this. */
  utilisation?: number;
  /** Every value multiplied by this (a candidate that is the process shifted). */
  scale?: number;
  /** Values above `above` ns multiplied by `factor` (a tail-only change). */
  tail?: { above: number; factor: number } | null;
  seed: number;
}

export const STEADY: Omit<ProcessOptions, "seconds" | "seed"> = { rate: 5000, medianMs: 2, sigma: 0.5, drift: null, pauses: null, utilisation: 0.6 };
export const PAUSES = { every: 120, minMs: 50, maxMs: 500 };

/** Index of an integer value ≥ 1 at 3 significant digits, lowest discernible value 1 (sub-buckets of 2048). */
const INVERSE_POWERS = Float64Array.from({ length: 64 }, (_, b) => 2 ** -b);
function indexOf(v: number): number {
  const e = v < 4294967296 ? 31 - Math.clz32(v) : Math.floor(Math.log2(v));
  const bucket = e > 10 ? e - 10 : 0;
  return bucket * 1024 + Math.floor(v * INVERSE_POWERS[bucket]!);
}

function poisson(rng: Rng, mean: number): number {
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(rng)));
  let k = 0;
  let p = Math.exp(-mean);
  let s = p;
  const u = rng.next();
  while (u > s && k < 1000) {
    k++;
    p *= mean / k;
    s += p;
  }
  return k;
}

/** Φ⁻¹(u), Acklam's rational approximation (relative error below 1.2e-9). */
export function inverseNormal(u: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (u < lo) {
    const q = Math.sqrt(-2 * Math.log(u));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (u > 1 - lo) return -inverseNormal(1 - u);
  const q = u - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

const TABLE = 1 << 14;
const tables = new Map<number, Float64Array>();
/** exp(σ Φ⁻¹(u)): from a table with linear interpolation in the middle, exactly in the outer 1/TABLE either side (the tail). */
function lognormalTable(sigma: number): Float64Array {
  let t = tables.get(sigma);
  if (!t) {
    t = new Float64Array(TABLE + 1);
    for (let k = 1; k < TABLE; k++) t[k] = Math.exp(sigma * inverseNormal(k / TABLE));
    tables.set(sigma, t);
  }
  return t;
}
function lognormalAt(u: number, sigma: number, t: Float64Array): number {
  const x = u * TABLE;
  if (x < 1 || x >= TABLE - 1) return Math.exp(sigma * inverseNormal(Math.min(1 - 1e-16, Math.max(1e-300, u))));
  const k = Math.floor(x);
  return t[k]! + (t[k + 1]! - t[k]!) * (x - k);
}

interface Pause {
  at: number;
  length: number;
  /** When its queue has drained. */
  until: number;
}

/** The per-interval histograms of one run. */
export function simulateProcess(o: ProcessOptions): Sparse[] {
  const rng = makeRng(o.seed, 7);
  const rate = o.rate ?? STEADY.rate!;
  const median = (o.medianMs ?? STEADY.medianMs!) * 1e6;
  const sigma = o.sigma ?? STEADY.sigma!;
  const rho = o.utilisation ?? STEADY.utilisation!;
  const scale = o.scale ?? 1;
  const tail = o.tail ?? null;
  const n = Math.ceil(o.seconds);
  // Pauses over the run, in time order.
  const pauses: Pause[] = [];
  if (o.pauses) {
    const { every, minMs, maxMs, regular } = o.pauses;
    const next = (t: number) => (regular ? every * (Math.floor(t / every) + 1 + rng.next()) : t - Math.log(1 - rng.next()) * every);
    const add = (t: number) => {
      const length = (minMs * (maxMs / minMs) ** rng.next()) / 1000;
      pauses.push({ at: t, length, until: t + length + (rho * length) / (1 - rho) });
    };
    if (o.pauses.count !== undefined) {
      const at = Array.from({ length: o.pauses.count }, () => n * rng.next()).sort((x, y) => x - y);
      for (const t of at) add(t);
    } else for (let t = regular ? every * rng.next() : next(0); t < n; t = next(t)) add(t);
  }
  // Extra delay (s) of a request arriving at t: the longest any pause gives it.
  const delay = (t: number, near: Pause[]): number => {
    let d = 0;
    for (const p of near) {
      if (t < p.at || t >= p.until) continue;
      const end = p.at + p.length;
      const x = t < end ? end - t + rho * (t - p.at) : rho * p.length - (1 - rho) * (t - end);
      if (x > d) d = x;
    }
    return d;
  };
  const dense = new Float64Array(64 * 1024);
  const touched: number[] = [];
  const out: Sparse[] = [];
  const decay = o.drift ? Math.exp(-1 / o.drift.tau) : 0;
  const kick = o.drift ? o.drift.sd * Math.sqrt(1 - decay * decay) : 0;
  let level = o.drift ? o.drift.sd * normal(rng) : 0;
  let pi = 0;
  let u32 = (rng.next() * 4294967296) >>> 0;
  const table = lognormalTable(sigma);
  const near: Pause[] = [];
  for (let i = 0; i < n; i++) {
    if (o.drift) level = level * decay + kick * normal(rng);
    const m = median * Math.exp(level);
    while (pi < pauses.length && pauses[pi]!.until < i) pi++;
    near.length = 0;
    for (let k = pi; k < pauses.length && pauses[k]!.at < i + 1; k++) if (pauses[k]!.until >= i) near.push(pauses[k]!);
    const count = poisson(rng, rate);
    for (let k = 0; k < count; k++) {
      // mulberry32 inline (the hot loop: a closure call per value costs more than the rest).
      u32 = (u32 + 0x6d2b79f5) >>> 0;
      let t = u32;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      let v = m * lognormalAt(u, sigma, table);
      if (near.length) v += 1e9 * delay(i + rng.next(), near);
      if (tail && v > tail.above) v *= tail.factor;
      v = Math.max(1, Math.round(v * scale));
      const x = indexOf(v);
      if (dense[x] === 0) touched.push(x);
      dense[x]! += 1;
    }
    // A typed array sorts numerically without a comparator call per pair.
    const indices = Int32Array.from(touched).sort();
    const counts = new Float64Array(indices.length);
    for (let k = 0; k < indices.length; k++) {
      counts[k] = dense[indices[k]!]!;
      dense[indices[k]!] = 0;
    }
    out.push({ indices, counts });
    touched.length = 0;
  }
  return out;
}

/** A run as the comparison's input: its intervals, or (`counts`) only their sum, as an .hgrm holds. */
export function processRun(name: string, o: ProcessOptions, kind: "intervals" | "counts" = "intervals"): RunInput {
  const intervals = simulateProcess(o);
  const base = { name, layout: PROCESS_LAYOUT, unitNs: 1, recordedUnit: "ns" };
  if (kind === "intervals") return { ...base, data: { kind: "intervals", intervals, intervalSeconds: 1 } };
  return { ...base, data: { kind: "counts", counts: sumSparse(intervals) } };
}

/** The sum of sparse histograms (one histogram of the whole run). */
export function sumSparse(parts: readonly Sparse[]): Sparse {
  const total = new Map<number, number>();
  for (const s of parts) s.indices.forEach((x, k) => total.set(x, (total.get(x) ?? 0) + s.counts[k]!));
  const idx = [...total.keys()].sort((a, b) => a - b);
  return { indices: Int32Array.from(idx), counts: Float64Array.from(idx, (x) => total.get(x)!) };
}
