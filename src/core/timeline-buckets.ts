// Timeline downsampling, pure: which intervals fall into which pixel column, and the honest
// per-column values. A column that holds several intervals shows the max of their maxes and the
// percentiles of their merged histogram (computed by the engine), never an average.

export interface IntervalColumns {
  /** Start (s since StartTime) of each interval, ascending or not. */
  offsets: ArrayLike<number>;
  lengths: ArrayLike<number>;
  /** Per-interval max in the recorded unit. */
  maxes: ArrayLike<number>;
  n: number;
}

export interface Bucket {
  /** Time span covered: first start to last end. */
  t0: number;
  t1: number;
  /** Indices of the intervals in the bucket. */
  first: number;
  count: number;
  /** Max of the intervals' maxes. */
  max: number;
}

/**
 * Groups intervals into at most `columns` buckets of equal time width over [t0, t1]. An
 * interval goes to the bucket that holds its start. Intervals are expected in time order (as
 * logs write them); an out-of-order one still lands in the right bucket via `order`.
 */
export function bucketIntervals(c: IntervalColumns, t0: number, t1: number, columns: number): { buckets: Bucket[]; order: Int32Array } {
  const order = new Int32Array(c.n);
  for (let i = 0; i < c.n; i++) order[i] = i;
  let sorted = true;
  for (let i = 1; i < c.n; i++) if (c.offsets[i]! < c.offsets[i - 1]!) sorted = false;
  if (!sorted) order.sort((a, b) => c.offsets[a]! - c.offsets[b]!);
  const width = (t1 - t0) / Math.max(1, columns);
  const buckets: Bucket[] = [];
  let cur: Bucket | null = null;
  let curCol = -1;
  for (let k = 0; k < c.n; k++) {
    const i = order[k]!;
    const o = c.offsets[i]!;
    if (o < t0 || o > t1) continue;
    const col = width > 0 ? Math.min(columns - 1, Math.floor((o - t0) / width)) : 0;
    if (!cur || col !== curCol) {
      cur = { t0: o, t1: o + c.lengths[i]!, first: k, count: 0, max: 0 };
      buckets.push(cur);
      curCol = col;
    }
    cur.count++;
    cur.t1 = Math.max(cur.t1, o + c.lengths[i]!);
    cur.max = Math.max(cur.max, c.maxes[i]!);
  }
  return { buckets, order };
}

/**
 * Moves the boundaries between buckets of intervals in index order to the nearest multiple of
 * `block` (the engine's pre-merged blocks, which lie on multiples of their size from the log's
 * first interval however it was read), so that each bucket is made of whole blocks and its
 * merged histogram needs no decoding, only at the two ends of the range. Meant for buckets that
 * hold at least `block` intervals each: a boundary then moves by at most half a bucket. Buckets
 * are rebuilt from the intervals (span, max); merged ones disappear. Intervals must be in time
 * order (order = identity).
 */
export function snapToBlocks(c: IntervalColumns, buckets: readonly Bucket[], block: number): Bucket[] {
  if (buckets.length < 2) return [...buckets];
  const last = buckets[buckets.length - 1]!;
  const start = buckets[0]!.first;
  const end = last.first + last.count; // exclusive
  const bounds = [start];
  for (let k = 1; k < buckets.length; k++) {
    const f = buckets[k]!.first;
    const b = Math.round(f / block) * block;
    if (b > bounds[bounds.length - 1]! && b < end) bounds.push(b);
  }
  bounds.push(end);
  const out: Bucket[] = [];
  for (let j = 0; j + 1 < bounds.length; j++) {
    const a = bounds[j]!;
    const z = bounds[j + 1]!;
    const bk: Bucket = { t0: c.offsets[a]!, t1: c.offsets[a]! + c.lengths[a]!, first: a, count: z - a, max: 0 };
    for (let i = a; i < z; i++) {
      bk.t1 = Math.max(bk.t1, c.offsets[i]! + c.lengths[i]!);
      bk.max = Math.max(bk.max, c.maxes[i]!);
    }
    out.push(bk);
  }
  return out;
}

/** Step-line points (time, value) for bucket values: flat over each bucket's span. */
export function stepSeries(buckets: readonly Bucket[], values: ArrayLike<number>): [number, number][] {
  const pts: [number, number][] = [];
  for (let b = 0; b < buckets.length; b++) {
    const v = values[b]!;
    pts.push([buckets[b]!.t0, v], [buckets[b]!.t1, v]);
  }
  return pts;
}

/** The interval whose span holds time t (for hover), or the nearest start. */
export function intervalAt(c: IntervalColumns, t: number): number {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < c.n; i++) {
    const o = c.offsets[i]!;
    if (t >= o && t < o + c.lengths[i]!) return i;
    const d = Math.abs(o - t);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}
