// Pre-merged blocks of intervals, so that the spectrum of any time window merges a few
// blocks and decodes only the ragged edges instead of every interval in it. Blocks are sparse
// (only non-zero buckets), in the counts-array layout all of a series' intervals share.

export interface Sparse {
  indices: Int32Array;
  counts: Float64Array;
}

/** One level's blocks, as another worker receives them: block k is entries [starts[k], ends[k]) of chunk chunkOf[k]. */
export interface PackedLevel {
  chunks: Sparse[];
  chunkOf: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
}

/** IntervalBlocks.toParts(): what another worker needs to query a part's blocks. */
export interface BlockParts {
  levels: PackedLevel[];
  n: number;
}

/** Intervals per block at each level: 64, then 64 × 32 = 2048. */
export const BLOCK_SIZES = [64, 2048] as const;

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

/** The first chunk of a level holds this many entries; each next one twice the last, up to CHUNK_MAX. */
const CHUNK_FIRST = 4096;
const CHUNK_MAX = 1 << 18;

/**
 * Chunks of the largest size written once ahead (zeros), while a page's worker is idle before
 * its first file (engine/warm-up.ts). Memory a process writes for the first time costs a page
 * fault and zeroing on that write, and a big log's blocks write tens of MB of it while both
 * cores read (a 40 % piece of a 24-hour log read 30–50 ms faster with them, measured in
 * Chromium). A level takes them before making new ones; the worker drops what a load left.
 */
const readyChunks: Sparse[] = [];

/** Writes one more chunk ahead (a few ms: the warm-up does it between looks at its event loop). */
export function prepareBlockChunk(): void {
  readyChunks.push({ indices: new Int32Array(CHUNK_MAX).fill(0), counts: new Float64Array(CHUNK_MAX).fill(0) });
}

/** Lets the chunks written ahead go (after a load: a small log needs none of them). */
export function dropBlockChunks(): void {
  readyChunks.length = 0;
}

/** How many chunks are written ahead and not yet taken. */
export function readyBlockChunks(): number {
  return readyChunks.length;
}

/**
 * One level's finished blocks, written straight into chunks as they are taken: block k is
 * entries [starts[k], ends[k]) of chunk chunkOf[k]. A block used to be two arrays of its own
 * (sliced out of the scratch), and the level was copied into one packed array again to go to
 * another worker (on the load's critical path for a helper's half of a 24-hour log,
 * profiled); chunks go as they are. Chunks, not one growing array: growing one meant copying
 * it over and over (slower than the slices, measured). Chunk sizes double from small, so a
 * short log's level stays small.
 */
class Level {
  readonly chunks: Sparse[];
  /** Entries used in each chunk. */
  readonly used: number[];
  chunkOf: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  blocks: number;

  constructor(p?: PackedLevel) {
    this.chunks = p ? [...p.chunks] : [];
    this.used = this.chunks.map((c) => c.indices.length);
    this.chunkOf = p?.chunkOf ?? new Int32Array(64);
    this.starts = p?.starts ?? new Int32Array(64);
    this.ends = p?.ends ?? new Int32Array(64);
    this.blocks = p ? p.ends.length : 0;
  }

  /** Moves what `from` holds into this level as its next block; returns the block's number. */
  take(from: Accumulator): number {
    const room = from.span; // at least the entries the block will have
    let c = this.chunks.length - 1;
    if (c < 0 || this.used[c]! + room > this.chunks[c]!.indices.length) {
      const size = Math.max(c < 0 ? CHUNK_FIRST : Math.min(this.chunks[c]!.indices.length * 2, CHUNK_MAX), room);
      const ready = size === CHUNK_MAX ? readyChunks.pop() : undefined;
      this.chunks.push(ready ?? { indices: new Int32Array(size), counts: new Float64Array(size) });
      this.used.push(0);
      c++;
    }
    const b = this.blocks;
    if (b === this.ends.length) {
      const grow = (a: Int32Array) => {
        const g = new Int32Array(a.length * 2);
        g.set(a);
        return g;
      };
      this.chunkOf = grow(this.chunkOf);
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    const chunk = this.chunks[c]!;
    const start = this.used[c]!;
    const end = start + from.takeInto(chunk.indices, chunk.counts, start);
    this.used[c] = end;
    this.chunkOf[b] = c;
    this.starts[b] = start;
    this.ends[b] = end;
    this.blocks++;
    return b;
  }

  /** Block `b`'s entries, as views of its chunk. */
  view(b: number): Sparse {
    const chunk = this.chunks[this.chunkOf[b]!]!;
    return { indices: chunk.indices.subarray(this.starts[b]!, this.ends[b]!), counts: chunk.counts.subarray(this.starts[b]!, this.ends[b]!) };
  }

  /** Adds block `b` into `acc`. */
  addTo(acc: Accumulator, b: number): void {
    const chunk = this.chunks[this.chunkOf[b]!]!;
    acc.addSlice(chunk.indices, chunk.counts, this.starts[b]!, this.ends[b]!);
  }

  packed(): PackedLevel {
    return {
      chunks: this.chunks.map((c, k) => ({ indices: c.indices.subarray(0, this.used[k]), counts: c.counts.subarray(0, this.used[k]) })),
      chunkOf: this.chunkOf.subarray(0, this.blocks),
      starts: this.starts.subarray(0, this.blocks),
      ends: this.ends.subarray(0, this.blocks),
    };
  }
}

const rangeScratch = new Scratch();
const joinedScratch = new Scratch();

/** What the store asks of pre-merged blocks: the sum of a range of intervals. */
export interface RangeSums {
  readonly intervalCount: number;
  /** `transient`: the sum's arrays are valid only until the next sum (see Scratch.take). */
  sumRange(i0: number, i1: number, decodeAt: (i: number) => Sparse | null, transient?: boolean): { sum: Sparse; decoded: number; blocks: number };
  /**
   * The stored first-level block of intervals [start, start + BLOCK_SIZES[0]) as it is kept
   * (views, valid while the blocks are), or null when no stored block is exactly that range.
   */
  storedBlock(start: number): Sparse | null;
}

export class IntervalBlocks implements RangeSums {
  /** levels[l]'s block b = merged counts of intervals [b·size, (b+1)·size). */
  private readonly levels: Level[] = BLOCK_SIZES.map(() => new Level());
  private scratch: Accumulator[];
  private n = 0;

