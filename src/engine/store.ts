// The loaded data and the queries on it. Owned by the worker; pure so that tests drive it
// directly. A query answers with plot-ready values, never with library objects.
import { addInto, coarsestLayout, lowestDiscernibleValueOf, newHistogram, valueAtPercentile, type Histogram } from "../core/histogram";
import { countAtPercentile } from "../core/bucket-lookup";
import { IntervalTable, type SeriesModel } from "../core/series";
import { detectSaturation } from "../core/saturation";
import { coMessage, detectCoordinatedOmission } from "../core/co-detect";
import { BLOCK_SIZES, indexRange, type Sparse } from "../core/blocks";
import { spectrumOf, type Spectrum } from "../core/spectrum";
import { formatPercentileDistribution } from "../core/hgrm-export";
import { NANOS_PER_UNIT, type LoadProblem, type Unit } from "../core/types";
import { decodePayloadFast } from "../wasm/kernel";
import { decodePayload } from "./payload";
import { addDecodedInto, decodeInflated, inflateHistogramPayload, valueFromIndex, type EncodingVersion } from "../formats/hlog-encoding";
import { ingest, type IngestProgress, type IngestResult } from "./ingest";
import type { SampleOptions } from "../formats/source";
import { decodeShare, encodeShare, MAX_TIMELINE_BUCKETS, type Encoded, type SharedSeries, type SharedSeriesTime, type ShareView } from "../share";

/** A series as a share link shows it: its look, and what the time panel found for it. */
export interface ShareLook {
  id: string;
  color: string;
  visible: boolean;
  time?: SharedSeriesTime;
}

/** An opened link: its view, and per series (in the link's order) its id here and time summaries. */
export type OpenedShare = { ok: true; view: ShareView; lossy: boolean; visible: boolean[]; time: ({ id: string } & SharedSeriesTime)[] } | { ok: false; reason: string };
import { makeSeries } from "./ingest";
import { compareSeries } from "../core/naming";
import { bucketIntervals, snapToBlocks } from "../core/timeline-buckets";

/** A time window in seconds since each log's StartTime; null ends are open. */
export interface TimeRange {
  start: number | null;
  end: number | null;
}

export const OPEN_RANGE: TimeRange = { start: null, end: null };

export interface SeriesView {
  id: string;
  name: string;
  source: string;
  tag: string;
  format: string;
  recordedUnit: Unit;
  unitSource: SeriesModel["unitSource"];
  intervalCount: number;
  startTime: number | null;
  config: string;
  throughput: number | null;
  kind: SeriesModel["kind"];
  mergedFrom: string[];
  failures: number;
  /** A view derived from another series (the coordinated-omission-corrected copy): not editable. */
  correctedFrom: string | null;
  /** Count of the whole series, whatever the time window. */
  wholeCount: number;
  /** The spectrum of the current time window. */
  spectrum: Spectrum;
  warnings: SeriesWarning[];
}

export { TIMELINE_PERCENTILES } from "../core/types";

export interface TimelineQuery {
  /** Visible window in s since StartTime; null ends take the extent of all loaded intervals. */
  t0: number | null;
  t1: number | null;
  /** Pixel columns available: more intervals than this are merged per column. */
  columns: number;
  percentiles: readonly number[];
}

export interface TimelineSeries {
  id: string;
  recordedUnit: Unit;
  startTime: number | null;
  /** Per bucket: time span (s since StartTime), max of maxes, total count. */
  t0: Float64Array;
  t1: Float64Array;
  max: Float64Array;
  count: Float64Array;
  /** Percentile → per-bucket value from the bucket's merged histogram. */
  percentiles: Record<string, Float64Array>;
}

export interface TimelineResult {
  /** Extent of every loaded interval (s since StartTime). */
  extent: [number, number];
  /** The window the buckets cover. */
  domain: [number, number];
  series: TimelineSeries[];
}

export interface SeriesWarning {
  kind: "saturation" | "coordinated-omission";
  message: string;
}

export interface LoadOutcome {
  added: string[];
  problems: LoadProblem[];
}

