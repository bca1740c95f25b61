// The resampling behind a comparison's intervals, for one side.
//
// A side is one or more runs. A run with intervals is cut into sub-blocks (plan.ts); a
// resample draws bootstrap blocks (`span` consecutive sub-blocks, starting at any sub-block)
// until it is as long as the run, and adds them. A run without intervals has its counts
// resampled (multinomial over its buckets). Blocks wrap around (circular block bootstrap). Several runs (repeats): the runs are drawn with
// replacement first, then each drawn run is resampled as above, so the interval holds
// run-to-run variation.
//
// Speed: nothing is merged into a histogram per resample. Values are binned on a log scale
// (`binsPerOctave` bins per doubling, a step of at most a tenth of the margin), each possible
// bootstrap block is summed once into a sparse histogram of bins, and a resample adds the
// blocks it drew into one small dense array of bins, whose cumulative sums give every
// percentile of the grid in one pass. The interval is then read in bins and widened by one bin
// on each side, so the binning can only make it wider, never make a difference appear.
import { countAtPercentile } from "../bucket-lookup";
import { BucketValues } from "./layout";
import { MIN_INTERVALS, planBlocks, type BlockPlan } from "./plan";
import { binomial, type Rng } from "./rng";
import { aboveBySubBlock, centred, politisWhite, type Binned } from "./dependence";
import type { RunInput, Sparse, SubBlocks } from "./types";
import { log2 } from "../exact-math";

/** Values in ns (ascending) with counts. */
interface ValueCounts {
  vals: Float64Array;
  counts: Float64Array;
}

