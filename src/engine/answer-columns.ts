// What every per-series time answer (timeline, windows, heatmap) starts with: which series it
// is about, and its per-column arrays, zeroed, to be filled column by column.
import type { SeriesModel } from "../core/series";
import type { Unit } from "../core/types";

/** Which series an answer is about, the unit its values are in, and the time its offsets count from. */
export function originOf(s: SeriesModel): { id: string; recordedUnit: Unit; startTime: number | null } {
  return { id: s.id, recordedUnit: s.recordedUnit, startTime: s.startTime };
}

/** One zeroed array of `n` columns per name. */
export function zeroColumns<K extends string>(n: number, names: readonly K[]): Record<K, Float64Array> {
  const out = {} as Record<K, Float64Array>;
  for (const name of names) out[name] = new Float64Array(n);
  return out;
}
