// Typed messages between the UI and the engine worker.
import type { SeriesWarning } from "../core/warnings";
import type { LoadProblem, Unit } from "../core/types";
import type { SeriesModel } from "../core/series";
import type { Spectrum } from "../core/spectrum";
import type { Encoded, ShareView } from "../share";
import type { SampleOptions } from "../formats/source";
import type {
  CompareAnswer,
  CompareRequest,
  HeatmapQuery,
  HeatmapResult,
  OpenedShare,
  PrometheusAuth,
  PrometheusRequest,
  ShareLook,
  TailQuery,
  TailSeries,
  TimeRange,
  WindowQuery,
  WindowSeries,
} from "./query-types";

// A leaf of types: this module imports no engine code, so the engine's modules can take their
// wire types from here without an import circle.
export type * from "./query-types";
import type { CompareResult } from "../core/compare/types";

/** Complete lines of one followed file, in order. */
export interface LivePiece {
  /** The served file's id (its name, or folder/name). */
  file: string;
  /** Its run: a new number when the file was truncated or replaced. */
  run: number;
  /** The first lines of this run. */
  start: boolean;
  text: string;
}

export interface LiveAnswer {
  /** Series made (a file's first intervals, a new run, a sample file read again). */
  added: string[];
  /** Series gone (a sample file read again). */
  removed: string[];
  /** Intervals appended to series already shown. */
  appended: number;
  /** Earlier runs' series, renamed to say so. */
  ended: string[];
  problems: LoadProblem[];
  /** The timeline's extent after these lines (null: no series has intervals), so the page asks for the last window with the spectra, not after the timeline. */
  extent: [number, number] | null;
}

export type Request =
  /**
   * `demo`: the page's demo, not the person's files: read by the engine alone, and the workers'
   * idle warm-up goes on after it (warm-up.ts), so that the first file the person chooses
   * runs optimised code.
   */
  | { kind: "load"; files: File[]; options?: SampleOptions; demo?: boolean }
  | { kind: "loadText"; name: string; text: string; options?: SampleOptions }
  /**
   * `net`: the page's port to the hosts the user agreed to (net-port.ts); the worker itself may
   * reach the page's origin only.
   */
  | { kind: "loadUrls"; urls: string[]; net?: MessagePort }
  /** Series from a Prometheus-compatible API (prometheus-query.ts); credentials in memory only. */
  | { kind: "loadPrometheus"; request: PrometheusRequest; auth: PrometheusAuth; net?: MessagePort }
  | { kind: "views"; range: TimeRange }
  | { kind: "timeline"; query: TimelineQuery }
  | { kind: "heatmap"; query: HeatmapQuery }
  | { kind: "windows"; query: WindowQuery }
  | { kind: "tail"; query: TailQuery }
  | { kind: "export"; id: string; range: TimeRange; unit: Unit }
  | { kind: "remove"; id: string }
  | { kind: "clear" }
  | { kind: "setUnit"; id: string; unit: Unit }
  | { kind: "setIdentity"; id: string; patch: IdentityPatch }
  | { kind: "merge"; ids: string[]; name?: string }
  | { kind: "setCoInterval"; ns: number | null }
  | { kind: "share"; view: ShareView; looks: ShareLook[]; range: TimeRange; fullPrecision: boolean; compare?: CompareResult | null }
  | { kind: "openShare"; fragment: string }
  | { kind: "compare"; request: CompareRequest }
  /** Complete lines of files followed live (`serve`), appended as watch appends them (live.ts). */
  | { kind: "append"; pieces: LivePiece[] };

export interface IdentityPatch {
  config?: string;
  throughput?: number | null;
  kind?: "response" | "service" | "";
  name?: string;
}

export interface ResultOf {
  load: FileOutcome[];
  loadText: FileOutcome[];
  loadUrls: FileOutcome[];
  loadPrometheus: FileOutcome[];
  views: SeriesView[];
  timeline: TimelineResult;
  heatmap: HeatmapResult;
  windows: WindowSeries[];
  tail: TailSeries[];
  export: string;
  remove: null;
  clear: null;
  setUnit: null;
  setIdentity: null;
  merge: string;
  setCoInterval: null;
  share: Encoded;
  openShare: OpenedShare;
  compare: CompareAnswer;
  append: LiveAnswer;
}

export interface FileOutcome extends LoadOutcome {
  file: string;
}

export interface Progress {
  file: string;
  bytes: number;
  totalBytes: number;
  intervals: number;
  /** Results read so far of a query's answer (it has no intervals counted as it arrives). */
  series?: number;
  /** When several files load at once: each one's own progress, in file order. */
  files?: FileProgress[];
}

export interface FileProgress {
  file: string;
  bytes: number;
  totalBytes: number;
  intervals: number;
  done: boolean;
}

export type Envelope = { reqId: number; request: Request };

export type Reply = { reqId: number; type: "done"; result: unknown } | { reqId: number; type: "error"; message: string } | { reqId: number; type: "progress"; progress: Progress };

// ── What queries answer: plot-ready values, never library objects ──

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
  /**
   * Intervals that start before StartTime (YCSB's first one does, by a few ms) and the values
   * they hold: HistogramLogProcessor without -start leaves them out; the page counts them and
   * says so. Absent or null when there are none.
   */
  beforeStart?: { intervals: number; count: number } | null;
  /** Where a series asked from a server came from (SeriesModel.origin). */
  origin?: string;
}

/** What the engine found about a series' data, as numbers (core/warnings.ts words it). */
export type { SeriesWarning };

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

export interface LoadOutcome {
  added: string[];
  problems: LoadProblem[];
}
