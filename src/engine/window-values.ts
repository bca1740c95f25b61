// Time windows: every series cut into windows of one length, each window's count and its
// values at the asked percentiles, read off the merged counts of the intervals that start in
// it (never averaged). Percentiles are read at each log's own precision, as
// HistogramLogProcessor reads them.
import { lowestDiscernibleValueOf, newHistogram, sparseOf } from "../core/histogram";
import { countAtPercentile } from "../core/bucket-lookup";
import { BLOCK_SIZES, grownDense, type Sparse } from "../core/blocks";
import { highestAtIndex, layoutOf, percentileOfSparse, totalOf, type Layout } from "./sparse-percentile";
import type { IntervalTable, SeriesModel } from "../core/series";
import { cutWindows, windowOrigin } from "../core/windows";
import { addDecodedInto } from "../formats/hlog-encoding";
import { intervalsOf, type IntervalSource } from "./intervals";
import { originOf, zeroColumns } from "./answer-columns";
import { CHUNK_BITS, OFFSET_MASK, readVarint, type KeptCounts } from "./intervals/kept";
import type { WindowQuery, WindowSeries } from "./query-types";

/** Intervals in time order: the table's own order when it is sorted (always, with blocks). */
function timeOrder(t: IntervalTable): Int32Array | null {
  for (let i = 1; i < t.n; i++) {
    if (t.offsets[i]! < t.offsets[i - 1]!) {
      const order = new Int32Array(t.n);
      for (let k = 0; k < t.n; k++) order[k] = k;
      order.sort((a, b) => t.offsets[a]! - t.offsets[b]!);
      return order;
    }
  }
  return null;
}

/**
 * The merged counts of intervals [first, last] (positions in time order), in the series' own
 * layout: whole pre-merged blocks and the edges' counts when the series has blocks (kept
 * counts share the blocks' layout), else every interval added into a histogram of that layout.
 */
function sumOf(s: SeriesModel, src: IntervalSource, order: Int32Array | null, first: number, last: number): Sparse {
  if (src.hasBlocks && order === null) return src.sum(first, last);
  const h = newHistogram(s.histogram.numberOfSignificantValueDigits, lowestDiscernibleValueOf(s.histogram), s.histogram.highestTrackableValue);
  for (let j = first; j <= last; j++) {
    const d = src.decoded(order ? order[j]! : j);
    if (d) addDecodedInto(h, d);
  }
  const sp = sparseOf(h);
  return { indices: sp.indices, counts: sp.counts };
}

/**
 * One window's merged counts, dense over counts-array indices, with a bitmap of the indices
 * touched: percentiles are read walking the bitmap from the highest index down (a tail
 * percentile stops near the top), and the accumulator is cleared through the bitmap's words
 * between the lowest and highest index added, not by sweeping the whole array.
 */
class WindowAccumulator {
  private dense = new Float64Array(1 << 12);
  private bits = new Int32Array((1 << 12) >> 5);
  private lo = Infinity;
  private hi = -1;
  total = 0;

  private grow(top: number): void {
    [this.dense, this.bits] = grownDense(this.dense, this.bits, top);
  }

  private clear(): void {
    const { dense, bits } = this;
    if (this.hi >= 0) {
      for (let w = this.lo >> 5; w <= this.hi >> 5; w++) {
        let word = bits[w]!;
        if (word === 0) continue;
        while (word !== 0) {
          const b = 31 - Math.clz32(word);
          word &= ~(1 << b);
          dense[(w << 5) | b] = 0;
        }
        bits[w] = 0;
      }
    }
    this.lo = Infinity;
    this.hi = -1;
    this.total = 0;
  }

