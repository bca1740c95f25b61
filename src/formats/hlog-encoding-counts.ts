// Counts-array payload readers (Java: AbstractHistogram.fillCountsArrayFromSourceBuffer and
// ZigZagEncoding.getLong). Both write the non-zero counts into shared scratch arrays and
// return how many they wrote, or a reason string.

const TWO_POW_32 = 4294967296;
/** Counts at or above this cannot be held exactly in a float64. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const MAX_ZERO_RUN = 2147483647; // Java refuses zero runs above Integer.MAX_VALUE

const KEEP_SCRATCH_ENTRIES = 1 << 16;
const SHIFT = [1, 2 ** 7, 2 ** 14, 2 ** 21, 2 ** 28, 2 ** 35, 2 ** 42, 2 ** 49, 2 ** 56] as const;

/** Scratch output shared by the readers: valid until the next call. */
export const scratch = {
  indices: new Int32Array(1024),
  counts: new Float64Array(1024),
  /** Sum of the counts written by the last successful call. */
  total: 0,
};

function grow(needed: number): void {
  const size = Math.max(needed, scratch.indices.length * 2);
  const idx = new Int32Array(size);
  const cnt = new Float64Array(size);
  idx.set(scratch.indices);
  cnt.set(scratch.counts);
  scratch.indices = idx;
  scratch.counts = cnt;
}

/** Lets scratch arrays grown for an unusually large histogram go. */
export function releaseLargeScratch(): void {
  if (scratch.indices.length > KEEP_SCRATCH_ENTRIES) {
    scratch.indices = new Int32Array(1024);
    scratch.counts = new Float64Array(1024);
  }
}

const COUNT_BEYOND_RANGE = "payload has counts beyond the value range its header declares";
const TOO_LARGE = "payload holds a count above 2^53, too large to add up exactly";
const TOTAL_TOO_LARGE = "payload's total count is above 2^53, too large to add up exactly";

/**
 * V2: ZigZag-encoded LEB128 longs of up to 9 bytes (the 9th contributes all 8 bits).
 * Positive: a count. Zero: a single zero count. Negative: a run of that many zero counts.
 * Every step consumes at least one byte, so the loop is bounded by the payload length.
 */
export function readZigZagCounts(buf: Uint8Array, start: number, end: number, countsLength: number): number | string {
  let p = start;
  let index = 0;
  let n = 0;
  let total = 0;
  let idx = scratch.indices;
  let cnt = scratch.counts;
  while (p < end) {
    let b = buf[p++]!;
    let value: number;
    if (b < 0x80) {
      value = (b >>> 1) ^ -(b & 1);
    } else {
      let raw = b & 0x7f;
      let k = 1;
      for (;;) {
        if (p >= end) return "payload is truncated in the middle of an encoded count";
        b = buf[p++]!;
        if (k === 8) {
          raw += b * SHIFT[8]; // the 9th byte carries 8 bits
          break;
        }
        raw += (b & 0x7f) * SHIFT[k]!;
        k++;
        if (b < 0x80) break;
      }
      if (raw > MAX_EXACT) return TOO_LARGE;
      value = raw <= 0x7fffffff ? (raw >>> 1) ^ -(raw & 1) : raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
    }
    if (value > 0) {
      if (index >= countsLength) return COUNT_BEYOND_RANGE;
      if (n === idx.length) {
        grow(n + 1);
        idx = scratch.indices;
        cnt = scratch.counts;
      }
      idx[n] = index;
      cnt[n] = value;
      n++;
      total += value;
      index++;
    } else if (value === 0) {
      index++;
    } else {
      if (value < -MAX_ZERO_RUN) return "payload has a run of zero counts longer than any histogram";
      index -= value;
    }
  }
  if (total > MAX_EXACT) return TOTAL_TOO_LARGE;
  scratch.total = total;
  return n;
}

/** V0/V1: big-endian signed words of 2, 4 or 8 bytes, one per counts-array index. */
export function readFixedWordCounts(buf: Uint8Array, start: number, words: number, wordSize: number): number | string {
  let n = 0;
  let total = 0;
  let idx = scratch.indices;
  let cnt = scratch.counts;
  // Most words are zero: when the payload is 4-byte aligned, test whole words for zero through
  // an Int32Array view (byte order does not matter for that test).
  const offset = buf.byteOffset + start;
  const zeroTest = (offset & 3) === 0 && wordSize !== 2 ? new Int32Array(buf.buffer, offset, (words * wordSize) >> 2) : null;
  const step = wordSize >> 2;
  let p = start;
  for (let i = 0; i < words; i++, p += wordSize) {
    if (zeroTest !== null && zeroTest[i * step] === 0 && (step === 1 || zeroTest[i * step + 1] === 0)) continue;
    let count: number;
    if (wordSize === 8) {
      const hi = (buf[p]! << 24) | (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!;
      const lo = ((buf[p + 4]! << 24) | (buf[p + 5]! << 16) | (buf[p + 6]! << 8) | buf[p + 7]!) >>> 0;
      if (hi === 0 && lo === 0) continue;
      if (hi < 0) return "payload holds a negative count";
      if (hi >= 0x200000) return TOO_LARGE;
      count = hi * TWO_POW_32 + lo;
    } else if (wordSize === 4) {
      count = (buf[p]! << 24) | (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!;
      if (count === 0) continue;
      if (count < 0) return "payload holds a negative count";
    } else {
      count = ((buf[p]! << 24) | (buf[p + 1]! << 16)) >> 16;
      if (count === 0) continue;
      if (count < 0) return "payload holds a negative count";
    }
    if (n === idx.length) {
      grow(n + 1);
      idx = scratch.indices;
      cnt = scratch.counts;
    }
    idx[n] = i;
    cnt[n] = count;
    n++;
    total += count;
  }
  if (total > MAX_EXACT) return TOTAL_TOO_LARGE;
  scratch.total = total;
  return n;
}
