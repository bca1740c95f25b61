// Adding a decoded interval histogram into an hdr-histogram-js histogram.
import type { Histogram } from "hdr-histogram-js";
import type { SparseHistogram } from "./histogram";
import { pow2, subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "./counts-layout";

/**
 * Counts in HdrHistogram's layout for these parameters: a sparse histogram, or a decoded
 * payload (formats/hlog-encoding.ts DecodedHistogram, whose encoding version is not needed here).
 */
export type SparseCounts = SparseHistogram & { version?: number };

/** The parts of hdr-histogram-js's JsHistogram (3.x) that the fast path reads and writes. */
interface JsHistogramInternals {
  _counts?: unknown;
  countsArrayLength: number;
  unitMagnitude: number;
  subBucketHalfCountMagnitude: number;
  unitMagnitudeMask: number;
  lowestDiscernibleValueRounded: number;
  maxValue: number;
  minNonZeroValue: number;
  totalCount: number;
  setTotalCount(value: number): void;
  resize(newHighestTrackableValue: number): void;
}

/**
 * Adds a decoded histogram into a hdr-histogram-js histogram (use a 64-bit one:
 * build({bitBucketSize: 64, ...})). When the target is a JS histogram with float64 counts and
 * the same layout (unit magnitude and sub-bucket count), counts are added by index and
 * totalCount, maxValue and minNonZeroValue are updated as the library's own decode would set
 * them; otherwise each count is recorded at valueFromIndex. The target grows as needed even
 * when its autoResize is off. Never throws for valid input.
 */
export function addDecodedInto(target: Histogram, decoded: SparseCounts): void {
  const { indices, counts } = decoded;
  const n = Math.min(indices.length, counts.length);
  if (n === 0) return;
  const unit = unitMagnitudeOf(decoded.lowestDiscernibleValue);
  const half = subBucketCountMagnitude(decoded.numberOfSignificantValueDigits) - 1;
  if (unit < 0 || half < 0) return;
  const t = target as unknown as JsHistogramInternals;
  if (
    t._counts instanceof Float64Array &&
    t.unitMagnitude === unit &&
    t.subBucketHalfCountMagnitude === half &&
    typeof t.resize === "function" &&
    typeof t.setTotalCount === "function"
  ) {
    const maxIndex = indices[n - 1]!;
    // Highest value equivalent to the top index: the next index's value, minus one.
    const top = valueAtIndex(maxIndex + 1, unit, half) - 1;
    if (maxIndex >= t.countsArrayLength) t.resize(top);
    const arr = t._counts;
    if (arr instanceof Float64Array && maxIndex < arr.length) {
      let sum = 0;
      for (let k = 0; k < n; k++) {
        arr[indices[k]!]! += counts[k]!;
        sum += counts[k]!;
      }
      t.setTotalCount(t.totalCount + sum);
      // Same values the library's establishInternalTackingValues gives (its maxValue includes
      // unitMagnitudeMask on top of the highest equivalent value).
      const maxCandidate = top + t.unitMagnitudeMask;
      if (maxCandidate > t.maxValue) t.maxValue = maxCandidate;
      const first = indices[0] !== 0 ? indices[0]! : n > 1 ? indices[1]! : 0;
      if (first > 0) {
        const unitValue = t.lowestDiscernibleValueRounded || pow2(unit);
        const min = Math.floor(valueAtIndex(first, unit, half) / unitValue) * unitValue;
        if (min < t.minNonZeroValue) t.minNonZeroValue = min;
      }
      return;
    }
  }
  // Different layout (or not a JS histogram): record each count at its value, largest first
  // so that an auto-resizing target grows once.
  const previousAutoResize = target.autoResize;
  target.autoResize = true;
  try {
    target.recordValueWithCount(valueAtIndex(indices[n - 1]!, unit, half), counts[n - 1]!);
    for (let k = 0; k < n - 1; k++) target.recordValueWithCount(valueAtIndex(indices[k]!, unit, half), counts[k]!);
  } finally {
    target.autoResize = previousAutoResize;
  }
}

/**
 * Grows `target` as addDecodedInto would for `decoded`, adding nothing: for a reader that adds
 * the counts later, in one sum, but must know now how much memory the histogram takes.
 */
export function growToCover(target: Histogram, decoded: SparseCounts): void {
  const n = decoded.indices.length;
  if (n === 0) return;
  const unit = unitMagnitudeOf(decoded.lowestDiscernibleValue);
  const half = subBucketCountMagnitude(decoded.numberOfSignificantValueDigits) - 1;
  if (unit < 0 || half < 0) return;
  const t = target as unknown as JsHistogramInternals;
  const maxIndex = decoded.indices[n - 1]!;
  if (maxIndex >= t.countsArrayLength && typeof t.resize === "function") t.resize(valueAtIndex(maxIndex + 1, unit, half) - 1);
}