function warningsOf(s: SeriesModel): SeriesWarning[] {
  const out: SeriesWarning[] = [];
  const t = s.intervals;
  if (t) {
    const v = detectSaturation(t.offsets, t.p50, t.counts, t.n);
    if (v.saturated) {
      out.push({
        kind: "saturation",
        message: `The median latency of ${s.name} climbs steadily through the run (${v.rise.toFixed(1)}× from the first to the last quarter): the system was past its capacity, requests queued for the whole run, and these percentiles describe the queue, not the service. Judge a lower throughput.`,
      });
    }
  }
  return out;
}

/**
 * Recently inflated intervals (the uncompressed histogram bytes, ~540 for a jHiccup second),
 * least recently used first, for every table. A timeline zoomed in to a few intervals per
 * column decodes each one (for a screen of the 24-hour log, mostly base64 and inflate), and a
 * pan, the next zoom step or a window query asks for mostly the same ones.
 */
const inflatedCache = new Map<IntervalTable, Map<number, { bytes: Uint8Array; outer: EncodingVersion | -1 }>>();
let inflatedBytes = 0;
let MAX_INFLATED_CACHE_BYTES = 32 * 1024 * 1024;

/** For tests: the cache's bound (bytes), and what it holds now. */
export const inflatedCacheForTests = {
  setLimit(bytes: number): void {
    MAX_INFLATED_CACHE_BYTES = bytes;
    if (inflatedBytes > bytes) trimInflatedCache();
  },
  held: (): number => inflatedBytes,
};

function trimInflatedCache(): void {
  for (const [table, m] of inflatedCache) {
    for (const [i, e] of m) {
      if (inflatedBytes <= MAX_INFLATED_CACHE_BYTES * 0.75) break;
      m.delete(i);
      inflatedBytes -= e.bytes.length;
    }
    if (m.size === 0) inflatedCache.delete(table);
    if (inflatedBytes <= MAX_INFLATED_CACHE_BYTES * 0.75) return;
  }
}

/** Forgets what was inflated from a table (its series is gone). */
function forgetInflated(t: IntervalTable | null | undefined): void {
  const m = t ? inflatedCache.get(t) : undefined;
  if (!m) return;
  for (const e of m.values()) inflatedBytes -= e.bytes.length;
  inflatedCache.delete(t!);
}

function decodeAt(t: IntervalTable, i: number): Sparse | null {
  // Transient: sumRange adds each edge interval before decoding the next. The kernel decodes
  // the usual payload from its text faster than the JS reader decodes it from cached inflated
  // bytes, so the cache keeps only what the kernel declines (V0 and V1 payloads, mostly).
  // (After a load the JS inflater was also cold: the first time window took about three times the rest.)
  const fast = decodePayloadFast(t.payload(i));
  if (fast !== null) return fast;
  let m = inflatedCache.get(t);
  const hit = m?.get(i);
  if (hit) {
    m!.delete(i); // most recently used goes last
    m!.set(i, hit);
    const d = decodeInflated(hit.bytes, hit.outer, true);
    return d.ok ? d.value : null;
  }
  const r = inflateHistogramPayload(t.payload(i));
  if (!r.ok) return null;
  if (r.outer !== -1) {
    // Only inflated payloads are worth keeping (the rest are their own bytes again).
    if (!m) {
      m = new Map();
      inflatedCache.set(t, m);
    }
    m.set(i, { bytes: r.bytes.slice(), outer: r.outer });
    inflatedBytes += r.bytes.length;
    if (inflatedBytes > MAX_INFLATED_CACHE_BYTES) trimInflatedCache();
  }
  const d = decodeInflated(r.bytes, r.outer, true);
  return d.ok ? d.value : null;
}

/** Adds block sums (in the series' own layout) into a histogram of that layout. */
function addSparse(target: Histogram, s: SeriesModel, sum: Sparse): void {
  let total = 0;
  for (let k = 0; k < sum.counts.length; k++) total += sum.counts[k]!;
  addDecodedInto(target, {
    version: 2,
    numberOfSignificantValueDigits: s.histogram.numberOfSignificantValueDigits,
    lowestDiscernibleValue: lowestDiscernibleValueOf(s.histogram),
    highestTrackableValue: s.histogram.highestTrackableValue,
    indices: sum.indices,
    counts: sum.counts,
    totalCount: total,
  });
}

