// A whole-series histogram kept as its few non-zero counts and made again when something reads
// it. A Prometheus series' steps are a few buckets each, and so is their sum, but a histogram
// of them is a counts array over every bucket up to its top (over 100 kB at 3 digits up to
// tens of ms): a fleet of a thousand series kept 120 MB of zeros beside their sparse counts.
//
// The stand-in answers every read as the histogram would: each property read goes to a
// histogram made from the counts (kept while something holds it, collected after), with every
// field the original had. Anything that may change it (a method not known to only read, a
// property written) keeps the histogram made from then on, so a change is never lost.
//
// What views read of a whole series (its spectrum, count, max) is answered from the kept counts
// and fields without making the histogram: a fleet's every view answer would otherwise make a
// thousand counts arrays again, each collected after.
import { addDecodedInto } from "./counts-add";
import { valueAtIndex, subBucketCountMagnitude, unitMagnitudeOf } from "./counts-layout";
import { bucketsOfCounts, lowestDiscernibleValueOf, newHistogram, sparseOf, type Histogram, type SparseHistogram } from "./histogram";
import { handedAway, spectrumOf, type Spectrum } from "./spectrum";

/** Methods of hdr-histogram-js's JsHistogram that only read it (the rest keep the histogram made). */
const READS = new Set<PropertyKey>([
  "getValueAtPercentile",
  "getCountAtIndex",
  "getCountAtValue",
  "getCountBetweenValues",
  "valueFromIndex",
  "countsArrayIndex",
  "highestEquivalentValue",
  "lowestEquivalentValue",
  "nextNonEquivalentValue",
  "medianEquivalentValue",
  "sizeOfEquivalentValueRange",
  "valuesAreEquivalent",
  "getMean",
  "getStdDeviation",
  "getPercentileAtOrBelowValue",
  "getEstimatedFootprintInBytes",
  "outputPercentileDistribution",
  "copyCorrectedForCoordinatedOmission",
  "encode",
  "encodeInto",
  "encodeIntoByteBuffer",
  "encodeIntoCompressedByteBuffer",
  "toJSON",
  "toString",
  "summary",
  "getMaxValue",
  "getMinNonZeroValue",
  "constructor",
]);

type Fields = Record<string, number | string | boolean>;

interface Kept {
  sparse: SparseHistogram;
  fields: Fields;
}

/** The histogram's own fields of plain values (its counts array and iterators are made again). */
function fieldsOf(h: Histogram): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(h)) if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") out[k] = v;
  return out;
}

/** The layout fields a histogram made from the counts must share with the original for its counts to sit at the same indices. */
const LAYOUT = ["countsArrayLength", "unitMagnitude", "subBucketHalfCountMagnitude", "subBucketCount", "bucketCount"] as const;

/** A histogram made from the kept counts with every field of the original, or null when its layout differs. */
function made(k: Kept): Histogram | null {
  const h = newHistogram(k.sparse.numberOfSignificantValueDigits, k.sparse.lowestDiscernibleValue, k.sparse.highestTrackableValue);
  const js = h as unknown as Record<string, unknown>;
  if (LAYOUT.some((f) => js[f] !== k.fields[f])) return null;
  addDecodedInto(h, { version: 2, ...k.sparse });
  Object.assign(h, k.fields);
  return h;
}

/** Whether a histogram made from these counts has the original's layout, by the parameters it is made with (a fleet's series share a few). */
const layoutOk = new Map<string, boolean>();
function layoutKept(k: Kept): boolean {
  const key = [k.sparse.numberOfSignificantValueDigits, k.sparse.lowestDiscernibleValue, k.sparse.highestTrackableValue, ...LAYOUT.map((f) => k.fields[f])].join("/");
  let ok = layoutOk.get(key);
  if (ok === undefined) {
    ok = made(k) !== null;
    if (layoutOk.size >= 1000) layoutOk.clear();
    layoutOk.set(key, ok);
  }
  return ok;
}

const solidOf = new WeakMap<object, () => Histogram>();
/** A compact histogram's kept counts and fields, while nothing has changed it (null once pinned). */
const keptOf = new WeakMap<object, () => Kept | null>();
/** A compact histogram's spectrum, made from its counts once (it holds while keptOf does, and until its arrays are handed away). */
const spectrumKept = new WeakMap<object, Spectrum>();
const boundOf = new WeakMap<Histogram, Map<PropertyKey, unknown>>();

/**
 * `h` kept as its non-zero counts, or `h` itself when one made from them would differ in
 * anything (a layout the counts cannot say, a count array of another length) or when it has
 * more non-zero counts than `maxCounts` (then the counts array is not mostly zeros).
 * `startFrom` "made": reads never see the original, as once it is collected (tests, and a
 * reader that drops the original at once: held weakly, it would wait for a full collection).
 */
