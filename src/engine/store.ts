// The loaded data and the queries on it. Owned by the worker; pure so that tests drive it
// directly. A query answers with plot-ready values, never with library objects.
import { newHistogram, type Histogram } from "../core/histogram";
import type { SeriesModel } from "../core/series";
import { spectrumOf, type Spectrum } from "../core/spectrum";
import { formatPercentileDistribution } from "../core/hgrm-export";
import { NANOS_PER_UNIT, type LoadProblem, type Unit } from "../core/types";
import { addDecodedInto, decodeHistogramPayload } from "../formats/hlog-encoding";
import { ingest, type IngestProgress } from "./ingest";

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
  spectrum: Spectrum;
}

export interface LoadOutcome {
  added: string[];
  problems: LoadProblem[];
}

export class Store {
  readonly series: SeriesModel[] = [];

  async load(name: string, chunks: AsyncIterable<string> | Iterable<string>, onProgress?: (p: IngestProgress) => void): Promise<LoadOutcome> {
    try {
      const r = await ingest(name, chunks, onProgress);
      this.series.push(...r.series);
      return { added: r.series.map((s) => s.id), problems: r.problems };
    } catch (e) {
      // A parser bug must not take down what is already loaded.
      return { added: [], problems: [{ file: name, line: null, reason: `could not be read: ${(e as Error).message ?? String(e)}` }] };
    }
  }

  remove(id: string): void {
    const i = this.series.findIndex((s) => s.id === id);
    if (i >= 0) this.series.splice(i, 1);
  }

  clear(): void {
    this.series.length = 0;
  }

  setRecordedUnit(id: string, unit: Unit): void {
    const s = this.get(id);
    s.recordedUnit = unit;
    s.unitSource = "user";
  }

  get(id: string): SeriesModel {
    const s = this.series.find((x) => x.id === id);
    if (!s) throw new Error(`no series ${id}`);
    return s;
  }

  /**
   * The histogram of a series over a time range. An interval counts when its start, in seconds
   * since StartTime, lies within [start, end]: HistogramLogProcessor's rule for -start/-end.
   * Series without intervals ignore the range.
   */
  histogramFor(id: string, range: TimeRange): Histogram {
    const s = this.get(id);
    const t = s.intervals;
    if (!t || (range.start === null && range.end === null)) return s.histogram;
    const lo = range.start ?? -Infinity;
    const hi = range.end ?? Infinity;
    const out = newHistogram(s.histogram.numberOfSignificantValueDigits);
    for (let i = 0; i < t.n; i++) {
      const o = t.offsets[i]!;
      if (o < lo || o > hi) continue;
      const d = decodeHistogramPayload(t.payloads[i]!);
      if (d.ok) addDecodedInto(out, d.value);
    }
    return out;
  }

  views(range: TimeRange = OPEN_RANGE): SeriesView[] {
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
      spectrum: spectrumOf(this.histogramFor(s.id, range)),
    }));
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