function toValues(s: Sparse, bv: BucketValues, unitNs: number): ValueCounts {
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

function binned(vc: ValueCounts, bpo: number, kMin: number): Binned {
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
class IndexBins {
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
      if (i >= this.memo.length) {
        let size = Math.max(1024, this.memo.length);
        while (size <= i) size *= 2;
        const g = new Int32Array(size).fill(-1);
        g.set(this.memo);
        this.memo = g;
      }
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

  /** Every index's bin up to `top` (the memo filled at once: the loop below then reads it unchecked). */
  private cover(top: number): void {
    if (top < this.filled) return;
    if (top >= this.memo.length) {
      let size = Math.max(1024, this.memo.length);
      while (size <= top) size *= 2;
      const g = new Int32Array(size).fill(-1);
      g.set(this.memo);
      this.memo = g;
    }
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
class BlockRun {
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

export interface PreparedSide {
  /** Every value any run of the side reports, ascending (ns). */
  U: Float64Array;
  /** Pooled count at or below U[u]. */
  pooled: Float64Array;
  /** Per run: count at or below U[u]. */
  perRun: Float64Array[];
  total: number;
  runTotals: number[];
  /** Per run: how it is resampled. */
  methods: string[];
  /** Relative bucket width at U[u] (the run whose bucket it is). */
  width: Float64Array;
  runs: (BlockRun | CountsRun)[];
  names: string[];
  /** Runs whose counts are resampled (no time order). */
  countsOnly: string[];
  /** Per run: its sub-blocks in bins (null: counts only), the bootstrap block in sub-blocks, seconds. */
  sub: (Binned[] | null)[];
  spans: number[];
  seconds: number[];
  binsPerOctave: number;
  /** Lowest bin; the side's bins are [kMin, kMin + nBins). */
  kMin: number;
  nBins: number;
}

function blockSums(run: RunInput): { blocks: SubBlocks; plan: BlockPlan } | null {
  const d = run.data;
  if (d.kind === "counts") return null;
  if (d.kind === "blocks") return d.plan.intervals >= MIN_INTERVALS && d.subBlocks.length >= 2 ? { blocks: d.subBlocks, plan: d.plan } : null;
  if (d.intervals.length < MIN_INTERVALS) return null;
  const plan = planBlocks(d.intervals.length, d.intervalSeconds);
  return { blocks: sumInto(d.intervals, plan.stride), plan };
}

function totalOf(run: RunInput): Sparse {
  const d = run.data;
  if (d.kind === "counts") return d.counts;
  if (d.kind === "blocks" && d.total) return d.total;
  const parts = d.kind === "blocks" ? d.subBlocks : d.intervals;
  return sumInto(parts, Math.max(1, parts.length))[0] ?? { indices: new Int32Array(0), counts: new Float64Array(0) };
}

function describe(plan: BlockPlan, span: number): string {
  return `moving blocks of ${span * plan.stride} intervals (${span} × ${plan.stride}, from the data) over ${plan.intervals} intervals`;
}

/** A side's values and pooled counts, before its runs are binned for resampling. */
export interface MeasuredSide {
  runs: readonly RunInput[];
  U: Float64Array;
  width: Float64Array;
  pooled: Float64Array;
  perRun: Float64Array[];
  runTotals: number[];
  totals: ValueCounts[];
  sums: ({ blocks: SubBlocks; plan: BlockPlan } | null)[];
  layouts: BucketValues[];
}

export function measureSide(runs: readonly RunInput[]): MeasuredSide {
  const totals: ValueCounts[] = [];
  const sums: ({ blocks: SubBlocks; plan: BlockPlan } | null)[] = [];
  const layouts: BucketValues[] = [];
  const widthsByVal = new Map<number, number>();
  for (const r of runs) {
    const bv = new BucketValues(r.layout);
    layouts.push(bv);
    const t = totalOf(r);
    totals.push(toValues(t, bv, r.unitNs));
    for (let k = 0; k < t.indices.length; k++) {
      if (t.counts[k]! > 0) {
        const v = bv.rep(t.indices[k]!) * r.unitNs;
        widthsByVal.set(v, Math.max(widthsByVal.get(v) ?? 0, bv.relativeWidth(t.indices[k]!)));
      }
    }
    sums.push(blockSums(r));
  }
  const U = new Float64Array([...widthsByVal.keys()]).sort();
  const width = Float64Array.from(U, (v) => widthsByVal.get(v)!);
  const pooled = new Float64Array(U.length);
  const perRun = totals.map((t) => {
    const c = new Float64Array(U.length);
    let k = 0;
    let run = 0;
    for (let u = 0; u < U.length; u++) {
      while (k < t.vals.length && t.vals[k]! <= U[u]!) run += t.counts[k++]!;
      c[u] = run;
      pooled[u]! += run;
    }
    return c;
  });
  return { runs, U, width, pooled, perRun, runTotals: perRun.map((c) => (c.length ? c[c.length - 1]! : 0)), totals, sums, layouts };
}

/** Matrix cells (block starts × bins) one bin per octave costs the side: bins per octave must keep cells × bpo bounded. */
export function cellsPerBinPerOctave(m: MeasuredSide): number {
  if (m.U.length === 0) return 0;
  const octaves = log2(Math.max(2, m.U[m.U.length - 1]!)) - log2(Math.max(1, m.U[0]!)) + 1;
  return octaves * m.sums.reduce((a, s) => a + (s ? s.blocks.length : 1), 0);
}

/** The percentiles whose dependence sets a run's block length. */
const SPAN_PERCENTILES = [50, 90, 99];

/**
 * The bootstrap block (in sub-blocks) for a run: the largest of Politis and White's rule on
 * the run's z series at p50, p90 and p99, never below the plan's (a stall and its queue) nor
 * above a quarter of the run.
 */
function dataSpan(sub: Binned[], cum: Float64Array, U: Float64Array, total: number, plan: BlockPlan, bpo: number, kMin: number): number {
  const J = sub.length;
  const thresholds = Int32Array.from(SPAN_PERCENTILES, (p) => {
    const u = indexAtPercentile(cum, total, p);
    return u < 0 ? 0 : binOf(U[u]!, bpo) - kMin;
  }).sort();
  const { above, totals } = aboveBySubBlock(sub, thresholds);
  let b = plan.span;
  for (const a of above) b = Math.max(b, Math.ceil(politisWhite(centred(a, totals))));
  return Math.max(1, Math.min(b, Math.max(plan.span, Math.floor(J / 4))));
}

export function prepareSide(runs: readonly RunInput[] | MeasuredSide, binsPerOctave: number): PreparedSide {
  const m = "U" in runs ? runs : measureSide(runs);
  const { U, totals, sums, layouts } = m;
  const kMin = U.length ? binOf(U[0]!, binsPerOctave) : 0;
  const nBins = U.length ? binOf(U[U.length - 1]!, binsPerOctave) - kMin + 1 : 1;
  const sub: (Binned[] | null)[] = [];
  const spans: number[] = [];
  const prepared = m.runs.map((_, i) => {
    const s = sums[i];
    if (!s) {
      sub.push(null);
      spans.push(0);
      return new CountsRun(binned(totals[i]!, binsPerOctave, kMin), nBins);
    }
    const ib = new IndexBins(layouts[i]!, m.runs[i]!.unitNs, binsPerOctave, kMin);
    const blocks = s.blocks;
    const bs = Array.from({ length: blocks.length }, (_, k) => (blocks.eachPiece ? ib.binnedPieces((add) => blocks.eachPiece!(k, add), nBins) : ib.binnedIndices(blocks.at(k)!)));
    const span = dataSpan(bs, m.perRun[i]!, U, m.runTotals[i]!, s.plan, binsPerOctave, kMin);
    sub.push(bs);
    spans.push(span);
    return new BlockRun(bs, span, nBins);
  });
  return {
    U,
    pooled: m.pooled,
    perRun: m.perRun,
    total: m.runTotals.reduce((a, b) => a + b, 0),
    runTotals: m.runTotals,
    methods: m.runs.map((r, i) =>
      sums[i] ? describe(sums[i]!.plan, spans[i]!) : r.data.kind === "counts" ? "counts (no intervals)" : `counts (fewer than ${MIN_INTERVALS} intervals)`,
    ),
    width: m.width,
    runs: prepared,
    names: m.runs.map((r) => r.name),
    countsOnly: m.runs.filter((_, i) => !sums[i]).map((r) => r.name),
    sub,
    spans,
    seconds: m.runs.map(secondsOf),
    binsPerOctave,
    kMin,
    nBins,
  };
}

/** A run's length in seconds (NaN when it has no time order). */
function secondsOf(r: RunInput): number {
  const d = r.data;
  if (d.kind === "intervals") return d.intervals.length * d.intervalSeconds;
  if (d.kind === "blocks") return d.plan.intervals * (d.intervalSeconds ?? 1);
  return Number.NaN;
}

/** Smallest u with cum[u] ≥ the percentile's count (HdrHistogram's rule); -1 when empty. */
export function indexAtPercentile(cum: Float64Array, total: number, p: number): number {
  if (total <= 0 || cum.length === 0) return -1;
  if (p >= 100) {
    let u = cum.length - 1;
    while (u > 0 && cum[u - 1] === total) u--;
    return u;
  }
  const t = countAtPercentile(total, p);
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Resamples a side `count` times; out[b * G + g] = the bin (binOf) of the value at grid[g] in
 * resample b. Each percentile is searched for: one count at the pooled histogram's bin, then a
 * guess from the pooled distribution's shape (the resample's shifted by what that count said),
 * then galloping and halving inside the bracket, never below the previous percentile's answer.
 * Counts are remembered within a resample (neighbouring percentiles look at the same bins).
 * A generator: yields the resamples done after every `chunk`, so a caller can report progress
 * and give way (cancel) in between; the results do not depend on it.
 */
export function* resampleSide(
  side: PreparedSide,
  grid: readonly number[],
  count: number,
  rng: Rng,
  repeats: boolean,
  out: Float64Array,
  chunk = 50,
): Generator<number, void, void> {
  const G = grid.length;
  const R = side.runs.length;
  const nB = side.nBins;
  const copies = new Int32Array(R);
  // The pooled fraction at or below each bin: the model the guesses use.
  const model = new Float64Array(nB);
  for (let u = 0; u < side.U.length; u++) {
    const x = binOf(side.U[u]!, side.binsPerOctave) - side.kMin;
    if (x >= 0 && x < nB) model[x] = side.pooled[u]! / side.total;
  }
  for (let x = 1; x < nB; x++) if (model[x]! < model[x - 1]!) model[x] = model[x - 1]!;
  const hints = grid.map((p) => {
    const u = indexAtPercentile(side.pooled, side.total, p);
    return u < 0 ? 0 : Math.min(nB - 1, Math.max(0, binOf(side.U[u]!, side.binsPerOctave) - side.kMin));
  });
  const memo = new Float64Array(nB);
  const stamp = new Int32Array(nB).fill(-1);
  const active: (BlockRun | CountsRun)[] = [];
  for (let b = 0; b < count; b++) {
    copies.fill(0);
    if (repeats && R >= 2) for (let k = 0; k < R; k++) copies[rng.int(R)]!++;
    else copies.fill(1);
    active.length = 0;
    let total = 0;
    for (let k = 0; k < R; k++) {
      if (copies[k] === 0) continue;
      total += side.runs[k]!.draw(rng, copies[k]!);
      active.push(side.runs[k]!);
    }
    const one = active.length === 1 ? active[0]! : null;
    const f = (x: number): number => {
      if (stamp[x] === b) return memo[x]!;
      let s = 0;
      if (one) s = one.countAt(x);
      else for (let k = 0; k < active.length; k++) s += active[k]!.countAt(x);
      stamp[x] = b;
      memo[x] = s;
      return s;
    };
    let floor = 0;
    for (let g = 0; g < G; g++) {
      if (!(total > 0)) {
        out[b * G + g] = Number.NaN;
        continue;
      }
      const t = countAtPercentile(total, grid[g]!);
      // Bracket: f(lo) < t (or lo = floor - 1), f(hi) >= t.
      let lo = floor - 1;
      let hi = nB - 1;
      const h = Math.min(nB - 1, Math.max(floor, hints[g]!));
      const fh = f(h);
      if (fh >= t) hi = h;
      else lo = h;
      if (hi - lo > 1) {
        // Where the pooled shape, moved by what f(h) said, reaches the target.
        const want = t / total - (fh / total - model[h]!);
        let a = lo + 1;
        let z = hi;
        while (a < z) {
          const mid = (a + z) >> 1;
          if (model[mid]! >= want) z = mid;
          else a = mid + 1;
        }
        let x = Math.min(hi - 1, Math.max(lo + 1, a));
        // Gallop from the guess towards the answer, inside the bracket.
        let step = 1;
        for (;;) {
          if (f(x) >= t) {
            hi = x;
            if (hi - lo <= 1) break;
            x = Math.max(lo + 1, hi - step);
          } else {
            lo = x;
            if (hi - lo <= 1) break;
            x = Math.min(hi - 1, lo + step);
          }
          step *= 2;
          if (step > 8) break;
        }
      }
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (f(mid) >= t) hi = mid;
        else lo = mid;
      }
      floor = hi;
      out[b * G + g] = hi + side.kMin;
    }
    if ((b + 1) % chunk === 0 && b + 1 < count) yield b + 1;
  }
}
