// The accumulator pre-merged blocks (blocks.ts) add intervals into: a dense scratch array and a
// bitmap of the indices touched, taken out sparse and sorted.

export interface Sparse {
  indices: Int32Array;
  counts: Float64Array;
}

/** A dense array and its bitmap of touched indices (one bit per index), doubled until index `top` fits, contents kept. */
export function grownDense(dense: Float64Array, bits: Int32Array, top: number): [Float64Array<ArrayBuffer>, Int32Array<ArrayBuffer>] {
  let size = dense.length;
  while (size <= top) size *= 2;
  const d = new Float64Array(size);
  d.set(dense);
  const b = new Int32Array(size >> 5);
  b.set(bits);
  return [d, b];
}

/**
 * Accumulates sparse counts into a dense scratch array, marking touched indices in a bitmap;
 * take() walks the bitmap's non-zero words (1/32 of the span) in index order, so it needs no
 * sort and no per-entry bookkeeping beyond one OR. (A scan of the whole span per block was 8 %
 * of a 24-hour load; a touched list with a sort, 10 %.)
 *
 * A dense slice (64 entries or more, at least one per DENSE_RATIO indices of its span, as in
 * logs of thousands of distinct values per interval) skips the OR: it marks its span's 64-index
 * groups instead, and take() scans those groups' counts for non-zero ones. The entries found
 * are the same either way (an index only touched by zero counts is skipped by both), and a
 * scan costs at most about DENSE_RATIO reads per entry of the slice that marked it, shared by every
 * slice over the same indices (64 intervals' worth per block).
 */
const DENSE_RATIO = 4;

/**
 * What IntervalBlocks adds intervals into at each level while they are added: a Scratch, or
 * an accumulator in the WebAssembly kernel's memory (engine/kernel-accumulators.ts).
 */
export interface Accumulator {
  /** An upper bound of the entries takeInto gives (the touched index range). */
  readonly span: number;
  /** Adds entries [from, to) of sparse arrays (ascending indices). */
  addSlice(indices: Int32Array, counts: Float64Array, from: number, to: number): void;
  /** Moves what it holds out, sparse and sorted, into the arrays from `at`; returns how many. */
  takeInto(indices: Int32Array, counts: Float64Array, at: number): number;
  /** Adds what it holds into `into`, keeping it. */
  addTo(into: Scratch): void;
  /** Whether takeInto also adds what it takes into the next level's accumulator. */
  readonly feedsNext: boolean;
  /** No interval will be added: let its memory go. */
  release(): void;
  /**
   * Where the kernel adds intervals straight into this accumulator (engine/kernel-accumulators.ts):
   * its slot and the highest index + 1 it holds; null when it cannot (no slot yet, or JavaScript's).
   */
  kernelSlot?(): { slot: number; capacity: number } | null;
}

/** One accumulator per level (BLOCK_SIZES), made when a series' blocks start. */
export type AccumulatorsFactory = () => Accumulator[];

export class Scratch implements Accumulator {
  readonly feedsNext = false;
  private dense = new Float64Array(1024);
  private bits = new Int32Array(1024 >> 5);
  /** Per 64 indices (two words of `bits`): 1 when a dense slice touched them without marking bits. */
  private groups = new Uint8Array(1024 >> 6);
  private lo = Infinity;
  private hi = -1;
  /** Output buffers reused by take(), which copies out exactly what it found. */
  private static outIdx = new Int32Array(1024);
  private static outCnt = new Float64Array(1024);

  add(s: Sparse): void {
    this.addSlice(s.indices, s.counts, 0, s.indices.length);
  }

  private grow(top: number): void {
    [this.dense, this.bits] = grownDense(this.dense, this.bits, top);
    const g = new Uint8Array(this.dense.length >> 6);
    g.set(this.groups);
    this.groups = g;
  }