  /**
   * `accumulators`: where intervals are added up while they are added (default: Scratch).
   * `totalOnly`: no block is kept, the intervals are only added up for total() (a reader that
   * will be asked for no time window and no comparison); such blocks answer no query.
   */
  constructor(
    accumulators?: AccumulatorsFactory,
    readonly totalOnly = false,
  ) {
    this.scratch = accumulators ? accumulators() : BLOCK_SIZES.map(() => new Scratch());
  }

  /**
   * Adds the next interval (in table order). Its arrays may be the kernel's last decode, which
   * a kernel accumulator adds where they are: nothing may decode between that and this.
   */
  add(s: Sparse): void {
    const first = this.scratch[0]!;
    first.addSlice(s.indices, s.counts, 0, s.indices.length);
    this.counted();
  }

  /**
   * Where the next intervals may be added by the kernel itself (engine/hlog-ingest.ts
   * kernelLines): the first level's slot, the index bound it has room for, and how many
   * intervals until a block ends (then addedInKernel must come, with at most that many). Null
   * when the first level is not a kernel slot.
   */
  kernelTarget(): { slot: number; capacity: number; room: number } | null {
    const at = this.scratch[0]!.kernelSlot?.() ?? null;
    if (at === null) return null;
    return { slot: at.slot, capacity: at.capacity, room: this.totalOnly ? Infinity : BLOCK_SIZES[0] - (this.n % BLOCK_SIZES[0]) };
  }

  /** `k` intervals (at most kernelTarget's room) were added into the first level's slot by the kernel: as k add()s. */
  addedInKernel(k: number): void {
    for (let i = 0; i < k; i++) this.counted();
  }

  /** One more interval is in the first level: a level's block ends every BLOCK_SIZES[l] intervals. */
  private counted(): void {
    this.n++;
    if (this.totalOnly) return;
    for (let l = 0; l < BLOCK_SIZES.length; l++) {
      if (this.n % BLOCK_SIZES[l]! !== 0) break;
      const level = this.levels[l]!;
      const from = this.scratch[l]!;
      const feeds = from.feedsNext;
      const b = level.take(from);
      if (l + 1 < BLOCK_SIZES.length && !feeds) level.addTo(this.scratch[l + 1]!, b);
    }
  }

  get intervalCount(): number {
    return this.n;
  }

  storedBlock(start: number): Sparse | null {
    const size = BLOCK_SIZES[0];
    const b = start / size;
    const level = this.levels[0]!;
    return Number.isInteger(b) && b >= 0 && b < level.blocks ? level.view(b) : null;
  }

  /**
   * The sum of every interval added so far: the top level's blocks and what each level holds
   * towards its next block. Call before seal().
   */
  total(): Sparse {
    const acc = new Scratch();
    const top = this.levels[BLOCK_SIZES.length - 1]!;
    for (let b = 0; b < top.blocks; b++) top.addTo(acc, b);
    for (const s of this.scratch) s.addTo(acc);
    return acc.take();
  }

  /**
   * Lets the accumulation arrays go once no interval will be added (they are as wide as the
   * highest index seen: megabytes for a wide histogram, per tag).
   */
  seal(): void {
    for (const s of this.scratch) s.release();
    this.scratch = BLOCK_SIZES.map(() => new Scratch());
  }

  /**
   * The finished blocks, for sending to another worker (the unfinished tails are not needed):
   * each level's packed arrays as they are (views; transferring them moves their buffers).
   */
  toParts(): BlockParts {
    return { levels: this.totalOnly ? [] : this.levels.map((l) => l.packed()), n: this.n };
  }

