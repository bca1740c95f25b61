// A whole-series histogram kept as its few non-zero counts and made again when something reads
// it. A Prometheus series' steps are a few buckets each, and so is their sum, but a histogram
// of them is a counts array over every bucket up to its top (over 100 kB at 3 digits up to
// tens of ms): a fleet of a thousand series kept 120 MB of zeros beside their sparse counts.
//
// The stand-in answers every read as the histogram would: each property read goes to a
// histogram made from the counts (kept while something holds it, collected after), with every
// field the original had. Anything that may change it (a method not known to only read, a
// property written) keeps the histogram made from then on, so a change is never lost.
import { addDecodedInto } from "./counts-add";
import { lowestDiscernibleValueOf, newHistogram, sparseOf, type Histogram, type SparseHistogram } from "./histogram";

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
const boundOf = new WeakMap<Histogram, Map<PropertyKey, unknown>>();

/**
 * `h` kept as its non-zero counts, or `h` itself when one made from them would differ in
 * anything (a layout the counts cannot say, a count array of another length) or when it has
 * more non-zero counts than `maxCounts` (then the counts array is not mostly zeros).
 * `startFrom` "made": reads never see the original, as once it is collected (tests).
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
  return stand;
}

/** The histogram itself behind a compact one (made now, for a pass over many indices), or `h`. */
export function solidHistogram(h: Histogram): Histogram {
  return solidOf.get(h)?.() ?? h;
}

/** Whether `h` is kept as its non-zero counts (compactHistogram). */
export function isCompact(h: Histogram): boolean {
  return solidOf.has(h);
}
