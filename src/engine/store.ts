// The loaded data and the queries on it. Owned by the worker; pure so that tests drive it
// directly. A query answers with plot-ready values, never with library objects. The series
// registry lives here; the time-window histogram (window-query.ts), the timeline
// (timeline-query.ts) and the heatmap, window and tail queries (time-queries.ts) are their own
// modules, and the types a query answers with are in protocol.ts.
import { bucketsOf, type Buckets, type Histogram } from "../core/histogram";
import { IntervalTable, type SeriesModel } from "../core/series";
import { compactHistogram, compactSpectrum } from "../core/lazy-histogram";
import { SparseIntervalTable } from "./intervals/sparse-rows";
import { coNotJudged } from "../core/co-applies";
import { detectCoordinatedOmission } from "../core/co-detect";
import { formatNs } from "../core/warnings";
import { spectrumOf, type Spectrum } from "../core/spectrum";
import { formatPercentileDistribution } from "../core/hgrm-export";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import { ingest, type IngestProgress, type IngestResult } from "./ingest";
import type { SampleOptions } from "../formats/source";
import type { SharedShown } from "../share/results";
import { pinnedWarnings, pinSpectrum } from "./share-pin";
import type { CarriedCompare } from "./share-query";
import { compareSeries, uniqueName } from "../core/naming";
import type { OpenedShare, ShareLook } from "./query-types";
import { OPEN_RANGE, type LoadOutcome, type SeriesView, type SeriesWarning, type TimelineQuery, type TimelineResult, type TimeRange } from "./protocol";
import { disposeIntervals, intervalsOf, mergedSparse, type AppendedRow } from "./intervals";
import { beforeStartOf, saturationOf } from "./table-facts";
import { windowHistogram, windowSpectrum } from "./window-query";
import { SpectraKept } from "./view-cache";
import { timelineQuery } from "./timeline-query";
import { sharedContext, type EngineContext } from "./context";
import { mergeHistograms } from "./merge";

// The wire types used to live here; importers may still take them from this module.
export { OPEN_RANGE, saturationOf };
export type { OpenedShare, ShareLook };
export type { LoadOutcome, SeriesView, SeriesWarning, TimelineQuery, TimelineResult, TimelineSeries, TimeRange } from "./protocol";
export { TIMELINE_PERCENTILES } from "../core/types";

function warningsOf(s: SeriesModel): SeriesWarning[] {
  const out: SeriesWarning[] = [];
  if (s.bucketed) out.push({ kind: "bucketed", series: s.name, ...s.bucketed });
  const t = s.intervals;
  if (t) {
    const v = saturationOf(t);
    if (v.saturated) {
      out.push({ kind: "saturation", series: s.name, rise: v.rise });
    }
  }
  return out;
}

const isOpen = (r: TimeRange) => r.start === null && r.end === null;
// Module-level, not a closure made per call: a followed run's appends load a few times a second.
const idOf = (s: SeriesModel) => s.id;

/** Id suffix of a series' coordinated-omission-corrected view. */
export const CO_SUFFIX = "~co";

export class Store {
  /** The engine context this store's loads and queries run in (context.ts). */
  constructor(readonly context: EngineContext = sharedContext) {}

  readonly series: SeriesModel[] = [];
  /** What an opened link's author's page showed, by series id (share-query.ts); dropped when a series' values change meaning. */
  readonly shown = new Map<string, SharedShown>();
  /** The comparison an opened link carried. */
  carried: CarriedCompare | null = null;
  /** The CO interval (ns) an opened link's corrected copies were computed with (their pins hold while it is set). */
  carriedCoNs: number | null = null;

  /** Like load, but a failure of the source itself (a network error) is thrown to the caller. */
  async loadOrThrow(name: string, chunks: AsyncIterable<string> | Iterable<string>, onProgress?: (p: IngestProgress) => void, options?: SampleOptions): Promise<LoadOutcome> {
    return this.add(await ingest(name, chunks, onProgress, options, { context: this.context }));
  }

  /**
   * Adds what an ingest produced. Series are added only once the whole input was read: a
   * source that fails half way leaves what is loaded untouched.
   */
  add(r: IngestResult): LoadOutcome {
    // Two files with the same stem get names of their own (the later one is renamed).
    const taken = new Set(this.series.map((s) => s.name));
    for (const s of r.series) {
      const name = uniqueName(s.name, s.source, s.tag, taken);
      if (name !== s.name) {
        s.givenName = s.name;
        s.name = name;
      }
      taken.add(s.name);
      // Steps kept as sparse counts (Prometheus): the whole is kept as its few counts too, and
      // made again when read (core/lazy-histogram.ts), not a counts array of zeros per series.
      if (s.intervals instanceof SparseIntervalTable) s.histogram = compactHistogram(s.histogram);
    }
    this.series.push(...r.series);
    return { added: r.series.map(idOf), problems: r.problems };
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
    if (i >= 0) {
      disposeIntervals(this.series.splice(i, 1)[0]!.intervals);
    }
    // A followed sample file's series made again comes back under the same id.
    this.forgetWarnings(id);
    this.shown.delete(id);
    this.shown.delete(id + CO_SUFFIX);
  }

