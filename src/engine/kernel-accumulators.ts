// The load's block accumulators (core/blocks.ts Accumulator) in the WebAssembly kernel's
// memory: an interval the kernel has just decoded is added up where its pairs lie, and a
// finished block is taken out by the kernel and added into the next level's accumulator there,
// instead of both in JavaScript (where they were the largest share of a load after decoding,
// profiled). Where the kernel is missing or its memory cannot grow, the plain Scratch does it.
import { BLOCK_SIZES, Scratch, type Accumulator, type AccumulatorsFactory } from "../core/blocks";
import type { KernelSlots } from "../wasm/kernel-slots";
import type { EngineContext } from "./context";

/** Freed slots by capacity, for the next series' blocks (the kernel's memory never shrinks). */
const pools = new WeakMap<KernelSlots, Map<number, number[]>>();
const MIN_CAPACITY = 4096;

// Module-level functions and loops here, not closures made per call: V8 drops the optimised code
// of short-lived closures at every major collection.
const newScratch = (): Scratch => new Scratch();
const noSlot = (): number => -1;

function poolOf(k: KernelSlots): Map<number, number[]> {
  let pool = pools.get(k);
  if (!pool) pools.set(k, (pool = new Map()));
  return pool;
}

function allocSlot(k: KernelSlots, capacity: number): number {
  const free = poolOf(k).get(capacity);
  if (free && free.length > 0) return free.pop()!;
  return k.alloc(capacity);
}

function freeSlot(k: KernelSlots, capacity: number, slot: number): void {
  const pool = poolOf(k);
  let free = pool.get(capacity);
  if (!free) pool.set(capacity, (free = []));
  free.push(slot);
}

/**
 * Every level's accumulator in the kernel's memory (level 0 feeds level 1), or Scratches without
 * a kernel: the kernel is the reader's engine context's (context.ts), passed in.
 */
export function kernelAccumulators(kernel: EngineContext["kernel"]): AccumulatorsFactory {
  const slots = kernel?.slots ?? null;
  return () => accumulatorsIn(slots);
}

/** kernelAccumulators over these slots (tests give slots that fail). */
export function accumulatorsIn(k: KernelSlots | null) {
  if (k === null) return BLOCK_SIZES.map(newScratch);
  const group = new SlotGroup(k);
  const out: SlotAccumulator[] = [];
  for (let l = 0; l < BLOCK_SIZES.length; l++) out.push(new SlotAccumulator(group, l));
  return out;
}

/**
 * The levels' slots, grown together (a level feeds the next, which must hold every index the
 * first does). When memory cannot grow, every level moves to a Scratch.
 */
class SlotGroup {
  capacity = 0;
  slots: number[] = BLOCK_SIZES.map(noSlot);
  /** Set when the kernel's memory could not hold the levels: Scratches from then on. */
  fallback: Scratch[] | null = null;

  constructor(readonly k: KernelSlots) {}

  /** Makes room for index `top` at every level; false when it moved to Scratches. */
  fit(top: number): boolean {
    if (this.fallback) return false;
    if (top < this.capacity) return true;
    let capacity = Math.max(MIN_CAPACITY, this.capacity);
    while (capacity <= top) capacity *= 2;
    const fresh: number[] = [];
    let failed = false;
    for (let l = 0; l < this.slots.length; l++) {
      const s = allocSlot(this.k, capacity);
      fresh.push(s);
      if (s < 0) failed = true;
    }
    if (failed) {
      for (const s of fresh) if (s >= 0) freeSlot(this.k, capacity, s);
      this.toScratches();
      return false;
    }
    // What the old slots hold moves over (each level on its own: nothing feeds while moving).
    for (let l = 0; l < this.slots.length; l++) {
      const old = this.slots[l]!;
      if (old < 0) continue;
      const to = fresh[l]!;
      while (!this.k.empty(old)) {
        const n = this.k.take(old, 0);
        this.k.addArrays(to, this.k.takeIndices(), this.k.takeCounts(), 0, n);
      }
      freeSlot(this.k, this.capacity, old);
    }
    this.slots = fresh;
    this.capacity = capacity;
    return true;
  }

