// Percentile-distribution text ("hgrm") exactly as HdrHistogram Java writes it:
// AbstractHistogram.outputPercentileDistribution(printStream, ticksPerHalf, ratio, useCsvFormat=false).
//
// hdr-histogram-js has its own outputPercentileDistribution, but it is not byte-for-byte Java:
// its footer "Max" is the library's raw `maxValue` field (which, after decoding or adding
// histograms with lowestDiscernibleValue > 1, is pushed past the real bucket by
// `value + unitMagnitudeMask`), where Java prints getMaxValue() = highestEquivalentValue(max).
// It also uses Math.log2 for the tick scale where Java uses Math.log(x) / Math.log(2) (no case
// found where that changes a row, but the port below follows Java).
// So this module walks the counts array itself with a literal port of Java's PercentileIterator
// and prints numbers the way java.util.Formatter does (%f rounds HALF_UP on the shortest
// decimal digits of the double, not on its exact binary value).
import { JsHistogram, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from "hdr-histogram-js";

/** The JsHistogram fields this module reads (they exist at runtime on every JS implementation). */
interface CountsView {
  readonly totalCount: number;
  readonly numberOfSignificantValueDigits: number;
  readonly countsArrayLength: number;
  readonly subBucketHalfCount: number;
  readonly unitMagnitude: number;
  readonly bucketCount: number;
  readonly subBucketCount: number;
  getCountAtIndex(index: number): number;
}

function countsView(h: Histogram): CountsView {
  if (h instanceof JsHistogram) return h as unknown as CountsView;
  // WASM histograms hide their counts: round-trip through the V2 encoding into a JS histogram.
  return decodeFromCompressedBase64(encodeIntoCompressedBase64(h), 64) as unknown as CountsView;
}

/** Lowest value of the equivalence range stored at a counts-array index (Java valueFromIndex). */
function lowestValueAtIndex(v: CountsView, index: number): number {
  let bucketIndex = Math.floor(index / v.subBucketHalfCount) - 1;
  let subBucketIndex = (index % v.subBucketHalfCount) + v.subBucketHalfCount;
  if (bucketIndex < 0) {
    subBucketIndex -= v.subBucketHalfCount;
    bucketIndex = 0;
  }
  return subBucketIndex * 2 ** (bucketIndex + v.unitMagnitude);
}

/** Size of the equivalence range at a counts-array index (Java sizeOfEquivalentValueRange). */
function rangeSizeAtIndex(v: CountsView, index: number): number {
  const bucketIndex = Math.max(Math.floor(index / v.subBucketHalfCount) - 1, 0);
  return 2 ** (bucketIndex + v.unitMagnitude);
}

const highestAtIndex = (v: CountsView, i: number) => lowestValueAtIndex(v, i) + rangeSizeAtIndex(v, i) - 1;
const medianAtIndex = (v: CountsView, i: number) => lowestValueAtIndex(v, i) + Math.floor(rangeSizeAtIndex(v, i) / 2);

/**
 * java.util.Formatter "%.{precision}f" (Locale.US, no grouping): Java takes the shortest decimal
 * digits that identify the double (FloatingDecimal) and rounds those HALF_UP, so 0.15 → "0.2"
 * and 1.005 → "1.01", where C's printf and Number.prototype.toFixed round the exact binary value.
 */
export function javaFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return "NaN";
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative ? "-" : "";
  const a = Math.abs(x);
  if (a === Infinity) return sign + "Infinity";
  // Shortest round-trip digits: a = 0.DIGITS × 10^exp10.
  const [mantissa, expPart] = a.toExponential().split("e");
  let digits = mantissa.replace(".", "");
  let exp10 = Number(expPart) + 1;
  if (/^0+$/.test(digits)) {
    digits = "";
    exp10 = 0;
  }
  // Round HALF_UP keeping `keep` significant digits (those left of the 10^-precision place).
  const keep = exp10 + precision;
  if (keep < 0) {
    digits = "";
  } else if (keep < digits.length) {
    const roundUp = digits.charCodeAt(keep) >= 53; /* '5' */
    digits = digits.slice(0, keep);
    if (roundUp) {
      // Add one at the last kept digit, carrying left.
      const d = digits.split("").map(Number);
      let i = d.length - 1;
      while (i >= 0 && d[i] === 9) d[i--] = 0;
      if (i >= 0) d[i] += 1;
      else {
        d.unshift(1);
        exp10 += 1;
      }
      digits = d.join("");
    }
  }
  // Lay the digits out as integer part and `precision` fraction digits.
  let intPart: string;
  let fracPart: string;
  if (exp10 <= 0) {
    intPart = "0";
    fracPart = "0".repeat(-exp10) + digits;
  } else {
    intPart = digits.slice(0, exp10).padEnd(exp10, "0");
    fracPart = digits.slice(exp10);
  }
  intPart = intPart.replace(/^0+(?=\d)/, "");
  if (intPart === "") intPart = "0";
  fracPart = fracPart.padEnd(precision, "0").slice(0, precision);
  return sign + intPart + (precision > 0 ? "." + fracPart : "");
}

/** Java "%{width}.{precision}f". */
function fixed(x: number, width: number, precision: number): string {
  return javaFixed(x, precision).padStart(width, " ");
}

/** Java "%{width}d" for a count (an integral double here). */
function integer(n: number, width: number): string {
  const s = Number.isSafeInteger(n) ? String(n) : BigInt(Math.round(n)).toString();
  return s.padStart(width, " ");
}

