// Seeded random numbers for the bootstrap: the same inputs and seed give the same intervals.
// sfc32 (Chris Doty-Humphrey's small fast counter generator), seeded through splitmix32.
import { ln, log1p } from "../exact-math";

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function makeRng(seed: number, stream = 0): Rng {
  const mix = splitmix32((seed >>> 0) ^ Math.imul(stream + 1, 0x27d4eb2d));
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix() | 1;
  const u32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) u32();
  const next = () => u32() / 4294967296;
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/**
 * A standard normal deviate (Box–Muller). Math.log and Math.cos may differ in the last bit
 * between engines; the bootstrap uses this only in binomial's normal approximation, rounded to
 * a whole count, where that cannot show.
 */
export function normal(r: Rng): number {
  const u = 1 - r.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r.next());
}

/**
 * Binomial(n, p). Exact (waiting times between successes) while the mean of the rarer outcome
 * is under 30; above it the normal approximation, rounded and clamped (its error there is far
 * below what a bucket's count can show).
 */
export function binomial(r: Rng, n: number, p: number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - binomial(r, n, 1 - p);
  const mean = n * p;
  if (mean < 30) {
    const logQ = log1p(-p);
    let x = 0;
    let sum = 0;
    for (;;) {
      sum += Math.floor(ln(1 - r.next()) / logQ) + 1;
      if (sum > n) return x;
      x++;
    }
  }
  const x = Math.round(mean + Math.sqrt(mean * (1 - p)) * normal(r));
  return x < 0 ? 0 : x > n ? n : x;
}
