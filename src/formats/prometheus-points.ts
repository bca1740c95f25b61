// A native histogram's points as a Prometheus answer gives them ([t, {"count", "sum", "buckets"}]),
// read one at a time as they arrive and kept as columns of numbers until their result ends
// (prometheus-api.ts reads the answer; prometheus-series.ts turns the points into a series).
import { MAX_BUCKET_COUNT } from "./support/buckets";
import type { FloatBucket, Snapshot } from "./support/snapshots";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A sample value: a whole count as Prometheus writes it ("900"), or null. */
export function wholeCount(v: unknown, fractional = false): number | null | "fraction" {
  if (typeof v !== "string" && typeof v !== "number") return null;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > MAX_BUCKET_COUNT) return null;
  return Number.isInteger(n) || fractional ? n : "fraction";
}

/** Columns of one result's points: typed arrays grown by doubling, the rows in [0, n). */
class PointColumns {
  at = new Float64Array(2048);
  /** Point i's buckets are [first[i], first[i + 1]) of lower, upper and count. */
  first = new Int32Array(2049);
  lower = new Float64Array(16384);
  upper = new Float64Array(16384);
  count = new Float64Array(16384);
  points = 0;
  buckets = 0;

  clear(): void {
    this.points = 0;
    this.buckets = 0;
  }

  push(p: Snapshot): void {
    if (this.points + 1 >= this.at.length) {
      this.at = grown(this.at, this.points);
      this.first = grown(this.first, this.points + 1);
    }
    const need = this.buckets + p.buckets.length;
    if (need > this.lower.length) {
      this.lower = grown(this.lower, this.buckets, need);
      this.upper = grown(this.upper, this.buckets, need);
      this.count = grown(this.count, this.buckets, need);
    }
    this.at[this.points] = p.at;
    this.first[this.points] = this.buckets;
    for (const b of p.buckets) {
      this.lower[this.buckets] = b.lower;
      this.upper[this.buckets] = b.upper;
      this.count[this.buckets++] = b.count;
    }
    this.first[++this.points] = this.buckets;
  }
}

/** `a`'s first `used` values in an array at least twice as long (and at least `need`). */
function grown<T extends Float64Array | Int32Array>(a: T, used: number, need = 0): T {
  let size = a.length * 2;
  while (size < need) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a.subarray(0, used));
  return b;
}

/**
 * The columns results borrow one after another: a fleet's answer is a thousand results of the
 * same size, and arrays of each one's own (grown point by point, living as long as the result
 * is read) outlived the young generation's collections and were left to the old one's.
 */
let freeColumns: PointColumns | null = null;

/**
 * A native histogram's points, each read as it comes (a fleet's answer is never held whole),
 * kept as flat columns of numbers until the result ends: a day's points as objects would
 * outlive many collections of the young generation and be promoted, a series after series of
 * garbage for the old one.
 */
export class ResultPoints {
  private columns: PointColumns | null = null;
  fractions = 0;
  bad = false;

  constructor(private readonly fractional: boolean) {}

  add(pair: unknown): void {
    const p = nativePoint(pair, this.fractional);
    if (p === "fraction") this.fractions++;
    else if (p === null) this.bad = true;
    else {
      if (this.columns === null) {
        // Borrowed while free (another result may be read meanwhile: a second query's), else its own.
        this.columns = freeColumns ?? new PointColumns();
        freeColumns = null;
        this.columns.clear();
      }
      this.columns.push(p);
    }
  }

  /** The points as snapshots (made once, when the result is read into its series); the columns are given back. */
  get points(): Snapshot[] {
    const c = this.columns;
    if (c === null) return [];
    const out: Snapshot[] = [];
    for (let i = 0; i < c.points; i++) {
      const buckets: FloatBucket[] = [];
      for (let k = c.first[i]!; k < c.first[i + 1]!; k++) buckets.push({ lower: c.lower[k]!, upper: c.upper[k]!, count: c.count[k]! });
      out.push({ at: c.at[i]!, from: null, buckets, min: null, max: null });
    }
    this.columns = null;
    freeColumns = c;
    return out;
  }
}

function nativePoint(pair: unknown, fractional: boolean): Snapshot | "fraction" | null {
  if (!Array.isArray(pair) || typeof pair[0] !== "number" || !isObj(pair[1])) return null;
  const h = pair[1];
  const buckets: FloatBucket[] = [];
  let fraction = false;
  for (const b of Array.isArray(h.buckets) ? h.buckets : []) {
    if (!Array.isArray(b) || b.length < 4) return null;
    const lower = Number(b[1]);
    const upper = Number(b[2]);
    const n = wholeCount(b[3], fractional);
    if (n === "fraction") fraction = true;
    else if (n === null || Number.isNaN(lower) || Number.isNaN(upper) || upper < lower) return null;
    else buckets.push({ lower, upper, count: n });
  }
  if (fraction) return "fraction";
  buckets.sort((a, b) => a.upper - b.upper || a.lower - b.lower);
  return { at: pair[0], from: null, buckets, min: null, max: null };
}
