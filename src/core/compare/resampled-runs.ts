// How one run of a side is resampled, on log-scale bins of its values: by moving blocks of its
// intervals (BlockRun: each possible bootstrap block summed once, a resample adds the blocks it
// drew) or by its counts (CountsRun: multinomial over its bins). The side's resampling
// (bootstrap.ts) draws the runs and reads percentiles off their cumulative counts.
import { BucketValues } from "./layout";
import { binomial, type Rng } from "./rng";
import type { Binned } from "./dependence";
import type { Sparse, SubBlocks } from "./types";
import { log2 } from "../exact-math";

/** Values in ns (ascending) with counts. */
export interface ValueCounts {
  vals: Float64Array;
  counts: Float64Array;
}

export function toValues(s: Sparse, bv: BucketValues, unitNs: number): ValueCounts {
  const n = s.indices.length;
  const vals = new Float64Array(n);
  const counts = new Float64Array(n);
  let m = 0;
  for (let k = 0; k < n; k++) {
    const c = s.counts[k]!;
    if (!(c > 0)) continue;
    vals[m] = bv.rep(s.indices[k]!) * unitNs;
    counts[m] = c;
    m++;
  }
  return { vals: vals.subarray(0, m), counts: counts.subarray(0, m) };
}

/** Sums of consecutive groups of `stride` sparse histograms. */
export function sumInto(intervals: SubBlocks, stride: number): Sparse[] {
  const out: Sparse[] = [];
  let dense = new Float64Array(1024);
  const touched: number[] = [];
  for (let at = 0; at < intervals.length; at += stride) {
    for (let i = at; i < Math.min(intervals.length, at + stride); i++) {
      const s = intervals.at(i)!;
      for (let k = 0; k < s.indices.length; k++) {
        const x = s.indices[k]!;
        if (x >= dense.length) {
          let size = dense.length;
          while (size <= x) size *= 2;
          const d = new Float64Array(size);
          d.set(dense);
          dense = d;
        }
        if (dense[x] === 0) touched.push(x);
        dense[x]! += s.counts[k]!;
      }
    }
    touched.sort((a, b) => a - b);
    const indices = Int32Array.from(touched);
    const counts = Float64Array.from(touched, (x) => dense[x]!);
    for (const x of touched) dense[x] = 0;
    touched.length = 0;
    out.push({ indices, counts });
  }
  return out;
}

/** Bin of a value (ns): floor(log2(v) × binsPerOctave); values below 1 ns go to bin 0. */
export function binOf(v: number, binsPerOctave: number): number {
  return v <= 1 ? 0 : Math.floor(log2(v) * binsPerOctave);
}

export function binned(vc: ValueCounts, bpo: number, kMin: number): Binned {
  const bins = new Int32Array(vc.vals.length);
  const counts = new Float64Array(vc.vals.length);
  let m = -1;
  for (let k = 0; k < vc.vals.length; k++) {
    const b = binOf(vc.vals[k]!, bpo) - kMin;
    if (m >= 0 && bins[m] === b) counts[m]! += vc.counts[k]!;
    else {
      m++;
      bins[m] = b;
      counts[m] = vc.counts[k]!;
    }
  }
  return { bins: bins.subarray(0, m + 1), counts: counts.subarray(0, m + 1) };
}

/** Bins of a run's bucket indices, memoised (a run's sub-blocks share most of their buckets). */
export class IndexBins {
  private memo = new Int32Array(0);
  constructor(
    private readonly bv: BucketValues,
    private readonly unitNs: number,
    private readonly bpo: number,
    private readonly kMin: number,
  ) {}

  binnedIndices(s: Sparse): Binned {
    const n = s.indices.length;
    const bins = new Int32Array(n);
    const counts = new Float64Array(n);
    let m = -1;
    for (let k = 0; k < n; k++) {
      const c = s.counts[k]!;
      if (!(c > 0)) continue;
      const i = s.indices[k]!;
      if (i >= this.memo.length) this.grow(i);
      let b = this.memo[i]!;
      if (b < 0) {
        b = binOf(this.bv.rep(i) * this.unitNs, this.bpo) - this.kMin;
        this.memo[i] = b;
      }
      if (m >= 0 && bins[m] === b) counts[m]! += c;
      else {
        m++;
        bins[m] = b;
        counts[m] = c;
      }
    }
    // Copied out: a sub-block has far fewer bins than buckets, and views would keep every
    // sub-block's bucket-sized arrays alive while the side is resampled (two 24-hour logs of
    // thousands of distinct values per interval: ~100 MB).
    return { bins: bins.slice(0, m + 1), counts: counts.slice(0, m + 1) };
  }

