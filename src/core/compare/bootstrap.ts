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
//
// How a single run is resampled (by blocks or by counts, on those bins) is in resampled-runs.ts.
import { countAtPercentile } from "../bucket-lookup";
import { BucketValues } from "./layout";
import { MIN_INTERVALS, planBlocks, type BlockPlan } from "./plan";
import type { Rng } from "./rng";
import { aboveBySubBlock, centred, politisWhite, type Binned } from "./dependence";
import type { RunInput, Sparse, SubBlocks } from "./types";
import { log2 } from "../exact-math";
import { binned, binOf, BlockRun, CountsRun, IndexBins, sumInto, toValues, type ValueCounts } from "./resampled-runs";

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
