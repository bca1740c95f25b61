// Histograms and timelines as compact binary.
//
// A histogram travels as sparse (index, count) pairs in an HdrHistogram index space (sig
// significant digits, lowest discernible value ldv): the decoder records each index's lowest
// value with its count into a fresh histogram of that layout. Full precision uses the
// original's own layout, so the rebuilt histogram is identical bucket for bucket.
//
// Lossy: counts stay exact, values move, only upward. Adjacent buckets of the original are
// merged into groups, each group recorded at one index of a 3-digit layout chosen so that the
// value the rebuilt histogram reports for it (the bucket's highest equivalent value) is at or
// above the value the original reports for every bucket of the group, and within
// LOSSY_TOLERANCE of each. The map
// from original bucket to rebuilt bucket is monotone and keeps every count, and the total is
// the same, so for any percentile the rebuilt histogram's value is the image of the
// original's value: at or above it and within LOSSY_TOLERANCE, at every percentile (the max
// included). The groups are chosen greedily, each as wide as allowed: about 70 per octave of
// densely populated range, against 128 for HdrHistogram's 2-digit buckets.
import type { Histogram } from "hdr-histogram-js";
import { bucketsOf, lowestDiscernibleValueOf, newHistogram } from "../core/histogram";
import { ByteReader, ByteWriter } from "./bytes";
import { MAX_TIMELINE_BUCKETS, MAX_VALUE, fail } from "./schema";

/** Relative error allowed for a lossy value (the contract is 1 %; a little margin for rounding). */
export const LOSSY_TOLERANCE = 0.0099;
/** Significant digits of the index space lossy groups are placed in (its buckets are ≤ 0.1 % wide). */
export const LOSSY_SIG = 3;

/** The library's JsHistogram methods used here (present at runtime, absent from its typings). */
interface JsInternals {
  countsArrayIndex(value: number): number;
  valueFromIndex(index: number): number;
  getCountAtIndex(index: number): number;
  highestEquivalentValue(value: number): number;
  countsArrayLength: number;
}
const js = (h: Histogram) => h as unknown as JsInternals;

/**
 * Smallest histograms of a layout, used only for index arithmetic (pure functions of sig and
 * ldv). One holds subBucketCount slots (2 MB at 5 digits), so few are kept.
 */
const probes = new Map<string, JsInternals>();
function probe(sig: number, ldv: number): JsInternals {
  const key = `${sig}/${ldv}`;
  let p = probes.get(key);
  if (!p) {
    if (probes.size >= 8) probes.clear();
    p = js(newHistogram(sig, ldv));
    probes.set(key, p);
  }
  return p;
}

export interface PackedHistogram {
  sig: number;
  ldv: number;
  /** Strictly ascending indices in the (sig, ldv) layout. */
  indices: number[];
  /** Positive integer counts, one per index. */
  counts: number[];
}

function checkCount(c: number, total: number): void {
  if (!Number.isSafeInteger(c) || c < 0) throw new RangeError(`histogram count ${c} is not a non-negative integer below 2^53`);
  if (total > Number.MAX_SAFE_INTEGER) throw new RangeError("histogram total count exceeds 2^53");
}

/** Exact: the original's layout, index and count of every non-empty bucket. */
export function packExact(h: Histogram): PackedHistogram {
  const j = js(h);
  const indices: number[] = [];
  const counts: number[] = [];
  let total = 0;
  for (let i = 0; i < j.countsArrayLength; i++) {
    const c = j.getCountAtIndex(i);
    if (c === 0) continue;
    total += c;
    checkCount(c, total);
    indices.push(i);
    counts.push(c);
  }
  return { sig: h.numberOfSignificantValueDigits, ldv: lowestDiscernibleValueOf(h), indices, counts };
}

/**
 * Lossy: groups of adjacent buckets, each at one 3-digit index whose reported value is at or above
 * every bucket of the group and within LOSSY_TOLERANCE above the lowest: a rounded link may read
 * a little high, never below what was recorded (a value read low could pass a requirement the
 * data does not support). The group of the smallest (nonzero) value is that value's own bucket,
 * so the min and percentile 0 (lowest equivalent values) keep within the tolerance too.
 */
