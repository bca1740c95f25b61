// The engine's side of A vs B: turns loaded series into the pure comparison's inputs
// (core/compare) and runs it in slices. Series with pre-merged blocks give their sub-block
// sums straight from the blocks (nothing decoded when a sub-block is whole 64-interval
// blocks); other series with intervals (merges) are decoded interval by interval; series
// without intervals (.hgrm, wrk2, shared links, CO-corrected copies) give their counts.
import { addDecodedInto, type DecodedHistogram } from "../formats/hlog-encoding";
import { lowestDiscernibleValueOf, newHistogram, sparseOf, type Histogram } from "../core/histogram";
import { BLOCK_SIZES, indexRange, type Sparse } from "../core/blocks";
import { NANOS_PER_UNIT } from "../core/types";
import type { SeriesModel } from "../core/series";
import {
  COMPARE_PERCENTILES,
  compareSidesAsync,
  MIN_INTERVALS,
  planBlocks,
  schemaFactor,
  type CompareOptions,
  type Progress,
  type RunBuckets,
  type RunInput,
  type SideInput,
  type SubBlocks,
} from "../core/compare";
import { intervalsOf } from "./intervals";
import { carriedAnswer, fromLink } from "./share-query";
import { CO_SUFFIX, saturationOf, type Store } from "./store";
import type { CompareAnswer, CompareRequest, TimeRange } from "./query-types";

export type { CompareAnswer, CompareRequest };

function copy(d: DecodedHistogram): Sparse {
  return { indices: d.indices.slice(), counts: d.counts.slice() };
}

function layoutOf(h: Histogram) {
  return { digits: h.numberOfSignificantValueDigits, lowest: lowestDiscernibleValueOf(h) };
}

/** Repeated runs of a series: the others of the same configuration, throughput and kind, loaded as they are. */
export function repeatsOf(store: Store, id: string): SeriesModel[] {
  if (id.endsWith(CO_SUFFIX)) return [store.get(id)];
  const s = store.get(id);
  if (s.mergedFrom.length > 0) return [s];
  // A load generator's labels share a configuration but are different requests: same label only.
  const sameLabel = (x: SeriesModel) => s.format === "hlog" || x.tag === s.tag;
  const same = store.series.filter((x) => x.mergedFrom.length === 0 && x.config === s.config && x.throughput === s.throughput && x.kind === s.kind && sameLabel(x));
  return same.length > 0 ? same : [s];
}

/** Rows of the window, in table order. */
function rowsIn(s: SeriesModel, range: TimeRange): { first: number; last: number } | number[] {
  const t = s.intervals!;
  const lo = range.start ?? -Infinity;
  const hi = range.end ?? Infinity;
  if (s.blocks) {
    const [first, last] = range.start === null && range.end === null ? [0, t.n - 1] : indexRange(t.offsets, t.n, lo, hi);
    return { first, last };
  }
  const rows: number[] = [];
  for (let i = 0; i < t.n; i++) if (t.offsets[i]! >= lo && t.offsets[i]! <= hi) rows.push(i);
  return rows;
}

function intervalSeconds(s: SeriesModel): number {
  const t = s.intervals!;
  // The median length (a typed array sorts numerically, without a comparator call per pair).
  const ls = t.lengths.slice(0, t.n).sort();
  let i = 0;
  while (i < ls.length && !(ls[i]! > 0)) i++;
  return i < ls.length ? ls[(i + ls.length) >> 1]! : 1;
}

/**
 * A histogram of buckets for the judge: a native one's factor from the schema its description
 * names (classic bounds are read from the values), its top bucket as the reader found it.
 */
function bucketsOf(b: SeriesModel["bucketed"]): RunBuckets | undefined {
  if (!b) return undefined;
  const schema = /\bschema (-?\d+)\b/.exec(b.detail);
  return { factor: schema ? schemaFactor(Number(schema[1])) : null, topLowNs: b.lowNs, topHighNs: b.highNs };
}

