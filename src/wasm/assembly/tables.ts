// The inflater's Huffman tables (see kernel.ts): entries, templates, the table builder and the
// fixed code.
import { FIXED_LIT, FIXED_DIST, LIT_TEMPLATE, DIST_TEMPLATE, CL_TEMPLATE, REVERSE, LEN_COUNT, SORT_OFFSET, SORTED, CODED, LENS, B64, ONE_BYTE, ONE_BYTE_COUNT } from "./layout";

// Table entries, exactly as inflate.ts lays them out (see there).

export const KIND_MASK: i32 = 0x300;
export const KIND_VALUE: i32 = 0x000;
export const KIND_LINK: i32 = 0x100;
export const KIND_EOB: i32 = 0x200;
export const KIND_BAD: i32 = 0x300;
export const LITERAL: i32 = 1 << 31;

export const LITLEN_ROOT: i32 = 10;
export const DIST_ROOT: i32 = 8;
export const CODE_LENGTH_ROOT: i32 = 7;

export const CODE_LENGTH_ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

// @ts-ignore: decorator
@inline export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline export function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

// Templates: per-symbol entries without the code length. Base values follow from the extra
// bits (RFC 1951 3.2.5), so they are computed rather than stored.
{
  let base = 3;
  for (let s = 0; s < 288; s++) {
    let e: i32;
    if (s < 256) e = LITERAL | (s << 16);
    else if (s == 256) e = KIND_EOB;
    else if (s < 285) {
      const extra = s < 265 ? 0 : (s - 261) >> 2;
      e = KIND_VALUE | (base << 16) | (extra << 4);
      base += 1 << extra;
    } else if (s == 285) e = KIND_VALUE | (258 << 16);
    else e = KIND_BAD;
    setI32(LIT_TEMPLATE, s, e);
  }
  base = 1;
  for (let s = 0; s < 32; s++) {
    const extra = s < 4 ? 0 : (s >> 1) - 1;
    setI32(DIST_TEMPLATE, s, s < 30 ? KIND_VALUE | (base << 16) | (extra << 4) : KIND_BAD);
    base += 1 << extra;
  }
  for (let s = 0; s < 19; s++) setI32(CL_TEMPLATE, s, s << 16);
  for (let i = 0; i < 256; i++) {
    let r = 0;
    for (let b = 0; b < 8; b++) if (i & (1 << b)) r |= 0x80 >> b;
    store<u8>(REVERSE + i, r);
  }
  memory.fill(B64, 0xff, 256);
  for (let i = 0; i < 26; i++) {
    store<u8>(B64 + 65 + i, i);
    store<u8>(B64 + 97 + i, 26 + i);
  }
  for (let i = 0; i < 10; i++) store<u8>(B64 + 48 + i, 52 + i);
  // A one-byte ZigZag value v: the index step (1, or -v for a run of zeros) in bits 0-7,
  // whether it is a count in bit 8, the count in bits 16 and up.
  for (let b = 0; b < 128; b++) {
    const v = (b >>> 1) ^ -(b & 1);
    store<u32>(ONE_BYTE + (<usize>b << 2), v > 0 ? 1 | (1 << 8) | (v << 16) : v == 0 ? 1 : -v);
    store<f64>(ONE_BYTE_COUNT + (<usize>b << 3), v > 0 ? <f64>v : 0);
  }
  store<u8>(B64 + 43, 62);
  store<u8>(B64 + 47, 63);
}

// From this many bytes on, memory.copy (a call) is faster than copying words in a loop.
export const COPY_CALL_BYTES: usize = 256;

// @ts-ignore: decorator
@inline export function reversed(code: i32, l: i32): i32 {
  return ((<i32>load<u8>(REVERSE + (code & 0xff)) << 8) | <i32>load<u8>(REVERSE + (code >>> 8))) >>> (16 - l);
}

/**
 * inflate.ts's buildTable, over addresses: `lengths[offset + s]` is symbol s's code length,
 * `coded[from, to)` the positions of the nonzero ones, `count` the codes per length (used up).
 * Returns the root bits, 0 for no codes, -1 for a code zlib refuses.
 */