  /** Blocks rebuilt from toParts(): queries work; add() must not be called on them. */
  static fromParts(p: BlockParts): IntervalBlocks {
    const b = new IntervalBlocks();
    for (let l = 0; l < BLOCK_SIZES.length; l++) {
      const packed = p.levels[l];
      if (packed) b.levels[l] = new Level(packed);
    }
    b.n = p.n;
    return b;
  }

  /**
   * Sum of intervals [i0, i1] (inclusive): whole blocks from the largest level down, single
   * intervals at the edges (decoded on demand by `decodeAt`).
   */
  sumRange(i0: number, i1: number, decodeAt: (i: number) => Sparse | null, transient = false): { sum: Sparse; decoded: number; blocks: number } {
    // One accumulator for every query (take() leaves it empty): a fresh one per query grew a
    // dense array to the histogram's width each time (a timeline column is one query).
    const acc = rangeScratch;
    if (!acc.empty) acc.take(); // left over by a query that did not finish
    let decoded = 0;
    let blocks = 0;
    const cover = (lo: number, hi: number, level: number): void => {
      if (lo > hi) return;
      if (level < 0) {
        for (let i = lo; i <= hi; i++) {
          const s = decodeAt(i);
          if (s) acc.add(s);
          decoded++;
        }
        return;
      }
      const size = BLOCK_SIZES[level]!;
      const first = Math.ceil(lo / size);
      const last = Math.floor((hi + 1) / size) - 1; // last block that ends within hi
      const lv = this.levels[level]!;
      const available = lv.blocks;
      const end = Math.min(last, available - 1);
      if (first > end) {
        cover(lo, hi, level - 1);
        return;
      }
      cover(lo, first * size - 1, level - 1);
      for (let b = first; b <= end; b++) {
        lv.addTo(acc, b);
        blocks++;
      }
      cover((end + 1) * size, hi, level - 1);
    };
    cover(Math.max(0, i0), Math.min(i1, this.n - 1), BLOCK_SIZES.length - 1);
    return { sum: acc.take(transient), decoded, blocks };
  }
}

/**
 * Consecutive runs of intervals, each with its own blocks (a log read in parts by several
 * workers): a range sums each part's share, so blocks never straddle a part boundary and
 * only the intervals at the edges of each part are decoded.
 */
export class JoinedBlocks implements RangeSums {
  constructor(private readonly parts: readonly { blocks: RangeSums; from: number }[]) {}

  /** Where each part starts: a part's blocks are aligned to its own start, not to multiples of the block size. */
  get partStarts(): number[] {
    return this.parts.map((p) => p.from);
  }

  get intervalCount(): number {
    const last = this.parts[this.parts.length - 1];
    return last ? last.from + last.blocks.intervalCount : 0;
  }

  storedBlock(start: number): Sparse | null {
    for (const p of this.parts) {
      if (start >= p.from && start < p.from + p.blocks.intervalCount)
        return start + BLOCK_SIZES[0] <= p.from + p.blocks.intervalCount ? p.blocks.storedBlock(start - p.from) : null;
    }
    return null;
  }

  sumRange(i0: number, i1: number, decodeAt: (i: number) => Sparse | null, transient = false): { sum: Sparse; decoded: number; blocks: number } {
    // A range inside one part: that part's answer as it is (adding it into a second scratch and
    // copying it out again doubled the cost of the comparison's thousand-odd sub-block sums).
    const inside = this.parts.filter((p) => Math.max(i0, p.from) <= Math.min(i1, p.from + p.blocks.intervalCount - 1));
    if (inside.length === 1) {
      const p = inside[0]!;
      return p.blocks.sumRange(Math.max(i0, p.from) - p.from, Math.min(i1, p.from + p.blocks.intervalCount - 1) - p.from, (i) => decodeAt(i + p.from), transient);
    }
    const acc = joinedScratch; // not rangeScratch: the parts' sumRange uses that one meanwhile
    if (!acc.empty) acc.take();
    let decoded = 0;
    let blocks = 0;
    for (const p of this.parts) {
      const lo = Math.max(i0, p.from);
      const hi = Math.min(i1, p.from + p.blocks.intervalCount - 1);
      if (lo > hi) continue;
      // Added here at once: the part's sum need not outlive this step.
      const r = p.blocks.sumRange(lo - p.from, hi - p.from, (i) => decodeAt(i + p.from), true);
      acc.add(r.sum);
      decoded += r.decoded;
      blocks += r.blocks;
    }
    return { sum: acc.take(transient), decoded, blocks };
  }
}

/** Index range [first, last] of sorted `offsets` within [lo, hi]; first > last when empty. */
export function indexRange(offsets: ArrayLike<number>, n: number, lo: number, hi: number): [number, number] {
  let a = 0;
  let b = n;
  while (a < b) {
    const m = (a + b) >> 1;
    if (offsets[m]! < lo) a = m + 1;
    else b = m;
  }
  const first = a;
  a = first;
  b = n;
  while (a < b) {
    const m = (a + b) >> 1;
    if (offsets[m]! <= hi) a = m + 1;
    else b = m;
  }
  return [first, a - 1];
}