export function runOf(store: Store, id: string, range: TimeRange): RunInput {
  const s = store.get(id);
  const base = { name: s.name, unitNs: NANOS_PER_UNIT[s.recordedUnit], recordedUnit: s.recordedUnit, bucketed: s.bucketed?.detail, buckets: bucketsOf(s.bucketed) };
  const t = s.intervals;
  const counts = (): RunInput => {
    const h = store.histogramFor(id, range);
    return { ...base, layout: layoutOf(h), data: { kind: "counts", counts: sparseOf(h) }, coCorrected: id.endsWith(CO_SUFFIX) };
  };
  if (id.endsWith(CO_SUFFIX) || !t || t.n === 0) return counts();
  // The verdict the series' warnings computed (store.ts keeps it per table).
  const saturated = saturationOf(t).saturated;
  const sel = rowsIn(s, range);
  const src = intervalsOf(s);
  if (!Array.isArray(sel)) {
    const { first, last } = sel;
    const n = last - first + 1;
    if (n < MIN_INTERVALS) return { ...counts(), saturated };
    // Sub-blocks end on multiples of the stride (a multiple of 64 when large) counted from the
    // log's first interval, as the store's pre-merged blocks do, however the log was read:
    // only a window's ragged ends are decoded, and the answer is the same for any cut.
    const secs = intervalSeconds(s);
    const plan = planBlocks(n, secs);
    // Sub-block k is intervals [bounds[2k], bounds[2k + 1]].
    const bounds: number[] = [];
    for (let k = Math.floor(first / plan.stride); k * plan.stride <= last; k++) {
      bounds.push(Math.max(first, k * plan.stride), Math.min(last, (k + 1) * plan.stride - 1));
    }
    // Each sub-block is summed, or handed over in pieces, when the comparison bins it (into
    // reused buffers), not all of them up front.
    const has = (k: number) => k >= 0 && 2 * k < bounds.length;
    const subBlocks: SubBlocks = {
      length: bounds.length / 2,
      at: (k) => (has(k) ? src.sum(bounds[2 * k]!, bounds[2 * k + 1]!, true) : undefined),
      // The stored blocks that the sub-block holds whole, and its other intervals decoded one by one.
      eachPiece: (k, add) => {
        if (!has(k)) return false;
        const hi = bounds[2 * k + 1]!;
        for (let i = bounds[2 * k]!; i <= hi;) {
          const stored = i % BLOCK_SIZES[0] === 0 && i + BLOCK_SIZES[0] - 1 <= hi ? src.storedBlock(i) : null;
          if (stored) {
            add(stored);
            i += BLOCK_SIZES[0];
          } else {
            const d = src.counts(i++);
            if (d) add(d);
          }
        }
        return true;
      },
    };
    const total = range.start === null && range.end === null ? sparseOf(s.histogram) : src.sum(first, last);
    return { ...base, layout: layoutOf(s.histogram), saturated, data: { kind: "blocks", subBlocks, plan, total, intervalSeconds: secs } };
  }
  if (sel.length < MIN_INTERVALS) return { ...counts(), saturated };
  // Intervals of a merge may differ in layout: each goes into the series' own layout.
  const layout = layoutOf(s.histogram);
  const scratch = newHistogram(layout.digits, layout.lowest, s.histogram.highestTrackableValue);
  const intervals: Sparse[] = [];
  for (const i of sel) {
    const d = src.decoded(i);
    if (!d) continue;
    if (d.numberOfSignificantValueDigits === layout.digits && d.lowestDiscernibleValue === layout.lowest) intervals.push(copy(d));
    else {
      scratch.reset();
      addDecodedInto(scratch, d);
      const sp = sparseOf(scratch);
      intervals.push({ indices: sp.indices, counts: sp.counts });
    }
  }
  return { ...base, layout, saturated, data: { kind: "intervals", intervals, intervalSeconds: intervalSeconds(s) } };
}

/** The two sides of a request: each a series, or its repeated runs when asked and they do not overlap. */
export function compareInputs(store: Store, req: CompareRequest): { base: SideInput; cand: SideInput; baseIds: string[]; candIds: string[] } {
  let baseIds = [req.baseline];
  let candIds = [req.candidate];
  if (req.repeats ?? true) {
    const rb = repeatsOf(store, req.baseline).map((s) => (req.baseline.endsWith(CO_SUFFIX) ? req.baseline : s.id));
    const rc = repeatsOf(store, req.candidate).map((s) => (req.candidate.endsWith(CO_SUFFIX) ? req.candidate : s.id));
    // A series compared with its own repeat: each side is the series itself.
    if (!rb.some((x) => rc.includes(x))) {
      baseIds = rb;
      candIds = rc;
    }
  }
  const label = (id: string, ids: string[]) => {
    const s = store.get(id);
    const name = id.endsWith(CO_SUFFIX) ? `${s.name} (CO-corrected)` : s.name;
    return ids.length > 1 ? `${name} (${ids.length} runs)` : name;
  };
  return {
    base: { label: label(req.baseline, baseIds), runs: baseIds.map((id) => runOf(store, id, req.range)) },
    cand: { label: label(req.candidate, candIds), runs: candIds.map((id) => runOf(store, id, req.range)) },
    baseIds,
    candIds,
  };
}

/** Gives way to the worker's message queue (a cancel may be waiting), without setTimeout's clamping. */
function pause(): Promise<void> {
  if (typeof MessageChannel === "undefined") return new Promise((r) => setTimeout(r, 0));
  return new Promise((r) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      r();
    };
    ch.port2.postMessage(null);
  });
}

export async function compareQuery(store: Store, req: CompareRequest, onProgress?: (p: Progress) => void, signal?: AbortSignal): Promise<CompareAnswer> {
  const { base, cand, baseIds, candIds } = compareInputs(store, req);
  const carried = carriedAnswer(store, req, baseIds, candIds);
  if (carried) return carried;
  const extra = (req.extraPercentiles ?? []).filter((p) => Number.isFinite(p) && p > 0 && p < 100 && !COMPARE_PERCENTILES.includes(p));
  const percentiles = extra.length ? [...new Set([...COMPARE_PERCENTILES, ...extra])].sort((a, b) => a - b) : undefined;
  const options: CompareOptions = { margin: req.margin, repeats: req.repeats ?? true, resamples: req.resamples, seed: req.seed, percentiles };
  let last = 0;
  const r = await compareSidesAsync(base, cand, options, {
    signal,
    onProgress,
    // Giving way costs a message round trip: only every ~30 ms of work.
    pause: () => {
      const now = Date.now();
      if (now - last < 30) return Promise.resolve();
      last = now;
      return pause();
    },
  });
  const answer = { ...r, baseIds, candIds };
  // A link's series are counts without time order: the comparison judges only what they can
  // support (core/compare), and the page says the answer is not the author's.
  return fromLink(store, [...baseIds, ...candIds]) ? { ...answer, basis: "link-data" } : answer;
}
