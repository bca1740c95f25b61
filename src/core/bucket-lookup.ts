// Percentile lookups on a spectrum's buckets, for the UI thread. Deliberately free of
// hdr-histogram-js so the main bundle does not carry the library (the worker owns it).

export interface BucketView {
  values: ArrayLike<number>;
  cumulative: ArrayLike<number>;
  totalCount: number;
  max: number;
  /**
   * Values known exactly at some percentiles (key String(p)), read instead of the buckets: an
   * opened share link's series holds its author's values here, its buckets being rounded.
   */
  exact?: Readonly<Record<string, number>>;
}

/**
 * Value at any percentile from a spectrum's buckets, with HdrHistogram's rule (the smallest
 * bucket whose cumulative count reaches ceil(p·N), at least the first): lets the UI judge a
 * requirement at p99.99999 without asking the engine. 100 gives the max.
 */
/** Percentile must be above 0. */
export function valueAtFromBuckets(s: BucketView, percentile: number): number {
  const known = s.exact?.[String(percentile)];
  if (known !== undefined) return known;
  const n = s.totalCount;
  if (n <= 0 || s.values.length === 0) return 0;
  if (percentile >= 100) return s.max;
  const target = countAtPercentile(n, percentile);
  let lo = 0;
  let hi = s.values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.cumulative[mid]! >= target) hi = mid;
    else lo = mid + 1;
  }
  return s.values[lo]!;
}

/** The count a percentile asks for among n (HdrHistogram's rule: ceil(p·n), at least 1). */
export function countAtPercentile(n: number, percentile: number): number {
  const fp = (Math.max(0, percentile) / 100) * n;
  // Same guard as the library: fp math can land one ulp above an exact integer count.
  return Math.max(1, Math.ceil(fp - ulp(fp)));
}

function ulp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const e = Math.floor(Math.log2(Math.abs(x)));
  return 2 ** (e - 52);
}
