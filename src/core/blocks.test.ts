import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { BLOCK_SIZES, BlockWorkspace, IntervalBlocks, JoinedBlocks, indexRange, type Sparse } from "./blocks";

function randomSparse(seed: number, range: (seed: number) => number): Sparse {
  // A few indices with counts; deterministic per seed.
  const m = 1 + (seed % 7);
  const idx = new Set<number>();
  for (let k = 0; k < m; k++) idx.add((seed * 31 + k * 977) % range(seed));
  const indices = Int32Array.from([...idx].sort((a, b) => a - b));
  const counts = Float64Array.from(indices, (i) => 1 + ((i * seed) % 13));
  return { indices, counts };
}

/** Dense intervals: 64 to 263 indices within about twice as many (thousands of distinct values per interval). */
function denseSparse(seed: number): Sparse {
  const m = 64 + (seed % 200);
  const base = (seed * 7919) % 20_000;
  const idx = new Set<number>();
  for (let k = 0; k < m; k++) idx.add(base + ((k * 2 + (seed % 3)) % (m * 2)));
  const indices = Int32Array.from([...idx].sort((a, b) => a - b));
  const counts = Float64Array.from(indices, (i) => 1 + ((i * seed) % 13));
  return { indices, counts };
}

function direct(parts: Sparse[], i0: number, i1: number): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = Math.max(0, i0); i <= Math.min(i1, parts.length - 1); i++) {
    parts[i]!.indices.forEach((ix, k) => m.set(ix, (m.get(ix) ?? 0) + parts[i]!.counts[k]!));
  }
  return m;
}

