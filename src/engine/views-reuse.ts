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

/** What each side remembers of the last views of each window, the oldest window forgotten first (the same on both sides). */
class Remembered<T> {
  private readonly last = new Map<string, Map<string, T>>();

  protected before(range: TimeRange): Map<string, T> | undefined {
    return this.last.get(keyOf(range));
  }

  protected remember(range: TimeRange, byId: Map<string, T>): void {
    const key = keyOf(range);
    this.last.delete(key);
    this.last.set(key, byId);
    if (this.last.size > WINDOWS) this.last.delete(this.last.keys().next().value!);
  }
}

/**
 * A view as the worker remembers it once sent: its spectrum's arrays go to the page (handedOver),
 * so they are remembered by their length and a 64-bit fingerprint of their bits, the rest as is.
 */
interface Sent {
  rest: unknown;
  length: number;
  h1: number;
  h2: number;
}

/**
 * Two 32-bit hashes of the bits of a spectrum's two arrays (of one length), read side by side.
 * Each step is one-to-one in each hash, so a single word changed always changes both; arrays
 * that differ in more yet share both hashes: about one chance in 2^64.
 */
function fingerprint(values: Float64Array, cumulative: Float64Array): { h1: number; h2: number } {
  const x = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  const y = new Int32Array(cumulative.buffer, cumulative.byteOffset, cumulative.length * 2);
  let h1 = 0x9747b28c ^ x.length;
  let h2 = 0x2545f491 ^ y.length;
  for (let i = 0; i < x.length; i++) {
    const a = x[i]!;
    const b = y[i]!;
    h1 = Math.imul(h1 ^ a, 0x9e3779b1) ^ b;
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 + b, 0x85ebca77) ^ a;
    h2 ^= h2 >>> 13;
  }
  return { h1, h2 };
}

function sentOf(v: SeriesView): Sent {
  const { values, cumulative, ...spectrum } = v.spectrum;
  // Typed arrays are fingerprinted; anything else (a test's plain arrays) is remembered as it is.
  if (!(values instanceof Float64Array && cumulative instanceof Float64Array) || values.length !== cumulative.length) return { rest: v, length: -1, h1: 0, h2: 0 };
  const { h1, h2 } = fingerprint(values, cumulative);
  return { rest: { ...v, spectrum }, length: values.length, h1, h2 };
}

/**
 * The worker's side: views equal to the ones last sent for the window become marks. Equal: every
 * field equal value for value, and the spectrum's arrays of the same length and fingerprint
 * (arrays that differ yet share both 32-bit hashes: about one chance in 2^64).
 */
export class ViewsSent extends Remembered<Sent> {
  pack(range: TimeRange, views: SeriesView[]): PackedView[] {
    const before = this.before(range);
    const now = new Map<string, Sent>();
    const out: PackedView[] = [];
    for (const v of views) {
      const s = sentOf(v);
      now.set(v.id, s);
      const b = before?.get(v.id);
      out.push(b && b.length === s.length && b.h1 === s.h1 && b.h2 === s.h2 && sameData(b.rest, s.rest) ? { same: v.id } : v);
    }
    this.remember(range, now);
    return out;
  }
}

/** The page's side: marks replaced by the views held. */
export class ViewsHeld extends Remembered<SeriesView> {
  unpack(range: TimeRange, packed: readonly PackedView[]): SeriesView[] {
    const before = this.before(range);
    const views: SeriesView[] = [];
    const byId = new Map<string, SeriesView>();
    for (const p of packed) {
      let v: SeriesView;
      if (!("same" in p)) v = p;
      else {
        const held = before?.get(p.same);
        if (!held) throw new Error(`the engine named a view the page does not hold (${p.same})`);
        v = held;
      }
      views.push(v);
      byId.set(v.id, v);
    }
    this.remember(range, byId);
    return views;
  }
}

/** Whether a typed array is the whole of its buffer (so that moving the buffer moves it and nothing else). */
function ownsBuffer(a: Float64Array): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer;
}

/**
 * The views to post and the buffers to hand over with them. A view sent whole hands its
 * spectrum's arrays to the page: moved, not copied, and not kept here, since a kept spectrum made
 * of the same data answers again only while its arrays are still here (view-cache.ts,
 * lazy-histogram.ts make it anew once they have gone). Each array made and dropped here every
 * redraw of a followed run was memory a full collection had to take back, every few seconds.
 * An array sharing its buffer with others is copied.
 */
export function handedOver(packed: readonly PackedView[]): { views: PackedView[]; buffers: ArrayBuffer[] } {
  const views: PackedView[] = [];
  const buffers = new Set<ArrayBuffer>();
  for (const p of packed) {
    if ("same" in p) {
      views.push(p);
      continue;
    }
    let { values, cumulative } = p.spectrum;
    if (!ownsBuffer(values)) values = values.slice();
    if (!ownsBuffer(cumulative) || cumulative.buffer === values.buffer) cumulative = cumulative.slice();
    buffers.add(values.buffer as ArrayBuffer);
    buffers.add(cumulative.buffer as ArrayBuffer);
    views.push(values === p.spectrum.values && cumulative === p.spectrum.cumulative ? p : { ...p, spectrum: { ...p.spectrum, values, cumulative } });
  }
  return { views, buffers: [...buffers] };
}
