// The judgment and the Markdown rows, from the engine's views: pure, so the page (ui/) and the
// command line (cli/) give the same verdicts, sentence and table from the same spectra.
import { valueAtFromBuckets, type BucketView } from "./bucket-lookup";
import type { MarkdownRow } from "./markdown";
import { formatCount, formatNumber, UNIT_LABEL } from "./format";
import { formatRatio, percentileLabel, requirementPhrase, sustainableThroughput, verdictOf, verdictSentence, type Requirement, type Verdict } from "./requirements";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "./types";

/** What judging needs of a series view (engine/store's SeriesView has all of it). */
export interface JudgedView {
  id: string;
  name: string;
  config: string;
  throughput: number | null;
  kind: "response" | "service" | "";
  recordedUnit: Unit;
  spectrum: BucketView;
  /** The whole series' count, whatever the time window (absent: the spectrum's). */
  wholeCount?: number;
  /** Requests that failed (load-generator formats): counted, never recorded as latencies. */
  failures?: number;
}

export interface JudgedRow {
  view: JudgedView;
  verdict: Verdict | null;
}

/**
 * Whether every request of the series failed: failures counted and not one value recorded in the
 * whole series (a time window that misses its values is not this).
 */
export function failedOnly(view: Pick<JudgedView, "spectrum" | "wholeCount" | "failures">): boolean {
  return view.spectrum.totalCount <= 0 && (view.wholeCount ?? 0) <= 0 && (view.failures ?? 0) > 0;
}

/** A failing verdict that rests on no value at all (a series whose every request failed). */
export function withoutValues(v: Verdict | null): boolean {
  return v !== null && !v.pass && v.violations.length > 0 && v.violations.every((x) => !Number.isFinite(x.valueNs));
}

/**
 * A series' verdict against the requirement, judged in ns; null without a requirement or without
 * data. A series whose every request failed fails it (its values stand as not-a-number): no
 * successful request cannot show that a latency limit holds.
 */
export function verdictFor(view: JudgedView, requirement: Requirement | null): Verdict | null {
  if (!requirement) return null;
  if (failedOnly(view)) return verdictOf(requirement, () => Number.NaN);
  if (view.spectrum.totalCount <= 0) return null;
  const ns = NANOS_PER_UNIT[view.recordedUnit];
  return verdictOf(requirement, (p) => valueAtFromBuckets(view.spectrum, p) * ns);
}

/**
 * The runs that are judged (response time where a configuration has it: service time hides
 * the queueing), the sustainable throughput per configuration, and the sentence.
 */
export function judgeRows<R extends JudgedRow>(rows: R[], requirement: Requirement | null) {
  // Loops, not closures made per call: V8 drops the optimised code of short-lived closures at
  // every major collection, and this runs on every render of a followed run.
  const hasResponse = new Set<R["view"]["config"]>();
  for (const r of rows) if (r.view.kind === "response") hasResponse.add(r.view.config);
  const judged: R[] = [];
  for (const r of rows) if (r.verdict && !(r.view.kind === "service" && hasResponse.has(r.view.config))) judged.push(r);
  const runs = judged.map(runOf);
  const sustainable = requirement ? sustainableThroughput(runs) : [];
  const sentence = verdictSentence(requirement, sustainable) ?? (requirement ? passFailSentence(requirement, judged) : null);
  return { judged, sustainable, sentence };
}

function runOf(r: JudgedRow) {
  return { id: r.view.id, config: r.view.config, throughput: r.view.throughput, pass: r.verdict!.pass };
}

/** Failing runs named in the sentence; past that, "and K more". */
const NAMED_FAILURES = 3;

/**
 * The answer when no throughput is known, so there is no sweep to rank: how many runs fail the
 * requirement, and for each failing run its worst entry, e.g.
 * "1 of 3 fails p99 ≤ 10 ms: ycsb-read, 130.6 ms, 13× the limit." Null without judged runs.
 */
export function passFailSentence(requirement: Requirement, judged: readonly JudgedRow[]): string | null {
  if (requirement.entries.length === 0 || judged.length === 0) return null;
  const phrase = requirementPhrase(requirement);
  const one = requirement.entries.length === 1;
  const failing = judged.filter((r) => !r.verdict!.pass);
  if (failing.length === 0) {
    if (judged.length === 1) return `${judged[0]!.view.name} passes ${phrase}.`;
    return `${judged.length === 2 ? "Both" : `All ${judged.length}`} pass ${phrase}.`;
  }
  const worst = (v: Verdict) => v.violations.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const detail = (r: JudgedRow) => {
    const w = worst(r.verdict!);
    const entry = requirement.entries.find((e) => e.percentile === w.percentile)!;
    const value = Number.isFinite(w.valueNs) ? `${formatNumber(w.valueNs / NANOS_PER_UNIT[entry.unit])} ${UNIT_LABEL[entry.unit]}` : (noValuesText(r.view) ?? "no values");
    const times = Number.isFinite(w.ratio) ? `, ${formatRatio(w.ratio)}× the limit` : "";
    return `${one ? "" : `${percentileLabel(w.percentile)} `}${value}${times}`;
  };
  const named = failing.slice(0, NAMED_FAILURES).map((r) => (judged.length === 1 ? detail(r) : `${r.view.name}, ${detail(r)}`));
  const more = failing.length > NAMED_FAILURES ? `; and ${failing.length - NAMED_FAILURES} more` : "";
  if (judged.length === 1) return `${failing[0]!.view.name} fails ${phrase}: ${named[0]}.`;
  const count =
    failing.length === judged.length
      ? judged.length === 2
        ? "Both fail"
        : `All ${judged.length} fail`
      : `${failing.length} of ${judged.length} ${failing.length === 1 ? "fails" : "fail"}`;
  return `${count} ${phrase}: ${named.join("; ")}${more}.`;
}

/** "pass", "fails at p99.9" / "fails at max", "fails: no successful requests", or "" without a verdict. */
export function verdictText(v: Verdict | null): string {
  if (!v) return "";
  if (v.pass) return "pass";
  return withoutValues(v) ? "fails: no successful requests" : `fails at ${v.firstViolation === 100 ? "max" : `p${v.firstViolation}`}`;
}

/**
 * Why a series has no value to print, in words, or null when it has values: a row of zeros
 * would read as 0 ms latency. "no successful requests: 6 failed" when every request failed.
 */
export function noValuesText(view: Pick<JudgedView, "spectrum" | "wholeCount" | "failures">): string | null {
  if (view.spectrum.totalCount > 0) return null;
  if ((view.wholeCount ?? 0) > 0) return "no values in the time window";
  if ((view.failures ?? 0) > 0) return `no successful requests: ${formatCount(view.failures!)} failed`;
  return "no values";
}

/**
 * A legend entry of a series that draws no line, saying why, the same words on the page's
 * chart and the slides': "pay: no successful requests: 6 failed, nothing to draw".
 */
export function noLineLegend(name: string, noValues: string): string {
  return `${name}: ${noValues}, nothing to draw`;
}

/** The table rows of the Markdown summary, values in the display unit. */
export function markdownRows(rows: readonly JudgedRow[], unit: Unit): MarkdownRow[] {
  return rows.map((r) => {
    const f = unitFactor(r.view.recordedUnit, unit);
    const at = (p: number) => valueAtFromBuckets(r.view.spectrum, p) * f;
    return {
      name: r.view.name,
      values: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), p9999: at(99.99), max: r.view.spectrum.max * f },
      count: r.view.spectrum.totalCount,
      verdict: verdictText(r.verdict),
      noValues: noValuesText(r.view),
    };
  });
}
