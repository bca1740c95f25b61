// Share links on the engine's side. Making one: each series' histogram of the current window
// and what the page showed for it (the values at the table's and the requirement's
// percentiles, the details, the warnings), and the A vs B answer on screen. Opening one: the
// series come back from the rebuilt histograms, and what the author's page showed is pinned
// on them, so the opened page shows the same numbers digit for digit (the rounded histograms
// draw the curves only). The author's comparison is answered again as carried while the
// question is the same; a new question is computed from the link's data and says so.
import { valueAtFromBuckets, type Spectrum } from "../core/spectrum";
import { parseRequirement } from "../core/requirements";
import { parseExpectedInterval } from "../core/interval";
import type { CompareResult } from "../core/compare/types";
import { COMPARE_PERCENTILES } from "../core/compare";
import { TABLE_PERCENTILES } from "../core/types";
import type { SeriesWarning } from "../core/warnings";
import { decodeShare, encodeShare, identityFields, MAX_TIMELINE_BUCKETS, type Encoded, type SharedSeries, type ShareView } from "../share";
import type { SharedShown } from "../share/results";
import type { CompareAnswer, CompareRequest } from "./compare-query";
import { histogramSeries } from "./series-make";
import { CO_SUFFIX, type ShareLook, type OpenedShare, type Store } from "./store";

export { pinnedWarnings, pinSpectrum } from "./share-pin";
import { coarseOf } from "./timeline-query";
import type { TimeRange } from "./protocol";

/** The author's comparison as a link carried it, and the question it answers. */
export interface CarriedCompare {
  answer: CompareResult;
  margin: number;
  repeats: boolean;
  range: TimeRange;
}

/** The percentiles a requirement text judges at (none when it does not parse). */
function requirementPercentiles(text: string | null): number[] {
  if (!text) return [];
  const r = parseRequirement(text);
  return r.ok && r.value ? r.value.entries.map((e) => e.percentile) : [];
}

/** What a page shows for a series: its spectrum's values at the table's and `extra` percentiles, details, whole count, warnings. */
export function shownOf(sp: Spectrum, count: number, warnings: SeriesWarning[], extra: readonly number[]): SharedShown {
  const at: Record<string, number> = {};
  for (const p of [...TABLE_PERCENTILES, ...extra]) if (p > 0 && p <= 100) at[String(p)] = valueAtFromBuckets(sp, p);
  return { at, min: sp.min, mean: sp.mean, stdDeviation: sp.stdDeviation, count, warnings };
}

/** Strips what only the engine that computed an answer means (its series ids, its basis). */
function portable(a: CompareResult & Partial<Pick<CompareAnswer, "baseIds" | "candIds" | "basis">>): CompareResult {
  const { baseIds: _b, candIds: _c, basis: _s, ...rest } = a;
  return rest;
}

/** What the page shows for a series' CO-corrected copy, when a CO interval is set. */
function correctedShown(store: Store, id: string, range: TimeRange, extra: readonly number[]): { corrected?: SharedShown } {
  const co = store.correctedOf(id, range);
  return co ? { corrected: { ...shownOf(co.spectrum, co.wholeCount, [], extra), total: co.spectrum.totalCount } } : {};
}

/** The current view and its data, with what the page showed, as a link fragment. */
export function shareOf(store: Store, view: ShareView, looks: ShareLook[], range: TimeRange, fullPrecision: boolean, compare: CompareResult | null = null): Encoded {
  const extra = requirementPercentiles(view.requirement);
  // A CO-corrected copy travels as its series' `corrected` numbers, not as a series of its own.
  const series: SharedSeries[] = looks
    .filter((l) => !l.id.endsWith(CO_SUFFIX))
    .map((l) => {
      const s = store.get(l.id);
      return {
        ...identityFields(s),
        unit: s.recordedUnit,
        color: l.color,
        visible: l.visible,
        histogram: store.histogramFor(s.id, range),
        timeline: coarseOf(s, MAX_TIMELINE_BUCKETS),
        startTime: s.startTime,
        ...(s.origin !== undefined ? { origin: s.origin } : {}),
        ...(l.time ? { time: l.time } : {}),
        shown: { ...shownOf(store.spectrumFor(s.id, range), store.wholeCountOf(s.id), store.warningsOf(s.id), extra), ...correctedShown(store, s.id, range, extra) },
      };
    });
  // The answer belongs to the view's comparison only: a stale one (another pair) is not carried.
  const c = view.compare;
  const fits = compare && c && compare.margin === c.margin && compare.base.runs.includes(c.baseline) && compare.cand.runs.includes(c.candidate);
  return encodeShare({ view, series, ...(fits ? { results: { compare: portable(compare) } } : {}) }, { fullPrecision });
}

