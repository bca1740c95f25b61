// Pre-merged blocks of a table that grows after its load. The loaded blocks are kept as they
// are; the rows after their last whole first-level block (the unfinished block the load's
// accumulator held, then every appended row) go into blocks of their own, which start there.
// So the blocks lie on the grid a load of the whole log lays them on (every BLOCK_SIZES[l]
// intervals from the log's first interval), and every range sums to the same counts: answers
// that snap to stored blocks (timeline columns, the heatmap, the comparison's sub-blocks) do
// not depend on when the rows came.
import { BLOCK_SIZES, IntervalBlocks, Scratch, type RangeSums, type Sparse } from "../../core/blocks";

export class GrownBlocks implements RangeSums {
  /** Rows [0, from) are summed by the loaded blocks, rows from `from` on by `tail`. */
  private readonly from: number;
  private readonly tail: IntervalBlocks;
  private readonly acc = new Scratch();

  /**
   * `base`: the loaded blocks of a table's first `n` rows; `countsAt`: a row's counts (the rows
   * of the base's unfinished block are read again through it).
   */
  constructor(
    private readonly base: RangeSums,
    n: number,
    countsAt: (i: number) => Sparse | null,
  ) {
    const size = BLOCK_SIZES[0];
    this.from = Math.floor(n / size) * size;
    this.tail = new IntervalBlocks(undefined, false, { origin: this.from });
    for (let i = this.from; i < n; i++) this.add(countsAt(i));
  }

  /** Adds the next row's counts (null: a row that counts nothing). */
  add(s: Sparse | null): void {
    this.tail.add(s ?? { indices: new Int32Array(0), counts: new Float64Array(0) });
  }

  get intervalCount(): number {
    return this.from + this.tail.intervalCount;
  }

  storedBlock(start: number): Sparse | null {
    if (start >= this.from) return this.tail.storedBlock(start - this.from);
    return start + BLOCK_SIZES[0] <= this.from ? this.base.storedBlock(start) : null;
  }

  // One function shifting decodeAt's indices to the tail's, kept while the same decodeAt comes (the
  // source's own), not a closure made per call: V8 drops the optimised code of short-lived closures
  // at every major collection.
  private shiftedFor: ((i: number) => Sparse | null) | null = null;
  private shifted: (i: number) => Sparse | null = () => null;

  private shiftedOf(decodeAt: (i: number) => Sparse | null): (i: number) => Sparse | null {
    if (this.shiftedFor !== decodeAt) {
      const at = this.from;
      this.shiftedFor = decodeAt;
      this.shifted = (i) => decodeAt(i + at);
    }
    return this.shifted;
  }

  sumRange(i0: number, i1: number, decodeAt: (i: number) => Sparse | null, transient = false): { sum: Sparse; decoded: number; blocks: number } {
    const at = this.from;
    if (i1 < at) return this.base.sumRange(i0, i1, decodeAt, transient);
    const shifted = this.shiftedOf(decodeAt);
    if (i0 >= at) return this.tail.sumRange(i0 - at, i1 - at, shifted, transient);
    // Both: each side's transient sum is added here before the next sum reuses its buffers.
    const acc = this.acc;
    if (!acc.empty) acc.take();
    const a = this.base.sumRange(i0, at - 1, decodeAt, true);
    acc.add(a.sum);
    const b = this.tail.sumRange(0, i1 - at, shifted, true);
    acc.add(b.sum);
    return { sum: acc.take(transient), decoded: a.decoded + b.decoded, blocks: a.blocks + b.blocks };
  }
}
