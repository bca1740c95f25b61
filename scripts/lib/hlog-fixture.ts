// Writes an interval log with hdr-histogram-js's own writer: the project's fixtures come from
// its own code (never copies of the shared samples).
import { HistogramLogWriter } from "hdr-histogram-js";
import type { SimInterval } from "./queue-sim";

export interface HlogOptions {
  /** StartTime in ms since epoch. */
  startMs?: number;
  /** Interval_Max column ratio: 1e6 writes ns values as ms, like jHiccup. */
  maxRatio?: number;
  comment?: string;
  tag?: string;
}

export function writeHlog(intervals: readonly SimInterval[], o: HlogOptions = {}): string {
  let text = "";
  const w = new HistogramLogWriter((s: string) => {
    text += s;
  });
  if (o.comment) w.outputComment(`[${o.comment}]`);
  w.outputLogFormatVersion();
  w.outputStartTime(o.startMs ?? Date.UTC(2026, 10, 1, 9, 0, 0));
  w.outputLegend();
  for (const iv of intervals) {
    if (o.tag) iv.histogram.tag = o.tag;
    w.outputIntervalHistogram(iv.histogram, iv.start, iv.start + iv.length, o.maxRatio ?? 1e6);
  }
  return text;
}
