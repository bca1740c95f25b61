// What a samples table's header and cells say, for the samples reader (samples.ts) to choose its
// columns: numbers and date-times in cells, the header names that mean a latency, a timestamp
// or a label, a unit written in a name, ApacheBench's -g header, and the headers of summaries
// and percentile tables, which are refused because their rows are not samples.
import type { Unit } from "../core/types";
import { statisticsReason } from "./statistics";
import { splitCsv } from "./support/csv";
import { parseDateTime } from "./support/time";

/** Header names quoted in a problem message. */
const MAX_NAMES_LISTED = 12;

export function listNames(names: string[]): string {
  const shown = names.slice(0, MAX_NAMES_LISTED).map((n) => JSON.stringify(n.length > 40 ? `${n.slice(0, 40)}…` : n));
  return names.length > MAX_NAMES_LISTED ? `${shown.join(", ")} … (${names.length} columns)` : shown.join(", ");
}

// One way only to match a digit run (`\d+(\.\d*)?`, not `\d+\.?\d*`): the latter splits a long
// run of digits in n ways and backtracks quadratically on "111…1x" (found by fuzzing).
export const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

export type Delimiter = "\t" | "," | ";" | "ws" | null;

export function split(text: string, d: Delimiter): string[] | null {
  if (d === null) return [text.trim()];
  if (d === "ws") return text.trim().split(/\s+/);
  return splitCsv(text, d);
}

export function isNumber(s: string, decimalComma: boolean): boolean {
  const t = s.trim();
  return NUMBER.test(t) || (decimalComma && DECIMAL_COMMA.test(t));
}

export function isDateTime(s: string): boolean {
  return parseDateTime(s).ok;
}

// Header-name guesses, in order of preference.
export const VALUE_NAMES = [/latency/, /elapsed/, /duration/, /response.?time|resp.?time|^rt$/, /^(value|val|sample|samples)$/, /time.?taken|took|service.?time/];
export const TIME_NAMES = /^(timestamp|time.?stamp|ts|time|epoch|date|datetime|date.?time|start|start.?time|starttime|sent|sent.?at|t)$/;
export const LABEL_NAMES = /^(label|tag|name|request|transaction|endpoint|operation|op|sampler|series)$/;

/** "latencyMs" → "latency ms"; lowercases; separators become spaces. */
export function words(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/[^a-z0-9µμ]+/g, " ")
    .trim();
}

/** A unit named in a column header: "latency_ms", "elapsed (us)", "duration[s]", "rt µs". */
export function unitFromHeader(name: string): Unit | null {
  const w = ` ${words(name)} `;
  if (/ (ns|nanos?|nanoseconds?) /.test(w)) return "ns";
  if (/ (us|µs|μs|micros?|microseconds?|usec) /.test(w)) return "us";
  if (/ (ms|millis?|milliseconds?|msec) /.test(w)) return "ms";
  if (/ (s|sec|secs|seconds?) /.test(w)) return "s";
  return null;
}

export function bareName(name: string): string {
  // the name without a unit word, for matching ("latency_ms" → "latency")
  return words(name)
    .replace(/\b(ns|nanos?|nanoseconds?|us|µs|μs|micros?|microseconds?|usec|ms|millis?|milliseconds?|msec|s|sec|secs|seconds?|in)\b/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * ApacheBench's `ab -g` output: `starttime seconds ctime dtime ttime wait`, tab-separated, one
 * request a line (sorted by ttime, not by time): starttime is ctime(3) text, seconds the epoch
 * seconds of the start, ctime, dtime, ttime (the request's total time) and wait in whole ms.
 * The indices of ttime and seconds when the header has these names (other columns may be added).
 */
export function abGnuplotColumns(names: string[]): { ttime: number; seconds: number } | null {
  const at = (n: string) => names.findIndex((x) => x.trim().toLowerCase() === n);
  const i = { seconds: at("seconds"), ctime: at("ctime"), dtime: at("dtime"), ttime: at("ttime"), wait: at("wait") };
  if (i.seconds < 0 || i.ctime < 0 || i.dtime < 0 || i.ttime < 0 || i.wait < 0) return null;
  return { ttime: i.ttime, seconds: i.seconds };
}

/** A header naming how many requests a row stands for ("Request Count", "# Samples", "# requests", "count", "hits"). */
const COUNT_NAME =
  /^(#\s*(samples|requests|reqs)|((total|num|number of)\s+)?(request|sample|hit)s?\s+count|(total|num|number of)\s+(requests|samples|hits)|count|hits|samples count)$/i;
/** A header naming a statistic of many requests: median, average, min, max, std dev, a percentile. */
const STATISTIC_NAME = /(^|[^a-z])(median|average|avg|mean|min|max|std|stdev|std\.?\s*dev\.?|percentile|perc_?\d+)([^a-z]|$)|^\s*(p\d+(\.\d+)?|\d+(\.\d+)?\s*%(\s*line)?)\s*$/i;
/** ab -e: "Percentage served,Time in ms". */
const PERCENT_NAME = /^(percentage( served)?|percentile|percent)$/i;

/** Why a table with these header names is a summary, not samples (file, line and what it holds), or null. */
export function summaryRefusal(names: string[], rows: string[][], lines: readonly { lineNo: number }[]): { line: number; reason: string } | null {
  const stats = names.filter((n) => STATISTIC_NAME.test(n.trim()));
  const count = names.findIndex((n) => COUNT_NAME.test(n.trim()));
  if (count >= 0 && stats.length >= 2) {
    const k = rows.findIndex((r) => /^\d+$/.test((r[count] ?? "").trim().replace(/[,_\s]/g, "")));
    const first = k >= 0 ? lines[k]! : (lines[0] ?? { lineNo: 0 });
    const n = k >= 0 ? Number(rows[k]![count]!.trim().replace(/[,_\s]/g, "")) : null;
    const per = n === null ? "many requests per row" : `${n} request${n === 1 ? "" : "s"} per row`;
    return {
      line: first.lineNo || 1,
      reason: statisticsReason(
        `a summary table, ${per} (column ${JSON.stringify(names[count]!.trim())}), each row giving only statistics (${stats
          .slice(0, 4)
          .map((x) => JSON.stringify(x.trim()))
          .join(", ")}${stats.length > 4 ? " …" : ""})`,
      ),
    };
  }
  // No count, but statistics only where a latency would be (Taurus' avg_rt, stdev_rt, perc_…).
  const latencyNamed = names.filter((n) => VALUE_NAMES.some((re) => re.test(bareName(n))));
  if (stats.length >= 3 && latencyNamed.every((n) => STATISTIC_NAME.test(n.trim()))) {
    return {
      line: lines[0]?.lineNo ?? 1,
      reason: statisticsReason(
        `a summary table, each row giving statistics of many requests (${stats
          .slice(0, 4)
          .map((x) => JSON.stringify(x.trim()))
          .join(", ")}${stats.length > 4 ? " …" : ""})`,
      ),
    };
  }
  const percent = names.findIndex((n) => PERCENT_NAME.test(n.trim()));
  if (percent >= 0 && names.length === 2 && count < 0) {
    return {
      line: lines[0]?.lineNo ?? 1,
      reason: `statistics, not samples: a percentile table (column ${JSON.stringify(names[percent]!.trim())}), as ab -e writes; load ab -g output (one line per request) instead`,
    };
  }
  return null;
}