  /** Room in the memo for index `i` (doubling, the new entries not yet binned). */
  private grow(i: number): void {
    let size = Math.max(1024, this.memo.length);
    while (size <= i) size *= 2;
    const g = new Int32Array(size).fill(-1);
    g.set(this.memo);
    this.memo = g;
  }

  /** Every index's bin up to `top` (the memo filled at once: the loop below then reads it unchecked). */
  private cover(top: number): void {
    if (top < this.filled) return;
    if (top >= this.memo.length) this.grow(top);
    for (let i = this.filled; i <= top; i++) if (this.memo[i]! < 0) this.memo[i] = binOf(this.bv.rep(i) * this.unitNs, this.bpo) - this.kMin;
    this.filled = top + 1;
  }
  private filled = 0;
  private acc = new Float64Array(0);

  /**
   * What binnedIndices gives for the sum of the pieces `each` hands over, without that sum:
   * each piece's counts go straight into their bins. Counts are whole numbers, so the bins'
   * sums are exact in any order: the same bins and counts.
   */
  binnedPieces(each: (add: (s: Sparse) => void) => void, nBins: number): Binned {
    if (this.acc.length < nBins) this.acc = new Float64Array(nBins);
    const acc = this.acc;
    let lo = nBins;
    let hi = -1;
    each((s) => {
      const n = s.indices.length;
      if (n === 0) return;
      const idx = s.indices;
      const cnt = s.counts;
      this.cover(idx[n - 1]!);
      const memo = this.memo;
      for (let k = 0; k < n; k++) {
        const c = cnt[k]!;
        if (c > 0) acc[memo[idx[k]!]!]! += c;
      }
      lo = Math.min(lo, Math.max(0, memo[idx[0]!]!));
      hi = Math.min(nBins - 1, Math.max(hi, memo[idx[n - 1]!]!));
    });
    if (this.outBins.length < nBins) {
      this.outBins = new Int32Array(nBins);
      this.outCounts = new Float64Array(nBins);
    }
    const bins = this.outBins;
    const counts = this.outCounts;
    let m = 0;
    for (let x = lo; x <= hi; x++) {
      const c = acc[x]!;
      if (!(c > 0)) continue;
      bins[m] = x;
      counts[m] = c;
      acc[x] = 0;
      m++;
    }
    return { bins: bins.slice(0, m), counts: counts.slice(0, m) };
  }
  private outBins = new Int32Array(0);
  private outCounts = new Float64Array(0);
}

/** A run resampled by moving blocks of intervals. */
export class BlockRun {
  /** Cumulative count of the block starting at sub-block s, at bin x: cols[x * starts + s]. */
  private readonly cols: Float32Array | Float64Array;
  private readonly starts: number;
  /** Blocks drawn per resample: as many intervals as the run has. */
  private readonly draws: number;
  private readonly totals: Float64Array;
  private readonly times: Int32Array;
  /** The current resample: distinct blocks drawn and how often. */
  private readonly pos: Int32Array;
  private readonly w: Float64Array;
  private nz = 0;