/** Replaces everything loaded with a link's series, pinning what its author's page showed. */
export function openShareIn(store: Store, fragment: string): OpenedShare {
  const r = decodeShare(fragment);
  if (!r.ok) return r;
  store.clear();
  for (const sh of r.state.series) {
    const m = histogramSeries({
      name: sh.name,
      source: sh.source,
      tag: sh.tag,
      recordedUnit: sh.unit,
      histogram: sh.histogram,
      startTime: sh.startTime,
      format: "shared",
      config: sh.config,
      throughput: sh.throughput,
      kind: sh.kind,
      coarseTimeline: sh.timeline ?? null,
    });
    if (sh.origin !== undefined) m.origin = sh.origin;
    store.series.push(m);
    if (sh.shown) store.pin(m.id, sh.shown);
  }
  const v = r.state.view;
  const co = v.coInterval === undefined ? null : parseExpectedInterval(v.coInterval);
  store.carriedCoNs = co !== null && Number.isFinite(co) && co > 0 ? co : null;
  const answer = r.state.results?.compare;
  store.carried = answer && v.compare ? { answer, margin: v.compare.margin, repeats: v.compare.repeats, range: { start: v.range.start, end: v.range.end } } : null;
  return {
    ok: true,
    view: v,
    lossy: r.lossy,
    visible: r.state.series.map((x) => x.visible),
    time: r.state.series.map((x, i) => ({ id: store.series[i]!.id, ...x.time })),
    carried: r.state.series.some((x) => x.shown !== undefined),
  };
}

/** The same runs, in any order (the author's page may have loaded them in another). */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((n, i) => n === y[i]);
}

/**
 * The carried answer when the question is the author's: the same runs on each side (by name,
 * each still as the link gave it), margin, pooling and window. Null otherwise.
 */
export function carriedAnswer(store: Store, req: CompareRequest, baseIds: string[], candIds: string[]): CompareAnswer | null {
  const c = store.carried;
  if (!c) return null;
  const pristine = (ids: string[]) => ids.every((id) => store.shown.has(id));
  const names = (ids: string[]) => ids.map((id) => store.get(id).name);
  const sameRange = req.range.start === c.range.start && req.range.end === c.range.end;
  // The percentiles reported: the table's and any asked beyond them (a requirement's).
  const extras = ((req as { extraPercentiles?: number[] }).extraPercentiles ?? []).filter((p) => Number.isFinite(p) && p > 0 && p < 100);
  const wanted = new Set([...COMPARE_PERCENTILES, ...extras]);
  const have = new Set(c.answer.points.map((p) => p.percentile));
  if (wanted.size !== have.size || [...wanted].some((p) => !have.has(p))) return null;
  if (
    !sameRange ||
    (req.margin ?? c.answer.margin) !== c.margin ||
    (req.repeats ?? true) !== c.repeats ||
    (req.resamples !== undefined && req.resamples !== c.answer.resamples) ||
    (req.seed !== undefined && req.seed !== c.answer.seed) ||
    !pristine(baseIds) ||
    !pristine(candIds) ||
    !sameList(names(baseIds), c.answer.base.runs) ||
    !sameList(names(candIds), c.answer.cand.runs)
  )
    return null;
  return { ...c.answer, baseIds, candIds, basis: "link" };
}

/** Whether a side rests on a link's data (its series came from a link: rounded, no intervals). */
export function fromLink(store: Store, ids: string[]): boolean {
  return ids.some((id) => store.get(id).format === "shared");
}