  /**
   * Adds intervals [first, last] (positions in time order). False, leaving nothing added,
   * when one of them is in another layout than the series' (the caller sums those the
   * general way, which converts them). Decoded rows are added whole. Kept rows are read from
   * their bytes, from the top down, only as deep as the percentiles `ps` need: the bucket
   * holding a percentile is the highest one with more than `over` values at or above it, and
   * an interval's buckets below the point where it alone has more than `over` values above
   * are below that bucket too (else the window would have more than `over` values above a
   * higher one). The total then comes from each interval's count.
   */
  sum(src: IntervalSource, order: Int32Array | null, first: number, last: number, layout: Layout, kept: KeptCounts | null, ps: readonly number[]): boolean {
    this.clear();
    const t = src.table;
    let need = Infinity;
    let windowTotal = 0;
    if (kept !== null) {
      if (kept.top >= this.dense.length) this.grow(kept.top);
      for (let j = first; j <= last; j++) windowTotal += t.counts[order ? order[j]! : j]!;
      need = 0;
      for (const p of ps) if (p < 100) need = Math.max(need, windowTotal - countAtPercentile(windowTotal, p));
    }
    for (let j = first; j <= last; j++) {
      const i = order ? order[j]! : j;
      if (kept !== null && kept.at[i]! >= 0) {
        this.addKeptTop(kept, i, need);
        continue;
      }
      const d = src.decoded(i);
      if (!d) continue;
      if (d.lowestDiscernibleValue !== layout.lowest || d.numberOfSignificantValueDigits !== layout.digits) {
        this.clear();
        return false;
      }
      const n = d.indices.length;
      if (n === 0) continue;
      const top = d.indices[n - 1]!;
      if (top >= this.dense.length) this.grow(top);
      const { dense, bits } = this;
      let total = this.total;
      for (let k = 0; k < n; k++) {
        const i = d.indices[k]!;
        const c = d.counts[k]!;
        dense[i]! += c;
        bits[i >> 5]! |= 1 << (i & 31);
        total += c;
      }
      this.total = total;
      if (d.indices[0]! < this.lo) this.lo = d.indices[0]!;
      if (top > this.hi) this.hi = top;
    }
    if (kept !== null) this.total = windowTotal;
    return true;
  }

  /**
   * Adds a kept row's counts from its highest index down until more than `need` values are
   * added (all of them when it holds no more). Its ZigZag LEB128 bytes (intervals/kept.ts) are
   * walked backwards: a value's last byte is the one without the continuation bit (the ninth
   * byte of a nine-byte value is 0 for every value the load kept), and the row's last index
   * with a count places the first count met.
   */
  private addKeptTop(kept: KeptCounts, i: number, need: number): void {
    let idx = kept.last[i]!;
    if (idx < 0) return;
    const pos = kept.at[i]!;
    const bytes = kept.chunks[pos >>> CHUNK_BITS]!;
    const start = pos & OFFSET_MASK;
    let p = start + kept.length[i]!;
    const { dense, bits } = this;
    const hi = idx;
    let lowest = idx;
    let seen = false;
    let above = 0;
    while (p > start) {
      let q = p - 1;
      while (q > start && bytes[q - 1]! >= 0x80) q--;
      const first = bytes[q]!;
      const raw = q === p - 1 ? first : readVarint(bytes, q);
      p = q;
      if ((first & 1) !== 0) {
        // −g: g empty buckets below the next count down.
        if (seen) idx -= (raw + 1) / 2;
        continue;
      }
      if (raw === 0) {
        if (seen) idx--;
        continue;
      }
      seen = true;
      const c = raw / 2;
      dense[idx]! += c;
      bits[idx >> 5]! |= 1 << (idx & 31);
      above += c;
      lowest = idx;
      if (above > need) break;
      idx--;
    }
    if (lowest < this.lo) this.lo = lowest;
    if (hi > this.hi) this.hi = hi;
  }