// Narrow index spans (summed by scanning the span), wide ones (indices tracked and sorted), and
// blocks that start narrow and turn wide half way.
// Dense intervals (counts summed without the bitmap, their 64-index groups scanned), and dense
// ones among sparse and wide ones in the same blocks.
describe.each([
  ["narrow", (seed: number) => randomSparse(seed, () => 5000), 100],
  ["wide", (seed: number) => randomSparse(seed, () => 2_000_000), 100],
  ["mixed", (seed: number) => randomSparse(seed, (s) => (s % 50 === 0 ? 2_000_000 : 5000)), 100],
  ["dense", denseSparse, 15],
  ["dense among sparse and wide", (seed: number) => (seed % 3 === 0 ? denseSparse(seed) : randomSparse(seed, (s) => (s % 50 === 0 ? 2_000_000 : 30_000))), 15],
] as const)("IntervalBlocks (%s index spans)", (_, make, runs) => {
  const n = BLOCK_SIZES[1] * 2 + 777;
  const parts = Array.from({ length: n }, (_, i) => make(i + 1));
  const blocks = new IntervalBlocks();
  for (const p of parts) blocks.add(p);

  it("any range sums to the same counts as adding every interval, decoding only the edges", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }), (a, b) => {
        const [i0, i1] = a <= b ? [a, b] : [b, a];
        const r = blocks.sumRange(i0, i1, (i) => parts[i]!);
        const want = direct(parts, i0, i1);
        // One comparison per case (an expect per entry made the property slow).
        const got = new Map<number, number>();
        r.sum.indices.forEach((ix, k) => got.set(ix, r.sum.counts[k]!));
        expect(got).toEqual(want);
        expect(Array.from(r.sum.indices)).toEqual(Array.from(r.sum.indices).sort((a, b) => a - b));
        // Edges only: fewer than two small blocks' worth on each side, plus the tail.
        expect(r.decoded).toBeLessThanOrEqual(2 * BLOCK_SIZES[0] + (n % BLOCK_SIZES[0]));
      }),
      { numRuns: runs },
    );
  });

  it("the total of the first k intervals, at any k (inside a block or on a boundary), is their sum", () => {
    for (const k of [0, 1, 63, 64, 65, BLOCK_SIZES[1] - 1, BLOCK_SIZES[1], BLOCK_SIZES[1] + 64, n]) {
      const b = new IntervalBlocks();
      for (let i = 0; i < k; i++) b.add(parts[i]!);
      const t = b.total();
      const got = new Map<number, number>();
      t.indices.forEach((ix, j) => got.set(ix, t.counts[j]!));
      expect(got).toEqual(direct(parts, 0, k - 1));
      expect(Array.from(t.indices)).toEqual(Array.from(t.indices).sort((x, y) => x - y));
      // Asking does not change what the blocks hold: more intervals after it still add up.
      if (k < n) {
        b.add(parts[k]!);
        const t2 = b.total();
        const got2 = new Map<number, number>();
        t2.indices.forEach((ix, j) => got2.set(ix, t2.counts[j]!));
        expect(got2).toEqual(direct(parts, 0, k));
      }
    }
  });

  it("totals asked in turn of series that share a thread's workspace are each series' own sum", () => {
    const workspace = new BlockWorkspace();
    const a = new IntervalBlocks(undefined, false, { workspace });
    const b = new IntervalBlocks(undefined, false, { workspace });
    const bParts: Sparse[] = [];
    const asMap = (t: Sparse) => new Map(Array.from(t.indices, (ix, j) => [ix, t.counts[j]!]));
    for (let i = 0; i < 200; i++) {
      a.add(parts[i]!);
      if (i % 2 === 0) {
        b.add(parts[n - 1 - i]!);
        bParts.push(parts[n - 1 - i]!);
      }
      if (i % 37 === 0 || i === 199) {
        expect(asMap(a.total())).toEqual(direct(parts, 0, i));
        const tb = b.total();
        expect(asMap(tb)).toEqual(direct(bParts, 0, bParts.length - 1));
        // What a total returns is its own: the next total does not change it.
        const copy = Array.from(tb.counts);
        a.total();
        expect(Array.from(tb.counts)).toEqual(copy);
      }
    }
  });

  it("a part that knows where it starts in the log lays its blocks on the log's grid, and sums every range the same", () => {
    for (const origin of [1, 64, 100, BLOCK_SIZES[1] + 5]) {
      const b = new IntervalBlocks(undefined, false, { origin });
      const m = n - 300;
      for (let i = 0; i < m; i++) b.add(parts[i]!);
      const t = b.total();
      expect(new Map(Array.from(t.indices, (ix, k) => [ix, t.counts[k]!]))).toEqual(direct(parts, 0, m - 1));
      for (const [i0, i1] of [
        [0, m - 1],
        [3, 700],
        [BLOCK_SIZES[1] - origin, m - 1],
        [500, 4000],
      ] as const) {
        const r = b.sumRange(i0, i1, (i) => parts[i]!);
        const got = new Map<number, number>();
        r.sum.indices.forEach((ix, k) => got.set(ix, r.sum.counts[k]!));
        expect(got).toEqual(direct(parts, i0, i1));
        expect(r.decoded).toBeLessThanOrEqual(2 * BLOCK_SIZES[0] + (m % BLOCK_SIZES[0]));
      }
      // Stored first-level blocks start on multiples of 64 counted from the log's first interval.
      const size = BLOCK_SIZES[0];
      for (let start = 0; start + size <= Math.min(m, 600); start++) {
        const s = b.storedBlock(start);
        if ((origin + start) % size !== 0) expect(s).toBeNull();
        else expect(new Map(Array.from(s!.indices, (ix, k) => [ix, s!.counts[k]!]))).toEqual(direct(parts, start, start + size - 1));
      }
      // And so when rebuilt in another worker.
      const again = IntervalBlocks.fromParts(structuredClone(b.toParts()));
      const first = (size - (origin % size)) % size;
      expect(again.storedBlock(first)).not.toBeNull();
      expect(again.sumRange(5, 3000, (i) => parts[i]!).sum).toEqual(b.sumRange(5, 3000, (i) => parts[i]!).sum);
    }
  });

  it("the whole table uses the big blocks", () => {
    const r = blocks.sumRange(0, n - 1, (i) => parts[i]!);
    expect(r.blocks).toBeLessThan(2 + (BLOCK_SIZES[1] / BLOCK_SIZES[0]) * 2);
  });
});

describe("storedBlock", () => {
  const n = 5 * BLOCK_SIZES[0] + 10;
  const parts = Array.from({ length: 2 * n }, (_, i) => randomSparse(i + 1, () => 5000));
  const asMap = (s: Sparse) => new Map(Array.from(s.indices, (ix, k) => [ix, s.counts[k]!]));
  const whole = new IntervalBlocks();
  for (const p of parts.slice(0, n)) whole.add(p);
  // A log read in two parts: the second part's blocks are aligned to its own start (n, not a multiple of 64).
  const second = new IntervalBlocks();
  for (const p of parts.slice(n)) second.add(p);
  const joined = new JoinedBlocks([
    { blocks: whole, from: 0 },
    { blocks: second, from: n },
  ]);

  it("is the sum of the block's intervals where a whole stored block starts, else null", () => {
    const size = BLOCK_SIZES[0];
    for (const start of [0, size, 4 * size]) expect(asMap(whole.storedBlock(start)!)).toEqual(direct(parts, start, start + size - 1));
    // Not on a block boundary, or the unfinished tail: no stored block there.
    for (const start of [1, size - 1, 5 * size, n]) expect(whole.storedBlock(start)).toBeNull();
    for (const start of [0, 3 * size, n, n + size, n + 4 * size]) expect(asMap(joined.storedBlock(start)!)).toEqual(direct(parts, start, start + size - 1));
    for (const start of [5 * size, n - 10, n + 1, 2 * n - size]) expect(joined.storedBlock(start)).toBeNull();
  });

  it("on the log's grid when the later part knows where it starts", () => {
    const size = BLOCK_SIZES[0];
    const later = new IntervalBlocks(undefined, false, { origin: n });
    for (const p of parts.slice(n)) later.add(p);
    const grid = new JoinedBlocks([
      { blocks: whole, from: 0 },
      { blocks: later, from: n },
    ]);
    // Every multiple of 64 but the block the part boundary cuts through (n = 5·64 + 10).
    for (let start = 0; start + size <= 2 * n; start += size) {
      const s = grid.storedBlock(start);
      if (start === 5 * size) expect(s).toBeNull();
      else expect(asMap(s!)).toEqual(direct(parts, start, start + size - 1));
    }
    expect(grid.storedBlock(n)).toBeNull();
  });
});