/**
 * valueAtPercentile(histogram of `sum`, p) without building the histogram: the first bucket
 * whose cumulative count reaches the percentile's count, valued at its highest equivalent
 * value in the series' own layout (what HdrHistogram reports for it). timeline.test.ts checks
 * it against the library column by column.
 */
/** For 0 < p ≤ 100 (the timeline never asks for p0, whose value Java takes at the bucket's low end). */
function percentileOfSum(s: SeriesModel, sum: Sparse, p: number): number {
  const n = sum.indices.length;
  if (n === 0) return 0;
  let total = 0;
  for (let k = 0; k < n; k++) total += sum.counts[k]!;
  const lowest = lowestDiscernibleValueOf(s.histogram);
  const digits = s.histogram.numberOfSignificantValueDigits;
  let k = n - 1;
  if (p < 100) {
    const target = countAtPercentile(total, p);
    let run = 0;
    for (k = 0; k < n - 1; k++) {
      run += sum.counts[k]!;
      if (run >= target) break;
    }
  }
  return valueFromIndex(sum.indices[k]! + 1, lowest, digits) - 1;
}

/** A shared series' coarse max-over-time as timeline buckets (no percentiles: they were not shared). */
function coarseSeries(s: SeriesModel, c: { t0: number; t1: number; max: number[] }, t0: number, t1: number, percentiles: readonly number[]): TimelineSeries {
  const w = (c.t1 - c.t0) / Math.max(1, c.max.length);
  const keep = c.max.map((m, k) => ({ m, a: c.t0 + k * w })).filter((b) => Number.isFinite(b.m) && b.a + w >= t0 && b.a <= t1);
  const r: TimelineSeries = {
    id: s.id,
    recordedUnit: s.recordedUnit,
    startTime: s.startTime,
    t0: Float64Array.from(keep, (b) => b.a),
    t1: Float64Array.from(keep, (b) => b.a + w),
    max: Float64Array.from(keep, (b) => b.m),
    count: new Float64Array(keep.length),
    percentiles: {},
  };
  for (const p of percentiles) r.percentiles[String(p)] = new Float64Array(keep.length);
  return r;
}

/** Max per equal-width bucket over [t0, t1] (NaN where no interval starts): what a link carries. */
function coarseOf(s: SeriesModel, buckets: number): { t0: number; t1: number; max: number[] } | null {
  if (s.coarseTimeline) return s.coarseTimeline;
  const t = s.intervals;
  if (!t || t.n === 0) return null;
  let t0 = Infinity;
  let t1 = -Infinity;
  for (let i = 0; i < t.n; i++) {
    t0 = Math.min(t0, t.offsets[i]!);
    t1 = Math.max(t1, t.offsets[i]! + t.lengths[i]!);
  }
  const n = Math.max(1, Math.min(buckets, t.n));
  const max = new Array<number>(n).fill(Number.NaN);
  const w = (t1 - t0) / n || 1;
  for (let i = 0; i < t.n; i++) {
    const k = Math.min(n - 1, Math.floor((t.offsets[i]! - t0) / w));
    max[k] = Number.isNaN(max[k]!) ? t.maxes[i]! : Math.max(max[k]!, t.maxes[i]!);
  }
  return { t0, t1, max };
}

function maxLength(t: IntervalTable): number {
  let m = 0;
  for (let i = 0; i < t.n; i++) m = Math.max(m, t.lengths[i]!);
  return m;
}

/** An empty histogram with the layout of `h`, so intervals add by index. */
function sameShape(h: Histogram): Histogram {
  return newHistogram(h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h), h.highestTrackableValue);
}

let mergeCount = 0;

/** Id suffix of a series' coordinated-omission-corrected view. */
export const CO_SUFFIX = "~co";

function formatNs(ns: number): string {
  const u = ns >= 1e9 ? "s" : ns >= 1e6 ? "ms" : ns >= 1e3 ? "µs" : "ns";
  const d = u === "s" ? 1e9 : u === "ms" ? 1e6 : u === "µs" ? 1e3 : 1;
  return `${Number((ns / d).toPrecision(4))} ${u}`;
}

export class Store {
  readonly series: SeriesModel[] = [];

  /** Like load, but a failure of the source itself (a network error) is thrown to the caller. */
  async loadOrThrow(name: string, chunks: AsyncIterable<string> | Iterable<string>, onProgress?: (p: IngestProgress) => void, options?: SampleOptions): Promise<LoadOutcome> {
    return this.add(await ingest(name, chunks, onProgress, options));
  }

