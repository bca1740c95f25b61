// A series' spectrum over a time window, kept while neither its data nor the intervals the window
// takes in have changed. A run followed live asks for every series' views a few times a second
// while most series have not appended since: those answer with the spectrum they already have
// (the same object, which views-reuse.ts then sends as a mark) instead of summing the window and
// walking its buckets again. A spectrum sent whole has handed its arrays to the page: made anew.
import { indexRange } from "../core/blocks";
import type { Histogram } from "../core/histogram";
import type { SeriesModel } from "../core/series";
import { handedAway, type Spectrum } from "../core/spectrum";
import type { TimeRange } from "./protocol";

/** Windows kept per series: the page asks for a few at once (the window on screen, the whole run, a live panel's last window). */
const WINDOWS = 4;

interface Kept {
  /** What the spectrum was made of: the series' histogram object and its data at the time. */
  histogram: Histogram;
  version: string;
  spectrum: Spectrum;
}

/**
 * The series' data as far as a spectrum can tell: its whole histogram grows in place on append
 * (its count changes, or, for intervals of no values, the intervals' count), and its recorded unit.
 */
function versionOf(s: SeriesModel): string {
  return `${s.histogram.totalCount}:${s.intervals?.n ?? 0}:${s.recordedUnit}`;
}

/**
 * The intervals a window takes in (those whose start lies in [start, end]), as the window query
 * reads them: a range of indices when the starts are in order, else the window's bounds.
 */
export function windowKeyOf(s: SeriesModel, range: TimeRange): string {
  const t = s.intervals;
  if (!t || (range.start === null && range.end === null)) return "whole";
  const lo = range.start ?? -Infinity;
  const hi = range.end ?? Infinity;
  if (!inOrder(t)) return `at ${lo}:${hi}`;
  const [i0, i1] = indexRange(t.offsets, t.n, lo, hi);
  return i0 > i1 ? "none" : `${i0}-${i1}`;
}

/** How far each table's starts are known to be in order (appends only add rows: the rest is looked at once). */
const ordered = new WeakMap<object, { n: number; inOrder: boolean }>();

function inOrder(t: NonNullable<SeriesModel["intervals"]>): boolean {
  const known = ordered.get(t) ?? { n: 1, inOrder: true };
  if (known.inOrder && known.n < t.n) {
    for (let i = Math.max(1, known.n); i < t.n; i++) {
      if (t.offsets[i]! < t.offsets[i - 1]!) {
        known.inOrder = false;
        break;
      }
    }
    known.n = t.n;
  }
  ordered.set(t, known);
  return known.inOrder;
}

export class SpectraKept {
  private readonly kept = new WeakMap<SeriesModel, Map<string, Kept>>();

  /** The spectrum kept of `s` over `range` when nothing it was made of has changed (it becomes the last forgotten). */
  get(s: SeriesModel, range: TimeRange): Spectrum | undefined {
    const key = windowKeyOf(s, range);
    const m = this.kept.get(s);
    const k = m?.get(key);
    // Made anew once its arrays went to the page with a view (views-reuse.ts handedOver).
    if (!k || k.histogram !== s.histogram || k.version !== versionOf(s) || handedAway(k.spectrum)) return undefined;
    // The most recently used window is forgotten last.
    m!.delete(key);
    m!.set(key, k);
    return k.spectrum;
  }

  /** Keeps `spectrum` as the one of `s` over `range` (its data as it is now); returns it. */
  set(s: SeriesModel, range: TimeRange, spectrum: Spectrum): Spectrum {
    const key = windowKeyOf(s, range);
    let m = this.kept.get(s);
    if (!m) {
      m = new Map();
      this.kept.set(s, m);
    }
    m.delete(key);
    m.set(key, { histogram: s.histogram, version: versionOf(s), spectrum });
    if (m.size > WINDOWS) m.delete(m.keys().next().value!);
    return spectrum;
  }

  /** Forgets what is kept of `s` (its counts changed in a way its version cannot tell). */
  forget(s: SeriesModel): void {
    this.kept.delete(s);
  }
}