describe("chunks written ahead", () => {
  it("a level takes them once it needs chunks of the largest size, and its blocks are the same as without them", () => {
    // Wide intervals of 300 indices each: blocks of ~19,000 entries, enough to reach the
    // largest chunk size after a few dozen blocks.
    const wide = (seed: number): Sparse => {
      const indices = Int32Array.from({ length: 300 }, (_, k) => ((seed * 7) % 50) + k * 97);
      return { indices, counts: Float64Array.from(indices, (i) => 1 + ((i + seed) % 11)) };
    };
    const n = 40 * BLOCK_SIZES[0] + 5;
    const workspace = new BlockWorkspace();
    const build = () => {
      const b = new IntervalBlocks(undefined, false, { workspace });
      for (let i = 0; i < n; i++) b.add(wide(i));
      return b;
    };
    const plain = build();
    for (let k = 0; k < 3; k++) workspace.chunks.prepare();
    expect(workspace.chunks.ready).toBe(3);
    const ahead = build();
    // Taken (the level got to the largest size), not merely held.
    expect(workspace.chunks.ready).toBeLessThan(3);
    workspace.chunks.drop();
    expect(workspace.chunks.ready).toBe(0);
    const same = (a: Sparse, b: Sparse) => {
      expect(Array.from(a.indices)).toEqual(Array.from(b.indices));
      expect(Array.from(a.counts)).toEqual(Array.from(b.counts));
    };
    for (let start = 0; start + BLOCK_SIZES[0] <= n; start += BLOCK_SIZES[0]) same(ahead.storedBlock(start)!, plain.storedBlock(start)!);
    same(ahead.total(), plain.total());
    expect(Array.from(ahead.sumRange(3, n - 2, () => null).sum.counts)).toEqual(Array.from(plain.sumRange(3, n - 2, () => null).sum.counts));
  });
});

describe("indexRange", () => {
  it("finds the intervals whose start lies in [lo, hi], edges included", () => {
    const o = [0, 1, 2, 3, 4, 5];
    expect(indexRange(o, 6, 2, 4)).toEqual([2, 4]);
    expect(indexRange(o, 6, 1.5, 4.5)).toEqual([2, 4]);
    expect(indexRange(o, 6, -Infinity, Infinity)).toEqual([0, 5]);
    const [a, b] = indexRange(o, 6, 7, 9);
    expect(a > b).toBe(true);
  });
});

describe("transient sums", () => {
  it("hold what an allocated sum holds, for a log read whole or in parts", () => {
    const n = BLOCK_SIZES[1] + 500;
    const parts = Array.from({ length: n }, (_, i) => (i % 4 === 0 ? denseSparse(i + 1) : randomSparse(i + 1, () => 30_000)));
    const whole = new IntervalBlocks();
    for (const p of parts) whole.add(p);
    const cut = 1000;
    const first = new IntervalBlocks();
    const second = new IntervalBlocks();
    parts.forEach((p, i) => (i < cut ? first : second).add(p));
    const joined = new JoinedBlocks([
      { blocks: first, from: 0 },
      { blocks: second, from: cut },
    ]);
    for (const b of [whole, joined]) {
      for (const [i0, i1] of [
        [0, n - 1],
        [10, 900],
        [900, 1100],
        [64, 191],
        [1500, n - 3],
      ] as const) {
        const kept = b.sumRange(i0, i1, (i) => parts[i]!);
        const t = b.sumRange(i0, i1, (i) => parts[i]!, true).sum;
        const got = { indices: Array.from(t.indices), counts: Array.from(t.counts) };
        expect(got).toEqual({ indices: Array.from(kept.sum.indices), counts: Array.from(kept.sum.counts) });
        expect(got.indices.length).toBeGreaterThan(0);
      }
    }
  });
});
