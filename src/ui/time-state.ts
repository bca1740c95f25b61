// What the time-resolved panel (heatmap, windows, tail) shares with the rest of the page: its
// options (saved in the session and share links) and its results (verdicts, Markdown, the
// presentation, the timeline's bands). Pure.
import { formatCount, formatNumber, UNIT_LABEL } from "../core/format";
import { formatThresholdNs, tailSentence, type TailInterval, type TailSummary } from "../core/tail";
import { formatWindowLength, type WindowJudgement } from "../core/windows";
import { percentileLabel } from "../core/requirements";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import type { TailSeries, WindowSeries } from "../engine/time-queries";
import { formatSeconds } from "../charts/timeline/layout";

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
}

export const NO_TIME_INFO: TimeInfo = { windowLength: null, windows: [], thresholdNs: null, tail: [] };

/** An interval's time for people: UTC wall clock (12:03:04) when the log's StartTime is known, else seconds since it. */
export function intervalLabel(start: number, startTime: number | null): string {
  if (startTime === null) return formatSeconds(start);
  return new Date((startTime + start) * 1000).toISOString().slice(11, 19);
}

export function tailText(row: TailRow, thresholdNs: number): string {
  const d = row.data;
  const s: TailSummary = { above: d.above, intervalsWithAny: d.intervalsWithAny, top: d.top, named: d.named, share: d.share };
  return tailSentence(s, thresholdNs, (iv: TailInterval) => intervalLabel(iv.start, d.startTime));
}

/** "12 of 18 windows of 10s pass; worst at 1:00 (p99 12.3 ms, 2.46× its limit); throughput fell 75 % below the median at 1:30". */
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
          ? `worst at ${formatSeconds(w.start)} (no values)`
          : `worst at ${formatSeconds(w.start)} (${percentileLabel(w.percentile)} ${formatNumber(w.valueNs / NANOS_PER_UNIT[unit])} ${UNIT_LABEL[unit]}, ${formatNumber(w.ratio)}× its limit)`,
      );
    }
    if (j.drop && j.drop.drop >= 0.005) parts.push(`throughput fell ${Math.round(j.drop.drop * 100)} % below the median window's (${formatNumber(j.drop.median)}/s) at ${formatSeconds(j.drop.start)}`);
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