  /** Takes everything out of `slot` (feeding nothing), handing each piece to `each`. */
  drain(slot: number, each: (indices: Int32Array, counts: Float64Array, n: number) => void): void {
    while (!this.k.empty(slot)) {
      const n = this.k.take(slot, 0);
      each(this.k.takeIndices(), this.k.takeCounts(), n);
    }
  }

  private toScratches(): void {
    this.fallback = this.slots.map((slot) => {
      const s = new Scratch();
      if (slot >= 0) {
        this.drain(slot, (i, c, n) => s.addSlice(i, c, 0, n));
        freeSlot(this.k, this.capacity, slot);
      }
      return s;
    });
    this.slots = this.slots.map(noSlot);
  }

  release(): void {
    if (this.fallback) return;
    for (const slot of this.slots) {
      if (slot < 0) continue;
      while (!this.k.empty(slot)) this.k.take(slot, 0);
      freeSlot(this.k, this.capacity, slot);
    }
    this.slots = this.slots.map(noSlot);
    this.fallback = BLOCK_SIZES.map(newScratch);
  }
}

class SlotAccumulator implements Accumulator {
  constructor(
    private readonly g: SlotGroup,
    private readonly level: number,
  ) {}

  get feedsNext(): boolean {
    return this.g.fallback === null && this.level + 1 < BLOCK_SIZES.length;
  }

  get span(): number {
    const f = this.g.fallback;
    if (f) return f[this.level]!.span;
    const slot = this.g.slots[this.level]!;
    return slot < 0 ? 0 : this.g.k.span(slot);
  }

  addSlice(indices: Int32Array, counts: Float64Array, from: number, to: number): void {
    if (to <= from) return;
    const k = this.g.k;
    // Asked before fit(), which may grow the kernel's memory: the last decode's pairs stay
    // where they are, but views of them (these arrays then) are detached by the growth.
    const decoded = from === 0 && k.isDecoded(indices);
    if (!this.g.fit(indices[to - 1]!)) {
      if (decoded) this.g.fallback![this.level]!.addSlice(k.decodedIndices(), k.decodedCounts(), 0, to);
      else this.g.fallback![this.level]!.addSlice(indices, counts, from, to);
      return;
    }
    const slot = this.g.slots[this.level]!;
    const ok = decoded ? k.addDecoded(slot, to) : k.addArrays(slot, indices, counts, from, to);
    // fit() made room for the highest index and indices ascend: a refusal is a broken promise.
    if (!ok) throw new Error("block accumulator refused an interval it had room for");
  }

  kernelSlot(): { slot: number; capacity: number } | null {
    if (this.g.fallback) return null;
    const slot = this.g.slots[this.level]!;
    return slot < 0 ? null : { slot, capacity: this.g.capacity };
  }

  takeInto(indices: Int32Array, counts: Float64Array, at: number): number {
    const f = this.g.fallback;
    if (f) return f[this.level]!.takeInto(indices, counts, at);
    const slot = this.g.slots[this.level]!;
    if (slot < 0) return 0;
    const k = this.g.k;
    const next = this.feedsNext ? this.g.slots[this.level + 1]! : 0;
    let m = at;
    while (!k.empty(slot)) {
      const n = k.take(slot, next);
      indices.set(k.takeIndices().subarray(0, n), m);
      counts.set(k.takeCounts().subarray(0, n), m);
      m += n;
    }
    return m - at;
  }

  addTo(into: Scratch): void {
    const f = this.g.fallback;
    if (f) {
      f[this.level]!.addTo(into);
      return;
    }
    const slot = this.g.slots[this.level]!;
    if (slot < 0) return;
    // Taken out and put back (the kernel has no read that keeps them).
    const idx: Int32Array[] = [];
    const cnt: Float64Array[] = [];
    this.g.drain(slot, (i, c, n) => {
      into.addSlice(i, c, 0, n);
      idx.push(i.slice(0, n));
      cnt.push(c.slice(0, n));
    });
    for (let p = 0; p < idx.length; p++) this.g.k.addArrays(slot, idx[p]!, cnt[p]!, 0, idx[p]!.length);
  }

  release(): void {
    if (this.level === 0) this.g.release();
  }
}
