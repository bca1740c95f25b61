// The series rows (view, colour, dash, visibility, verdict) and the plot's series, derived
// from the engine's views. Both keep their objects while nothing they show changed, so the
// memoised rows of the series list and table, and the plot's cached paths, are reused when
// one series of fifty is hidden or shown, or when only the display unit changes.
import { useMemo, useRef } from "react";
import type { PlotSeries } from "../../charts/percentile-plot/PercentilePlot";
import { noValuesText, verdictFor } from "../../core/judge";
import type { Requirement, Verdict } from "../../core/requirements";
import type { SeriesView, TimelineResult } from "../../engine/store";
import type { TimelineLine } from "../../charts/timeline/Timeline";
import { ColorSlots, stylesFor, type Theme } from "../../core/palette/colors";
import type { SeriesRow } from "../panels/SeriesList";

// Loops and module-level functions, not closures made per update: V8 drops the optimised code of
// short-lived closures at every major collection, and these run on every update of a followed run.
export function useSeriesRows(views: SeriesView[], hidden: Set<string>, requirement: Requirement | null, theme: Theme = "light"): SeriesRow[] {
  const rowCache = useRef(new Map<string, SeriesRow>());
  // Colours stay with their configuration while it is loaded: adding files never recolours,
  // and a reload (which restores the files) gives each its colour back.
  const slots = useRef<ColorSlots | null>(null);
  slots.current ??= new ColorSlots(readSlots());
  // Styles depend on the series and the theme, not on which are hidden: hiding one neither
  // recolours nor writes the slots to storage again.
  // The factories only call module-level functions: a factory is a new closure each render, and
  // what it holds loses its optimised code at every major collection.
  const styles = useMemo(() => stylesSaved(views, theme, slots.current!), [views, theme]);
  return useMemo(() => rowsOf(views, hidden, requirement, styles, rowCache), [views, hidden, requirement, styles]);
}

function stylesSaved(views: SeriesView[], theme: Theme, slots: ColorSlots): ReturnType<typeof stylesFor> {
  const st = stylesFor(views, theme, slots);
  if (views.length > 0) saveSlots(slots.entries());
  return st;
}

function rowsOf(
  views: SeriesView[],
  hidden: Set<string>,
  requirement: Requirement | null,
  styles: ReturnType<typeof stylesFor>,
  rowCache: { current: Map<string, SeriesRow> },
): SeriesRow[] {
  const next = new Map<string, SeriesRow>();
  const out: SeriesRow[] = [];
  for (const v of views) {
    const st = styles.get(v.id)!;
    const visible = !hidden.has(v.id);
    // Judge on the current window's spectrum, in ns like the requirement.
    const verdict = visible ? verdictFor(v, requirement) : null;
    const prev = rowCache.current.get(v.id);
    const row =
      prev && prev.view === v && prev.color === st.color && prev.dash === st.dash && prev.visible === visible && sameVerdict(prev.verdict, verdict)
        ? prev
        : { view: v, color: st.color, dash: st.dash, visible, verdict };
    next.set(v.id, row);
    out.push(row);
  }
  rowCache.current = next;
  return out;
}

const SLOTS_KEY = "hdr-spectrum.colour-slots";

function readSlots(): [string, number][] {
  try {
    const v: unknown = JSON.parse(globalThis.localStorage?.getItem(SLOTS_KEY) ?? "[]");
    return Array.isArray(v) ? (v.filter((e) => Array.isArray(e) && e.length === 2) as [string, number][]) : [];
  } catch {
    return [];
  }
}

/** The slots last written: a run followed live makes new views twice a second, with the same slots. */
let savedSlots = "";

function saveSlots(entries: Iterable<[string, number]>): void {
  const text = JSON.stringify([...entries]);
  if (text === savedSlots) return;
  savedSlots = text;
  try {
    globalThis.localStorage?.setItem(SLOTS_KEY, text);
  } catch {
    // Storage refused (private mode, quota): colours then hold for this page's life only.
  }
}

/**
 * The plot's series: the spectrum's own arrays in the recorded unit (the plot lays out in ns
 * and converts only its labels), so they do not depend on the display unit.
 */
export function usePlotSeries(visibleRows: SeriesRow[]): PlotSeries[] {
  const plotCache = useRef(new WeakMap<SeriesRow, PlotSeries>());
  return useMemo(() => plotSeriesOf(visibleRows, plotCache.current), [visibleRows]);
}

function plotSeriesOf(visibleRows: SeriesRow[], plotCache: WeakMap<SeriesRow, PlotSeries>): PlotSeries[] {
  const out: PlotSeries[] = [];
  for (const r of visibleRows) {
    const known = plotCache.get(r);
    if (known) {
      out.push(known);
      continue;
    }
    const sp = r.view.spectrum;
    const p: PlotSeries = {
      id: r.view.id,
      name: r.view.name,
      color: r.color,
      dash: r.dash,
      recordedUnit: r.view.recordedUnit,
      values: sp.values,
      cumulative: sp.cumulative,
      totalCount: sp.totalCount,
      max: sp.max,
      min: sp.min,
    };
    for (const w of r.view.warnings) {
      if (w.kind !== "bucketed") continue;
      p.maxWithin = { lowNs: w.lowNs, highNs: w.highNs };
      break;
    }
    const empty = noValuesText(r.view);
    if (empty) p.noValues = empty;
    plotCache.set(r, p);
    out.push(p);
  }
  return out;
}

/** Two verdicts that read the same (a verdict is recomputed whenever the rows are). */
export function sameVerdict(a: Verdict | null, b: Verdict | null): boolean {
  if (a === null || b === null) return a === b;
  return a.pass === b.pass && a.firstViolation === b.firstViolation && a.violations.length === b.violations.length && sameViolations(a.violations, b.violations);
}

function sameViolations(as: Verdict["violations"], bs: Verdict["violations"]): boolean {
  for (let i = 0; i < as.length; i++) {
    const v = as[i]!;
    const w = bs[i]!;
    // Object.is: a verdict without values (NaN, core/judge.ts) reads the same as itself.
    if (!(v.percentile === w.percentile && Object.is(v.ratio, w.ratio) && v.limitNs === w.limitNs && Object.is(v.valueNs, w.valueNs))) return false;
  }
  return true;
}

const looksOf = (r: SeriesRow) => `${r.view.id}\u0000${r.view.name}\u0000${r.color}\u0000${r.dash}`;

/**
 * The timeline's lines. They depend on which series are shown and how they look, not on their
 * spectra: a new time window brings new spectra (new rows) but must not redraw the timeline
 * canvas (resizing and repainting it was a large part of every window change).
 */
export function useTimelineLines(timeline: TimelineResult | null, visibleRows: SeriesRow[]): TimelineLine[] {
  const lineLooks = visibleRows.map(looksOf).join("\u0001");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => timelineLinesOf(timeline, visibleRows), [timeline, lineLooks]);
}

function timelineLinesOf(timeline: TimelineResult | null, visibleRows: SeriesRow[]): TimelineLine[] {
  if (!timeline) return [];
  const byId = new Map<string, TimelineResult["series"][number]>();
  for (const t of timeline.series) byId.set(t.id, t);
  const out: TimelineLine[] = [];
  for (const r of visibleRows) {
    const data = byId.get(r.view.id);
    if (data) out.push({ id: r.view.id, name: r.view.name, color: r.color, dash: r.dash, data });
  }
  return out;
}