export function packLossy(h: Histogram): PackedHistogram {
  const tolerance = LOSSY_TOLERANCE;
  const ldv = lowestDiscernibleValueOf(h);
  const p = probe(LOSSY_SIG, ldv);
  const { values, cumulative } = bucketsOf(h);
  const top = (index: number) => p.highestEquivalentValue(p.valueFromIndex(index));
  const zeroTop = top(0); // values up to this are "zero" (below the lowest discernible value)
  const indices: number[] = [];
  const counts: number[] = [];
  let prevCum = 0;
  let i = 0;
  while (i < values.length) {
    const lo = values[i]!;
    // The highest rebuilt bucket whose reported value is at most lo·(1+tol) …
    const limit = lo * (1 + tolerance);
    let index = p.countsArrayIndex(Math.min(MAX_VALUE, Math.floor(limit)));
    if (top(index) > limit) index--;
    // … except for the smallest value, and when that bucket reports below lo (buckets wider than
    // the tolerance: unit-wide at small values): lo's own bucket, which reports lo's top.
    const smallest = i === 0 || (i === 1 && values[0]! <= zeroTop);
    if (smallest || index < 0 || top(index) < lo) index = p.countsArrayIndex(lo);
    const reported = top(index);
    // Take every following bucket the reported value is still at or above.
    let k = i + 1;
    while (k < values.length && values[k]! <= reported) k++;
    const c = cumulative[k - 1]! - prevCum;
    checkCount(c, cumulative[k - 1]!);
    prevCum = cumulative[k - 1]!;
    indices.push(index);
    counts.push(c);
    i = k;
  }
  return { sig: LOSSY_SIG, ldv, indices, counts };
}

/**
 * Where the lossy grouping puts the group after the one at `index` when the original has every
 * bucket in between (a 3-digit original, dense): the next original bucket is the first above
 * this group's reported value, and its group takes the highest index within tolerance of it.
 * The link stores the difference to this guess, mostly 0 in a dense body.
 */
function predictNext(p: JsInternals, index: number, tolerance: number): number {
  const top = (i: number) => p.highestEquivalentValue(p.valueFromIndex(i));
  const next = index + 1;
  const limit = top(next) * (1 + tolerance);
  if (!(limit < MAX_VALUE)) return next;
  let j = p.countsArrayIndex(Math.floor(limit));
  if (top(j) > limit) j--;
  return Math.max(next, j);
}

/**
 * The guess links before v4 were written with: their groups could report up to the tolerance
 * below their buckets, so the next group began past reported ÷ (1 − tolerance).
 */
function predictNextV3(p: JsInternals, index: number, tolerance: number): number {
  const top = (i: number) => p.highestEquivalentValue(p.valueFromIndex(i));
  const reported = top(index);
  const threshold = reported / (1 - tolerance);
  if (!(threshold < MAX_VALUE)) return index + 1;
  let next = p.countsArrayIndex(Math.floor(threshold));
  if (top(next) <= threshold) next++;
  const limit = top(next) * (1 + tolerance);
  if (!(limit < MAX_VALUE)) return next;
  let j = p.countsArrayIndex(Math.floor(limit));
  if (top(j) > limit) j--;
  return Math.max(index + 1, j);
}

/**
 * Per histogram: the number of pairs, the indices, then the counts (`beforeV4` writes an old
 * link's index guesses, for tests that build one). Indices: the first
 * absolute, then (lossy) the zigzag difference to predictNext's guess or (exact) the gap − 1.
 * Counts: zigzag difference to the previous count. Keeping indices and counts apart lets
 * deflate see the regular index pattern on its own.
 */
export function writePacked(w: ByteWriter, p: PackedHistogram, lossy: boolean, beforeV4 = false): void {
  const pr = probe(p.sig, p.ldv);
  const predict = beforeV4 ? predictNextV3 : predictNext;
  w.varint(p.indices.length);
  for (let k = 0; k < p.indices.length; k++) {
    const index = p.indices[k]!;
    if (k === 0) w.varint(index);
    else if (lossy) w.svarint(index - predict(pr, p.indices[k - 1]!, LOSSY_TOLERANCE));
    else w.varint(index - p.indices[k - 1]! - 1);
  }
  let prev = 0;
  for (const c of p.counts) {
    w.svarint(c - prev);
    prev = c;
  }
}

/** The largest index a link may use in a layout: the bucket of MAX_VALUE. */
export function maxIndexOf(sig: number, ldv: number): number {
  return probe(sig, ldv).countsArrayIndex(MAX_VALUE);
}

/** Reads what writePacked wrote, checking each index and count; `where` names the series. */
/** `beforeV4`: a link of version 3 or older, whose lossy indices were written against predictNextV3. */
export function readPacked(r: ByteReader, sig: number, ldv: number, lossy: boolean, where: string, beforeV4 = false): PackedHistogram {
  const predict = beforeV4 ? predictNextV3 : predictNext;
  const pr = probe(sig, ldv);
  const n = r.varint();
  const maxIndex = maxIndexOf(sig, ldv);
  if (n > maxIndex + 1) fail(`${where} declares ${n} histogram buckets; its layout has ${maxIndex + 1}`);
  if (n * 2 > r.remaining) fail(`${where} declares ${n} histogram buckets but the link holds fewer`);
  const indices = new Array<number>(n);
  const counts = new Array<number>(n);
  let index = -1;
  for (let k = 0; k < n; k++) {
    if (k === 0) index = r.varint();
    else if (lossy) {
      const residual = r.svarint();
      index = predict(pr, index, LOSSY_TOLERANCE) + residual; // index ≤ maxIndex: a valid guess
      if (!(index > indices[k - 1]!)) fail(`${where} has histogram buckets out of order`);
    } else index += r.varint() + 1;
    if (index > maxIndex) fail(`${where} has a histogram bucket beyond the largest value (${MAX_VALUE})`);
    indices[k] = index;
  }
  let c = 0;
  let total = 0;
  for (let k = 0; k < n; k++) {
    c += r.svarint();
    if (!Number.isSafeInteger(c) || c < 1) fail(`${where} has a histogram bucket with a count that is zero, negative or above 2^53`);
    total += c;
    if (total > Number.MAX_SAFE_INTEGER) fail(`${where} has a histogram total count above 2^53`);
    counts[k] = c;
  }
  return { sig, ldv, indices, counts };
}