  /** Adds entries [from, to) of sparse arrays (a block inside a level's packed arrays). */
  addSlice(indices: Int32Array, counts: Float64Array, from: number, to: number): void {
    if (to <= from) return;
    const first = indices[from]!;
    const top = indices[to - 1]!; // sparse indices are ascending
    if (top >= this.dense.length) this.grow(top);
    if (first < this.lo) this.lo = first;
    if (top > this.hi) this.hi = top;
    const dense = this.dense;
    if (to - from >= 64 && (to - from) * DENSE_RATIO > top - first) {
      this.groups.fill(1, first >> 6, (top >> 6) + 1);
      for (let k = from; k < to; k++) dense[indices[k]!]! += counts[k]!;
      return;
    }
    const bits = this.bits;
    for (let k = from; k < to; k++) {
      const i = indices[k]!;
      dense[i]! += counts[k]!;
      bits[i >> 5]! |= 1 << (i & 31);
    }
  }

  get empty(): boolean {
    return this.hi < 0;
  }

  release(): void {}

  /** Adds what this holds into `into`, leaving this as it is. */
  addTo(into: Scratch): void {
    if (this.hi < 0) return;
    const wEnd = this.hi >> 5;
    for (let w = this.lo >> 5; w <= wEnd; w++) {
      if (this.groups[w >> 1] === 1) {
        for (let i = w << 5, end = i + 32; i < end; i++) if (this.dense[i] !== 0) into.addOne(i, this.dense[i]!);
        continue;
      }
      let word = this.bits[w]!;
      while (word !== 0) {
        const low = word & -word;
        const i = (w << 5) | (31 - Math.clz32(low));
        word ^= low;
        into.addOne(i, this.dense[i]!);
      }
    }
  }

  private addOne(i: number, c: number): void {
    if (i >= this.dense.length) this.grow(i);
    if (i < this.lo) this.lo = i;
    if (i > this.hi) this.hi = i;
    this.dense[i]! += c;
    this.bits[i >> 5]! |= 1 << (i & 31);
  }

  /** Indices the accumulated counts span: an upper bound of the entries take() returns. */
  get span(): number {
    return this.hi < 0 ? 0 : this.hi - this.lo + 1;
  }

  /**
   * The accumulated counts, sparse and sorted, written into `indices` and `counts` from `at`
   * (room for `span` entries); returns how many. Resets the scratch.
   */
  takeInto(indices: Int32Array, counts: Float64Array, at: number): number {
    const dense = this.dense;
    const bits = this.bits;
    const groups = this.groups;
    let m = at;
    if (this.hi >= 0) {
      const wEnd = this.hi >> 5;
      for (let w = this.lo >> 5; w <= wEnd; w++) {
        if (groups[w >> 1] === 1) {
          // A dense slice's group: every index of the word, in order (its bits may be partly set).
          bits[w] = 0;
          for (let i = w << 5, end = i + 32; i < end; i++) {
            const c = dense[i]!;
            if (c === 0) continue;
            indices[m] = i;
            counts[m] = c;
            dense[i] = 0;
            m++;
          }
          continue;
        }
        let word = bits[w]!;
        if (word === 0) continue;
        bits[w] = 0;
        while (word !== 0) {
          const low = word & -word;
          const i = (w << 5) | (31 - Math.clz32(low));
          word ^= low;
          const c = dense[i]!;
          if (c === 0) continue; // only a zero count was added there: nothing to report
          indices[m] = i;
          counts[m] = c;
          dense[i] = 0;
          m++;
        }
      }
      groups.fill(0, this.lo >> 6, (this.hi >> 6) + 1);
    }
    this.lo = Infinity;
    this.hi = -1;
    return m - at;
  }

  /**
   * The accumulated counts as sparse, sorted; resets the scratch. `transient`: views of buffers
   * every take() reuses, valid until the next one (nothing allocated for a sum that is only read).
   */
  take(transient = false): Sparse {
    const room = this.span;
    if (Scratch.outIdx.length < room) {
      Scratch.outIdx = new Int32Array(room);
      Scratch.outCnt = new Float64Array(room);
    }
    const m = this.takeInto(Scratch.outIdx, Scratch.outCnt, 0);
    if (transient) return { indices: Scratch.outIdx.subarray(0, m), counts: Scratch.outCnt.subarray(0, m) };
    return { indices: Scratch.outIdx.slice(0, m), counts: Scratch.outCnt.slice(0, m) };
  }
}
