// Saturation: when offered load exceeds capacity, a queue builds for the whole run and every
// request waits longer than the one before. The per-interval median then climbs steadily from
// start to end. Occasional stalls do not look like that: they are spikes on a flat median.

export interface SaturationVerdict {
  saturated: boolean;
  /** Spearman rank correlation between time and the per-interval median (−1..1). */
  trend: number;
  /** Median of the last quarter's medians over the first quarter's. */
  rise: number;
}

/** Thresholds: a steady trend (rank correlation) and a real rise (several times the start). */
export const SATURATION_MIN_TREND = 0.8;
export const SATURATION_MIN_RISE = 3;
export const SATURATION_MIN_INTERVALS = 8;

function ranks(v: number[]): number[] {
  const idx = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(v.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1]![0] === idx[i]![0]) j++;
    const avg = (i + j) / 2 + 1; // ties share their average rank
    for (let k = i; k <= j; k++) r[idx[k]![1]] = avg;
    i = j + 1;
  }
  return r;
}

export function spearman(a: number[], b: number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const n = a.length;
  const ma = ra.reduce((s, x) => s + x, 0) / n;
  const mb = rb.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (ra[i]! - ma) * (rb[i]! - mb);
    da += (ra[i]! - ma) ** 2;
    db += (rb[i]! - mb) ** 2;
  }
  return da > 0 && db > 0 ? num / Math.sqrt(da * db) : 0;
}

function median(v: number[]): number {
  const s = [...v].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** offsets: interval starts; p50: per-interval medians; counts: per-interval counts (empty intervals are ignored). */
export function detectSaturation(offsets: ArrayLike<number>, p50: ArrayLike<number>, counts: ArrayLike<number>, n: number): SaturationVerdict {
  const t: number[] = [];
  const m: number[] = [];
  for (let i = 0; i < n; i++) {
    if (counts[i]! > 0) {
      t.push(offsets[i]!);
      m.push(p50[i]!);
    }
  }
  if (t.length < SATURATION_MIN_INTERVALS) return { saturated: false, trend: 0, rise: 1 };
  const order = t.map((_, i) => i).sort((a, b) => t[a]! - t[b]!);
  const ms = order.map((i) => m[i]!);
  const q = Math.max(2, Math.floor(ms.length / 4));
  const first = median(ms.slice(0, q));
  const last = median(ms.slice(-q));
  const rise = first > 0 ? last / first : last > 0 ? Infinity : 1;
  const trend = spearman(order.map((i) => t[i]!), ms);
  return { saturated: trend >= SATURATION_MIN_TREND && rise >= SATURATION_MIN_RISE, trend, rise };
}
