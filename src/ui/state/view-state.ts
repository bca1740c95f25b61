// The page's view (display unit, axes, requirement, time window, timeline and time-panel
// options, theme, CO interval, comparison) as one value, and its conversions to and from the
// two forms that keep it: the saved session (session.ts) and a share link's view
// (share/schema.ts ShareView, the wire form). Startup (startup.ts) restores through these.
import type { Unit } from "../../core/types";
import { UNITS } from "../../core/types";
import type { TimeRange } from "../../engine/store";
import type { SharedCompare, ShareView } from "../../share/schema";
import type { RemovedSeries, SavedMerge } from "./merges";
import type { SeriesEdit, SessionView } from "./session";
import { DEFAULT_TIME_OPTIONS, shareTimeOptions, timeOptionsOfShare, type SharedTimeInfo, type TimeOptions } from "./time-state";

/** The timeline's settings a view keeps (its zoom is not kept). */
export interface TimelineView {
  percentiles: number[];
  perLane: boolean;
  wallClock: boolean;
  log: boolean;
  /** The axis follows the data; absent: the user's choice (a link opens as its author saw it). */
  logAuto?: boolean;
}

export interface ViewState {
  unit: Unit;
  /** The latency axis as drawn. */
  yLog: boolean;
  /** The axis follows the data (log where the values span more than two decades) until the user picks one. */
  yAuto: boolean;
  sideBySide: boolean;
  /** Requirement text, e.g. "p50<=1ms, p99<=5ms". */
  requirement: string | null;
  range: TimeRange;
  timeline: TimelineView;
  theme: "light" | "dark";
  /** The CO correction's expected interval as typed ("10ms", "100/s"); empty: none. */
  coInterval: string;
  timeOptions: TimeOptions;
  /** The A vs B comparison on screen, with the percentile its headline is stated at when chosen (`headline`). */
  compare: SharedCompare | null;
}

/** What a restore sets: a link carries no theme nor CO interval, older sessions lack the later fields. */
export type RestoredViewState = Pick<ViewState, "unit" | "yLog" | "sideBySide" | "requirement" | "range" | "timeline"> & Partial<ViewState>;

/** Per-series edits, merges and removals made in the page, in order (see merges.ts). */
export interface SeriesLog {
  edits?: SeriesEdit[];
  merges?: SavedMerge[];
  removed?: RemovedSeries[];
}

/** A view to put on screen (from a share link or the saved session). */
export interface RestoredView {
  view: RestoredViewState;
  /** Edits, merges and removals to make again (saved sessions only). */
  log?: SeriesLog;
  /** What a share link's page found in its intervals (window verdicts, tail summaries). */
  sharedTime?: SharedTimeInfo;
  /** Whether series `name`, the i-th loaded, starts hidden. */
  hidden: (name: string, i: number) => boolean;
}

function timelineView(t: TimelineView): TimelineView {
  return { percentiles: t.percentiles, perLane: t.perLane, wallClock: t.wallClock, log: t.log, ...(t.logAuto !== undefined ? { logAuto: t.logAuto } : {}) };
}

export function sessionOfView(v: ViewState, hiddenNames: string[], log: SeriesLog): SessionView {
  return {
    unit: v.unit,
    yLog: v.yLog,
    yAuto: v.yAuto,
    sideBySide: v.sideBySide,
    requirement: v.requirement,
    range: v.range,
    hiddenNames,
    timeline: timelineView(v.timeline),
    theme: v.theme,
    coInterval: v.coInterval || undefined,
    edits: log.edits && log.edits.length > 0 ? log.edits : undefined,
    merges: log.merges && log.merges.length > 0 ? log.merges : undefined,
    removed: log.removed && log.removed.length > 0 ? log.removed : undefined,
    timeOptions: v.timeOptions,
    compare: v.compare ?? undefined,
  };
}

export function viewOfSession(s: SessionView): RestoredView {
  const unit = (UNITS as readonly string[]).includes(s.unit) ? (s.unit as Unit) : "ms";
  return {
    view: {
      unit,
      yLog: s.yLog,
      // Sessions saved before the axis followed the data had a linear default, not a choice.
      yAuto: s.yAuto ?? !s.yLog,
      sideBySide: s.sideBySide,
      requirement: s.requirement,
      range: s.range,
      // Sessions saved before the axis followed the data had a linear default, not a choice.
      timeline: { ...s.timeline, logAuto: s.timeline.logAuto ?? !s.timeline.log },
      theme: s.theme,
      coInterval: s.coInterval,
      timeOptions: s.timeOptions ? { ...DEFAULT_TIME_OPTIONS, ...s.timeOptions } : undefined,
      compare: s.compare,
    },
    log: { edits: s.edits, merges: s.merges, removed: s.removed },
    hidden: (name) => s.hiddenNames.includes(name),
  };
}

/** The view as a link carries it: no theme or heatmap choice; time options as numbers. */
export function shareOfView(v: ViewState): ShareView {
  const time = shareTimeOptions(v.timeOptions);
  return {
    displayUnit: v.unit,
    yLog: v.yLog,
    sideBySide: v.sideBySide,
    requirement: v.requirement,
    range: v.range,
    timeline: { percentiles: v.timeline.percentiles, perLane: v.timeline.perLane, wallClock: v.timeline.wallClock, log: v.timeline.log },
    ...(time ? { time } : {}),
    ...(v.compare ? { compare: v.compare } : {}),
    ...(v.coInterval ? { coInterval: v.coInterval } : {}),
  };
}

export function viewOfShare(s: ShareView): RestoredViewState {
  return {
    unit: s.displayUnit,
    yLog: s.yLog,
    sideBySide: s.sideBySide,
    requirement: s.requirement,
    range: s.range,
    timeline: { ...s.timeline, logAuto: false },
    timeOptions: timeOptionsOfShare(s.time),
    compare: s.compare,
    ...(s.coInterval ? { coInterval: s.coInterval } : {}),
  };
}
