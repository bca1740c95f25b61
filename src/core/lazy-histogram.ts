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

function made(k: Kept): Histogram {
  const h = newHistogram(k.sparse.numberOfSignificantValueDigits, k.sparse.lowestDiscernibleValue, k.sparse.highestTrackableValue);
  addDecodedInto(h, { version: 2, ...k.sparse });
  Object.assign(h, k.fields);
  return h;
}

/** Counts and fields equal: the one made is the original, as far as anything can read. */
function same(a: Histogram, b: Histogram): boolean {
  const ca = (a as unknown as { _counts?: unknown })._counts;
  const cb = (b as unknown as { _counts?: unknown })._counts;
  if (!(ca instanceof Float64Array) || !(cb instanceof Float64Array) || ca.length !== cb.length) return false;
  for (let i = 0; i < ca.length; i++) if (ca[i] !== cb[i]) return false;
  const fa = fieldsOf(a);
  const fb = fieldsOf(b);
  const keys = Object.keys(fa);
  return keys.length === Object.keys(fb).length && keys.every((key) => Object.is(fa[key], fb[key]));
}

const solidOf = new WeakMap<object, () => Histogram>();

/**
 * `h` kept as its non-zero counts, or `h` itself when one made from them would differ in
 * anything (a layout the counts cannot say, a count array of another length) or when it has
 * more non-zero counts than `maxCounts` (then the counts array is not mostly zeros).
 */
export function compactHistogram(h: Histogram, maxCounts = 4096): Histogram {
  if (solidOf.has(h)) return h;
  const sparse = sparseOf(h);
  if (sparse.indices.length > maxCounts || sparse.lowestDiscernibleValue !== lowestDiscernibleValueOf(h)) return h;
  const kept: Kept = { sparse, fields: fieldsOf(h) };
  if (!same(made(kept), h)) return h;
  let pinned: Histogram | null = null;
  let weak: WeakRef<Histogram> | null = null;
  let bound = new Map<PropertyKey, unknown>();
  const get = (): Histogram => {
    if (pinned) return pinned;
    let r = weak?.deref();
    if (!r) {
      r = made(kept);
      weak = new WeakRef(r);
      bound = new Map();
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
      let b = bound.get(key);
      if (b === undefined) bound.set(key, (b = (v as (...a: unknown[]) => unknown).bind(r)));
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
