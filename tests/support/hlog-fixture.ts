// Writes an interval log with hdr-histogram-js's own writer: the project's fixtures come from
// its own code (never copies of the shared samples).
import { HistogramLogWriter } from "hdr-histogram-js";
import { doubleHistogramOf, encodeDoubleHistogram } from "./hlog-encoders";
import type { SimInterval } from "./queue-sim";

export interface HlogOptions {
  /** StartTime in ms since epoch. */
  startMs?: number;
  /** Interval_Max column ratio: 1e6 writes ns values as ms, like jHiccup. */
  maxRatio?: number;
  /** A header comment written as `#[comment]` (Java's outputComment("[" + … + "]")). */
  comment?: string;
  /** A header comment written as `#comment`, without brackets (cassandra-stress writes its so). */
  rawComment?: string;
  tag?: string;
  /** Rewrites the start timestamp field of data line i (0-based), e.g. to a 20-digit number. */
  startText?: (i: number, written: string) => string;
}

/** Header comments of the producers the reader recognises, as they write them. */
export const PRODUCER_HEADERS = {
  // YCSB's OneMeasurementHdrHistogram: values in µs, Interval_Max with the default ÷10⁶.
  ycsb: { comment: "Logging for: READ" },
  // jHiccup: values in ns.
  jhiccup: { comment: "Logged with jHiccup version 2.0.10" },
  // cassandra-stress StressMetrics: values in ns.
  cassandraStress: { rawComment: "Logging op latencies for Cassandra Stress" },
  // This project's demo data (scripts/make-demo.ts): values in ns.
  demo: { comment: "Demo data written by hdr-spectrum's scripts/make-demo.ts (values in ns)" },
} as const satisfies Record<string, Partial<HlogOptions>>;

export function writeHlog(intervals: readonly SimInterval[], o: HlogOptions = {}): string {
  let text = "";
  const w = new HistogramLogWriter((s: string) => {
    text += s;
  });
  if (o.comment) w.outputComment(`[${o.comment}]`);
  if (o.rawComment) w.outputComment(o.rawComment);
  w.outputLogFormatVersion();
  w.outputStartTime(o.startMs ?? Date.UTC(2026, 10, 1, 9, 0, 0));
  w.outputLegend();
  for (const iv of intervals) {
    if (o.tag) iv.histogram.tag = o.tag;
    w.outputIntervalHistogram(iv.histogram, iv.start, iv.start + iv.length, o.maxRatio ?? 1e6);
  }
  return o.startText ? rewriteStarts(text, o.startText) : text;
}

function rewriteStarts(text: string, f: (i: number, written: string) => string): string {
  let i = 0;
  return text
    .split("\n")
    .map((line) => {
      const m = /^(Tag=[^,]*,)?([^,]+)(,.*HIST.*)$/.exec(line);
      return m ? `${m[1] ?? ""}${f(i++, m[2]!)}${m[3]}` : line;
    })
    .join("\n");
}

export interface DoubleInterval {
  start: number;
  length: number;
  /** The interval's values as doubles (seconds, as DoubleHistogram users usually record). */
  samples: readonly number[];
}

/**
 * A DoubleHistogram interval log as HdrHistogram Java's HistogramLogWriter writes one
 * (`DHIST…` payloads, Interval_Max = getMaxValue() / maxRatio with %.3f), each interval
 * recorded as DoubleHistogram does (doubleHistogramOf).
 */
export function writeDoubleHlog(intervals: readonly DoubleInterval[], o: HlogOptions & { digits?: number } = {}): string {
  const startMs = o.startMs ?? Date.UTC(2026, 10, 1, 9, 0, 0);
  const lines: string[] = [];
  if (o.comment) lines.push(`#[${o.comment}]`);
  lines.push("#[Histogram log format version 1.3]");
  lines.push(`#[StartTime: ${(startMs / 1000).toFixed(3)} (seconds since epoch), ${new Date(startMs).toString()}]`);
  lines.push('"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"');
  for (const iv of intervals) {
    const d = doubleHistogramOf(iv.samples, o.digits ?? 3);
    const max = Math.max(...iv.samples);
    const payload = encodeDoubleHistogram(d);
    lines.push(`${o.tag ? `Tag=${o.tag},` : ""}${iv.start.toFixed(3)},${iv.length.toFixed(3)},${(max / (o.maxRatio ?? 1e6)).toFixed(3)},${payload}`);
  }
  const text = lines.join("\n") + "\n";
  return o.startText ? rewriteStarts(text, o.startText) : text;
}