export function compactHistogram(h: Histogram, maxCounts = 4096, startFrom: "original" | "made" = "original"): Histogram {
  if (solidOf.has(h)) return h;
  const sparse = sparseOf(h);
  if (sparse.indices.length > maxCounts || sparse.lowestDiscernibleValue !== lowestDiscernibleValueOf(h)) return h;
  const kept: Kept = { sparse, fields: fieldsOf(h) };
  if (!layoutKept(kept)) return h;
  let pinned: Histogram | null = null;
  // The original is the first one read (until it is collected); then one made again.
  let weak: WeakRef<Histogram> | null = startFrom === "original" ? new WeakRef(h) : null;
  const get = (): Histogram => {
    if (pinned) return pinned;
    let r = weak?.deref();
    if (!r) {
      r = made(kept)!;
      weak = new WeakRef(r);
    }
    return r;
  };
  const pin = (): Histogram => (pinned ??= get());
  const proto = Object.getPrototypeOf(h) as object;
  const stand = new Proxy(Object.create(proto) as Histogram, {
    get(_t, key) {
      // Plain fields as kept (what the histogram made would hold), until something changes it.
      if (pinned === null && typeof key === "string") {
        if (Object.hasOwn(kept.fields, key)) return kept.fields[key];
        if (key === "totalCount" && typeof kept.fields._totalCount === "number") return kept.fields._totalCount;
      }
      const r = get();
      const v = Reflect.get(r, key, r) as unknown;
      if (typeof v !== "function") return v;
      if (!READS.has(key)) pin();
      // Bound to the histogram read, and kept only as long as it is (its methods hold it).
      let methods = boundOf.get(r);
      if (!methods) boundOf.set(r, (methods = new Map()));
      let b = methods.get(key);
      if (b === undefined) methods.set(key, (b = (v as (...a: unknown[]) => unknown).bind(r)));
      return b;
    },
    set(_t, key, value) {
      return Reflect.set(pin(), key, value);
    },
    has: (_t, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(get(), key);
      return d ? { ...d, configurable: true } : d;
    },
    getPrototypeOf: () => proto,
    defineProperty: (_t, key, d) => Reflect.defineProperty(pin(), key, d),
    deleteProperty: (_t, key) => Reflect.deleteProperty(pin(), key),
  });
  solidOf.set(stand, get);
  keptOf.set(stand, () => (pinned === null ? kept : null));
  return stand;
}

/**
 * Calls `read` with each of `hs` in turn; a compact one as a histogram made from its counts in
 * a scratch histogram reused for the next one of its layout (a fleet's thousand merged without
 * a thousand counts arrays made), given with its non-zero counts: `read` reads it and keeps
 * nothing of it.
 */
export function forEachRead(hs: readonly Histogram[], read: (h: Histogram, counts: SparseHistogram | null) => void): void {
  const scratch = new Map<string, Histogram>();
  for (const h of hs) {
    const kept = keptOf.get(h)?.() ?? null;
    if (kept === null) {
      read(solidHistogram(h), null);
      continue;
    }
    const { sparse, fields } = kept;
    const key = [sparse.numberOfSignificantValueDigits, sparse.lowestDiscernibleValue, sparse.highestTrackableValue, ...LAYOUT.map((f) => fields[f])].join("/");
    let s = scratch.get(key);
    if (s === undefined) {
      s = newHistogram(sparse.numberOfSignificantValueDigits, sparse.lowestDiscernibleValue, sparse.highestTrackableValue);
      scratch.set(key, s);
    }
    const js = s as unknown as Record<string, unknown>;
    const counts = js._counts;
    if (!(counts instanceof Float64Array) || LAYOUT.some((f) => js[f] !== fields[f])) {
      read(solidHistogram(h), null);
      continue;
    }
    for (let k = 0; k < sparse.indices.length; k++) counts[sparse.indices[k]!] = sparse.counts[k]!;
    Object.assign(s, fields);
    read(s, sparse);
    for (let k = 0; k < sparse.indices.length; k++) counts[sparse.indices[k]!] = 0;
  }
}

/** The non-zero counts of a compact histogram nothing has changed since it was kept, else null (read them, never change them). */
export function compactCounts(h: Histogram): SparseHistogram | null {
  return keptOf.get(h)?.()?.sparse ?? null;
}

/**
 * spectrumOf a compact histogram, made from its kept counts without the histogram and kept
 * with it; null when `h` is not compact or has changed since (then read it as any histogram).
 */
export function compactSpectrum(h: Histogram): Spectrum | null {
  const sparse = compactCounts(h);
  if (sparse === null) return null;
  let sp = spectrumKept.get(h);
  if (sp === undefined || handedAway(sp)) {
    const { indices, counts, lowestDiscernibleValue: lowest, numberOfSignificantValueDigits: digits } = sparse;
    const n = indices.length;
    // maxOf: the highest value equivalent to the top count's index.
    const max = n === 0 ? 0 : valueAtIndex(indices[n - 1]! + 1, unitMagnitudeOf(lowest), subBucketCountMagnitude(digits) - 1) - 1;
    sp = spectrumOf(h, bucketsOfCounts(indices, counts, lowest, digits), max);
    spectrumKept.set(h, sp);
  }
  return sp;
}

/** The histogram itself behind a compact one (made now, for a pass over many indices), or `h`. */
export function solidHistogram(h: Histogram): Histogram {
  return solidOf.get(h)?.() ?? h;
}

/** Whether `h` is kept as its non-zero counts (compactHistogram). */
export function isCompact(h: Histogram): boolean {
  return solidOf.has(h);
}
