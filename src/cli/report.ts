// What `report` and `check` print, from the Store's views: the page's table values (data-raw),
// its verdicts, judgment, Markdown and share link.
import { formatNumber, UNIT_LABEL } from "../core/format";
import { judgeRows, markdownRows, noValuesText, verdictFor, withoutValues } from "../core/judge";
import { markdownSummary } from "../core/markdown";
import { formatRequirement, percentileLabel, requirementPhrase, type Requirement, type Verdict } from "../core/requirements";
import { NANOS_PER_UNIT, TABLE_PERCENTILES, type Unit } from "../core/types";
import { warningText } from "../core/warnings";
import type { CompareAnswer } from "../engine/compare-query";
import type { SeriesView, Store, TimeRange } from "../engine/store";
import { DEFAULT_TIMELINE } from "../core/view-defaults";
import { stylesFor } from "../core/palette/colors";

/** The JSON's version: a change that drops or renames a field makes it 2. */
export const JSON_VERSION = 1;

export interface Row {
  view: SeriesView;
  verdict: Verdict | null;
  color: string;
  dash: string;
}

export function rowsOf(views: SeriesView[], requirement: Requirement | null): Row[] {
  const styles = stylesFor(views, "light");
  return views.map((v) => ({ view: v, verdict: verdictFor(v, requirement), color: styles.get(v.id)!.color, dash: styles.get(v.id)!.dash }));
}

/** The comparison a link carries: the baseline's name and the pair's computed answer. */
export interface LinkedCompare {
  baseline: string;
  candidate: string;
  answer: CompareAnswer;
}

/**
 * `${linkBase}#fragment`: the page opens the same view (its data in the fragment, never sent to
 * a server). With a comparison, the link carries its computed answer as the page's own links do
 * (engine/share-query.ts): opened, the page shows the same ratio points, ranges, verdicts,
 * sentence and headline, not a new answer from the link's rounded histograms.
 */
export async function shareUrl(
  store: Store,
  rows: Row[],
  requirement: Requirement | null,
  range: TimeRange,
  unit: Unit,
  linkBase: string,
  compare: LinkedCompare | null = null,
): Promise<string> {
  // Loaded only for a link: the timeline's defaults live beside its React panel.
  const { shareOf } = await import("../engine/share-query");
  const view = {
    displayUnit: unit,
    yLog: false,
    sideBySide: false,
    requirement: requirement ? formatRequirement(requirement) : null,
    range,
    timeline: { percentiles: [...DEFAULT_TIMELINE.percentiles], perLane: DEFAULT_TIMELINE.perLane, wallClock: DEFAULT_TIMELINE.wallClock, log: DEFAULT_TIMELINE.log },
    // Repeats are pooled, as the command line compares them (engine/compare-query.ts's default).
    ...(compare ? { compare: { baseline: compare.baseline, candidate: compare.candidate, margin: compare.answer.margin, repeats: true } } : {}),
  };
  const looks = rows.map((r) => ({ id: r.view.id, color: r.color, visible: true }));
  const enc = shareOf(store, view, looks, range, false, compare?.answer ?? null);
  return `${linkBase.replace(/#.*$/, "")}#${enc.fragment}`;
}

export function markdownOf(rows: Row[], requirement: Requirement | null, range: TimeRange, unit: Unit, url: string | null, headline: string | null = null): string {
  const { sentence } = judgeRows(rows, requirement);
  return markdownSummary({
    headline,
    rows: markdownRows(rows, unit),
    unit,
    requirement: requirement ? formatRequirement(requirement) : null,
    sentence,
    shareUrl: url,
    range,
  });
}

/** A series in `report --json`, the fields ../shared/CONTRACT.md names (values in the recorded unit, as the page's data-raw). */
export interface JsonSeries {
  name: string;
  source: string;
  tag: string | null;
  config: string;
  throughput: number | null;
  kind: string | null;
  count: number;
  unit: string;
  percentiles: Record<string, number>;
  verdict: string | null;
}

export function jsonOf(rows: Row[], requirement: Requirement | null, range: TimeRange, url: string | null): unknown {
  const { sustainable, sentence } = judgeRows(rows, requirement);
  return {
    version: JSON_VERSION,
    series: rows.map(({ view: v, verdict }) => ({
      name: v.name,
      source: v.source,
      tag: v.tag === "" ? null : v.tag,
      config: v.config,
      throughput: v.throughput,
      kind: v.kind === "" ? null : v.kind,
      count: v.spectrum.totalCount,
      unit: v.recordedUnit,
      // No values: null, never 0 (which would read as 0 ms), and the reason in words.
      percentiles: Object.fromEntries(TABLE_PERCENTILES.map((p) => [String(p), v.spectrum.totalCount > 0 ? (v.spectrum.percentiles[String(p)] ?? 0) : null])),
      noValues: noValuesText(v),
      verdict: verdict ? (verdict.pass ? "pass" : "fail") : null,
      firstViolation: verdict?.firstViolation ?? null,
      // A series whose every request failed fails with no value: null, as its percentiles.
      violations: (verdict?.violations ?? []).map((x) => ({
        percentile: x.percentile,
        limitNs: x.limitNs,
        valueNs: Number.isFinite(x.valueNs) ? x.valueNs : null,
        ratio: Number.isFinite(x.ratio) ? x.ratio : null,
      })),
      format: v.format,
      intervals: v.intervalCount,
      startTime: v.startTime,
      failures: v.failures,
      warnings: v.warnings.map((w) => ({ kind: w.kind, message: warningText(w) })),
      ...(v.origin !== undefined ? { origin: v.origin } : {}),
    })),
    requirement: requirement ? formatRequirement(requirement) : null,
    range: { start: range.start, end: range.end },
    sustainable: sustainable.map((s) => ({ config: s.config, maxThroughput: s.maxThroughput, nonMonotonic: s.nonMonotonic, points: s.points })),
    sentence,
    shareUrl: url,
  };
}

/**
 * `check`'s lines: one per series, what failed and by how much (a series whose every request failed
 * fails, in words), then the sentence.
 */
export function checkText(rows: Row[], requirement: Requirement, unit: Unit): string {
  const { sentence } = judgeRows(rows, requirement);
  const u = UNIT_LABEL[unit];
  const f = (ns: number) => `${formatNumber(ns / NANOS_PER_UNIT[unit])} ${u}`;
  const lines: string[] = [];
  for (const r of rows) {
    const v = r.verdict;
    if (!v) {
      lines.push(`- ${r.view.name}: ${noValuesText(r.view) ?? "no values"}`);
      continue;
    }
    if (v.pass) lines.push(`pass ${r.view.name}`);
    else if (withoutValues(v)) lines.push(`FAIL ${r.view.name}: ${noValuesText(r.view) ?? "no values"}, so it cannot hold ${requirementPhrase(requirement)}`);
    else {
      const why = v.violations.map((x) => `${percentileLabel(x.percentile)} ${f(x.valueNs)} > ${f(x.limitNs)} (${x.ratio.toFixed(2)}×)`).join(", ");
      lines.push(`FAIL ${r.view.name}: ${why}`);
    }
  }
  if (sentence) lines.push("", sentence);
  return `${lines.join("\n")}\n`;
}