  clear(): void {
    for (const s of this.series) disposeIntervals(s.intervals);
    this.series.length = 0;
    this.shown.clear();
    this.carried = null;
    this.carriedCoNs = null;
    this.coCache.clear();
    this.warningCache.clear();
  }

  /**
   * Rows a run followed live wrote after the load, appended to a series' intervals (see
   * intervals/source.ts): every query after answers as for a load of the whole log.
   */
  append(id: string, rows: readonly AppendedRow[]): void {
    const s = this.get(id);
    intervalsOf(s).append(rows);
    this.forgetWarnings(id);
  }

  setIdentity(id: string, patch: Partial<Pick<SeriesModel, "config" | "throughput" | "kind" | "name">>): void {
    Object.assign(this.get(id), patch);
    this.forgetWarnings(id);
  }

  /**
   * Combines series into a new one whose histogram is the sum of theirs (never an average of
   * anything). Intervals keep their own histograms, placed by absolute time so that the
   * timeline and time windows line up: a bucket spanning several sources merges them. Sparse
   * steps at the same times (a Prometheus fleet) are summed step by step (intervals/sparse-rows.ts).
   */
  merge(ids: string[], name?: string): string {
    const parts = ids.map((id) => this.get(id));
    if (parts.length < 2) throw new Error("select at least two series to merge");
    const unit = parts[0]!.recordedUnit;
    const odd = parts.find((p) => p.recordedUnit !== unit);
    if (odd) throw new Error(`cannot merge series recorded in different units (${unit} and ${odd.recordedUnit}): set their recorded units first`);
    // The engine's one merge (merge.ts): into the coarsest layout among the parts. Time windows
    // and timeline columns of the merge add its intervals into this layout too (sameShape of
    // this histogram).
    let histogram = mergeHistograms(parts.map((p) => p.histogram));
    let intervals: IntervalTable | null = null;
    let startTime: number | null = null;
    if (parts.every((p) => p.intervals && p.intervals.n > 0)) {
      const starts = parts.map((p) => p.startTime);
      startTime = starts.every((x) => x !== null) ? Math.min(...(starts as number[])) : null;
      // Sparse counts (Prometheus) are joined as they are, with no payload made (intervals/sparse-rows.ts).
      intervals = mergedSparse(parts, startTime);
      if (intervals === null) {
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
    }
    // A merge of sparse steps is kept as its counts too, as each part is (add()).
    if (intervals instanceof SparseIntervalTable) histogram = compactHistogram(histogram);
    const first = parts[0]!;
    const merged: SeriesModel = {
      id: this.context.nextMergedId(),
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
    if (unit !== s.recordedUnit) {
      // Its values now mean something else.
      this.shown.delete(id);
      this.shown.delete(id + CO_SUFFIX);
    }
    s.recordedUnit = unit;
    s.unitSource = "user";
  }

  get(id: string): SeriesModel {
    const base = id.endsWith(CO_SUFFIX) ? id.slice(0, -CO_SUFFIX.length) : id;
    for (const s of this.series) if (s.id === base) return s;
    throw new Error(`no series ${id}`);
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
    return windowHistogram(this.get(id), range);
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
      const co = this.correctedOf(v.id, range);
      if (co === null) continue;
      out.push({
        ...v,
        id: v.id + CO_SUFFIX,
        name: `${v.name} (CO-corrected, ${formatNs(this.coIntervalNs!)})`,
        correctedFrom: v.id,
        ...co,
        warnings: [],
      });
    }
    return out;
  }

  private rawViews(range: TimeRange): SeriesView[] {
    const out: SeriesView[] = [];
    for (const s of this.series)
      out.push({
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
        wholeCount: this.wholeCountOf(s.id),
        correctedFrom: null,
        ...this.spectrumAndWarnings(s, range),
        beforeStart: beforeStartOf(s.intervals),
        ...(s.origin !== undefined ? { origin: s.origin } : {}),
      });
    return out;
  }

  /**
   * A view's spectrum and warnings. Over the whole series, the warnings' detector reads the
   * buckets the spectrum was made of, not walking the counts again.
   */
  private spectrumAndWarnings(s: SeriesModel, range: TimeRange): { spectrum: Spectrum; warnings: SeriesWarning[] } {
    // A whole series kept as its counts (Prometheus): its spectrum made from them once, kept until it changes.
    // Otherwise a spectrum already made of the same data is answered again (view-cache.ts).
    const kept = isOpen(range) ? compactSpectrum(s.histogram) : null;
    let b: Buckets | undefined = kept ?? undefined;
    let sp = kept ?? this.spectra.get(s, range);
    if (sp === undefined && (isOpen(range) || !s.intervals)) sp = this.spectra.set(s, range, spectrumOf(s.histogram, (b = bucketsOf(s.histogram))));
    // A window's from its counts, moved with the window when it moved a little (window-query.ts).
    else if (sp === undefined) sp = this.spectra.set(s, range, windowSpectrum(s, range));
    const shown = this.shown.get(s.id);
    return { spectrum: shown ? pinSpectrum(sp, shown) : sp, warnings: this.warningsOf(s.id, b) };
  }

  private readonly spectra = new SpectraKept();

  /** The spectrum a view shows: an opened link's series shows what its author's page showed (share-query.ts). */
  spectrumFor(id: string, range: TimeRange): Spectrum {
    const kept = isOpen(range) && !id.endsWith(CO_SUFFIX) ? compactSpectrum(this.get(id).histogram) : null;
    const sp = kept ?? spectrumOf(this.histogramFor(id, range));
    const shown = this.shown.get(id);
    return shown ? pinSpectrum(sp, shown) : sp;
  }

  /**
   * A series' CO-corrected copy as views show it (null without a CO interval): an opened link's
   * copy shows what its author's page showed while the interval is the link's.
   */
  correctedOf(id: string, range: TimeRange): { spectrum: Spectrum; wholeCount: number } | null {
    if (this.coIntervalNs === null) return null;
    const sp = spectrumOf(this.histogramFor(id + CO_SUFFIX, range));
    const pin = this.coIntervalNs === this.carriedCoNs ? this.shown.get(id + CO_SUFFIX) : undefined;
    if (pin) return { spectrum: pinSpectrum(sp, pin), wholeCount: pin.count };
    return { spectrum: sp, wholeCount: this.histogramFor(id + CO_SUFFIX, OPEN_RANGE).totalCount };
  }

  /** Pins what a link's author's page showed on a series (and its corrected copy). */
  pin(id: string, shown: SharedShown): void {
    this.shown.set(id, shown);
    if (shown.corrected) this.shown.set(id + CO_SUFFIX, shown.corrected);
  }

  /** The whole series' count (an opened link's histogram is its author's time window). */
  wholeCountOf(id: string): number {
    return this.shown.get(id)?.count ?? this.get(id).histogram.totalCount;
  }

  /** `buckets`: bucketsOf the series' whole histogram, when the caller has them already. */
  warningsOf(id: string, buckets?: Buckets): SeriesWarning[] {
    const shown = this.shown.get(id);
    return shown ? pinnedWarnings(shown, this.get(id).name) : this.warnings(this.get(id), buckets);
  }

  /** Warnings depend on the whole series, not on the window: computed once per series. */
  private readonly warningCache = new Map<string, SeriesWarning[]>();
  private warnings(s: SeriesModel, buckets?: Buckets): SeriesWarning[] {
    let w = this.warningCache.get(s.id);
    if (!w) {
      w = [...warningsOf(s), ...this.coWarning(s, buckets)];
      this.warningCache.set(s.id, w);
    }
    return w;
  }

  private coWarning(s: SeriesModel, buckets?: Buckets): SeriesWarning[] {
    if (!this.coCache.has(s.id) && coNotJudged(s.format) !== null) this.coCache.set(s.id, null);
    if (!this.coCache.has(s.id)) {
      const c = detectCoordinatedOmission(s.histogram, { secondsPerUnit: NANOS_PER_UNIT[s.recordedUnit] / 1e9, intervals: s.intervals }, buckets);
      this.coCache.set(s.id, c.suspicious && c.from && c.to ? { kind: "coordinated-omission", series: s.name, unit: s.recordedUnit, cliff: c } : null);
    }
    const w = this.coCache.get(s.id);
    return w ? [w] : [];
  }

  // Making and opening a link: shareOf and openShareIn (share-query.ts), a chunk of its own in
  // the page's worker, fetched on the first link.

  setCoInterval(ns: number | null): void {
    this.coIntervalNs = ns !== null && Number.isFinite(ns) && ns > 0 ? ns : null;
  }

  /**
   * The timeline of every series with intervals over [t0, t1], at most `columns` buckets each.
   * A bucket of one interval reports that interval; a bucket of several reports the max of
   * their maxes and the percentiles of their merged histogram.
   */
  timeline(q: TimelineQuery): TimelineResult {
    return timelineQuery(this.series, q);
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