  /**
   * Adds what an ingest produced. Series are added only once the whole input was read: a
   * source that fails half way leaves what is loaded untouched.
   */
  add(r: IngestResult): LoadOutcome {
    this.series.push(...r.series);
    return { added: r.series.map((s) => s.id), problems: r.problems };
  }

  async load(name: string, chunks: AsyncIterable<string> | Iterable<string>, onProgress?: (p: IngestProgress) => void, options?: SampleOptions): Promise<LoadOutcome> {
    try {
      return await this.loadOrThrow(name, chunks, onProgress, options);
    } catch (e) {
      // A parser bug must not take down what is already loaded.
      return { added: [], problems: [{ file: name, line: null, reason: `could not be read: ${(e as Error).message ?? String(e)}` }] };
    }
  }

  remove(id: string): void {
    const i = this.series.findIndex((s) => s.id === id);
    if (i >= 0) forgetInflated(this.series.splice(i, 1)[0]!.intervals);
  }

  clear(): void {
    for (const s of this.series) forgetInflated(s.intervals);
    this.series.length = 0;
    this.coCache.clear();
    this.warningCache.clear();
  }

  setIdentity(id: string, patch: Partial<Pick<SeriesModel, "config" | "throughput" | "kind" | "name">>): void {
    Object.assign(this.get(id), patch);
    this.forgetWarnings(id);
  }

  /**
   * Combines series into a new one whose histogram is the sum of theirs (never an average of
   * anything). Intervals keep their own histograms, placed by absolute time so that the
   * timeline and time windows line up: a bucket spanning several sources merges them.
   */
  merge(ids: string[], name?: string): string {
    const parts = ids.map((id) => this.get(id));
    if (parts.length < 2) throw new Error("select at least two series to merge");
    const unit = parts[0]!.recordedUnit;
    const odd = parts.find((p) => p.recordedUnit !== unit);
    if (odd) throw new Error(`cannot merge series recorded in different units (${unit} and ${odd.recordedUnit}): set their recorded units first`);
    // Into the coarsest layout among the parts (see mergeAll): never below what any part
    // recorded. Time windows and timeline columns of the merge add its intervals into this
    // layout too (sameShape of this histogram).
    const layout = coarsestLayout(parts.map((p) => p.histogram));
    const histogram = newHistogram(layout.digits, layout.lowest, Math.max(...parts.map((p) => p.histogram.highestTrackableValue)));
    for (const p of parts) addInto(histogram, p.histogram);
    let intervals: IntervalTable | null = null;
    let startTime: number | null = null;
    if (parts.every((p) => p.intervals && p.intervals.n > 0)) {
      const starts = parts.map((p) => p.startTime);
      startTime = starts.every((x) => x !== null) ? Math.min(...(starts as number[])) : null;
      intervals = new IntervalTable();
      // Collect and sort by absolute start so the table stays in time order.
      const rows: { at: number; p: SeriesModel; i: number }[] = [];
      for (const p of parts) {
        const shift = startTime !== null && p.startTime !== null ? p.startTime - startTime : 0;
        for (let i = 0; i < p.intervals!.n; i++) rows.push({ at: p.intervals!.offsets[i]! + shift, p, i });
      }
      rows.sort((a, b) => a.at - b.at);
      for (const { at, p, i } of rows) {
        const t = p.intervals!;
        intervals.push(at, t.lengths[i]!, t.maxes[i]!, t.counts[i]!, t.maxColumn[i]!, t.payload(i), t.p50[i]!);
      }
    }
    const first = parts[0]!;
    const merged: SeriesModel = {
      id: `m${++mergeCount}`,
      name: name ?? `merged: ${parts.map((p) => p.name).join(" + ")}`,
      source: [...new Set(parts.map((p) => p.source))].join(", "),
      tag: "",
      recordedUnit: unit,
      unitSource: first.unitSource,
      histogram,
      intervals,
      startTime,
      format: "merged",
      config: parts.every((p) => p.config === first.config) ? first.config : "merged",
      throughput: parts.every((p) => p.throughput !== null) ? parts.reduce((a, p) => a + p.throughput!, 0) : null,
      kind: parts.every((p) => p.kind === first.kind) ? first.kind : "",
      mergedFrom: parts.map((p) => p.name),
      failures: parts.reduce((a, p) => a + p.failures, 0),
    };
    this.series.push(merged);
    return merged.id;
  }

