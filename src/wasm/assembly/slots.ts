import { INDICES, COUNTS } from "./layout";

// Block accumulators (core/blocks.ts): the counts of consecutive intervals added up into a
// dense array, with a bitmap of the indices touched, then taken out sparse and in index order.
// Adding a payload's pairs here, where the kernel has just written them, instead of in
// JavaScript, and taking a block out by counting trailing zeros of the bitmap's words.
//
// A slot at `base`: i32 capacity (entries), i32 lo, i32 hi (the touched range; hi < lo when
// empty), then f64 × capacity, then one bit per entry. Slots are made by slotAlloc (memory is
// grown for them; the caller reuses freed ones). Taken entries go to TAKE_INDICES/TAKE_COUNTS.

export let takeAt: usize = 0;
export const TAKE_ENTRIES: i32 = 65536;

/** The address of the take buffer: TAKE_ENTRIES i32 indices, then TAKE_ENTRIES f64 counts. */
export function takeBuffer(): i32 {
  if (takeAt == 0) {
    const before = memory.grow((TAKE_ENTRIES * 12 + 0xffff) >>> 16);
    if (before < 0) return -1;
    takeAt = <usize>before << 16;
  }
  return <i32>takeAt;
}

/** A new empty slot of `capacity` entries (a multiple of 64); its address, or -1. */
export function slotAlloc(capacity: i32): i32 {
  if (capacity <= 0 || (capacity & 63) != 0 || capacity > (1 << 26)) return -1;
  const bytes = 16 + capacity * 8 + (capacity >>> 3);
  const before = memory.grow((bytes + 0xffff) >>> 16);
  if (before < 0) return -1;
  const base = <usize>before << 16;
  store<i32>(base, capacity);
  store<i32>(base, capacity, 4);
  store<i32>(base, -1, 8);
  return <i32>base;
}

// @ts-ignore: decorator
@inline export function slotAddOne(base: usize, i: i32, c: f64): void {
  const dense = base + 16;
  const bits = dense + (<usize>load<i32>(base) << 3);
  const d = dense + (<usize>i << 3);
  store<f64>(d, load<f64>(d) + c);
  const w = bits + (<usize>(i >>> 5) << 2);
  store<i32>(w, load<i32>(w) | (1 << (i & 31)));
}

/** Pairs at least one per this many indices of their span are added as dense (see slotAdd). */
export const SLOT_DENSE_RATIO: i32 = 4;

/**
 * Adds `n` (index, count) pairs, ascending by index, from these addresses into the slot.
 * Returns 0, or -1 (nothing added) when an index does not fit.
 */
export function slotAdd(base: i32, indices: i32, counts: i32, n: i32): i32 {
  if (n <= 0) return 0;
  const b = <usize>base;
  const first = load<i32>(<usize>indices);
  const last = load<i32>(<usize>indices + (<usize>(n - 1) << 2));
  if (first < 0 || last >= load<i32>(b)) return -1;
  if (first < load<i32>(b, 4)) store<i32>(b, first, 4);
  if (last > load<i32>(b, 8)) store<i32>(b, last, 8);
  const dense = b + 16;
  const bits = dense + (<usize>load<i32>(b) << 3);
  if (n >= 64 && n * SLOT_DENSE_RATIO > last - first) {
    // Dense pairs (a wide interval: thousands of buckets side by side): the counts alone, then
    // every bit word of their span marked at once. slotTake skips a marked index whose count
    // is zero, so marking the span's gaps and the words' edges changes nothing it gives.
    for (let k = 0; k < n; k++) {
      const d = dense + (<usize>load<i32>(<usize>indices + (<usize>k << 2)) << 3);
      store<f64>(d, load<f64>(d) + load<f64>(<usize>counts + (<usize>k << 3)));
    }
    memory.fill(bits + (<usize>(first >>> 5) << 2), 0xff, <usize>((last >>> 5) - (first >>> 5) + 1) << 2);
    return 0;
  }
  for (let k = 0; k < n; k++) {
    const i = load<i32>(<usize>indices + (<usize>k << 2));
    const d = dense + (<usize>i << 3);
    store<f64>(d, load<f64>(d) + load<f64>(<usize>counts + (<usize>k << 3)));
    const w = bits + (<usize>(i >>> 5) << 2);
    store<i32>(w, load<i32>(w) | (1 << (i & 31)));
  }
  return 0;
}

/** Adds the pairs the last decode wrote (INDICES, COUNTS) into the slot; as slotAdd. */
export function slotAddDecoded(base: i32, n: i32): i32 {
  return slotAdd(base, <i32>INDICES, <i32>COUNTS, n);
}

/**
 * Takes up to TAKE_ENTRIES non-zero entries out of the slot, lowest indices first, into the
 * take buffer, clearing them; also adds each into slot `into` when it is not 0 (the next
 * level's accumulator, of at least this one's capacity). Returns how many; call again until
 * slotEmpty. An index touched only by zero counts is skipped.
 */
export function slotTake(base: i32, into: i32): i32 {
  const b = <usize>base;
  let lo = load<i32>(b, 4);
  const hi = load<i32>(b, 8);
  if (hi < lo) return 0;
  const dense = b + 16;
  const bits = dense + (<usize>load<i32>(b) << 3);
  const outI = takeAt;
  const outC = takeAt + (<usize>TAKE_ENTRIES << 2);
  const to = <usize>into;
  let m = 0;
  if (to != 0) {
    if (lo < load<i32>(to, 4)) store<i32>(to, lo, 4);
    if (hi > load<i32>(to, 8)) store<i32>(to, hi, 8);
  }
  const wEnd = hi >>> 5;
  let w = lo >>> 5;
  for (; w <= wEnd; w++) {
    const wa = bits + (<usize>w << 2);
    let word = load<i32>(wa);
    if (word == 0) continue;
    if (m + 32 > TAKE_ENTRIES) break;
    store<i32>(wa, 0);
    while (word != 0) {
      const i = (w << 5) | ctz(word);
      word &= word - 1;
      const d = dense + (<usize>i << 3);
      const c = load<f64>(d);
      if (c == 0) continue;
      store<f64>(d, 0);
      store<i32>(outI + (<usize>m << 2), i);
      store<f64>(outC + (<usize>m << 3), c);
      m++;
      if (to != 0) slotAddOne(to, i, c);
    }
  }
  if (w > wEnd) {
    store<i32>(b, load<i32>(b), 4); // empty: lo = capacity, hi = -1
    store<i32>(b, -1, 8);
  } else store<i32>(b, w << 5, 4);
  return m;
}

/** Whether the slot holds nothing. */
export function slotEmpty(base: i32): bool {
  return load<i32>(<usize>base, 8) < load<i32>(<usize>base, 4);
}

/** The slot's touched range, hi - lo + 1 (0 when empty): an upper bound of what it holds. */
export function slotSpan(base: i32): i32 {
  const lo = load<i32>(<usize>base, 4);
  const hi = load<i32>(<usize>base, 8);
  return hi < lo ? 0 : hi - lo + 1;
}
