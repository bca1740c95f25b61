// Coordinated-omission back-fill (HdrHistogram's recordValueWithExpectedInterval) added in bulk.
import type { Histogram } from "../../core/histogram";

/** The library's JS histogram internals the back-fill uses (at runtime; not in its public typings). */
interface BucketMath {
  countsArrayIndex(v: number): number;
  valueFromIndex(index: number): number;
  /** What recordValueWithCount does, in parts: a count at an index, the total, min and max. */
  addToCountAtIndex?(index: number, count: number): void;
  addToTotalCount?(count: number): void;
  updateMinAndMax?(value: number): void;
}

/**
 * Coordinated-omission back-fill as HdrHistogram's recordValueWithExpectedInterval(v, e) does it
 * (v itself, then v - e, v - 2e, … down to the last value ≥ e), with the back-filled values of
 * many recorded values added together, bucket by bucket: the cost of a flush is the number of
 * buckets between e and the largest value (plus a log per value), not v/e per value (at e = 1 ns
 * a 100 ms value is 10^8 values, and even one call per bucket was thousands per value).
 *
 * The values v - je (j = 1 … q-1, where v = qe + r, 0 ≤ r < e) are r + je: per bucket [lo, hi]
 * their number is G(hi) - G(lo - 1) with G(x) = floor((x - r)/e) = floor(x/e) - [r > x mod e]
 * (for x ≥ r). Summed over the values that cover a bucket entirely that is
 * count·(floor(hi/e) - floor((lo-1)/e)) - #{r > hi mod e} + #{r > (lo-1) mod e}, counted with a
 * Fenwick tree over the residues; a value whose top (v - e) lies inside the bucket adds its own part.
 */
export class Backfill {
  private values = new Float64Array(64);
  private n = 0;

  constructor(readonly expected: number) {}

  get pending(): number {
    return this.n;
  }

  /** A value that was recorded (on its own) and still needs its back-fill; v ≥ 2e. */
  add(v: number): void {
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = v;
  }

  /** Adds the back-filled values of every pending value to `h` (which holds the values themselves) and empties. */
  flushInto(h: Histogram): void {
    const n = this.n;
    if (n === 0) return;
    const e = this.expected;
    const vals = this.values.slice(0, n).sort();
    this.n = 0;
    if (this.values.length > 4096) this.values = new Float64Array(64);
    // Residues, distinct and sorted: the Fenwick tree's positions.
    const residues = vals.map((v) => v % e).sort();
    let distinct = 0;
    for (let i = 0; i < n; i++) if (i === 0 || residues[i] !== residues[distinct - 1]) residues[distinct++] = residues[i]!;
    const uniq = residues.subarray(0, distinct);
    const tree = new Float64Array(distinct + 1);
    let active = 0;
    /** How many distinct residues are ≤ t: the tree prefix that counts active residues ≤ t. */
    const upper = (t: number): number => {
      let lo = 0;
      let hi = distinct;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (uniq[mid]! <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const greater = (t: number): number => {
      let c = 0;
      for (let k = upper(t); k > 0; k -= k & -k) c += tree[k]!;
      return active - c;
    };
    const insert = (r: number): void => {
      for (let k = upper(r); k <= distinct; k += k & -k) tree[k]!++;
      active++;
    };
    // The smallest back-filled value is e + the smallest residue: recorded as itself, so the
    // histogram's min is what the library's loop would leave; other buckets at their lowest value.
    const smallest = e + uniq[0]!;
    const math = h as unknown as BucketMath;
    // Counts go straight into the counts array (the bucket indices are known; all lie below the
    // recorded v, so no resize), the total once: recordValueWithCount per bucket recomputed each
    // index from its value (~5× slower). Its public path if the internals differ.
    const direct = typeof math.addToCountAtIndex === "function" && typeof math.addToTotalCount === "function" && typeof math.updateMinAndMax === "function";
    let added = 0;
    let p = n - 1;
    const lowestIndex = math.countsArrayIndex(e);
    const topIndex = math.countsArrayIndex(vals[n - 1]! - e);
    // Buckets from the one holding the largest top (v - e) down to the one holding e: bounded by
    // the histogram's bucket count. Buckets are contiguous (one's top is the next one's lowest - 1)
    // and of one width per run of subBucketHalfCount indices (HdrHistogram's layout), so the
    // library's valueFromIndex (a pow per call: most of the time spent) runs once per run.
    const half = 2 ** (Math.ceil(Math.log2(2 * 10 ** h.numberOfSignificantValueDigits)) - 1);
    let above = math.valueFromIndex(topIndex + 1);
    let width = 0;
    for (let index = topIndex; index >= lowestIndex; index--) {
      if (index === topIndex || (index + 1) % half === 0) width = above - math.valueFromIndex(index);
      const lo = above - width;
      const hi = above - 1;
      above = lo;
      const from = Math.max(lo, e); // back-filled values are ≥ e
      let count = 0;
      if (active > 0) {
        // quotients and remainders without `%`: on values above 2^31 it is a floating-point fmod
        // call, which took most of the time per bucket
        const qHi = Math.floor(hi / e);
        const qFrom = Math.floor((from - 1) / e);
        const rHi = hi - qHi * e;
        const rFrom = from - 1 - qFrom * e;
        count += active * (qHi - qFrom);
        // one residue (always at e = 1): the counts of larger residues without the tree
        if (distinct === 1) count += (uniq[0]! > rFrom ? active : 0) - (uniq[0]! > rHi ? active : 0);
        else count += greater(rFrom) - greater(rHi);
      }
      const firstHere = p;
      while (p >= 0 && vals[p]! - e >= from) {
        const v = vals[p]!;
        const r = v % e;
        count += (v - r) / e - 1 - Math.floor((from - 1 - r) / e);
        p--;
      }
      // Those values cover every bucket below this one entirely.
      for (let k = firstHere; k > p; k--) insert(vals[k]! % e);
      if (count <= 0) continue;
      const at = Math.max(lo, smallest);
      if (direct) {
        math.addToCountAtIndex!(index, count);
        // per bucket, as recordValueWithCount(at) would: values within the unit mask leave the
        // min alone, so the lowest bucket alone does not decide it
        math.updateMinAndMax!(at);
        added += count;
      } else h.recordValueWithCount(at, count);
    }
    if (added > 0) math.addToTotalCount!(added);
  }
}

/**
 * Records samples into one histogram per label (and per interval when samples have times).
 * Values must already be integers in the collector's unit and within maxLatencyIn(unit).
 */
