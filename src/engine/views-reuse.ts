// The views of a time window, sent again after every change, carry each series' spectrum:
// while a run is followed live most series have not changed since the last answer. The worker
// sends those as a mark naming the series, and the page puts back the view it already holds,
// the same object, so that what is drawn from it (memoised on it) is not drawn again. Both
// sides remember the last answer for each window in the same order (answers arrive in the
// order they were sent), so they always agree on what "the same" refers to.
import type { SeriesView, TimeRange } from "./protocol";

/** A view the other side already holds, unchanged. */
export interface SameView {
  same: string;
}

export type PackedView = SeriesView | SameView;

/** Windows remembered: the page asks for a few at once (the window on screen, the whole run, a live panel's last window). */
const WINDOWS = 8;

function keyOf(r: TimeRange): string {
  return `${r.start ?? ""}:${r.end ?? ""}`;
}

/** Plain data (numbers, strings, arrays, objects, typed arrays) equal, value for value. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (ArrayBuffer.isView(a) || Array.isArray(a)) {
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (!(ArrayBuffer.isView(b) || Array.isArray(b)) || x.length !== y.length || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    for (let i = 0; i < x.length; i++) if (!sameData(x[i], y[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

// Loops here, not closures made per answer: V8 drops the optimised code of short-lived closures
// at every major collection.

/** The last views of each window, the oldest window forgotten first (the same on both sides). */
class Remembered {
  private readonly last = new Map<string, Map<string, SeriesView>>();

  protected before(range: TimeRange): Map<string, SeriesView> | undefined {
    return this.last.get(keyOf(range));
  }

  protected remember(range: TimeRange, views: readonly SeriesView[]): void {
    const key = keyOf(range);
    this.last.delete(key);
    const byId = new Map<string, SeriesView>();
    for (const v of views) byId.set(v.id, v);
    this.last.set(key, byId);
    if (this.last.size > WINDOWS) this.last.delete(this.last.keys().next().value!);
  }
}

/** The worker's side: views equal to the ones last sent for the window become marks. */
export class ViewsSent extends Remembered {
  pack(range: TimeRange, views: SeriesView[]): PackedView[] {
    const before = this.before(range);
    this.remember(range, views);
    if (!before) return views;
    const out: PackedView[] = [];
    for (const v of views) {
      const b = before.get(v.id);
      out.push(b && sameData(b, v) ? { same: v.id } : v);
    }
    return out;
  }
}

/** The page's side: marks replaced by the views held. */
export class ViewsHeld extends Remembered {
  unpack(range: TimeRange, packed: readonly PackedView[]): SeriesView[] {
    const before = this.before(range);
    const views: SeriesView[] = [];
    for (const p of packed) {
      if (!("same" in p)) {
        views.push(p);
        continue;
      }
      const v = before?.get(p.same);
      if (!v) throw new Error(`the engine named a view the page does not hold (${p.same})`);
      views.push(v);
    }
    this.remember(range, views);
    return views;
  }
}

/**
 * The views to post and the buffers to hand over with them: each view sent whole carries copies
 * of its spectrum's arrays, moved to the page rather than copied again on arrival. The worker's
 * own spectra stay whole: they are kept for answers to come (view-cache.ts) and compared with the
 * next views above.
 */
export function handedOver(packed: readonly PackedView[]): { views: PackedView[]; buffers: ArrayBuffer[] } {
  const views: PackedView[] = [];
  const buffers: ArrayBuffer[] = [];
  for (const p of packed) {
    if ("same" in p) {
      views.push(p);
      continue;
    }
    const values = p.spectrum.values.slice();
    const cumulative = p.spectrum.cumulative.slice();
    buffers.push(values.buffer, cumulative.buffer);
    views.push({ ...p, spectrum: { ...p.spectrum, values, cumulative } });
  }
  return { views, buffers };
}
