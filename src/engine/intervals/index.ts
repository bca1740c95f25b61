// The interval source of every loaded table (source.ts), made when first asked for and let go
// with its series (the store calls disposeIntervals). Queries reach a table's counts through
// intervalsOf only.
import type { IntervalTable, SeriesModel } from "../../core/series";
import { keptFits, mayAttach, type KeptCounts } from "./kept";
import { IntervalSource } from "./source";

export { AppendedRowError, IntervalSource, type AppendedRow } from "./source";
export { decodePayload, inflatedCache, medianOf } from "./decode";
export { mergedSparse, SparseIntervalTable } from "./sparse-rows";

// Weakly, by table: a table dropped without disposeIntervals (a test's store) goes with its source.
const sources = new WeakMap<IntervalTable, IntervalSource>();

function sourceFor(t: IntervalTable): IntervalSource {
  let s = sources.get(t);
  if (!s) {
    s = new IntervalSource(t);
    sources.set(t, s);
  }
  return s;
}

/** The source of a series' intervals (a series without intervals has none: it throws). */
export function intervalsOf(s: SeriesModel): IntervalSource {
  if (!s.intervals) throw new Error(`series ${s.name} has no intervals`);
  return sourceFor(s.intervals).bind(s);
}

/**
 * Gives a table the counts a reader kept for it (the load's last step), when they hold every
 * row and fit the budget beside what other tables keep; else they are dropped.
 */
export function attachKept(t: IntervalTable, k: KeptCounts | null): void {
  if (k && mayAttach(t, k)) sourceFor(t).keep(k);
}

/** Lets go everything held for a table: its kept counts, its cached decodes and what queries derived from them. */
export function disposeIntervals(t: IntervalTable | null | undefined): void {
  if (!t) return;
  sources.get(t)?.dispose();
  sources.delete(t);
}

/** A table's kept counts when they are in the given layout and hold every row (tests and benchmarks). */
export function keptOf(t: IntervalTable, digits: number, lowest: number): KeptCounts | null {
  const s = sources.get(t);
  const k = s ? s.keptFor() : null;
  return keptFits(k, t, digits, lowest) ? k : null;
}