  private forgetWarnings(id: string): void {
    this.warningCache.delete(id);
    this.coCache.delete(id);
  }

  setRecordedUnit(id: string, unit: Unit): void {
    this.forgetWarnings(id);
    const s = this.get(id);
    s.recordedUnit = unit;
    s.unitSource = "user";
  }

  get(id: string): SeriesModel {
    const base = id.endsWith(CO_SUFFIX) ? id.slice(0, -CO_SUFFIX.length) : id;
    const s = this.series.find((x) => x.id === base);
    if (!s) throw new Error(`no series ${id}`);
    return s;
  }

  /**
   * The histogram of a series over a time range. An interval counts when its start, in seconds
   * since StartTime, lies within [start, end]: HistogramLogProcessor's rule for -start/-end.
   * Series without intervals ignore the range.
   */
  histogramFor(id: string, range: TimeRange): Histogram {
    if (id.endsWith(CO_SUFFIX)) {
      const base = this.get(id);
      const interval = Math.round((this.coIntervalNs ?? 0) / NANOS_PER_UNIT[base.recordedUnit]);
      const h = this.histogramFor(id.slice(0, -CO_SUFFIX.length), range);
      // Post-hoc correction (HdrHistogram's copyCorrectedForCoordinatedOmission): it is linear
      // in the counts, so correcting the merged histogram equals merging corrected intervals.
      return interval >= 1 ? (h as unknown as { copyCorrectedForCoordinatedOmission(i: number): Histogram }).copyCorrectedForCoordinatedOmission(interval) : h;
    }
    const s = this.get(id);
    const t = s.intervals;
    if (!t || (range.start === null && range.end === null)) return s.histogram;
    const lo = range.start ?? -Infinity;
    const hi = range.end ?? Infinity;
    const out = sameShape(s.histogram);
    if (s.blocks) {
      const [i0, i1] = indexRange(t.offsets, t.n, lo, hi);
      if (i0 <= i1) addSparse(out, s, s.blocks.sumRange(i0, i1, (i) => decodeAt(t, i)).sum);
      return out;
    }
    for (let i = 0; i < t.n; i++) {
      const o = t.offsets[i]!;
      if (o < lo || o > hi) continue;
      const d = decodePayload(t.payload(i));
      if (d.ok) addDecodedInto(out, d.value);
    }
    return out;
  }

  /**
   * Computes, and throws away, the spectrum of the middle third of the longest series with
   * intervals. The worker calls it when idle after a load, so that the first time window a
   * person picks does not run the window path (block sums, edge decoding, spectrum) in V8's
   * cold tiers (traced on the 24-hour log, the first window was markedly slower than the next
   * ones). Returns whether there was anything to warm.
   */
  warmWindow(): boolean {
    let best: SeriesModel | null = null;
    for (const s of this.series) if (s.intervals && s.intervals.n > (best?.intervals?.n ?? 1)) best = s;
    const t = best?.intervals;
    if (!best || !t) return false;
    const t0 = t.offsets[0]!;
    const span = t.offsets[t.n - 1]! - t0;
    const h = this.histogramFor(best.id, { start: t0 + span / 3, end: t0 + (2 * span) / 3 });
    return spectrumOf(h).totalCount >= 0;
  }

  /** Expected interval between requests (ns) for view-time coordinated-omission correction. */
  coIntervalNs: number | null = null;
  private readonly coCache = new Map<string, SeriesWarning | null>();

  /**
   * Every series, each followed by its corrected copy when an expected interval is set: the
   * correction is shown beside the measurement, never silently replacing it.
   */
  views(range: TimeRange = OPEN_RANGE): SeriesView[] {
    const out: SeriesView[] = [];
    // Listed in one order everywhere (core/naming's compareSeries); each corrected copy right after its series.
    for (const v of this.rawViews(range).sort(compareSeries)) {
      out.push(v);
      if (this.coIntervalNs === null) continue;
      const h = this.histogramFor(v.id + CO_SUFFIX, range);
      out.push({
        ...v,
        id: v.id + CO_SUFFIX,
        name: `${v.name} (CO-corrected, ${formatNs(this.coIntervalNs)})`,
        correctedFrom: v.id,
        wholeCount: this.histogramFor(v.id + CO_SUFFIX, OPEN_RANGE).totalCount,
        spectrum: spectrumOf(h),
        warnings: [],
      });
    }
    return out;
  }

