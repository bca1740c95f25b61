// Tail attribution, pure: given how many values above a threshold each interval holds (the
// engine counts them, src/engine/time-queries.ts), which few intervals the tail comes from,
// said in one sentence. A value counts as above T when its histogram bucket lies wholly above
// T (HdrHistogram's equivalent ranges: the bucket's lowest equivalent value > T), so the
// counts are exact, never interpolated within a bucket.
import { formatCount } from "./format";

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9 };

/** `>10ms`, `> 10 ms`, `10ms`, `2.5s`: nanoseconds; null for empty text; NaN otherwise. */
export function parseThreshold(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const m = /^>?\s*(\d+(?:\.\d+)?|\.\d+)\s*(ns|us|µs|μs|ms|s)$/i.exec(t);
  if (!m) return Number.NaN;
  const unit = m[2]!.toLowerCase().replace("μ", "µ");
  const v = Number(m[1]) * UNIT_NS[unit]!;
  return Number.isFinite(v) && v >= 0 ? v : Number.NaN;
}

/** 10e6 → "10 ms", 1.5e9 → "1.5 s". */
export function formatThresholdNs(ns: number): string {
  const [d, u] = ns >= 1e9 ? [1e9, "s"] : ns >= 1e6 ? [1e6, "ms"] : ns >= 1e3 ? [1e3, "µs"] : [1, "ns"];
  return `${Number((ns / d).toPrecision(4))} ${u}`;
}

/** The text the threshold field shows for a threshold: `>10ms`. */
export function thresholdText(ns: number): string {
  return `>${formatThresholdNs(ns).replace(" ", "")}`;
}

export interface TailInterval {
  /** Index in the series' interval table. */
  index: number;
  /** Start and end, seconds since StartTime. */
  start: number;
  end: number;
  /** Values above the threshold in it. */
  above: number;
}

export interface TailSummary {
  /** Values above the threshold in the whole series. */
  above: number;
  /** Intervals holding any. */
  intervalsWithAny: number;
  /** Intervals by count above, highest first (ties: earliest first), at most `keep`. */
  top: TailInterval[];
  /** How many of `top` the sentence names: the fewest holding at least half, at most 5. */
  named: number;
  /** Share of `above` the named intervals hold (0..1). */
  share: number;
}

/** At most this many intervals are named in the sentence. */
export const NAMED_MAX = 5;

/** Orders intervals by count above (highest first), keeps `keep` of them, and picks the named few. */
export function summariseTail(intervals: readonly TailInterval[], keep = 20): TailSummary {
  let above = 0;
  let withAny = 0;
  for (const iv of intervals) {
    above += iv.above;
    if (iv.above > 0) withAny++;
  }
  const top = intervals
    .filter((iv) => iv.above > 0)
    .sort((a, b) => b.above - a.above || a.start - b.start)
    .slice(0, keep);
  let named = 0;
  let held = 0;
  while (named < top.length && named < NAMED_MAX && (named === 0 || held < above / 2)) held += top[named++]!.above;
  return { above, intervalsWithAny: withAny, top, named, share: above > 0 ? held / above : 0 };
}

/**
 * "72 % of the 1,234 values above 10 ms came from 3 intervals (12:03:04, 12:03:05, 12:40:10)";
 * `label` names an interval (a time). Without any value above: "No value above 10 ms."
 */
export function tailSentence(s: TailSummary, thresholdNs: number, label: (iv: TailInterval) => string): string {
  const t = formatThresholdNs(thresholdNs);
  if (s.above === 0) return `No value above ${t}.`;
  const values = `${formatCount(s.above)} value${s.above === 1 ? "" : "s"} above ${t}`;
  const names = s.top.slice(0, s.named).map(label);
  const list = `${names.join(", ")}${s.intervalsWithAny > s.named ? ", …" : ""}`;
  const n = `${s.named} interval${s.named === 1 ? "" : "s"}`;
  if (s.named >= s.intervalsWithAny) {
    return s.above === 1 ? `The 1 value above ${t} came from 1 interval (${list}).` : `All ${values} came from ${n} (${list}).`;
  }
  const pct = Math.floor(s.share * 100);
  return `${pct} % of the ${values} came from ${n} (${list}), out of ${formatCount(s.intervalsWithAny)} intervals holding any.`;
}