  /**
   * Writes the value at each percentile into out[p][k], as percentileOfSparse reads it: the
   * highest equivalent value of the bucket holding the value of rank countAtPercentile(total, p)
   * (from the bottom), found here counting from the top; 0 without values.
   */
  percentiles(ps: readonly number[], layout: Layout, out: Float64Array[], k: number): void {
    const total = this.total;
    // The bucket holding rank r from the bottom is the highest one with more than total − r
    // values at or above it (exact for any counts, whole or not).
    const over = ps.map((p) => (p >= 100 ? 0 : total - countAtPercentile(total, p)));
    const idx = ps.map(() => -1);
    let deepest = 0;
    for (const x of over) deepest = Math.max(deepest, x);
    let lowestSeen = -1;
    let above = 0;
    const { dense, bits } = this;
    if (total > 0 && this.hi >= 0) {
      walk: for (let w = this.hi >> 5; w >= 0; w--) {
        let word = bits[w]!;
        while (word !== 0) {
          const b = 31 - Math.clz32(word);
          word &= ~(1 << b);
          const i = (w << 5) | b;
          const c = dense[i]!;
          if (c === 0) continue;
          lowestSeen = i;
          above += c;
          for (let q = 0; q < over.length; q++) if (idx[q]! < 0 && above > over[q]!) idx[q] = i;
          if (above > deepest) break walk;
        }
      }
    }
    for (let q = 0; q < ps.length; q++) {
      // Every rank is reached by the bottom (countAtPercentile is at least 1); -1 only without values.
      const i = idx[q]! >= 0 ? idx[q]! : lowestSeen;
      out[q]![k] = total > 0 && i >= 0 ? highestAtIndex(layout, i) : 0;
    }
  }
}

const windowAcc = new WindowAccumulator();

/** Every series with intervals, cut into windows, with each window's count and values. */
export function windowQuery(series: readonly SeriesModel[], q: WindowQuery): WindowSeries[] {
  const out: WindowSeries[] = [];
  if (!(q.length > 0)) return out;
  for (const s of series) {
    const t = s.intervals;
    if (!t || t.n === 0) continue;
    const order = timeOrder(t);
    const starts = order ? Float64Array.from(order, (i) => t.offsets[i]!) : t.offsets;
    const origin = windowOrigin(q.length, s.startTime, q.wallClock);
    const spans = cutWindows(starts, t.n, q.length, origin);
    let runStart = Infinity;
    let runEnd = -Infinity;
    for (let i = 0; i < t.n; i++) {
      runStart = Math.min(runStart, t.offsets[i]!);
      runEnd = Math.max(runEnd, t.offsets[i]! + t.lengths[i]!);
    }
    const n = spans.length;
    const r: WindowSeries = { ...originOf(s), ...zeroColumns(n, ["start", "end", "count", "covered"]), values: {} };
    for (const p of q.percentiles) r.values[String(p)] = new Float64Array(n);
    const layout = layoutOf(s.histogram);
    // The intervals' counts kept from the load, when they are in the series' layout.
    const src = intervalsOf(s);
    const kept = src.kept();
    const columns = q.percentiles.map((p) => r.values[String(p)]!);
    const wide = BLOCK_SIZES[0] * 2;
    spans.forEach((w, k) => {
      r.start[k] = w.start;
      r.end[k] = w.end;
      r.covered[k] = Math.max(0, Math.min(w.end, runEnd) - Math.max(w.start, runStart));
      if (w.first > w.last) return;
      // Short windows (most of a day's 10 s windows hold no whole block): each interval read
      // once (from its kept counts, else decoded) and added into a dense accumulator, read from
      // the top down. Long ones, or intervals in another layout than the series': pre-merged
      // blocks and the edges' counts.
      const viaBlocks = src.hasBlocks && order === null && w.last - w.first + 1 >= wide;
      if (!viaBlocks && windowAcc.sum(src, order, w.first, w.last, layout, kept, q.percentiles)) {
        r.count[k] = windowAcc.total;
        windowAcc.percentiles(q.percentiles, layout, columns, k);
        return;
      }
      const sum = sumOf(s, src, order, w.first, w.last);
      const total = totalOf(sum);
      r.count[k] = total;
      for (const p of q.percentiles) r.values[String(p)]![k] = percentileOfSparse(sum, p, layout, total);
    });
    out.push(r);
  }
  return out;
}
