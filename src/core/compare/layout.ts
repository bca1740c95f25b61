// Bucket arithmetic of HdrHistogram's counts-array layout, without the library: what value a
// bucket reports and how wide it is. The comparison works on sparse counts by index, so it
// needs both for every bucket it reads.
import { pow2, subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../counts-layout";

/** A histogram's layout: significant digits and lowest discernible value (its index space). */
export interface BucketLayout {
  digits: number;
  lowest: number;
}

interface Params {
  unit: number;
  half: number;
}

function paramsOf(l: BucketLayout): Params {
  const unit = unitMagnitudeOf(l.lowest);
  const sub = subBucketCountMagnitude(l.digits);
  if (unit < 0 || sub < 0) throw new Error(`not a histogram layout: ${l.digits} digits, lowest discernible value ${l.lowest}`);
  return { unit, half: sub - 1 };
}

function floorLog2(v: number): number {
  let e = Math.floor(Math.log2(v));
  while (e > 0 && pow2(e) > v) e--;
  while (pow2(e + 1) <= v) e++;
  return e;
}

/** Counts-array index of a value (Java: countsArrayIndex). */
export function indexOfValue(v: number, p: Params): number {
  if (v < 1) return 0;
  const bucket = Math.max(0, floorLog2(v) - p.unit - p.half);
  const sub = Math.floor(v / pow2(bucket + p.unit));
  return bucket * pow2(p.half) + sub;
}

/** Lowest and highest value of bucket `index`. */
export function bucketBounds(index: number, l: BucketLayout): [number, number] {
  const p = paramsOf(l);
  return [valueAtIndex(index, p.unit, p.half), valueAtIndex(index + 1, p.unit, p.half) - 1];
}

/**
 * For one layout: the value each bucket reports and its relative width, memoised by index.
 * The reported value is the table's: the highest equivalent value, at the reference precision
 * (3 digits, lowest discernible value 1) when the layout is coarser (see atReferencePrecision:
 * a coarser bucket's lowest value lands in a 3-digit bucket, whose top is reported).
 */
export class BucketValues {
  private readonly own: Params;
  private readonly ref: Params | null;
  private reps = new Float64Array(0);
  private widths = new Float64Array(0);

  constructor(readonly layout: BucketLayout) {
    this.own = paramsOf(layout);
    const atRef = layout.digits >= 3 && layout.lowest === 1;
    this.ref = atRef ? null : paramsOf({ digits: Math.max(3, layout.digits), lowest: 1 });
  }

  private fill(index: number): void {
    if (index < this.reps.length) return;
    let size = Math.max(1024, this.reps.length);
    while (size <= index) size *= 2;
    const r = new Float64Array(size).fill(Number.NaN);
    r.set(this.reps);
    const w = new Float64Array(size).fill(Number.NaN);
    w.set(this.widths);
    this.reps = r;
    this.widths = w;
  }

  /** The value bucket `index` reports. */
  rep(index: number): number {
    this.fill(index);
    let v = this.reps[index]!;
    if (Number.isNaN(v)) {
      const low = valueAtIndex(index, this.own.unit, this.own.half);
      const high = valueAtIndex(index + 1, this.own.unit, this.own.half) - 1;
      if (this.ref === null) v = high;
      else {
        const k = indexOfValue(low, this.ref);
        v = valueAtIndex(k + 1, this.ref.unit, this.ref.half) - 1;
      }
      this.reps[index] = v;
      this.widths[index] = (high - low + 1) / Math.max(1, high);
    }
    return v;
  }

  /** Width of bucket `index` relative to its top: the histogram's resolution there. */
  relativeWidth(index: number): number {
    this.rep(index);
    return this.widths[index]!;
  }
}

/** value → counts-array index in a layout (for building sparse histograms from samples). */
export function valueIndexer(l: BucketLayout): (v: number) => number {
  const p = paramsOf(l);
  return (v) => indexOfValue(v, p);
}