  private rawViews(range: TimeRange): SeriesView[] {
    return this.series.map((s) => ({
      id: s.id,
      name: s.name,
      source: s.source,
      tag: s.tag,
      format: s.format,
      recordedUnit: s.recordedUnit,
      unitSource: s.unitSource,
      intervalCount: s.intervals?.n ?? 0,
      startTime: s.startTime,
      config: s.config,
      throughput: s.throughput,
      kind: s.kind,
      mergedFrom: s.mergedFrom,
      failures: s.failures,
      wholeCount: s.histogram.totalCount,
      correctedFrom: null,
      spectrum: spectrumOf(this.histogramFor(s.id, range)),
      warnings: this.warnings(s),
    }));
  }

  /** Warnings depend on the whole series, not on the window: computed once per series. */
  private readonly warningCache = new Map<string, SeriesWarning[]>();
  private warnings(s: SeriesModel): SeriesWarning[] {
    let w = this.warningCache.get(s.id);
    if (!w) {
      w = [...warningsOf(s), ...this.coWarning(s)];
      this.warningCache.set(s.id, w);
    }
    return w;
  }

  private coWarning(s: SeriesModel): SeriesWarning[] {
    if (!this.coCache.has(s.id)) {
      const c = detectCoordinatedOmission(s.histogram, { secondsPerUnit: NANOS_PER_UNIT[s.recordedUnit] / 1e9, intervals: s.intervals });
      const f = (v: number) => formatNs(v * NANOS_PER_UNIT[s.recordedUnit]);
      this.coCache.set(s.id, c.suspicious && c.from && c.to ? { kind: "coordinated-omission", message: coMessage(s.name, c, f) } : null);
    }
    const w = this.coCache.get(s.id);
    return w ? [w] : [];
  }

  /** The current view and its data as a share-link fragment (histograms of the current window). */
  share(view: ShareView, looks: ShareLook[], range: TimeRange, fullPrecision: boolean): Encoded {
    const series: SharedSeries[] = looks
      .filter((l) => !l.id.endsWith(CO_SUFFIX))
      .map((l) => {
        const s = this.get(l.id);
        return {
          name: s.name,
          source: s.source,
          tag: s.tag,
          config: s.config,
          throughput: s.throughput,
          kind: s.kind,
          unit: s.recordedUnit,
          color: l.color,
          visible: l.visible,
          histogram: this.histogramFor(s.id, range),
          timeline: coarseOf(s, MAX_TIMELINE_BUCKETS),
          startTime: s.startTime,
          ...(l.time ? { time: l.time } : {}),
        };
      });
    return encodeShare({ view, series }, { fullPrecision });
  }

  /** Replaces everything loaded with a link's series; returns its view settings. */
  openShare(fragment: string): OpenedShare {
    const r = decodeShare(fragment);
    if (!r.ok) return r;
    this.clear();
    for (const sh of r.state.series) {
      const m = makeSeries({
        name: sh.name,
        source: sh.source,
        tag: sh.tag,
        recordedUnit: sh.unit,
        unitSource: "format",
        histogram: sh.histogram,
        intervals: null,
        startTime: sh.startTime,
        format: "shared",
        blocks: null,
      });
      m.config = sh.config;
      m.throughput = sh.throughput;
      m.kind = sh.kind;
      m.coarseTimeline = sh.timeline ?? null;
      this.series.push(m);
    }
    return {
      ok: true,
      view: r.state.view,
      lossy: r.lossy,
      visible: r.state.series.map((x) => x.visible),
      time: r.state.series.map((x, i) => ({ id: this.series[i]!.id, ...x.time })),
    };
  }

  setCoInterval(ns: number | null): void {
    this.coIntervalNs = ns !== null && Number.isFinite(ns) && ns > 0 ? ns : null;
  }

