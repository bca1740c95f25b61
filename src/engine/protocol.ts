// Typed messages between the UI and the engine worker.
import type { Unit } from "../core/types";
import type { Encoded, ShareView } from "../share";
import type { SampleOptions } from "../formats/source";
import type { LoadOutcome, SeriesView, TimelineQuery, TimelineResult, TimeRange, ShareLook, OpenedShare } from "./store";
import type { HeatmapQuery, HeatmapResult, TailQuery, TailSeries, WindowQuery, WindowSeries } from "./time-queries";
import type { CompareAnswer, CompareRequest } from "./compare-query";

export type Request =
  | { kind: "load"; files: File[]; options?: SampleOptions }
  | { kind: "loadText"; name: string; text: string; options?: SampleOptions }
  | { kind: "loadUrls"; urls: string[] }
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
  | { kind: "share"; view: ShareView; looks: ShareLook[]; range: TimeRange; fullPrecision: boolean }
  | { kind: "openShare"; fragment: string }
  | { kind: "compare"; request: CompareRequest };

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
}

export interface FileOutcome extends LoadOutcome {
  file: string;
}

export interface Progress {
  file: string;
  bytes: number;
  totalBytes: number;
  intervals: number;
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

export type Reply =
  | { reqId: number; type: "done"; result: unknown }
  | { reqId: number; type: "error"; message: string }
  | { reqId: number; type: "progress"; progress: Progress };
