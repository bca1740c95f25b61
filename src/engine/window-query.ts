// A series' histogram over a time window: whole pre-merged blocks inside it, and only the
// intervals at its ragged edges decoded.
import { lowestDiscernibleValueOf, newHistogram, type Histogram } from "../core/histogram";
import { indexRange, type Sparse } from "../core/blocks";
import type { SeriesModel } from "../core/series";
import { addDecodedInto } from "../formats/hlog-encoding";
import { intervalsOf } from "./intervals";
import type { TimeRange } from "./protocol";
import { spectrumOf, spectrumOfDense, type Spectrum } from "../core/spectrum";

/** An empty histogram with the layout of `h`, so intervals add by index. */
export function sameShape(h: Histogram): Histogram {
  return newHistogram(h.numberOfSignificantValueDigits, lowestDiscernibleValueOf(h), h.highestTrackableValue);
}

/** Adds block sums (in the series' own layout) into a histogram of that layout. */
function addSparse(target: Histogram, s: SeriesModel, sum: Sparse): void {
  let total = 0;
  for (let k = 0; k < sum.counts.length; k++) total += sum.counts[k]!;
  addDecodedInto(target, {
    version: 2,
    numberOfSignificantValueDigits: s.histogram.numberOfSignificantValueDigits,
    lowestDiscernibleValue: lowestDiscernibleValueOf(s.histogram),
    highestTrackableValue: s.histogram.highestTrackableValue,
    indices: sum.indices,
    counts: sum.counts,
    totalCount: total,
  });
}

/**
 * The histogram of a series over a time range. An interval counts when its start, in seconds
 * since StartTime, lies within [start, end]: HistogramLogProcessor's rule for -start/-end.
 * Series without intervals, and an open range, give the whole series' histogram.
 */
export function windowHistogram(s: SeriesModel, range: TimeRange): Histogram {
  const t = s.intervals;
  if (!t || (range.start === null && range.end === null)) return s.histogram;
  const lo = range.start ?? -Infinity;
  const hi = range.end ?? Infinity;
  const out = sameShape(s.histogram);
  const src = intervalsOf(s);
  if (src.hasBlocks) {
    const [i0, i1] = indexRange(t.offsets, t.n, lo, hi);
    if (i0 <= i1) addSparse(out, s, src.sum(i0, i1, true));
    return out;
  }
  for (let i = 0; i < t.n; i++) {
    const o = t.offsets[i]!;
    if (o < lo || o > hi) continue;
    const d = src.decoded(i);
    if (d) addDecodedInto(out, d);
  }
  return out;
}

/**
 * spectrumOf(windowHistogram(s, range)) for a window of a series with blocks, made from the
 * window's counts as the interval source keeps them (moved, not summed again, when the window
 * moved a little: a run followed live), without a histogram made. Open ranges, and series
 * without blocks, are windowHistogram's.
 */
export function windowSpectrum(s: SeriesModel, range: TimeRange): Spectrum {
  const t = s.intervals;
  if (!t || (range.start === null && range.end === null)) return spectrumOf(windowHistogram(s, range));
  const src = intervalsOf(s);
  if (!src.hasBlocks) return spectrumOf(windowHistogram(s, range));
  const [i0, i1] = indexRange(t.offsets, t.n, range.start ?? -Infinity, range.end ?? Infinity);
  if (i0 > i1) return spectrumOf(sameShape(s.histogram));
  const w = src.windowCounts(i0, i1);
  const h = s.histogram;
  return spectrumOfDense(w.counts, w.total, lowestDiscernibleValueOf(h), h.numberOfSignificantValueDigits, w.lo, w.hi) ?? spectrumOf(windowHistogram(s, range));
}
