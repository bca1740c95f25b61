// What the engine's queries are asked and answer with (windows, heatmap, tail, A vs B, share
// links): types only, so that protocol.ts, the page and the query modules share them without
// importing one another's code.
import type { Unit } from "../core/types";
import type { TailInterval } from "../core/tail";
import type { CompareResult } from "../core/compare";
import type { SharedSeriesTime, ShareView } from "../share";

/** A time window in seconds since each log's StartTime; null ends are open. */
export interface TimeRange {
  start: number | null;
  end: number | null;
}

export interface WindowQuery {
  /** Window length in seconds. */
  length: number;
  /** Boundaries on whole multiples of the length in wall-clock time instead of from StartTime. */
  wallClock: boolean;
  /** Percentiles to read in each window (100 = max). */
  percentiles: number[];
}

export interface WindowSeries {
  id: string;
  recordedUnit: Unit;
  startTime: number | null;
  /** Per window: [start, end) in s since StartTime, values recorded, seconds the run covers. */
  start: Float64Array;
  end: Float64Array;
  count: Float64Array;
  covered: Float64Array;
  /** Percentile → per-window value in the recorded unit (0 in a window without values). */
  values: Record<string, Float64Array>;
}

export interface HeatmapQuery {
  ids: string[];
  /** Visible span in s since StartTime; null ends take the extent of the asked series' intervals. */
  t0: number | null;
  t1: number | null;
  columns: number;
  rows: number;
}

export interface HeatmapSeries {
  id: string;
  recordedUnit: Unit;
  startTime: number | null;
  /** The latency axis (recorded unit, log scale): row r covers [lo·(hi/lo)^(r/rows), lo·(hi/lo)^((r+1)/rows)). */
  lo: number;
  hi: number;
  rows: number;
  /** Per column: time span (s since StartTime) and max of its intervals' maxes. */
  t0: Float64Array;
  t1: Float64Array;
  max: Float64Array;
  /** Column k's counts per row at [k·rows, (k+1)·rows): the merged histogram of its intervals. */
  cells: Float64Array;
  /** The highest count of any cell. */
  maxCell: number;
}

export interface HeatmapResult {
  domain: [number, number];
  series: HeatmapSeries[];
}

export interface TailQuery {
  thresholdNs: number;
  /** Top intervals to return per series. */
  keep: number;
  /** At most this many marked intervals per series (those holding most values above). */
  maxMarks: number;
}

export interface TailSeries {
  id: string;
  recordedUnit: Unit;
  startTime: number | null;
  /** Values above the threshold in the whole series. */
  above: number;
  intervalsWithAny: number;
  /** Highest counts first (ties: earliest first). */
  top: TailInterval[];
  /** How many of `top` the sentence names, and the share of `above` they hold. */
  named: number;
  share: number;
  /** Intervals holding values above (at most maxMarks, those holding most), in time order. */
  marks: { start: Float64Array; end: Float64Array; above: Float64Array };
}

export interface CompareRequest {
  /** Series ids. */
  baseline: string;
  candidate: string;
  range: TimeRange;
  margin?: number;
  /** Pool each side's repeated runs (same configuration, throughput and kind) and resample runs too. */
  repeats?: boolean;
  resamples?: number;
  seed?: number;
  /** Percentiles reported beyond COMPARE_PERCENTILES (the requirement's, for the headline). */
  extraPercentiles?: number[];
}

export interface CompareAnswer extends CompareResult {
  /** The series ids each side pooled. */
  baseIds: string[];
  candIds: string[];
  /**
   * What the answer rests on when a side came from a share link (share-query.ts): "link", the
   * author's answer as the link carried it; "link-data", computed here from the link's rounded
   * histograms without intervals. Absent: computed from the loaded data.
   */
  basis?: "link" | "link-data";
}

/** A series as a share link shows it: its look, and what the time panel found for it. */
export interface ShareLook {
  id: string;
  color: string;
  visible: boolean;
  time?: SharedSeriesTime;
}

/** An opened link: its view, and per series (in the link's order) its id here and time summaries. */
export type OpenedShare =
  | {
      ok: true;
      view: ShareView;
      lossy: boolean;
      visible: boolean[];
      time: ({ id: string } & SharedSeriesTime)[];
      /** The link carried what its author's page showed (v5): the page shows those numbers. */
      carried: boolean;
    }
  | { ok: false; reason: string };

/** A query of a Prometheus-compatible API (prometheus-query.ts). */
export interface PrometheusRequest {
  /** The address before /api/v1/ (http or https; a user:password in it is basic auth). */
  url: string;
  query: string;
  /** Epoch seconds. */
  start: number;
  /** Epoch seconds; equal to start: one instant (/api/v1/query). */
  end: number;
  /** Seconds; null: (end − start) / 500 rounded up to whole seconds. */
  step: number | null;
}

export interface PrometheusAuth {
  bearerToken?: string | null;
  username?: string | null;
  password?: string | null;
}
