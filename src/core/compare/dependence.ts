// How far apart in time a run's values stop depending on each other, read from the run itself.
//
// A percentile's estimate moves with the count of values above it, so the series that matters
// is, per sub-block j, z_j = (values above the percentile's value) − (the run's fraction above)
// × (values in the sub-block). Three things are read from it:
//
// - the bootstrap block length (Politis and White's automatic rule, with Patton, Politis and
//   White's correction, for the circular block bootstrap), so a block holds what depends;
// - the variance-time curve s²(L) = mean over all L-long stretches of (Σ z)² ÷ L: a block
//   bootstrap with blocks of L sub-blocks sees about s²(L) of the long-run variance. If s²
//   keeps growing past the block length (drift slower than a block), the interval is widened
//   by the growth up to a quarter of the run, and by the last doubling's growth once more (the
//   run cannot show how much further it grows); a large last growth is called drift;
// - events: how many separate sub-blocks hold values above the percentile. Ten values from one
//   pause are one event, and a percentile is judged only where enough events stand behind it.
import { cbrt, log10 } from "../exact-math";

/** A sparse histogram of bins, ascending. */
export interface Binned {
  bins: Int32Array;
  counts: Float64Array;
}

/**
 * Per threshold (bins, ascending) and sub-block: the count above the threshold.
 * above[t][j]; totals[j] is the sub-block's count.
 */
export function aboveBySubBlock(sub: readonly Binned[], thresholds: Int32Array): { above: Float64Array[]; totals: Float64Array } {
  const J = sub.length;
  const T = thresholds.length;
  const above = Array.from({ length: T }, () => new Float64Array(J));
  const totals = new Float64Array(J);
  for (let j = 0; j < J; j++) {
    const { bins, counts } = sub[j]!;
    let total = 0;
    for (let k = 0; k < counts.length; k++) total += counts[k]!;
    totals[j] = total;
    // Walk bins and thresholds together: the count at or below each threshold.
    let k = 0;
    let below = 0;
    for (let t = 0; t < T; t++) {
      const x = thresholds[t]!;
      while (k < bins.length && bins[k]! <= x) below += counts[k++]!;
      above[t]![j] = total - below;
    }
  }
  return { above, totals };
}

/** z_j: the count above minus its share of the sub-block's count. */
export function centred(above: Float64Array, totals: Float64Array): Float64Array {
  let a = 0;
  let n = 0;
  for (let j = 0; j < above.length; j++) {
    a += above[j]!;
    n += totals[j]!;
  }
  const f = n > 0 ? a / n : 0;
  return Float64Array.from(above, (x, j) => x - f * totals[j]!);
}

/** Sub-blocks holding at least one value above. */
export function eventCount(above: Float64Array): number {
  let e = 0;
  for (let j = 0; j < above.length; j++) if (above[j]! > 0) e++;
  return e;
}

function autocovariances(z: Float64Array, maxLag: number): Float64Array {
  const n = z.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += z[i]!;
  mean /= n;
  const out = new Float64Array(maxLag + 1);
  for (let k = 0; k <= maxLag; k++) {
    let s = 0;
    for (let i = 0; i + k < n; i++) s += (z[i]! - mean) * (z[i + k]! - mean);
    out[k] = s / n;
  }
  return out;
}

/**
 * Politis and White's (2004) block length for the circular block bootstrap, as corrected by
 * Patton, Politis and White (2009): b = (2 G² ÷ D)^(1/3) n^(1/3), G and D from the flat-top
 * lag window over the autocovariances up to twice the first lag m after which K_n
 * autocorrelations in a row are insignificant. In units of the series' steps; ≥ 1.
 */
export function politisWhite(z: Float64Array): number {
  const n = z.length;
  if (n < 8) return 1;
  const kn = Math.max(5, Math.ceil(Math.sqrt(log10(n))));
  const maxLag = Math.min(n - 1, Math.ceil(Math.sqrt(n)) + kn);
  const acv = autocovariances(z, maxLag);
  if (!(acv[0]! > 0)) return 1;
  const bound = 2 * Math.sqrt(log10(n) / n);
  let m = maxLag - kn;
  for (let k = 1; k + kn - 1 <= maxLag; k++) {
    let quiet = true;
    for (let i = 0; i < kn; i++) if (Math.abs(acv[k + i]! / acv[0]!) >= bound) quiet = false;
    if (quiet) {
      m = k - 1;
      break;
    }
  }
  const M = Math.min(2 * Math.max(1, m), maxLag);
  let g = 0;
  let g0 = acv[0]!;
  for (let k = 1; k <= M; k++) {
    const x = k / M;
    const w = x <= 0.5 ? 1 : 2 * (1 - x);
    g += 2 * w * k * acv[k]!;
    g0 += 2 * w * acv[k]!;
  }
  const d = (4 / 3) * g0 * g0;
  if (!(d > 0) || g === 0) return 1;
  return Math.max(1, cbrt(((2 * g * g) / d) * n));
}

/** s²(L) of a run: mean over the J circular L-long stretches of (Σ z)² ÷ L. */
export function longRunVariance(z: Float64Array, L: number): number {
  const J = z.length;
  if (J === 0 || L < 1) return 0;
  let s = 0;
  for (let i = 0; i < L; i++) s += z[i % J]!;
  let acc = s * s;
  for (let j = 1; j < J; j++) {
    s += z[(j + L - 1) % J]! - z[j - 1]!;
    acc += s * s;
  }
  return acc / J / L;
}

/**
 * The block lengths (sub-blocks) the variance-time curve is read at: 1, 2, 4, … up to J ÷ 4,
 * and J ÷ 4 itself (at least 1).
 */
export function varianceLengths(J: number): number[] {
  const top = Math.max(1, Math.floor(J / 4));
  const out: number[] = [];
  for (let L = 1; L < top; L *= 2) out.push(L);
  out.push(top);
  return out;
}

/**
 * The variance a circular block bootstrap with blocks of `b` steps misses, were the series an
 * AR(1) with lag-1 correlation ρ (slow drift is): the long-run variance (1 + ρ) ÷ (1 − ρ)
 * over what blocks of b see, 1 + 2 Σ_{k<b} (1 − k/b) ρ^k. ρ is estimated from the run's own
 * series with the usual short-series bias corrected (ρ̂ + (1 + 4ρ̂) ÷ n), because a run no
 * longer than a few time constants of its drift cannot show its variance directly.
 */
export function ar1Inflation(z: Float64Array, b: number): { rho: number; inflation: number } {
  const n = z.length;
  if (n < 8) return { rho: 0, inflation: 1 };
  let s0 = 0;
  let s1 = 0;
  for (let i = 0; i < n; i++) {
    s0 += z[i]! * z[i]!;
    if (i + 1 < n) s1 += z[i]! * z[i + 1]!;
  }
  if (!(s0 > 0)) return { rho: 0, inflation: 1 };
  const raw = s1 / s0;
  const rho = Math.min(MAX_RHO, Math.max(0, raw + (1 + 4 * raw) / n));
  const long = (1 + rho) / (1 - rho);
  let seen = 1;
  let pk = 1;
  for (let k = 1; k < b; k++) {
    pk *= rho;
    seen += 2 * (1 - k / b) * pk;
  }
  return { rho, inflation: Math.max(1, long / seen) };
}

/** Lag-1 correlation beyond which the model's widening is not trusted further. */
export const MAX_RHO = 0.99;