  constructor(sub: Binned[], span: number, nBins: number) {
    const J = sub.length;
    const r = Math.max(1, Math.min(span, J));
    // Circular blocks (Politis and Romano): a block may wrap from the run's end to its start,
    // so every interval is equally likely to be drawn (plain moving blocks under-draw the ends).
    this.starts = J;
    this.draws = Math.ceil(J / r);
    const S = this.starts;
    this.totals = new Float64Array(S);
    let most = 0;
    for (let j = 0; j < J; j++) {
      let t = 0;
      for (let k = 0; k < sub[j]!.counts.length; k++) t += sub[j]!.counts[k]!;
      most = Math.max(most, t);
    }
    // float32 holds a block's cumulative counts exactly below 2^24 (320 one-second intervals
    // of 1,000 values each is 320,000), at half the memory.
    this.cols = most * r < 2 ** 24 ? new Float32Array(nBins * S) : new Float64Array(nBins * S);
    const cols = this.cols;
    // CHUNK blocks at a time, so that each bin's row is written CHUNK cells in a row (one block
    // at a time wrote a cell per row per block: a cache miss each, most of the build's time).
    // The block is a sliding window over the sub-blocks: each next one adds one sub-block and
    // drops one, so a long block costs no more to build than a short one.
    const CHUNK = 16;
    const acc = new Float64Array(nBins * CHUNK);
    const cur = new Float64Array(nBins);
    const run = new Float64Array(CHUNK);
    const add = (b: Binned, sign: number): number => {
      const bb = b.bins;
      const bc = b.counts;
      let t = 0;
      for (let k = 0; k < bb.length; k++) {
        cur[bb[k]!]! += sign * bc[k]!;
        t += bc[k]!;
      }
      return sign * t;
    };
    let curTotal = 0;
    for (let j = 0; j < r; j++) curTotal += add(sub[j % J]!, 1);
    for (let s0 = 0; s0 < S; s0 += CHUNK) {
      const m = Math.min(CHUNK, S - s0);
      for (let c = 0; c < m; c++) {
        const s = s0 + c;
        if (s > 0) {
          curTotal += add(sub[(s + r - 1) % J]!, 1);
          curTotal += add(sub[s - 1]!, -1);
        }
        acc.set(cur, c * nBins);
        this.totals[s] = curTotal;
      }
      run.fill(0);
      for (let x = 0; x < nBins; x++) {
        const row = x * S + s0;
        for (let c = 0; c < m; c++) {
          run[c]! += acc[c * nBins + x]!;
          cols[row + c] = run[c]!;
        }
      }
    }
    this.times = new Int32Array(S);
    this.pos = new Int32Array(S);
    this.w = new Float64Array(S);
  }

  /** Draws `copies` resamples of the run; returns their count. */
  draw(rng: Rng, copies: number): number {
    const times = this.times;
    const n = copies * this.draws;
    for (let c = 0; c < n; c++) times[rng.int(this.starts)]!++;
    let total = 0;
    let nz = 0;
    for (let s = 0; s < this.starts; s++) {
      const w = times[s]!;
      if (w === 0) continue;
      times[s] = 0;
      this.pos[nz] = s;
      this.w[nz] = w;
      nz++;
      total += w * this.totals[s]!;
    }
    this.nz = nz;
    return total;
  }

  /** The current resample's count at or below bin x. */
  countAt(x: number): number {
    const base = x * this.starts;
    const cols = this.cols;
    const pos = this.pos;
    const w = this.w;
    let s = 0;
    for (let k = 0; k < this.nz; k++) s += w[k]! * cols[base + pos[k]!]!;
    return s;
  }
}

/** A run resampled by its counts (multinomial over its bins: the same as over its buckets, grouped). */
export class CountsRun {
  readonly total: number;
  private readonly cum: Float64Array;
  constructor(
    private readonly b: Binned,
    nBins: number,
  ) {
    let t = 0;
    for (let i = 0; i < b.counts.length; i++) t += b.counts[i]!;
    this.total = t;
    this.cum = new Float64Array(nBins);
  }

  /** `fixed`: the run's counts as they are (the run is one draw of run-to-run variation). */
  fixed = false;

  draw(rng: Rng, copies: number): number {
    if (this.fixed) {
      const cum = this.cum;
      cum.fill(0);
      const { bins, counts } = this.b;
      for (let i = 0; i < counts.length; i++) cum[bins[i]!]! += copies * counts[i]!;
      let run = 0;
      for (let x = 0; x < cum.length; x++) {
        run += cum[x]!;
        cum[x] = run;
      }
      return this.total * copies;
    }
    let left = Math.round(this.total * copies);
    let mass = this.total;
    let got = 0;
    const { bins, counts } = this.b;
    const cum = this.cum;
    cum.fill(0);
    for (let i = 0; i < counts.length && left > 0; i++) {
      const c = counts[i]!;
      const x = i === counts.length - 1 ? left : binomial(rng, left, c / mass);
      left -= x;
      mass -= c;
      got += x;
      cum[bins[i]!]! += x;
    }
    let run = 0;
    for (let x = 0; x < cum.length; x++) {
      run += cum[x]!;
      cum[x] = run;
    }
    return got;
  }

  countAt(x: number): number {
    return this.cum[x]!;
  }
}
