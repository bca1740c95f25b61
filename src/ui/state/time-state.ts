// What the time-resolved panel (heatmap, windows, tail) shares with the rest of the page: its
// options (saved in the session and share links) and its results (verdicts, Markdown, the
// presentation, the timeline's bands). Pure.
import { formatCount, formatNumber, UNIT_LABEL } from "../../core/format";
import { formatThresholdNs, parseThreshold, tailSentence, thresholdText, type TailInterval, type TailSummary } from "../../core/tail";
import { formatWindowLength, parseWindowLength, type WindowJudgement } from "../../core/windows";
import { percentileLabel } from "../../core/requirements";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import type { TailSeries, WindowSeries } from "../../engine/time-queries";
import type { HeatmapLane } from "../../charts/heatmap/Heatmap";
import type { SharedSeriesTime, ShareTimeOptions } from "../../share";
import { formatMoment, momentStyle, type MomentStyle } from "../../core/time-format";

export interface TimeOptions {
  /** Window length as typed (`10s`, `5m`, `1h`); empty: no windows. */
  window: string;
  /** Windows on whole multiples of the length in UTC instead of from each log's StartTime. */
  wallClock: boolean;
  /** Tail threshold as typed (`>10ms`); empty: none. */
  tail: string;
  /** The heatmap's series: an id, "" (the first shown series with intervals) or "*" (one lane per series). */
  heatmap: string;
}

export const DEFAULT_TIME_OPTIONS: TimeOptions = { window: "", wallClock: false, tail: "", heatmap: "" };

export interface WindowRow {
  id: string;
  name: string;
  data: WindowSeries;
  /** Null without a requirement. */
  judgement: WindowJudgement | null;
}

export interface TailRow {
  id: string;
  name: string;
  data: TailSeries;
}

export interface TimeInfo {
  windowLength: number | null;
  windows: WindowRow[];
  thresholdNs: number | null;
  tail: TailRow[];
  /** The heatmap as drawn in the panel (the presentation shows it too); absent without one. */
  heatmap?: { lanes: HeatmapLane[]; domain: [number, number] };
  /** True when the summaries came from a share link (no intervals here to compute them). */
  fromLink?: boolean;
}

export const NO_TIME_INFO: TimeInfo = { windowLength: null, windows: [], thresholdNs: null, tail: [] };

// ---------------------------------------------------------------------------------------------
// Share links and the saved session

/** What an opened link says of the time panel: its options and, per series here, its summaries. */
export interface SharedTimeInfo {
  options: ShareTimeOptions;
  series: ({ id: string } & SharedSeriesTime)[];
}

/** The options as a link carries them (numbers); undefined when none is set. */
export function shareTimeOptions(o: TimeOptions): ShareTimeOptions | undefined {
  const w = parseWindowLength(o.window);
  const t = parseThreshold(o.tail);
  const window = w !== null && !Number.isNaN(w) ? w : null;
  const tailNs = t !== null && !Number.isNaN(t) ? t : null;
  return window === null && tailNs === null && !o.wallClock ? undefined : { window, wallClock: o.wallClock, tailNs };
}

/** A link's options as the panel's fields show them. */
export function timeOptionsOfShare(t: ShareTimeOptions | undefined): TimeOptions {
  if (!t) return DEFAULT_TIME_OPTIONS;
  return { ...DEFAULT_TIME_OPTIONS, window: t.window === null ? "" : formatWindowLength(t.window), wallClock: t.wallClock, tail: t.tailNs === null ? "" : thresholdText(t.tailNs) };
}

/** Per series id, what the panel found, as a link carries it. */
export function sharedSeriesTimes(info: TimeInfo): Map<string, SharedSeriesTime> {
  const out = new Map<string, SharedSeriesTime>();
  if (info.windowLength !== null) {
    for (const r of info.windows) {
      const j = r.judgement;
      if (!j) continue;
      const w = j.worst;
      out.set(r.id, {
        windows: {
          windows: j.windows,
          passing: j.passing,
          worst: w ? { start: w.start, end: w.end, percentile: w.percentile, valueNs: Number.isFinite(w.valueNs) ? w.valueNs : null, limitNs: w.limitNs } : null,
          drop: j.drop ? { ...j.drop } : null,
        },
      });
    }
  }
  if (info.thresholdNs !== null) {
    for (const r of info.tail) {
      const d = r.data;
      out.set(r.id, {
        ...out.get(r.id),
        tail: { above: d.above, intervalsWithAny: d.intervalsWithAny, named: d.named, share: d.share, top: d.top.map((iv) => ({ start: iv.start, end: iv.end, above: iv.above })) },
      });
    }
  }
  return out;
}

const NO_ARRAY = new Float64Array(0);

/**
 * A link's summaries as the page's TimeInfo, for the series shown here (`rows`: id, name,
 * recorded unit, StartTime): window rows without per-window arrays (no bands), tail rows
 * without marks.
 */
