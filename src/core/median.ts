// The median of many float64 values without sorting them: the detectors take medians over
// every interval of a log (86,400 of a 24-hour log, twice per detector), and sorting a copy
// each time was a visible share of the work after a big load, on the engine's and the command
// line's critical path. Selection finds the same value in linear time.

/**
 * The k-th smallest (0-based) of `a`, reordering `a` in place: afterwards every element before
 * index k is ≤ the result and every element after it is ≥ it. `a` must hold no NaN.
 */
function selectInPlace(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const j = partition(a, lo, hi);
    const i = partitionUpper;
    // [lo, j] ≤ pivot ≤ [i, hi]; whatever lies strictly between j and i equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** Where partition's upper part starts (its second result). */
let partitionUpper = 0;

/**
 * One Hoare partition of a[lo, hi] around the median of three: returns j, with partitionUpper
 * i, such that [lo, j] ≤ pivot ≤ [i, hi]. A function of its own: with its loops inside
 * selectInPlace, V8 compiled each inner loop on the stack and threw it away on leaving it,
 * dozens of times a load, on the cores the load needed.
 */
function partition(a: Float64Array, lo: number, hi: number): number {
  // Median of three as the pivot: sorted or reversed input stays linear.
  const mid = (lo + hi) >>> 1;
  const x = a[lo]!;
  const y = a[mid]!;
  const z = a[hi]!;
  const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
  let i = lo;
  let j = hi;
  while (i <= j) {
    while (a[i]! < pivot) i++;
    while (a[j]! > pivot) j--;
    if (i <= j) {
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
      i++;
      j--;
    }
  }
  partitionUpper = i;
  return j;
}

/**
 * The median of `xs`, as sorting it would give (the middle value, or the mean of the two
 * middle ones): NaN for none. `inPlace` lets it reorder `xs` instead of working on a copy.
 * Values holding NaN are sorted as Float64Array sorts them (NaN last).
 */
export function medianOf(xs: Float64Array, inPlace = false): number {
  const n = xs.length;
  if (n === 0) return Number.NaN;
  const a = inPlace ? xs : xs.slice();
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(a[i]!)) {
      a.sort();
      const m = n >> 1;
      return n % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
    }
  }
  const m = n >> 1;
  const upper = selectInPlace(a, m);
  if (n % 2) return upper;
  // Everything before index m is ≤ the m-th smallest: the (m-1)-th is their largest.
  let lower = a[0]!;
  for (let i = 1; i < m; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}
