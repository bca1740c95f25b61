// HdrHistogram's counts-array layout, as in Java's AbstractHistogram (init, establishSize,
// getBucketsNeededToCoverValue, getLengthForNumberOfBuckets, valueFromIndex).
//
// subBucketCount is the smallest power of two >= 2 * 10^digits; bucket 0 uses all of its
// sub-buckets, every later bucket only the top half (the bottom half overlaps the previous
// bucket). Index i < subBucketHalfCount is value i << unitMagnitude; above that, index
// (b + 1) * halfCount + k is value (halfCount + k) << (b + unitMagnitude).

/** ceil(log2(2 * 10^digits)) for digits 0..5. */
const SUB_BUCKET_COUNT_MAGNITUDE = [1, 5, 8, 11, 15, 18] as const;

/** 2^k for k in 0..127, exact in float64. */
const POW2 = new Float64Array(128);
for (let k = 0; k < 128; k++) POW2[k] = 2 ** k;

export function pow2(k: number): number {
  return POW2[k]!;
}

/** ceil(log2(2 * 10^digits)), or -1 when digits is not an integer 0..5. */
export function subBucketCountMagnitude(digits: number): number {
  return Number.isInteger(digits) && digits >= 0 && digits <= 5 ? SUB_BUCKET_COUNT_MAGNITUDE[digits]! : -1;
}

let lastLowest = 1;
let lastUnitMagnitude = 0;

/** floor(log2(lowestDiscernibleValue)), exactly (Java: (int)(log(v)/log(2))). -1 when below 1. */
export function unitMagnitudeOf(lowest: number): number {
  if (lowest === lastLowest) return lastUnitMagnitude;
  if (!(lowest >= 1) || !Number.isFinite(lowest)) return -1;
  let m = Math.floor(Math.log2(lowest));
  while (m > 0 && POW2[m]! > lowest) m--;
  while (m < 127 && POW2[m + 1]! <= lowest) m++;
  lastLowest = lowest;
  lastUnitMagnitude = m;
  return m;
}

/**
 * Length of the counts array for these parameters (Java: determineArrayLengthNeeded).
 * Values are float64 copies of Java longs; the Long.MAX_VALUE / 2 overflow guard is kept.
 */
export function countsArrayLengthFor(unitMagnitude: number, subMagnitude: number, highestTrackableValue: number): number {
  let smallestUntrackable = POW2[subMagnitude + unitMagnitude]!;
  let buckets = 1;
  // At most 64 doublings before the guard fires; bounded either way.
  while (smallestUntrackable <= highestTrackableValue && buckets < 130) {
    if (smallestUntrackable >= POW2[62]!) {
      buckets++;
      break;
    }
    smallestUntrackable *= 2;
    buckets++;
  }
  return (buckets + 1) * POW2[subMagnitude - 1]!;
}

/** Lowest value at counts-array `index` (Java: valueFromIndex). */
export function valueAtIndex(index: number, unitMagnitude: number, halfMagnitude: number): number {
  // index < 2^31 and halfMagnitude <= 17, so int32 arithmetic is exact.
  const halfCount = 1 << halfMagnitude;
  let bucket = (index >> halfMagnitude) - 1;
  let sub = (index & (halfCount - 1)) + halfCount;
  if (bucket < 0) {
    sub -= halfCount;
    bucket = 0;
  }
  const k = bucket + unitMagnitude;
  return sub * (k < 128 ? POW2[k]! : 2 ** k);
}

/**
 * Counts-array index of an integer value >= 0 (Java: countsArrayIndex): where
 * recordValue(value) counts it.
 */
export function indexAtValue(value: number, unitMagnitude: number, halfMagnitude: number): number {
  let top = value >= 1 ? Math.floor(Math.log2(value)) : 0;
  if (value >= 1) {
    while (top > 0 && POW2[top]! > value) top--;
    while (top < 126 && POW2[top + 1]! <= value) top++;
  }
  const bucket = Math.max(0, top - unitMagnitude - halfMagnitude);
  const sub = Math.floor(value / POW2[bucket + unitMagnitude]!);
  return (bucket + 1) * POW2[halfMagnitude]! + sub - POW2[halfMagnitude]!;
}