/** Counts slots the rebuilt histogram allocates (an upper bound; an empty one has subBucketCount), for the memory budget. */
export function cellsOf(p: PackedHistogram): number {
  const subBucketCount = 2 ** Math.max(1, Math.ceil(Math.log2(2 * 10 ** p.sig)));
  return (p.indices.length ? p.indices[p.indices.length - 1]! + 1 : 0) + subBucketCount;
}

export function buildHistogram(p: PackedHistogram): Histogram {
  const pr = probe(p.sig, p.ldv);
  const last = p.indices.length ? pr.valueFromIndex(p.indices[p.indices.length - 1]!) : 0;
  const h = newHistogram(p.sig, p.ldv, Math.max(2 * p.ldv, last));
  for (let k = 0; k < p.indices.length; k++) h.recordValueWithCount(pr.valueFromIndex(p.indices[k]!), p.counts[k]!);
  return h;
}

// ---------------------------------------------------------------------------------------------
// Timelines: equal-width buckets of max values (NaN for a bucket without data).
// Lossy: codes on a log scale with step 2 % (each value rounded to the nearest step: within
// 1 %, HdrHistogram's 2-digit precision), stored as a reference code (the median) and the
// zigzag difference of each code to it. Exact: float64 each.

const LOG_STEP = Math.log(1.02);
const CODE_ZERO = 0;
const CODE_NAN = 1;
/** Code of 1: the smallest positive double gets about 130, the largest about 73 000. */
const CODE_OFFSET = 38_000;
const MAX_CODE = CODE_OFFSET + Math.ceil(Math.log(Number.MAX_VALUE) / LOG_STEP);

export function checkTimelineValues(max: readonly number[], where: string): void {
  if (!Array.isArray(max)) throw new RangeError(`${where}: timeline.max is not a list`);
  if (max.length > MAX_TIMELINE_BUCKETS) throw new RangeError(`${where}: timeline has ${max.length} buckets; at most ${MAX_TIMELINE_BUCKETS}`);
  for (const v of max) {
    if (typeof v !== "number" || !(Number.isNaN(v) || (Number.isFinite(v) && v >= 0)))
      throw new RangeError(`${where}: timeline value ${v} is not a finite non-negative number (or NaN for no data)`);
  }
}

function code(v: number): number {
  if (Number.isNaN(v)) return CODE_NAN;
  if (v <= 0) return CODE_ZERO;
  return Math.max(2, CODE_OFFSET + Math.round(Math.log(v) / LOG_STEP));
}

function valueOfCode(c: number): number {
  if (c === CODE_NAN) return NaN;
  if (c === CODE_ZERO) return 0;
  return Math.min(Number.MAX_VALUE, Math.exp((c - CODE_OFFSET) * LOG_STEP));
}

/** The value a lossy link carries for v (what decoding gives back). */
export function quantiseTimelineValue(v: number): number {
  return valueOfCode(code(v));
}

export function writeTimeline(w: ByteWriter, max: readonly number[], lossy: boolean): void {
  w.varint(max.length);
  if (max.length === 0) return;
  if (!lossy) {
    for (const v of max) w.float64(v);
    return;
  }
  const codes = max.map(code);
  const ref = [...codes].sort((a, b) => a - b)[codes.length >> 1]!;
  w.varint(ref);
  for (const c of codes) w.svarint(c - ref);
}

export function readTimeline(r: ByteReader, lossy: boolean, where: string): number[] {
  const n = r.varint();
  if (n > MAX_TIMELINE_BUCKETS) fail(`${where} has a timeline of ${n} buckets; at most ${MAX_TIMELINE_BUCKETS} are accepted`);
  if (n > r.remaining) fail(`${where} declares ${n} timeline buckets but the link holds fewer`);
  const out = new Array<number>(n);
  if (n === 0) return out;
  const ref = lossy ? r.varint() : 0;
  for (let k = 0; k < n; k++) {
    if (lossy) {
      const c = ref + r.svarint();
      if (!(c >= 0 && c <= MAX_CODE)) fail(`${where} has a timeline value out of range`);
      out[k] = valueOfCode(c);
    } else {
      const v = r.float64();
      if (!(Number.isNaN(v) || (Number.isFinite(v) && v >= 0))) fail(`${where} has a timeline value that is negative or infinite`);
      out[k] = v;
    }
  }
  return out;
}
