// What the store's views and the comparison read off a table's columns alone, kept while the
// table holds the same rows (a table that grows is asked again).
import { detectSaturation, type SaturationVerdict } from "../core/saturation";
import type { IntervalTable } from "../core/series";

/**
 * The saturation detector's verdict on a table, kept while the table holds the same intervals:
 * it reads every interval, and both a series' warnings and the comparison ask for it.
 */
const saturation = new WeakMap<IntervalTable, { n: number; v: SaturationVerdict }>();
export function saturationOf(t: IntervalTable): SaturationVerdict {
  const c = saturation.get(t);
  if (c && c.n === t.n) return c.v;
  const v = detectSaturation(t.offsets, t.p50, t.counts, t.n);
  saturation.set(t, { n: t.n, v });
  return v;
}

const beforeStartCache = new WeakMap<IntervalTable, { n: number; r: { intervals: number; count: number } | null }>();

/** The intervals of a table that start before StartTime, and their values (null when none). */
export function beforeStartOf(t: IntervalTable | null): { intervals: number; count: number } | null {
  if (!t) return null;
  const c = beforeStartCache.get(t);
  if (c && c.n === t.n) return c.r;
  let intervals = 0;
  let count = 0;
  for (let i = 0; i < t.n; i++)
    if (t.offsets[i]! < 0) {
      intervals++;
      count += t.counts[i]!;
    }
  const r = intervals > 0 ? { intervals, count } : null;
  beforeStartCache.set(t, { n: t.n, r });
  return r;
}
