// Pre-merged blocks of intervals, so that the spectrum of any time window merges a few
// blocks and decodes only the ragged edges instead of every interval in it. Blocks are sparse
// (only non-zero buckets), in the counts-array layout all of a series' intervals share.

import { Scratch, type Accumulator, type AccumulatorsFactory, type Sparse } from "./scratch";

export { grownDense, Scratch, type Accumulator, type AccumulatorsFactory, type Sparse } from "./scratch";

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
  /** The index the part's first interval has in the whole log (its blocks' grid; see IntervalBlocks). */
  origin: number;
}

/** Intervals per block at each level: 64, then 64 × 32 = 2048. */
export const BLOCK_SIZES = [64, 2048] as const;

/** The first chunk of a level holds this many entries; each next one twice the last, up to CHUNK_MAX. */
const CHUNK_FIRST = 4096;
const CHUNK_MAX = 1 << 18;

/**
 * Chunks of the largest size written once ahead (zeros), while a page's worker is idle before
 * its first file (engine/warm-up.ts). Memory a process writes for the first time costs a page
 * fault and zeroing on that write, and a big log's blocks write tens of MB of it while both
 * cores read. A level takes them before making new ones; the worker drops what a load left.
 */
export class BlockChunkPool {
  private readonly chunks: Sparse[] = [];

  /** Writes one more chunk ahead (a few ms: the warm-up does it between looks at its event loop). */
  prepare(): void {
    this.chunks.push({ indices: new Int32Array(CHUNK_MAX).fill(0), counts: new Float64Array(CHUNK_MAX).fill(0) });
  }

  /** Lets the chunks written ahead go (after a load: a small log needs none of them). */
  drop(): void {
    this.chunks.length = 0;
  }

  /** How many chunks are written ahead and not yet taken. */
  get ready(): number {
    return this.chunks.length;
  }

  /** A chunk written ahead, if any is left (each of CHUNK_MAX entries). */
  take(): Sparse | undefined {
    return this.chunks.pop();
  }
}

/**
 * What the blocks of one thread share: the chunks written ahead, and the accumulators a range
 * is summed in (one for every query: a fresh one per query grew a dense array to the
 * histogram's width each time, and a timeline column is one query). Made once per thread by
 * the engine and handed to every reader's blocks.
 */