  /**
   * The timeline of every series with intervals over [t0, t1], at most `columns` buckets each.
   * A bucket of one interval reports that interval; a bucket of several reports the max of
   * their maxes and the percentiles of their merged histogram.
   */
  timeline(q: TimelineQuery): TimelineResult {
    let first = Infinity;
    let last = -Infinity;
    for (const s of this.series) {
      const t = s.intervals;
      if (s.coarseTimeline && !t) {
        first = Math.min(first, s.coarseTimeline.t0);
        last = Math.max(last, s.coarseTimeline.t1);
      }
      if (!t) continue;
      for (let i = 0; i < t.n; i++) {
        first = Math.min(first, t.offsets[i]!);
        last = Math.max(last, t.offsets[i]! + t.lengths[i]!);
      }
    }
    if (!Number.isFinite(first)) return { extent: [0, 1], domain: [0, 1], series: [] };
    const t0 = q.t0 ?? first;
    const t1 = Math.max(q.t1 ?? last, t0 + 1e-3);
    const out: TimelineSeries[] = [];
    for (const s of this.series) {
      const t = s.intervals;
      if (!t && s.coarseTimeline) {
        out.push(coarseSeries(s, s.coarseTimeline, t0, t1, q.percentiles));
        continue;
      }
      if (!t || t.n === 0) continue;
      // A bucket holds the intervals that start in it; include the one straddling t0.
      const grouped = bucketIntervals(t, t0 - maxLength(t), t1, q.columns);
      const order = grouped.order;
      let buckets = grouped.buckets;
      // Columns of many intervals are moved onto block boundaries: a column's merged histogram
      // is then whole pre-merged blocks (percentile lines on a 24-hour log took over a second
      // per query when every column decoded its intervals).
      if (s.blocks && buckets.length > 1 && (buckets[buckets.length - 1]!.first + buckets[buckets.length - 1]!.count - buckets[0]!.first) / buckets.length >= BLOCK_SIZES[0]) {
        buckets = snapToBlocks(t, buckets, BLOCK_SIZES[0]);
      }
      const n = buckets.length;
      const r: TimelineSeries = {
        id: s.id,
        recordedUnit: s.recordedUnit,
        startTime: s.startTime,
        t0: new Float64Array(n),
        t1: new Float64Array(n),
        max: new Float64Array(n),
        count: new Float64Array(n),
        percentiles: {},
      };
      for (const p of q.percentiles) r.percentiles[String(p)] = new Float64Array(n);
      buckets.forEach((b, k) => {
        r.t0[k] = b.t0;
        r.t1[k] = b.t1;
        r.max[k] = b.max;
        let count = 0;
        for (let j = b.first; j < b.first + b.count; j++) count += t.counts[order[j]!]!;
        r.count[k] = count;
        if (q.percentiles.length === 0) return;
        if (s.blocks) {
          // Sorted table: order is the identity and a bucket is a contiguous index range.
          // Percentiles straight off the block sum, valuing only the bucket each one lands in
          // (a histogram per column, allocated and walked from index 0, cost more than the sum).
          const sum = s.blocks.sumRange(b.first, b.first + b.count - 1, (i) => decodeAt(t, i)).sum;
          for (const p of q.percentiles) r.percentiles[String(p)]![k] = percentileOfSum(s, sum, p);
          return;
        }
        const h = sameShape(s.histogram);
        for (let j = b.first; j < b.first + b.count; j++) {
          const d = decodePayload(t.payload(order[j]!));
          if (d.ok) addDecodedInto(h, d.value);
        }
        for (const p of q.percentiles) r.percentiles[String(p)]![k] = valueAtPercentile(h, p);
      });
      out.push(r);
    }
    return { extent: [first, last], domain: [t0, t1], series: out };
  }

  /** HdrHistogram's outputPercentileDistribution text for a series, values in the display unit. */
  exportHgrm(id: string, range: TimeRange, displayUnit: Unit): string {
    const s = this.get(id);
    const h = this.histogramFor(id, range);
    // outputValueUnitScalingRatio divides recorded values. Computed as a ratio of exact
    // integers (1e6/1), not as 1/1e-6, which is not exactly 1e6 in floating point.
    return formatPercentileDistribution(h, NANOS_PER_UNIT[displayUnit] / NANOS_PER_UNIT[s.recordedUnit]);
  }
}
