// A Prometheus series' points read into what the load keeps (prometheus-api.ts reads the answer):
// each step's increase as sparse counts in the narrowest whole types, the whole range's
// histogram, and what is said of the series (its resolution, resets, values past the last bound).
import type { Histogram } from "../core/histogram";
import { newHistogram } from "../core/histogram";
import { indexAtValue, subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../core/counts-layout";
import type { ParsedInterval, ParsedSeries, SparseIntervals } from "./source";
import { compactHistogram } from "../core/lazy-histogram";
import { MAX_LATENCY_NS } from "./support/decimals";
import type { Problems } from "./support/problems";
import { ceilTo, increases, type FloatBucket, type Increase, type Snapshot } from "./support/snapshots";
import type { PrometheusReadOptions } from "./prometheus-api";

/** A series' points read into intervals, before it is named (what its problems and notes need kept). */
export interface ReadSeries {
  /** Each step's counts, as the load keeps them (null: one point, no time axis). */
  sparse: SparseIntervals;
  instant: boolean;
  total: Histogram;
  /** ns per unit of the series' values. */
  perUnit: number;
  t0: number;
  negatives: number;
  unbounded: number;
  resets: number;
  top: FloatBucket | null;
  detail: string;
  resolution: string;
  bounds: (unit: string) => string;
}

/** The first m counts in the narrowest whole type every one fits (what the load keeps: a fleet's are millions). */
function narrowCounts(counts: Float64Array, m: number): SparseIntervals["counts"] {
  let top = 0;
  for (let k = 0; k < m; k++) if (counts[k]! > top) top = counts[k]!;
  const c = counts.subarray(0, m);
  if (top <= 0xff) return Uint8Array.from(c);
  if (top <= 0xffff) return Uint16Array.from(c);
  if (top <= 0xffffffff) return Uint32Array.from(c);
  return c.slice();
}

/** The first m indices, as 16-bit offsets from their lowest when they span fewer than 2^16 (three digits always do). */
function narrowIndices(indices: Int32Array, m: number): { indices: Int32Array | Uint16Array; base: number } {
  let low = Infinity;
  let top = -1;
  for (let k = 0; k < m; k++) {
    const x = indices[k]!;
    if (x < low) low = x;
    if (x > top) top = x;
  }
  if (m === 0 || top - low > 0xffff) return { indices: indices.slice(0, m), base: 0 };
  const out = new Uint16Array(m);
  for (let k = 0; k < m; k++) out[k] = indices[k]! - low;
  return { indices: out, base: low };
}

/**
 * A series' indices and counts are gathered here, then copied out at their exact length: arrays
 * grown by doubling, series after series, left as much garbage outside the heap as a fleet keeps,
 * and the engine's memory went to twice what it holds before a collection came.
 */
let scratchIndices = new Int32Array(1024);
let scratchCounts = new Float64Array(1024);

/**
 * The last few series' step starts and lengths: a fleet asked over one range at one step has
 * the same in every series, held once rather than a copy each. Nothing writes into a table's
 * columns in place (a row added to a table copies them first), so sharing them is safe.
 */
const recentColumns: Float64Array<ArrayBuffer>[] = [];
const RECENT_COLUMNS = 8;
/** Where a series' starts and lengths are written first (copied out only when no recent column holds the same). */
let scratchStarts = new Float64Array(2048);
let scratchLengths = new Float64Array(2048);

/** A recent column that holds what `a` (scratch) holds, else a copy of `a` (then one of the recent ones). */
function sharedColumn(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const same = recentColumns.find((c) => c.length === a.length && c.every((x, i) => x === a[i]));
  if (same) return same;
  const own = a.slice();
  recentColumns.unshift(own);
  if (recentColumns.length > RECENT_COLUMNS) recentColumns.pop();
  return own;
}

export function readSeries(points: Snapshot[], kind: "native" | "classic", perUnit: number, options: PrometheusReadOptions): ReadSeries | null {
  points.sort((a, b) => a.at - b.at);
  if (points.length === 0) return null;
  // Below 0 a latency cannot be.
  let negatives = 0;
  for (const p of points) {
    if (p.buckets.every((b) => b.lower >= 0)) continue;
    const kept = p.buckets.filter((b) => b.upper > 0 || b.lower >= 0);
    const dropped = p.buckets.filter((b) => !kept.includes(b));
    if (dropped.length > 0)
      negatives = Math.max(
        negatives,
        dropped.reduce((a, b) => a + b.count, 0),
      );
    p.buckets = kept.map((b) => ({ ...b, lower: Math.max(0, b.lower) }));
  }
  const step = options.step ?? (points.length > 1 ? points[1]!.at - points[0]!.at : 0);
  let incs: Increase[];
  let sliced = false;
  if (options.perStep === "rate" || options.perStep === "increase") {
    // Each point is its own step's counts already (a rate per second, times the step): whole
    // counts of values, so rounded.
    const scale = options.perStep === "rate" ? step : 1;
    incs = points.map((p) => ({
      start: p.at - step,
      end: p.at,
      buckets: p.buckets.map((b) => ({ ...b, count: Math.round(b.count * scale) })),
      min: null,
      max: null,
      whole: false,
    }));
  } else {
    incs = increases(points, (s) => s.at - step);
    // The point at the range's start is the baseline; a series whose first point comes later
    // appeared within the range, and that point counts in full.
    if (options.firstPoint === "baseline" && (options.baselineAt === undefined || points[0]!.at <= options.baselineAt)) {
      incs = incs.slice(1);
      sliced = true;
    }
  }
  const t0 = incs.length > 0 ? incs[0]!.start : points[0]!.at;
  // Each step's histogram is wide enough for every bucket of the range (what a payload of it
  // declares); its values go straight into sparse counts, not a histogram per step.
  let topNs = 0;
  for (const inc of incs) for (const b of inc.buckets) if (b.count > 0) topNs = Math.max(topNs, (Number.isFinite(b.upper) ? b.upper : b.lower) * perUnit);
  const highest = Math.min(MAX_LATENCY_NS, Math.max(2, Math.ceil(topNs * 2)));
  const unitMagnitude = unitMagnitudeOf(1);
  const halfMagnitude = subBucketCountMagnitude(3) - 1;
  const n = incs.length;
  if (n > scratchStarts.length) {
    scratchStarts = new Float64Array(n);
    scratchLengths = new Float64Array(n);
  }
  const starts = scratchStarts.subarray(0, n);
  const lengths = scratchLengths.subarray(0, n);
  const rowStart = new Int32Array(n + 1);
  let room = 0;
  for (const inc of incs) room += inc.buckets.length;
  if (room > scratchIndices.length) {
    scratchIndices = new Int32Array(room);
    scratchCounts = new Float64Array(room);
  }
  const indices = scratchIndices;
  const counts = scratchCounts;
  let m = 0;
  let unbounded = 0;
  // The whole: every value recorded at its bound, once per distinct bound (recording is additive).
  const whole = new Map<number, number>();
  incs.forEach((inc, r) => {
    starts[r] = inc.start - t0;
    lengths[r] = inc.end - inc.start;
    rowStart[r] = m;
    let last = -1;
    for (const b of inc.buckets) {
      const count = b.count;
      if (!(count > 0)) continue;
      // As recordIncrease places a bucket: at its upper bound in ns, the lower bound when open.
      const upper = ceilTo(b.upper, perUnit, MAX_LATENCY_NS) ?? Infinity;
      let at = upper;
      if (!Number.isFinite(at)) {
        at = ceilTo(Math.max(0, b.lower), perUnit, MAX_LATENCY_NS) ?? MAX_LATENCY_NS;
        unbounded += count;
      }
      whole.set(at, (whole.get(at) ?? 0) + count);
      const idx = indexAtValue(at, unitMagnitude, halfMagnitude);
      if (idx === last) {
        counts[m - 1]! += count;
        continue;
      }
      // Buckets come in ascending order, so indices do too (several may share one).
      indices[m] = idx;
      counts[m++] = count;
      last = idx;
    }
  });
  rowStart[n] = m;
  const sharedStarts = sharedColumn(starts);
  const sharedLengths = sharedColumn(lengths);
  const total = newHistogram();
  for (const at of [...whole.keys()].sort((a, b) => a - b)) total.recordValueWithCount(at, whole.get(at)!);
  // No max is kept: the top bucket that holds a value is all that is known of it.
  let top: FloatBucket | null = null;
  for (const inc of incs) for (const b of inc.buckets) if (b.count > 0 && (top === null || b.upper > top.upper)) top = b;
  const last = points[points.length - 1]!;
  return {
    sparse: { n, starts: sharedStarts, lengths: sharedLengths, rowStart, ...narrowIndices(indices, m), counts: narrowCounts(counts, m), digits: 3, lowest: 1, highest },
    instant: points.length <= 1,
    // A range's whole is kept as its few counts from here (as the store keeps it): a fleet's
    // thousand wholes were each a counts array until the whole answer was read. Made again from
    // the counts when read, not the original held weakly: a weakly held one outlives the young
    // generation's collections, and a load's thousand counts arrays waited for a full one.
    total: points.length <= 1 ? total : compactHistogram(total, undefined, "made"),
    perUnit,
    t0,
    negatives,
    unbounded,
    resets: incs.filter((x, i) => x.whole && (i > 0 || sliced)).length,
    top,
    detail: kind === "native" ? `a native histogram${resolutionOf(points)}` : "a classic histogram, known only at its bucket bounds",
    resolution: kind === "native" ? resolutionOf(points) : "",
    bounds: (unit) => boundsOf(last, unit),
  };
}

/** Row r's histogram, made from its sparse counts (what a payload of it holds). */
export function sparseRowHistogram(sp: SparseIntervals, r: number): Histogram {
  const h = newHistogram(sp.digits, sp.lowest, sp.highest);
  const unit = unitMagnitudeOf(sp.lowest);
  const half = subBucketCountMagnitude(sp.digits) - 1;
  const base = sp.base ?? 0;
  for (let k = sp.rowStart[r]!; k < sp.rowStart[r + 1]!; k++) h.recordValueWithCount(valueAtIndex(base + sp.indices[k]!, unit, half), sp.counts[k]!);
  return h;
}

export function seriesOf(c: ReadSeries, tag: string, options: PrometheusReadOptions, problems: Problems, notes: string[]): ParsedSeries | null {
  if (c.negatives > 0) problems.once(`neg-${tag}`, null, `${tag}: ${c.negatives} values below 0 are not latencies: left out`);
  if (c.resets > 0) notes.push(`${tag}: ${c.resets} counter resets (a restarted process): after each, the point counts in full`);
  if (c.unbounded > 0)
    problems.once(
      `over-${tag}`,
      null,
      `${tag}: ${c.unbounded} values above the last finite bucket bound: their latencies are unknown (no max is kept), shown at that bound, below their true values`,
    );
  if (c.total.totalCount === 0 && c.unbounded === 0) return null;
  const sp = c.sparse;
  const top = c.top;
  let intervals: ParsedInterval[] | null | undefined;
  return {
    bucketed: top ? { lowNs: Math.max(0, top.lower) * c.perUnit, highNs: top.upper * c.perUnit, detail: c.detail } : undefined,
    name: options.name ? options.name(tag) : `${fileBase(options.source)} [${tag}]`,
    tag,
    unit: "ns",
    histogram: c.total,
    // One point (an instant query): a histogram with no time axis. The intervals' histograms
    // are made only when asked for: the load reads the sparse counts.
    get intervals(): ParsedInterval[] | null {
      intervals ??= c.instant
        ? null
        : Array.from({ length: sp.n }, (_, r) => ({
            start: sp.starts[r]!,
            length: sp.lengths[r]!,
            get histogram() {
              return sparseRowHistogram(sp, r);
            },
          }));
      return intervals;
    },
    ...(c.instant ? {} : { sparse: sp }),
    startTime: c.t0,
  };
}

/**
 * A native histogram's schema, read off its bucket bounds (each bucket's upper bound is
 * 2^(2^−schema) times its lower one): " of schema 3 (buckets 9.05 % wide)", or "" when the
 * bounds follow no schema.
 */
export function resolutionOf(points: readonly Snapshot[]): string {
  // Read without making a list of every bucket's ratio: a fleet's range has millions of buckets.
  let first = NaN;
  for (const p of points) {
    for (const b of p.buckets)
      if (b.lower > 0 && Number.isFinite(b.upper)) {
        first = b.upper / b.lower;
        break;
      }
    if (!Number.isNaN(first)) break;
  }
  if (Number.isNaN(first)) return "";
  const schema = Math.round(-Math.log2(Math.log2(first)));
  if (schema < -4 || schema > 8) return "";
  const factor = 2 ** (2 ** -schema);
  for (const p of points) for (const b of p.buckets) if (b.lower > 0 && Number.isFinite(b.upper) && Math.abs(b.upper / b.lower / factor - 1) > 1e-6) return "";
  return ` of schema ${schema} (each bucket ${Number(((factor - 1) * 100).toPrecision(3))} % wide)`;
}

function boundsOf(p: Snapshot, unit: string): string {
  const b = p.buckets.map((x) => x.upper).filter((x) => Number.isFinite(x));
  return `${b.length <= 8 ? b.join(", ") : `${b.slice(0, 4).join(", ")}, … ${b.slice(-2).join(", ")}`} ${unit}`;
}

function fileBase(source: string): string {
  const i = Math.max(source.lastIndexOf("/"), source.lastIndexOf("\\"));
  return (i >= 0 ? source.slice(i + 1) : source).replace(/\.json$/i, "");
}