export function timeInfoOfShare(shared: SharedTimeInfo, rows: readonly { id: string; name: string; recordedUnit: Unit; startTime: number | null }[]): TimeInfo {
  const byId = new Map(shared.series.map((s) => [s.id, s]));
  const windows: WindowRow[] = [];
  const tail: TailRow[] = [];
  for (const r of rows) {
    const s = byId.get(r.id);
    if (!s) continue;
    const base = { id: r.id, recordedUnit: r.recordedUnit, startTime: r.startTime };
    const w = s.windows;
    if (w && shared.options.window !== null) {
      const worst = w.worst ? { ...w.worst, valueNs: w.worst.valueNs ?? Number.NaN, ratio: w.worst.valueNs === null ? Infinity : w.worst.valueNs / w.worst.limitNs } : null;
      windows.push({
        id: r.id,
        name: r.name,
        data: { ...base, start: NO_ARRAY, end: NO_ARRAY, count: NO_ARRAY, covered: NO_ARRAY, values: {} },
        judgement: { windows: w.windows, passing: w.passing, pass: [], throughput: [], worst, drop: w.drop },
      });
    }
    const t = s.tail;
    if (t && shared.options.tailNs !== null) {
      tail.push({
        id: r.id,
        name: r.name,
        data: {
          ...base,
          above: t.above,
          intervalsWithAny: t.intervalsWithAny,
          top: t.top.map((iv, k) => ({ index: -1 - k, ...iv })),
          named: t.named,
          share: t.share,
          marks: { start: NO_ARRAY, end: NO_ARRAY, above: NO_ARRAY },
        },
      });
    }
  }
  return { windowLength: shared.options.window, windows, thresholdNs: shared.options.tailNs, tail, fromLink: true };
}

/**
 * An interval's time for people: seconds since StartTime (what the range inputs take) and, when
 * the log's StartTime is known, its UTC wall clock: "+312 s (14:53:12 UTC)". `style` is the
 * list's (momentStyle), so entries of one list never read the same.
 */
export function intervalLabel(start: number, startTime: number | null, style?: MomentStyle): string {
  return formatMoment(start, startTime, style);
}

/** How a tail row's top intervals are written (sub-second digits where two would read the same). */
export function tailStyle(row: TailRow): MomentStyle {
  return momentStyle(row.data.top.map((iv) => ({ offset: iv.start, startTime: row.data.startTime })));
}

export function tailText(row: TailRow, thresholdNs: number): string {
  const d = row.data;
  const s: TailSummary = { above: d.above, intervalsWithAny: d.intervalsWithAny, top: d.top, named: d.named, share: d.share };
  const style = tailStyle(row);
  return tailSentence(s, thresholdNs, (iv: TailInterval) => intervalLabel(iv.start, d.startTime, style));
}

/** "12 of 18 windows of 10s pass; worst at +60 s (09:01:00 UTC) (p99 12.3 ms, 2.46× its limit); throughput fell 75 % below the median window's at +90 s (09:01:30 UTC)". */
export function windowText(row: WindowRow, length: number, unit: Unit): string {
  const j = row.judgement;
  const len = formatWindowLength(length);
  const parts: string[] = [];
  if (j) {
    parts.push(`${formatCount(j.passing)} of ${formatCount(j.windows)} windows of ${len} pass`);
    const w = j.worst;
    if (w) {
      parts.push(
        w.ratio === Infinity
          ? `worst at ${formatMoment(w.start, row.data.startTime)} (no values)`
          : `worst at ${formatMoment(w.start, row.data.startTime)} (${percentileLabel(w.percentile)} ${formatNumber(w.valueNs / NANOS_PER_UNIT[unit])} ${UNIT_LABEL[unit]}, ${formatNumber(w.ratio)}× its limit)`,
      );
    }
    if (j.drop && j.drop.drop >= 0.005)
      parts.push(
        `throughput fell ${Math.round(j.drop.drop * 100)} % below the median window's (${formatNumber(j.drop.median)}/s) at ${formatMoment(j.drop.start, row.data.startTime)}`,
      );
  } else {
    parts.push(`${formatCount(row.data.start.length)} windows of ${len}`);
  }
  return parts.join("; ");
}

/** The lines Markdown and the presentation add: one per series judged in windows, one per series with a tail. */
export function timeSummaryLines(info: TimeInfo, unit: Unit): string[] {
  const out: string[] = [];
  if (info.windowLength !== null) for (const r of info.windows) if (r.judgement) out.push(`${r.name}: ${windowText(r, info.windowLength, unit)}.`);
  if (info.thresholdNs !== null) for (const r of info.tail) out.push(`${r.name}: ${tailText(r, info.thresholdNs)}`);
  return out;
}

/** What the timeline draws for a series: failing windows and intervals holding the tail. */
export interface TimeBands {
  /** Windows [start, end) in s since StartTime and whether each passes. */
  windows?: { start: Float64Array; end: Float64Array; pass: boolean[] };
  tail?: { start: Float64Array; end: Float64Array };
}

export function bandsById(info: TimeInfo): Map<string, TimeBands> {
  const out = new Map<string, TimeBands>();
  for (const r of info.windows) if (r.judgement) out.set(r.id, { windows: { start: r.data.start, end: r.data.end, pass: r.judgement.pass } });
  for (const r of info.tail) out.set(r.id, { ...out.get(r.id), tail: { start: r.data.marks.start, end: r.data.marks.end } });
  return out;
}

export { formatThresholdNs };