export class BlockWorkspace {
  readonly chunks = new BlockChunkPool();
  /** Where a part's (or a whole log's) range is summed. */
  readonly range = new Scratch();
  /** Where JoinedBlocks adds its parts' sums (they use `range` meanwhile). */
  readonly joined = new Scratch();
  /** Where IntervalBlocks.total() adds up (a run followed live asks it at every append). */
  readonly total = new Scratch();
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
  take(from: Accumulator, pool: BlockChunkPool): number {
    const room = from.span; // at least the entries the block will have
    let c = this.chunks.length - 1;
    if (c < 0 || this.used[c]! + room > this.chunks[c]!.indices.length) {
      const size = Math.max(c < 0 ? CHUNK_FIRST : Math.min(this.chunks[c]!.indices.length * 2, CHUNK_MAX), room);
      const ready = size === CHUNK_MAX ? pool.take() : undefined;
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

/** Where a part of a log lies in the whole, and what its blocks share with the thread's others. */
export interface BlocksPlace {
  /**
   * The index the first interval has in the whole log: blocks end on multiples of their size
   * counted from the log's first interval, whichever part they are read in, so that a part
   * read elsewhere lays its blocks where a read in one piece lays them.
   */
  origin?: number;
  /** The thread's chunks written ahead and range accumulators (default: a workspace of its own). */
  workspace?: BlockWorkspace;
}

// Module-level functions and a method here, not closures made per call: V8 drops the optimised
// code of short-lived closures at every major collection.
const newLevel = (): Level => new Level();
const newScratch = (): Scratch => new Scratch();

/** What one range sum decoded and added (sumRange's counts). */
interface Covered {
  acc: Scratch;
  decodeAt: (i: number) => Sparse | null;
  decoded: number;
  blocks: number;
}

export class IntervalBlocks implements RangeSums {
  /**
   * levels[l]'s stored block s = merged counts of the log's intervals [(base + s)·size,
   * (base + s + 1)·size), base = floor(origin / size); the first one starts at the origin
   * instead when the origin is not on the grid (a partial block, summed for total() only).
   */
  private readonly levels: Level[] = BLOCK_SIZES.map(newLevel);
  private scratch: Accumulator[];
  private n = 0;
  readonly origin: number;
  private readonly workspace: BlockWorkspace;

  /**
   * `accumulators`: where intervals are added up while they are added (default: Scratch).
   * `totalOnly`: no block is kept, the intervals are only added up for total() (a reader that
   * will be asked for no time window and no comparison); such blocks answer no query.
   * Indices given to and by the methods count from the first interval added here.
   */
  constructor(
    accumulators?: AccumulatorsFactory,
    readonly totalOnly = false,
    place: BlocksPlace = {},
  ) {
    this.scratch = accumulators ? accumulators() : BLOCK_SIZES.map(newScratch);
    this.origin = Math.max(0, Math.floor(place.origin ?? 0));
    this.workspace = place.workspace ?? new BlockWorkspace();
  }

  /** The first stored block of level l that is whole, and the grid index of stored block 0. */
  private grid(l: number): { whole: number; base: number } {
    const size = BLOCK_SIZES[l]!;
    return { whole: this.origin % size === 0 ? 0 : 1, base: Math.floor(this.origin / size) };
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
    return { slot: at.slot, capacity: at.capacity, room: this.totalOnly ? Infinity : BLOCK_SIZES[0] - ((this.origin + this.n) % BLOCK_SIZES[0]) };
  }

  /** `k` intervals (at most kernelTarget's room) were added into the first level's slot by the kernel: as k add()s. */
  addedInKernel(k: number): void {
    for (let i = 0; i < k; i++) this.counted();
  }

  /** One more interval is in the first level: a level's block ends on every multiple of BLOCK_SIZES[l] in the log. */
  private counted(): void {
    this.n++;
    if (this.totalOnly) return;
    const at = this.origin + this.n;
    for (let l = 0; l < BLOCK_SIZES.length; l++) {
      if (at % BLOCK_SIZES[l]! !== 0) break;
      const level = this.levels[l]!;
      const from = this.scratch[l]!;
      const feeds = from.feedsNext;
      const b = level.take(from, this.workspace.chunks);
      if (l + 1 < BLOCK_SIZES.length && !feeds) level.addTo(this.scratch[l + 1]!, b);
    }
  }

  get intervalCount(): number {
    return this.n;
  }

  storedBlock(start: number): Sparse | null {
    const { whole, base } = this.grid(0);
    const s = (this.origin + start) / BLOCK_SIZES[0] - base;
    const level = this.levels[0]!;
    return Number.isInteger(s) && s >= whole && s < level.blocks ? level.view(s) : null;
  }

  /**
   * The sum of every interval added so far: the top level's blocks and what each level holds
   * towards its next block. Call before seal().
   */
  total(): Sparse {
    // take() leaves the accumulator empty for the next total.
    const acc = this.workspace.total;
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
    this.scratch = BLOCK_SIZES.map(newScratch);
  }

  /**
   * The finished blocks, for sending to another worker (the unfinished tails are not needed):
   * each level's packed arrays as they are (views; transferring them moves their buffers).
   */
  toParts(): BlockParts {
    return { levels: this.totalOnly ? [] : this.levels.map((l) => l.packed()), n: this.n, origin: this.origin };
  }

  /** Blocks rebuilt from toParts(): queries work; add() must not be called on them. */
  static fromParts(p: BlockParts, workspace?: BlockWorkspace): IntervalBlocks {
    const b = new IntervalBlocks(undefined, false, { origin: p.origin, workspace });
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
    const acc = this.workspace.range;
    if (!acc.empty) acc.take(); // left over by a query that did not finish
    const c: Covered = { acc, decodeAt, decoded: 0, blocks: 0 };
    const origin = this.origin;
    this.cover(c, origin + Math.max(0, i0), origin + Math.min(i1, this.n - 1), BLOCK_SIZES.length - 1);
    return { sum: acc.take(transient), decoded: c.decoded, blocks: c.blocks };
  }

  /** sumRange's intervals [lo, hi] (counting from the log's first interval here, on the blocks' grid) added to c.acc. */
  private cover(c: Covered, lo: number, hi: number, level: number): void {
    if (lo > hi) return;
    if (level < 0) {
      for (let i = lo; i <= hi; i++) {
        const s = c.decodeAt(i - this.origin);
        if (s) c.acc.add(s);
        c.decoded++;
      }
      return;
    }
    const size = BLOCK_SIZES[level]!;
    const { whole, base } = this.grid(level);
    const lv = this.levels[level]!;
    // Grid blocks; stored block s is grid block base + s, whole from `whole` on.
    const first = Math.max(Math.ceil(lo / size), base + whole);
    const last = Math.floor((hi + 1) / size) - 1; // last block that ends within hi
    const end = Math.min(last, base + lv.blocks - 1);
    if (first > end) {
      this.cover(c, lo, hi, level - 1);
      return;
    }
    this.cover(c, lo, first * size - 1, level - 1);
    for (let b = first; b <= end; b++) {
      lv.addTo(c.acc, b - base);
      c.blocks++;
    }
    this.cover(c, (end + 1) * size, hi, level - 1);
  }
}

/**
 * Consecutive runs of intervals, each with its own blocks (a log read in parts by several
 * workers): a range sums each part's share. A part's blocks lie on the log's grid when it knew
 * where it starts (its origin), so only the intervals between a part's edge and the grid are
 * decoded; sums are exact whatever the parts, so answers never depend on them.
 */
export class JoinedBlocks implements RangeSums {
  private readonly workspace: BlockWorkspace;

  constructor(
    private readonly parts: readonly { blocks: RangeSums; from: number }[],
    workspace?: BlockWorkspace,
  ) {
    this.workspace = workspace ?? new BlockWorkspace();
  }

  /** Where each part starts (what the log was cut into; no answer depends on it). */
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
    const acc = this.workspace.joined; // not its range accumulator: the parts' sumRange uses that one meanwhile
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