/** One step of Java's PercentileIterator as outputPercentileDistribution uses it. */
export interface PercentileStep {
  /** highestEquivalentValue of the bucket the step stopped at (histogram units). */
  valueIteratedTo: number;
  /** The percentile level iterated to, 0..100 (100 exactly on the final step). */
  percentileLevelIteratedTo: number;
  totalCountToThisValue: number;
}

/**
 * Literal port of HdrHistogram Java's PercentileIterator (2.1.x/2.2.x): the levels advance in
 * `ticksPerHalfDistance` equal steps per half-distance to 100%, and after the last recorded value
 * there is one extra step at exactly 100%.
 */
export function percentileSteps(h: Histogram, ticksPerHalfDistance = 5): PercentileStep[] {
  const v = countsView(h);
  const arrayTotalCount = v.totalCount;
  const steps: PercentileStep[] = [];
  let currentIndex = 0;
  let freshSubBucket = true;
  let totalCountToCurrentIndex = 0;
  let levelTo = 0;
  let reachedLastRecordedValue = false;

  const hasNext = (): boolean => {
    if (totalCountToCurrentIndex < arrayTotalCount) return true;
    if (!reachedLastRecordedValue && arrayTotalCount > 0) {
      levelTo = 100;
      reachedLastRecordedValue = true;
      return true;
    }
    return false;
  };

  const incrementIterationLevel = () => {
    const scale = Math.trunc(Math.log(100 / (100 - levelTo)) / Math.log(2));
    const reportingTicks = ticksPerHalfDistance * Math.trunc(2 ** (scale + 1));
    levelTo += 100 / reportingTicks;
  };

  outer: while (hasNext()) {
    while (currentIndex < v.countsArrayLength) {
      const countAtThisValue = v.getCountAtIndex(currentIndex);
      if (freshSubBucket) {
        totalCountToCurrentIndex += countAtThisValue;
        freshSubBucket = false;
      }
      if (countAtThisValue !== 0 && (100 * totalCountToCurrentIndex) / arrayTotalCount >= levelTo) {
        steps.push({
          valueIteratedTo: highestAtIndex(v, currentIndex),
          percentileLevelIteratedTo: levelTo,
          totalCountToThisValue: totalCountToCurrentIndex,
        });
        const before = levelTo;
        incrementIterationLevel();
        // Java would loop forever here once the level stops moving (only possible with
        // totals beyond ~1e14); stop stepping this bucket instead.
        if (levelTo === before && levelTo < 100) {
          currentIndex++;
          freshSubBucket = true;
        }
        continue outer;
      }
      currentIndex++;
      freshSubBucket = true;
    }
    break; // counts exhausted before totalCount was reached (inconsistent histogram): Java throws
  }
  return steps;
}

/**
 * Exactly HdrHistogram Java's
 * AbstractHistogram.outputPercentileDistribution(printStream, ticksPerHalfDistance,
 * outputValueUnitScalingRatio, useCsvFormat = false) text, "\n" line ends.
 */
export function formatPercentileDistribution(h: Histogram, outputValueUnitScalingRatio: number, ticksPerHalfDistance = 5): string {
  const v = countsView(h);
  const sig = v.numberOfSignificantValueDigits;
  const ratio = outputValueUnitScalingRatio;
  const out: string[] = [];
  // "%12s %14s %10s %14s\n\n"
  out.push(`${"Value".padStart(12)} ${"Percentile".padStart(14)} ${"TotalCount".padStart(10)} 1/(1-Percentile)\n\n`);

  for (const s of percentileSteps(h, ticksPerHalfDistance)) {
    const p = s.percentileLevelIteratedTo / 100;
    let line = `${fixed(s.valueIteratedTo / ratio, 12, sig)} ${fixed(p, 2, 12)} ${integer(s.totalCountToThisValue, 10)}`;
    if (s.percentileLevelIteratedTo !== 100) line += ` ${fixed(1 / (1 - p), 14, 2)}`;
    out.push(line + "\n");
  }

  // getMean / getStdDeviation: medianEquivalentValue of every non-empty bucket, in index order.
  const total = v.totalCount;
  let mean = 0;
  let std = 0;
  let maxIndex = -1;
  if (total !== 0) {
    let totalValue = 0;
    for (let i = 0; i < v.countsArrayLength; i++) {
      const c = v.getCountAtIndex(i);
      if (c !== 0) {
        totalValue += medianAtIndex(v, i) * c;
        maxIndex = i;
      }
    }
    mean = (totalValue * 1.0) / total;
    let deviationTotal = 0;
    for (let i = 0; i <= maxIndex; i++) {
      const c = v.getCountAtIndex(i);
      if (c !== 0) {
        const d = medianAtIndex(v, i) - mean;
        deviationTotal += d * d * c;
      }
    }
    std = Math.sqrt(deviationTotal / total);
  } else {
    for (let i = 0; i < v.countsArrayLength; i++) if (v.getCountAtIndex(i) !== 0) maxIndex = i;
  }
  // getMaxValue() = highestEquivalentValue(maxValue): the top of the highest non-empty bucket.
  // (A max in bucket 0 may be the value 0 itself, which Java reports as 0: the maxValue field tells.)
  const max = maxIndex < 0 || (maxIndex === 0 && h.maxValue === 0) ? 0 : highestAtIndex(v, maxIndex);

  out.push(`#[Mean    = ${fixed(mean / ratio, 12, sig)}, StdDeviation   = ${fixed(std / ratio, 12, sig)}]\n`);
  out.push(`#[Max     = ${fixed(max / ratio, 12, sig)}, Total count    = ${integer(total, 12)}]\n`);
  out.push(`#[Buckets = ${integer(v.bucketCount, 12)}, SubBuckets     = ${integer(v.subBucketCount, 12)}]\n`);
  return out.join("");
}
