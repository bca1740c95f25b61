// Which series a chart with room for only some of them shows: those with the worst max, the
// ones a slide is shown for. One rule for the page's presentation and the PowerPoint deck, so
// both show the same lanes.
import { NANOS_PER_UNIT, type Unit } from "./types";

/**
 * Past `n`, the n with the highest max, `keep` always among them, in their own order (ties by
 * the order of the list); the rest are named, worst first.
 */
export function worstOf<T>(items: readonly T[], maxOf: (t: T) => number, nameOf: (t: T) => string, n: number, keep: readonly string[] = []): { shown: T[]; more: string[] } {
  if (items.length <= n) return { shown: [...items], more: [] };
  const rank = items.map((t, i) => ({ t, i, kept: keep.includes(nameOf(t)), max: maxOf(t) }));
  rank.sort((a, b) => Number(b.kept) - Number(a.kept) || b.max - a.max || a.i - b.i);
  const chosen = new Set(rank.slice(0, n).map((r) => r.i));
  return { shown: items.filter((_, i) => chosen.has(i)), more: rank.slice(n).map((r) => nameOf(r.t)) };
}

/** A series as the lane choice needs it: its name and its spectrum's max in its recorded unit. */
export interface MaxRow {
  view: { name: string; recordedUnit: Unit; spectrum: { max: number } };
}

/**
 * The heatmap lanes a slide shows: at most `n`, by worst max (in ns, from the series of the same
 * name; a lane without one counts 0), the compared pair always among them.
 */
export function heatmapLanes<L extends { name: string }>(lanes: readonly L[], rows: readonly MaxRow[], n: number, pair: readonly string[] | null): { shown: L[]; more: string[] } {
  const maxNs = new Map(rows.map((r) => [r.view.name, r.view.spectrum.max * NANOS_PER_UNIT[r.view.recordedUnit]]));
  return worstOf(
    lanes,
    (l) => maxNs.get(l.name) ?? 0,
    (l) => l.name,
    n,
    pair ?? [],
  );
}
