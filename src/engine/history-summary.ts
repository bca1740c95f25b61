// A loaded run's summary for the history of runs (core/history): each series' report
// percentiles and, from the A vs B machinery, its own standard error at each judged percentile.
// The command line and the page's history worker both summarise runs with this.
import type { RunInput } from "../core/compare";
import { summarizeSide } from "../core/history/summary";
import { SUMMARY_PERCENTILES, type SeriesSummary } from "../core/history/types";
import { runOf } from "./compare-query";
import { OPEN_RANGE, type Store } from "./store";

/** The name a run's series goes by: its file's, before the store told same-named files apart. */
export function runSeriesName(s: { name: string; givenName?: string }): string {
  return s.givenName ?? s.name;
}

/** Series of a store grouped by name (a run may hold several files of one series: repeats). */
function byName(store: Store): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const s of store.series) groups.set(runSeriesName(s), [...(groups.get(runSeriesName(s)) ?? []), s.id]);
  return groups;
}

/** The summaries of a loaded run's series, and their data as the comparison takes it. */
export function summarizeStore(store: Store): { start: number | null; series: SeriesSummary[]; inputs: Map<string, RunInput[]> } {
  const inputs = new Map<string, RunInput[]>();
  const series: SeriesSummary[] = [];
  let start: number | null = null;
  for (const [name, ids] of byName(store)) {
    for (const id of ids) {
      const t = store.get(id).startTime;
      if (t !== null) start = start === null ? t : Math.min(start, t);
    }
    // Several series of one name in a run: its values are those of their sum.
    const viewId = ids.length > 1 ? store.merge(ids, name) : ids[0]!;
    const view = store.views(OPEN_RANGE).find((v) => v.id === viewId)!;
    const percentiles = Object.fromEntries(SUMMARY_PERCENTILES.map((p) => [String(p), view.spectrum.percentiles[String(p)] ?? 0]));
    const runs = ids.map((id) => runOf(store, id, OPEN_RANGE));
    if (ids.length > 1) store.remove(viewId);
    inputs.set(name, runs);
    series.push(summarizeSide({ name, unit: view.recordedUnit, count: view.spectrum.totalCount, percentiles }, runs));
  }
  return { start, series, inputs };
}