export function buildTable(
  lengths: usize,
  offset: i32,
  from: i32,
  to: i32,
  count: usize,
  template: usize,
  table: usize,
  rootMax: i32,
  incompleteSingle: bool,
): i32 {
  let max = 15;
  while (max > 0 && i32At(count, max) == 0) max--;
  if (max == 0) return 0;
  let min = 1;
  while (i32At(count, min) == 0) min++;
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - i32At(count, l);
    if (left < 0) return -1;
  }
  if (left > 0 && !(incompleteSingle && max == 1)) return -1;

  let root = rootMax;
  if (root > max) root = max;
  if (root < min) root = min;
  const size = 1 << root;
  if (left > 0) {
    store<i32>(table, KIND_BAD | 1);
    store<i32>(table, KIND_BAD | 1, 4);
  }

  let codes = 0;
  for (let l = 1; l <= 15; l++) {
    setI32(SORT_OFFSET, l, codes);
    codes += i32At(count, l);
  }
  for (let j = from; j < to; j++) {
    const p = <i32>load<u16>(CODED + (<usize>j << 1));
    const slot = SORT_OFFSET + (<usize>load<u8>(lengths + p) << 2);
    const k = load<i32>(slot);
    store<i32>(slot, k + 1);
    store<u16>(SORTED + (<usize>k << 1), <u16>(p - offset));
  }

  // The root table length by length, doubling: once the codes up to length l - 1 fill the
  // first 2^(l-1) entries, a copy of them into the next 2^(l-1) puts each of those codes
  // wherever its bits recur, and each code of length l then takes its one entry. Far fewer
  // stores than writing every code's every entry, which is what building a table cost.
  let k = 0;
  let code = 0;
  let l = min;
  for (; l <= root; l++) {
    if (l > min) {
      const half = <usize>4 << <usize>(l - 1);
      if (half >= COPY_CALL_BYTES) memory.copy(table + half, table, half);
      else for (let at: usize = 0; at < half; at += 8) store<u64>(table + half + at, load<u64>(table + at));
    }
    for (let j = i32At(count, l); j > 0; j--) {
      const entry = i32At(template, <i32>load<u16>(SORTED + (<usize>k << 1))) | l;
      k++;
      setI32(table, reversed(code, l), entry);
      code++;
    }
    code <<= 1;
  }
  if (max <= root) return root;

  let nextFree = size;
  let prefix = -1;
  let subBase = 0;
  let subBits = 0;
  for (; l <= max; l++) {
    for (let j = i32At(count, l); j > 0; j--) {
      const r = reversed(code, l);
      const low = r & (size - 1);
      if (low != prefix) {
        prefix = low;
        subBits = l - root;
        let room = 1 << subBits;
        for (;;) {
          room -= i32At(count, root + subBits);
          if (room <= 0 || root + subBits >= max) break;
          subBits++;
          room <<= 1;
        }
        subBase = nextFree;
        nextFree += 1 << subBits;
        setI32(table, low, KIND_LINK | (subBase << 16) | (subBits << 4) | root);
      }
      setI32(count, l, i32At(count, l) - 1);
      const entry = i32At(template, <i32>load<u16>(SORTED + (<usize>k << 1))) | (l - root);
      k++;
      const step = 1 << (l - root);
      const end = subBase + (1 << subBits);
      for (let i = subBase + (r >>> root); i < end; i += step) setI32(table, i, entry);
      code++;
    }
    code <<= 1;
  }
  return root;
}

// The fixed code of block type 1, built once (same lengths as inflate.ts).
{
  for (let s = 0; s < 288; s++) {
    store<u8>(LENS + s, s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
    store<u16>(CODED + (<usize>s << 1), <u16>s);
  }
  memory.fill(LEN_COUNT, 0, 64);
  setI32(LEN_COUNT, 7, 24);
  setI32(LEN_COUNT, 8, 152);
  setI32(LEN_COUNT, 9, 112);
  buildTable(LENS, 0, 0, 288, LEN_COUNT, LIT_TEMPLATE, FIXED_LIT, 9, false);
  memory.fill(LENS, 5, 32);
  memory.fill(LEN_COUNT, 0, 64);
  setI32(LEN_COUNT, 5, 32);
  buildTable(LENS, 0, 0, 32, LEN_COUNT, DIST_TEMPLATE, FIXED_DIST, 5, false);
}
