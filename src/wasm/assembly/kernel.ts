// WebAssembly fast path for one interval-log payload: base64 → zlib inflate → V2 header →
// ZigZag LEB128 counts, in one call. Compiled by scripts/build-wasm.mjs (AssemblyScript).
//
// It is a fast path only: for any input it either produces exactly what the JS reader
// (src/formats/hlog-encoding.ts, decodeHistogramPayload) produces, or declines with a negative
// code and the caller runs the JS reader, which gives the verdict and its message. So every
// check of the JS path is here (or something stricter that declines), and everything unusual
// (V0/V1, uncompressed, DoubleHistogram, output above 64 KiB, non-ASCII text) is declined.
//
// The inflater is a port of src/formats/inflate.ts (same tables, same checks, so the same
// verdicts as pako), with a 64-bit bit buffer refilled a whole word at a time in its fast loop.
//
// No allocator, no managed objects: everything lives at fixed addresses of linear memory
// (the first 1152 KiB; build-wasm.mjs puts the compiler's own static data above them with
// --memoryBase), so every access is a plain load or store with a constant offset.

// ---------------------------------------------------------------------------------------
// Memory map (bytes). Tables first, then the buffers the JS wrapper reads or writes.

const LIT_TABLE: usize = 0; // i32 × (1024 + 286·32): root 10 + the inflate.ts bound on sub-tables
const DIST_TABLE: usize = 40704; // i32 × (256 + 30·128)
const CL_TABLE: usize = 57088; // i32 × 128
const FIXED_LIT: usize = 57600; // i32 × 512
const FIXED_DIST: usize = 59648; // i32 × 32
const LIT_TEMPLATE: usize = 59776; // i32 × 288
const DIST_TEMPLATE: usize = 60928; // i32 × 32
const CL_TEMPLATE: usize = 61056; // i32 × 19 (+ pad)
const REVERSE: usize = 61136; // u8 × 256
const CL_COUNT: usize = 61392; // i32 × 16
const LEN_COUNT: usize = 61456; // i32 × 32: literal/length counts, then distance counts
const DIST_COUNT: usize = LEN_COUNT + 64;
const SORT_OFFSET: usize = 61584; // i32 × 16
const SORTED: usize = 61648; // u16 × 288
const CODED: usize = 62224; // u16 × 320
const LENS: usize = 62864; // u8 × 336: 316 lengths, and room for 8-byte stores past the last
const B64: usize = 63200; // u8 × 256: sextet, or 0xff for a character outside the alphabet
const RESULT: usize = 63456; // f64 lowest, f64 highest, f64 total, i32 digits, i32 median index
const ONE_BYTE: usize = 63488; // u32 × 128: what a one-byte ZigZag value does (decodeV2)
const ONE_BYTE_COUNT: usize = 64000; // f64 × 128: the count it stores
const OUT: usize = 65536; // inflated bytes
const OUT_BYTES: i32 = 65536;
const INDICES: usize = 131072; // i32 × 65536
const COUNTS: usize = 393216; // f64 × 65536
const INPUT: usize = 917504; // the payload's characters, then (in place) its bytes
const INPUT_BYTES: i32 = 262144;
// Where the wrapper finds things (exported as globals, read once).
export const inputAddress: i32 = <i32>INPUT;
// Nothing reads past the end of the text (the fast loop's word reads stop 8 bytes short).
export const inputCapacity: i32 = INPUT_BYTES;
export const outputAddress: i32 = <i32>OUT;
export const indicesAddress: i32 = <i32>INDICES;
export const countsAddress: i32 = <i32>COUNTS;
export const resultAddress: i32 = <i32>RESULT;

// Why a payload was declined (for tests; the wrapper only sees "negative").
const NOT_BASE64: i32 = -1;
const NOT_V2_COMPRESSED: i32 = -2;
const BAD_LENGTH: i32 = -3;
const INFLATE_FAILED: i32 = -4;
const INFLATE_UNFINISHED: i32 = -5;
const BAD_HEADER: i32 = -6;
const BAD_COUNTS: i32 = -7;

// ---------------------------------------------------------------------------------------
// Table entries, exactly as inflate.ts lays them out (see there).

const KIND_MASK: i32 = 0x300;
const KIND_VALUE: i32 = 0x000;
const KIND_LINK: i32 = 0x100;
const KIND_EOB: i32 = 0x200;
const KIND_BAD: i32 = 0x300;
const LITERAL: i32 = 1 << 31;

const LITLEN_ROOT: i32 = 10;
const DIST_ROOT: i32 = 8;
const CODE_LENGTH_ROOT: i32 = 7;

const CODE_LENGTH_ORDER = memory.data<u8>([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

// @ts-ignore: decorator
@inline function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function setI32(base: usize, i: i32, v: i32): void {
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
const COPY_CALL_BYTES: usize = 256;

// @ts-ignore: decorator
@inline function reversed(code: i32, l: i32): i32 {
  return ((<i32>load<u8>(REVERSE + (code & 0xff)) << 8) | <i32>load<u8>(REVERSE + (code >>> 8))) >>> (16 - l);
}

/**
 * inflate.ts's buildTable, over addresses: `lengths[offset + s]` is symbol s's code length,
 * `coded[from, to)` the positions of the nonzero ones, `count` the codes per length (used up).
 * Returns the root bits, 0 for no codes, -1 for a code zlib refuses.
 */
function buildTable(
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

// ---------------------------------------------------------------------------------------
// Inflate

function adler32(start: usize, n: i32): u32 {
  // In 64 bits the sums cannot overflow for outputs up to the 64 KiB limit (b <= 255n^2/2),
  // so they are reduced once, at the end.
  let a: u64 = 1;
  let s: u64 = 0;
  let p = start;
  const end = start + <usize>n;
  // Eight bytes at a time: over bytes b0..b7, a grows by their sum and s by 8a + 8b0 + 7b1 +
  // ... + 1b7. Each sum comes from one multiply of four 16-bit lanes (the even bytes, the odd
  // ones), whose top lane collects the weighted sum without carries (at most 255 * 20).
  for (; p + 8 <= end; p += 8) {
    const w = load<u64>(p);
    const even = w & 0x00ff00ff00ff00ff;
    const odd = (w >> 8) & 0x00ff00ff00ff00ff;
    s += (a << 3) + ((even * 0x0008000600040002) >> 48) + ((odd * 0x0007000500030001) >> 48);
    a += ((even + odd) * 0x0001000100010001) >> 48;
  }
  for (; p < end; p++) {
    a += <u64>load<u8>(p);
    s += a;
  }
  return <u32>((s % 65521) << 16) | <u32>(a % 65521);
}

/**
 * Inflates the zlib stream at `inp[0, length)` into OUT, producing at most `limit` bytes.
 * Returns the byte count when the stream ended (checksum verified) within the limit, else a
 * negative code: whatever inflateZlib would say instead (an error, a truncation, or a full
 * buffer, which it reports as an unfinished success), this declines.
 */
function inflate(inp: usize, length: i32, limit: i32): i32 {
  const end = inp + <usize>length;
  let pos = inp;
  let op = 0;
  if (length < 2) return INFLATE_FAILED;
  const cmf = <i32>load<u8>(pos);
  const flg = <i32>load<u8>(pos, 1);
  pos += 2;
  if (((cmf << 8) | flg) % 31 != 0) return INFLATE_FAILED;
  if ((cmf & 0x0f) != 8) return INFLATE_FAILED;
  const windowBits = (cmf >>> 4) + 8;
  if (windowBits > 15) return INFLATE_FAILED;
  const maxDistance = 1 << windowBits;
  if (flg & 0x20) return INFLATE_FAILED;

  // `bits` valid bits in `hold`, next bit lowest. The fast loop's word refills may leave input
  // bits above `bits`; they are the stream's own next bits, so OR-ing them in again later
  // changes nothing. Past `end` the careful reads feed zeros and count on in `pos`; a result
  // is only returned when the checksum's 4 bytes lie within the input, which means no zero
  // fed past the end was ever consumed (the checks on the way only stop early).
  let hold: u64 = 0;
  let bits: i32 = 0;
  let last = 0;
  const inFast = length >= 8 ? end - 8 : inp;
  const outFast = limit - 258;
  do {
    while (bits < 3) {
      hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
      pos++;
      bits += 8;
    }
    last = <i32>hold & 1;
    const type = (<i32>hold >>> 1) & 3;
    hold >>= 3;
    bits -= 3;
    if (pos > end && <usize>bits < (pos - end) << 3) return INFLATE_FAILED;

    if (type == 0) {
      bits -= bits & 7;
      pos -= <usize>(bits >>> 3);
      hold = 0;
      bits = 0;
      if (pos + 4 > end) return INFLATE_FAILED;
      const len = <i32>load<u16>(pos);
      if (len != (~(<i32>load<u16>(pos, 2)) & 0xffff)) return INFLATE_FAILED;
      pos += 4;
      if (len > limit - op || <usize>len > end - pos) return INFLATE_FAILED;
      memory.copy(OUT + <usize>op, pos, len);
      pos += <usize>len;
      op += len;
      continue;
    }

    let lt: usize;
    let dt: usize;
    let lmask: i32;
    let dmask: i32;
    if (type == 1) {
      lt = FIXED_LIT;
      dt = FIXED_DIST;
      lmask = (1 << 9) - 1;
      dmask = (1 << 5) - 1;
    } else if (type == 2) {
      while (bits < 14) {
        hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
        pos++;
        bits += 8;
      }
      const nlen = (<i32>hold & 0x1f) + 257;
      const ndist = ((<i32>hold >>> 5) & 0x1f) + 1;
      const ncode = ((<i32>hold >>> 10) & 0x0f) + 4;
      hold >>= 14;
      bits -= 14;
      if (nlen > 286 || ndist > 30) return INFLATE_FAILED;
      memory.fill(CL_COUNT, 0, 64);
      memory.fill(LEN_COUNT, 0, 128);
      for (let i = 0; i < 19; i++) {
        let l = 0;
        if (i < ncode) {
          if (bits < 3) {
            hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
            pos++;
            bits += 8;
          }
          l = <i32>hold & 7;
          hold >>= 3;
          bits -= 3;
        }
        store<u8>(LENS + <usize>load<u8>(CODE_LENGTH_ORDER + i), l);
        setI32(CL_COUNT, l, i32At(CL_COUNT, l) + 1);
      }
      let nCoded = 0;
      for (let s = 0; s < 19; s++) {
        store<u16>(CODED + (<usize>nCoded << 1), <u16>s);
        nCoded += (-(<i32>load<u8>(LENS + s))) >>> 31;
      }
      const clRoot = buildTable(LENS, 0, 0, nCoded, CL_COUNT, CL_TEMPLATE, CL_TABLE, CODE_LENGTH_ROOT, false);
      // No code-length code at all ends in an error in inflate.ts too (after some reading).
      if (clRoot <= 0) return INFLATE_FAILED;
      const clMask = (1 << clRoot) - 1;
      const total = nlen + ndist;
      let i = 0;
      nCoded = 0;
      while (i < total) {
        if (bits < 14) {
          if (pos + 8 <= end) {
            hold |= load<u64>(pos) << <u64>bits;
            pos += <usize>((63 - bits) >>> 3);
            bits |= 56;
          } else {
            while (bits < 14) {
              hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
              pos++;
              bits += 8;
            }
          }
        }
        const e = i32At(CL_TABLE, <i32>hold & clMask);
        const sym = e >> 16;
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        if (sym < 16) {
          const slot = LEN_COUNT + (<usize>((i < nlen ? 0 : 16) + sym) << 2);
          store<i32>(slot, load<i32>(slot) + 1);
          store<u16>(CODED + (<usize>nCoded << 1), <u16>i);
          nCoded += (-sym) >>> 31;
          store<u8>(LENS + <usize>i, sym);
          i++;
          continue;
        }
        let repeat: i32;
        let value = 0;
        if (sym == 16) {
          repeat = 3 + (<i32>hold & 3);
          hold >>= 2;
          bits -= 2;
          if (i == 0) return INFLATE_FAILED;
          value = <i32>load<u8>(LENS + <usize>(i - 1));
        } else if (sym == 17) {
          repeat = 3 + (<i32>hold & 7);
          hold >>= 3;
          bits -= 3;
        } else {
          repeat = 11 + (<i32>hold & 0x7f);
          hold >>= 7;
          bits -= 7;
        }
        if (i + repeat > total) return INFLATE_FAILED;
        if (value == 0) {
          // Eight bytes at a time (LENS has room past the last length): memory.fill is a call.
          let at = LENS + <usize>i;
          const stop = at + <usize>repeat;
          do {
            store<u64>(at, 0);
            at += 8;
          } while (at < stop);
          i += repeat;
        } else {
          while (repeat-- > 0) {
            const slot = LEN_COUNT + (<usize>((i < nlen ? 0 : 16) + value) << 2);
            store<i32>(slot, load<i32>(slot) + 1);
            store<u16>(CODED + (<usize>nCoded << 1), <u16>i);
            nCoded++;
            store<u8>(LENS + <usize>i, value);
            i++;
          }
        }
      }
      if (pos > end && <usize>bits < (pos - end) << 3) return INFLATE_FAILED;
      if (load<u8>(LENS + 256) == 0) return INFLATE_FAILED;
      let litlenCoded = 0;
      for (let l = 1; l <= 15; l++) litlenCoded += i32At(LEN_COUNT, l);
      const lroot = buildTable(LENS, 0, 0, litlenCoded, LEN_COUNT, LIT_TEMPLATE, LIT_TABLE, LITLEN_ROOT, true);
      if (lroot <= 0) return INFLATE_FAILED;
      let droot = buildTable(LENS, nlen, litlenCoded, nCoded, DIST_COUNT, DIST_TEMPLATE, DIST_TABLE, DIST_ROOT, true);
      if (droot < 0) return INFLATE_FAILED;
      if (droot == 0) {
        store<i32>(DIST_TABLE, KIND_BAD | 1);
        store<i32>(DIST_TABLE, KIND_BAD | 1, 4);
        droot = 1;
      }
      lt = LIT_TABLE;
      dt = DIST_TABLE;
      lmask = (1 << lroot) - 1;
      dmask = (1 << droot) - 1;
    } else {
      return INFLATE_FAILED;
    }

    // Fast loop: one refill to 56+ bits covers a length/distance pair (at most 15 + 5 + 15 +
    // 13 = 48 bits) or three literals; at least 8 input bytes and 258 bytes of room remain.
    let blockDone = false;
    while (pos <= inFast && op <= outFast) {
      hold |= load<u64>(pos) << <u64>bits;
      pos += <usize>((63 - bits) >>> 3);
      bits |= 56;
      let e = i32At(lt, <i32>hold & lmask);
      if (e < 0) {
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        store<u8>(OUT + <usize>op, e >> 16);
        op++;
        e = i32At(lt, <i32>hold & lmask);
        if (e < 0) {
          hold >>= <u64>(e & 15);
          bits -= e & 15;
          store<u8>(OUT + <usize>op, e >> 16);
          op++;
          e = i32At(lt, <i32>hold & lmask);
          if (e < 0) {
            hold >>= <u64>(e & 15);
            bits -= e & 15;
            store<u8>(OUT + <usize>op, e >> 16);
            op++;
          }
        }
        continue;
      }
      if ((e & KIND_MASK) == KIND_LINK) {
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        e = i32At(lt, (e >> 16) + (<i32>hold & ((1 << ((e >> 4) & 15)) - 1)));
        if (e < 0) {
          hold >>= <u64>(e & 15);
          bits -= e & 15;
          store<u8>(OUT + <usize>op, e >> 16);
          op++;
          continue;
        }
      }
      hold >>= <u64>(e & 15);
      bits -= e & 15;
      if ((e & KIND_MASK) != KIND_VALUE) {
        if ((e & KIND_MASK) == KIND_EOB) {
          blockDone = true;
          break;
        }
        return INFLATE_FAILED;
      }
      let extra = (e >> 4) & 15;
      const len = (e >> 16) + (<i32>hold & ((1 << extra) - 1));
      hold >>= <u64>extra;
      bits -= extra;
      e = i32At(dt, <i32>hold & dmask);
      if ((e & KIND_MASK) == KIND_LINK) {
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        e = i32At(dt, (e >> 16) + (<i32>hold & ((1 << ((e >> 4) & 15)) - 1)));
      }
      hold >>= <u64>(e & 15);
      bits -= e & 15;
      if ((e & KIND_MASK) != KIND_VALUE) return INFLATE_FAILED;
      extra = (e >> 4) & 15;
      const dist = (e >> 16) + (<i32>hold & ((1 << extra) - 1));
      hold >>= <u64>extra;
      bits -= extra;
      if (dist > op || dist > maxDistance) return INFLATE_FAILED;
      let to = OUT + <usize>op;
      let from = to - <usize>dist;
      const stop = to + <usize>len;
      op += len;
      if (dist >= 8) {
        // Whole words; may write up to 7 bytes past the match, into room later output takes
        // (or past OUT into INDICES, which are written after inflating).
        do {
          store<u64>(to, load<u64>(from));
          to += 8;
          from += 8;
        } while (to < stop);
      } else {
        do {
          store<u8>(to, load<u8>(from));
          to++;
          from++;
        } while (to < stop);
      }
    }

    // Careful loop, as inflate.ts's: one symbol at a time, refilling a byte at a time.
    while (!blockDone) {
      while (bits < 15) {
        hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
        pos++;
        bits += 8;
      }
      let e = i32At(lt, <i32>hold & lmask);
      if ((e & KIND_MASK) == KIND_LINK) {
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        e = i32At(lt, (e >> 16) + (<i32>hold & ((1 << ((e >> 4) & 15)) - 1)));
      }
      hold >>= <u64>(e & 15);
      bits -= e & 15;
      if (pos > end && <usize>bits < (pos - end) << 3) return INFLATE_FAILED;
      if (e < 0) {
        if (op >= limit) return INFLATE_UNFINISHED;
        store<u8>(OUT + <usize>op, e >> 16);
        op++;
        continue;
      }
      if ((e & KIND_MASK) != KIND_VALUE) {
        if ((e & KIND_MASK) == KIND_EOB) break;
        return INFLATE_FAILED;
      }
      let extra = (e >> 4) & 15;
      while (bits < 15) {
        hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
        pos++;
        bits += 8;
      }
      const len = (e >> 16) + (<i32>hold & ((1 << extra) - 1));
      hold >>= <u64>extra;
      bits -= extra;
      while (bits < 15) {
        hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
        pos++;
        bits += 8;
      }
      e = i32At(dt, <i32>hold & dmask);
      if ((e & KIND_MASK) == KIND_LINK) {
        hold >>= <u64>(e & 15);
        bits -= e & 15;
        e = i32At(dt, (e >> 16) + (<i32>hold & ((1 << ((e >> 4) & 15)) - 1)));
      }
      hold >>= <u64>(e & 15);
      bits -= e & 15;
      if ((e & KIND_MASK) != KIND_VALUE) return INFLATE_FAILED;
      extra = (e >> 4) & 15;
      while (bits < 15) {
        hold |= <u64>(pos < end ? load<u8>(pos) : 0) << <u64>bits;
        pos++;
        bits += 8;
      }
      const dist = (e >> 16) + (<i32>hold & ((1 << extra) - 1));
      hold >>= <u64>extra;
      bits -= extra;
      if (pos > end && <usize>bits < (pos - end) << 3) return INFLATE_FAILED;
      if (dist > maxDistance || dist > op) return INFLATE_FAILED;
      // A match running past the limit: inflateZlib returns what fits, unfinished.
      if (len > limit - op) return INFLATE_UNFINISHED;
      let to = OUT + <usize>op;
      let from = to - <usize>dist;
      const stop = to + <usize>len;
      op += len;
      do {
        store<u8>(to, load<u8>(from));
        to++;
        from++;
      } while (to < stop);
    }
  } while (!last);

  bits -= bits & 7;
  pos -= <usize>(bits >>> 3);
  if (pos + 4 > end) return INFLATE_FAILED;
  if (adler32(OUT, op) != bswap<u32>(load<u32>(pos))) return INFLATE_FAILED;
  return op;
}

/** Inflate only, of `length` bytes at INPUT (for tests and the benchmark). */
export function inflateAt(length: i32, limit: i32): i32 {
  if (length < 0 || length > inputCapacity || limit < 0 || limit > OUT_BYTES) return INFLATE_FAILED;
  return inflate(INPUT, length, limit);
}

// ---------------------------------------------------------------------------------------
// Base64, in place: the characters at INPUT become bytes at INPUT.

/** hlog-encoding-base64's rules (padding optional, no white space inside); returns the byte count or -1. */
function base64InPlace(start: usize, end: usize): i32 {
  if (end > start && load<u8>(end - 1) == 61) end--;
  if (end > start && load<u8>(end - 1) == 61) end--;
  const chars = <i32>(end - start);
  const tail = chars & 3;
  if (tail == 1) return NOT_BASE64;
  const fullEnd = end - <usize>tail;
  let i = start;
  let o = INPUT;
  // The bytes written for each 4 characters end before the next 4 characters start.
  while (i < fullEnd) {
    const a = <u32>load<u8>(B64 + <usize>load<u8>(i));
    const b = <u32>load<u8>(B64 + <usize>load<u8>(i, 1));
    const c = <u32>load<u8>(B64 + <usize>load<u8>(i, 2));
    const d = <u32>load<u8>(B64 + <usize>load<u8>(i, 3));
    if ((a | b | c | d) & 0x80) return NOT_BASE64;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    store<u8>(o, n >> 16);
    store<u8>(o, n >> 8, 1);
    store<u8>(o, n, 2);
    i += 4;
    o += 3;
  }
  if (tail != 0) {
    const a = <u32>load<u8>(B64 + <usize>load<u8>(i));
    const b = <u32>load<u8>(B64 + <usize>load<u8>(i, 1));
    const c = tail == 3 ? <u32>load<u8>(B64 + <usize>load<u8>(i, 2)) : 0;
    if ((a | b | c) & 0x80) return NOT_BASE64;
    const n = (a << 18) | (b << 12) | (c << 6);
    store<u8>(o, n >> 16);
    o++;
    if (tail == 3) {
      store<u8>(o, n >> 8);
      o++;
    }
  }
  return <i32>(o - INPUT);
}

// @ts-ignore: decorator
@inline function isSpace(c: u32): bool {
  // The ASCII members of hlog-encoding.ts's isSpace; the wrapper declines non-ASCII text.
  return c == 32 || (c >= 9 && c <= 13);
}

// @ts-ignore: decorator
@inline function be32(p: usize): i32 {
  return <i32>bswap<u32>(load<u32>(p));
}

/** A Java long as hlog-encoding.ts's int64 computes it: high * 2^32 + low, in float64. */
// @ts-ignore: decorator
@inline function int64AsDouble(p: usize): f64 {
  return <f64>be32(p) * 4294967296.0 + <f64><u32>be32(p + 4);
}

const MAX_EXACT_INT: i64 = 9007199254740991;
const V2_COMPRESSED: i32 = 0x1c849304;
const V2_ENCODING: i32 = 0x1c849303;
const FIRST_INFLATE_LIMIT: i32 = 65536;

/**
 * Decodes the payload whose `length` ASCII characters are at INPUT. Returns how many
 * (index, count) pairs it wrote to INDICES/COUNTS, with digits, lowest, highest and the total
 * at RESULT; or a negative code when it declines.
 */
export function decode(length: i32): i32 {
  if (length <= 0 || length > inputCapacity) return NOT_BASE64;
  let start = INPUT;
  let end = INPUT + <usize>length;
  while (start < end && isSpace(load<u8>(start))) start++;
  while (end > start && isSpace(load<u8>(end - 1))) end--;
  if (start == end) return NOT_BASE64;
  const bytes = base64InPlace(start, end);
  if (bytes < 0) return bytes;
  return decodeBytes(bytes);
}

/**
 * decode() after base64: the payload's `bytes` decoded bytes are at INPUT (the browser's own
 * base64 decoder writes them there, faster than copying the text in and decoding it here).
 */
export function decodeBytes(bytes: i32): i32 {
  if (bytes < 0 || bytes > inputCapacity) return NOT_BASE64;
  // hlog-encoding.ts's inflateCompressed, for the V2 cookie family only.
  if (bytes < 8) return NOT_V2_COMPRESSED;
  if ((be32(INPUT) & ~0xf0) != V2_COMPRESSED) return NOT_V2_COMPRESSED;
  const compressedLength = be32(INPUT + 4);
  if (compressedLength < 0 || compressedLength > bytes - 8) return BAD_LENGTH;
  // The JS path's first inflate has this limit; when it fills up, the JS path goes on by what
  // the header says, which is not worth repeating here.
  const inflated = inflate(INPUT + 8, compressedLength, FIRST_INFLATE_LIMIT);
  if (inflated < 0) return inflated;
  return decodeV2(OUT, inflated);
}

/**
 * hlog-encoding.ts's parseHeader and readZigZagCounts for a V2 histogram in `b[0, len)`, with
 * the same float64 arithmetic where the JS path computes in float64.
 */
function decodeV2(b: usize, len: i32): i32 {
  if (len < 40) return BAD_HEADER;
  // V1 inside a compressed V2 is legal but never written; the JS path reads it.
  if ((be32(b) & ~0xf0) != V2_ENCODING) return BAD_HEADER;
  const payloadLength = be32(b + 4);
  const digits = be32(b + 12);
  const lowest = int64AsDouble(b + 16);
  const highest = int64AsDouble(b + 24);
  if (payloadLength < 0) return BAD_HEADER;
  if (digits < 0 || digits > 5) return BAD_HEADER;
  // ceil(log2(2 * 10^digits)): 1, 5, 8, 11, 15, 18
  const subMagnitude = digits == 0 ? 1 : digits == 1 ? 5 : digits == 2 ? 8 : digits == 3 ? 11 : digits == 4 ? 15 : 18;
  if (!(lowest >= 1)) return BAD_HEADER;
  if (!(highest >= 2 * lowest)) return BAD_HEADER;
  // floor(log2(lowest)): lowest is a finite double >= 1, so its exponent.
  const unitMagnitude = <i32>((reinterpret<u64>(lowest) >> 52) & 0x7ff) - 1023;
  if (unitMagnitude + subMagnitude > 62) return BAD_HEADER;
  // core/counts-layout.ts's countsArrayLengthFor, in float64 like it.
  let smallestUntrackable = <f64>(<u64>1 << <u64>(subMagnitude + unitMagnitude));
  let buckets = 1;
  const two62: f64 = 4611686018427387904.0;
  while (smallestUntrackable <= highest && buckets < 130) {
    if (smallestUntrackable >= two62) {
      buckets++;
      break;
    }
    smallestUntrackable *= 2;
    buckets++;
  }
  const countsLength: i64 = <i64>(buckets + 1) << <i64>(subMagnitude - 1);
  if (<i64>payloadLength > countsLength * 9) return BAD_HEADER;
  if (payloadLength > len - 40) return BAD_HEADER;

  let p = b + 40;
  const end = p + <usize>payloadLength;
  // The index stays below 2^31: one-byte values move it by at most 64, and a longer run of
  // zeros stops it at countsLength (below 2^25).
  let index = 0;
  let n = 0;
  // Exact sums of integers: the JS reader's float64 sum equals them wherever it accepts the
  // total (at most 2^53 - 1). The one-byte counts add up to less than 2^22.
  let small = 0;
  let large: i64 = 0;
  const pairEnd = end - 1;
  while (p < end) {
    if (p < pairEnd) {
      // Two one-byte values at a time, as below (one test of both bytes' high bits).
      const two = <u32>load<u16>(p);
      if ((two & 0x8080) == 0) {
        const b0 = <usize>(two & 0x7f);
        const b1 = <usize>(two >>> 8);
        const e0 = load<u32>(ONE_BYTE + (b0 << 2));
        store<i32>(INDICES + (<usize>n << 2), index);
        store<f64>(COUNTS + (<usize>n << 3), load<f64>(ONE_BYTE_COUNT + (b0 << 3)));
        n += (e0 >>> 8) & 1;
        small += e0 >>> 16;
        index += e0 & 0xff;
        const e1 = load<u32>(ONE_BYTE + (b1 << 2));
        store<i32>(INDICES + (<usize>n << 2), index);
        store<f64>(COUNTS + (<usize>n << 3), load<f64>(ONE_BYTE_COUNT + (b1 << 3)));
        n += (e1 >>> 8) & 1;
        small += e1 >>> 16;
        index += e1 & 0xff;
        p += 2;
        continue;
      }
    }
    let byte = <u32>load<u8>(p);
    p++;
    if (byte < 0x80) {
      // Almost every value is one byte (a count up to 63, or a run of up to 64 zeros): what it
      // does comes from a table, without branches. The pair is written in any case; only a
      // count moves n past it. Whether an index is beyond countsLength is checked at the end:
      // indices only grow, so the last one is the largest.
      const e = load<u32>(ONE_BYTE + (<usize>byte << 2));
      store<i32>(INDICES + (<usize>n << 2), index);
      store<f64>(COUNTS + (<usize>n << 3), load<f64>(ONE_BYTE_COUNT + (<usize>byte << 3)));
      n += (e >>> 8) & 1;
      small += e >>> 16;
      index += e & 0xff;
      continue;
    }
    let raw: u64 = <u64>(byte & 0x7f);
    let shift: u64 = 7;
    for (;;) {
      if (p >= end) return BAD_COUNTS;
      byte = <u32>load<u8>(p);
      p++;
      if (shift == 56) {
        // The 9th byte carries all 8 bits.
        raw |= <u64>byte << 56;
        break;
      }
      raw |= <u64>(byte & 0x7f) << shift;
      shift += 7;
      if (byte < 0x80) break;
    }
    // The JS reader adds these up in float64 and refuses them above 2^53 - 1 (exactly
    // then: float64 sums of non-negative terms cross 2^53 - 1 when the exact sum does).
    if (raw > 9007199254740991) return BAD_COUNTS;
    const value = <i64>(raw >>> 1) ^ -<i64>(raw & 1);
    if (value > 0) {
      if (<i64>index >= countsLength) return BAD_COUNTS;
      store<i32>(INDICES + (<usize>n << 2), index);
      store<f64>(COUNTS + (<usize>n << 3), <f64>value);
      n++;
      large += value;
      if (large > MAX_EXACT_INT) return BAD_COUNTS;
      index++;
    } else if (value == 0) {
      index++;
    } else {
      // Where a run passes the end, any count after it is beyond (the check at the end sees
      // it); the index stops there.
      if (value < -2147483647) return BAD_COUNTS;
      const next = <i64>index - value;
      index = <i32>(next < countsLength ? next : countsLength);
    }
  }
  if (n > 0 && <i64>load<i32>(INDICES + (<usize>(n - 1) << 2)) >= countsLength) return BAD_COUNTS;
  const total = large + <i64>small;
  if (total > MAX_EXACT_INT) return BAD_COUNTS;
  store<f64>(RESULT, lowest);
  store<f64>(RESULT, highest, 8);
  store<f64>(RESULT, <f64>total, 16);
  store<i32>(RESULT, digits, 24);
  store<i32>(RESULT, medianIndex(n, total), 28);
  return n;
}

/**
 * The counts-array index of the median of the `n` pairs at INDICES/COUNTS whose counts add up
 * to `total`: where the running count first reaches ceil(total / 2); -1 when total is 0. The
 * running sums are integers below 2^53, so float64 adds are exact, as they are in JS.
 */
function medianIndex(n: i32, total: i64): i32 {
  if (total <= 0) return -1;
  const target = <f64>((total + 1) >> 1);
  let run: f64 = 0;
  let k = 0;
  // Four counts at a time (one dependent add per four), then the last few one by one.
  while (k + 4 <= n) {
    const c = COUNTS + (<usize>k << 3);
    const four = load<f64>(c) + load<f64>(c, 8) + (load<f64>(c, 16) + load<f64>(c, 24));
    if (run + four >= target) break;
    run += four;
    k += 4;
  }
  for (;;) {
    run += load<f64>(COUNTS + (<usize>k << 3));
    if (run >= target) break;
    k++;
  }
  return load<i32>(INDICES + (<usize>k << 2));
}

// ---------------------------------------------------------------------------------------
// Block accumulators (core/blocks.ts): the counts of consecutive intervals added up into a
// dense array, with a bitmap of the indices touched, then taken out sparse and in index order.
// Adding a payload's pairs here, where the kernel has just written them, instead of in
// JavaScript, and taking a block out by counting trailing zeros of the bitmap's words.
//
// A slot at `base`: i32 capacity (entries), i32 lo, i32 hi (the touched range; hi < lo when
// empty), then f64 × capacity, then one bit per entry. Slots are made by slotAlloc (memory is
// grown for them; the caller reuses freed ones). Taken entries go to TAKE_INDICES/TAKE_COUNTS.

let takeAt: usize = 0;
const TAKE_ENTRIES: i32 = 65536;

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
@inline function slotAddOne(base: usize, i: i32, c: f64): void {
  const dense = base + 16;
  const bits = dense + (<usize>load<i32>(base) << 3);
  const d = dense + (<usize>i << 3);
  store<f64>(d, load<f64>(d) + c);
  const w = bits + (<usize>(i >>> 5) << 2);
  store<i32>(w, load<i32>(w) | (1 << (i & 31)));
}

/** Pairs at least one per this many indices of their span are added as dense (see slotAdd). */
const SLOT_DENSE_RATIO: i32 = 4;

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

// ---------------------------------------------------------------------------------------
// Lines read here (engine/hlog-ingest.ts kernelLines): consecutive interval lines of the usual
// shape, parsed, decoded and added to a block accumulator in one call, with what the reader
// keeps of each line written to a record. The per-line JavaScript this replaces (finding the
// fields, copying the payload in, a result object per line, adding to the blocks) was about a
// third of a reading thread's time on a fresh thread, and most of the optimising compiler's
// work during a load. The rules are pushBytes' plainLine and shortPath exactly: a line this
// declines is read the JavaScript way, which has the verdict and its message.
//
// The buffer (made by linesBuffer, memory grown for it): LINES_BYTES of the log's bytes, then
// LINE_RECORDS records of RECORD_BYTES, then KEPT_BYTES of the lines' inflated counts.

let linesAt: usize = 0;
const LINES_BYTES: i32 = 1 << 20;
const LINE_RECORDS: i32 = 64;
const RECORD_BYTES: i32 = 64;
const KEPT_BYTES: i32 = 1 << 18;
/** Why readLines stopped: records full (or the caller's room), a line not whole in the bytes, a line declined. */
const STOP_ROOM: i32 = 0;
const STOP_INCOMPLETE: i32 = 1;
const STOP_DECLINED: i32 = 2;
let linesStop: i32 = STOP_ROOM;
/** HdrHistogram's reader stops at a start beyond 2^63 seconds (formats/hlog.ts JAVA_LATEST_START). */
const JAVA_LATEST_START: f64 = 9223372036854775808.0;
const POW10 = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]);

/** The lines buffer's address (LINES_BYTES of bytes, then the records, then the kept counts); -1 when memory cannot grow. */
export function linesBuffer(): i32 {
  if (linesAt == 0) {
    const bytes = LINES_BYTES + LINE_RECORDS * RECORD_BYTES + KEPT_BYTES;
    const before = memory.grow((bytes + 0xffff) >>> 16);
    if (before < 0) return -1;
    linesAt = <usize>before << 16;
  }
  return <i32>linesAt;
}

/** Why the last readLines stopped (STOP_ROOM, STOP_INCOMPLETE, STOP_DECLINED). */
export function linesStopReason(): i32 {
  return linesStop;
}

/** formats/hlog.ts plainDecimalBytes over [s, e): the value, or -1. */
function plainDecimal(s: usize, e: usize): f64 {
  const n = <i32>(e - s);
  if (n <= 0 || n > 16) return -1;
  let m: f64 = 0;
  let digits = 0;
  let point = -1;
  for (let i = 0; i < n; i++) {
    const c = <i32>load<u8>(s + <usize>i) - 48;
    if (c >= 0 && c <= 9) {
      m = m * 10 + <f64>c;
      digits++;
    } else if (c == -2 && point < 0) point = i;
    else return -1;
  }
  if (digits == 0 || digits > 15) return -1;
  return point < 0 ? m : m / load<f64>(POW10 + (<usize>(n - 1 - point) << 3));
}

/** engine/hlog-ingest.ts decimalEnd: the comma ending a run of digits and points from i, or 0. */
function decimalEnd(i: usize, end: usize): usize {
  for (; i < end; i++) {
    const c = <u32>load<u8>(i);
    if (c == 44) return i;
    if ((c < 48 || c > 57) && c != 46) return 0;
  }
  return 0;
}

/** The first line feed in [p, end), or `end`: eight bytes a test (a zero byte of word ^ 0x0a…0a). */
function findLineFeed(p: usize, end: usize): usize {
  for (; p + 8 <= end; p += 8) {
    const x = load<u64>(p) ^ 0x0a0a0a0a0a0a0a0a;
    // The lowest flagged byte is the first zero byte (borrows only run upwards, past it).
    const t = (x - 0x0101010101010101) & ~x & 0x8080808080808080;
    if (t != 0) return p + <usize>(ctz(t) >> 3);
  }
  for (; p < end; p++) if (load<u8>(p) == 10) return p;
  return end;
}

/**
 * Reads lines from LINES + `from` up to LINES + `to` (bytes of the log, starting at a line's
 * start), at most `maxLines`, each one an interval of the usual shape in the layout (`digits`,
 * `lowest`) whose last counted index is at most `maxLast` (`zeroOk`: one counting nothing may
 * come) and below `capacity`, the size of the block accumulator `slot` the counts are added to.
 * `base`: the log's time base for the 2^63 check. `keep`: the inflated counts are copied to
 * the kept area. Returns the lines read; linesStopReason() says why it stopped.
 */
export function readLines(
  from: i32,
  to: i32,
  maxLines: i32,
  slot: i32,
  capacity: i32,
  digits: i32,
  lowest: f64,
  maxLast: i32,
  zeroOk: i32,
  base: f64,
  keep: i32,
): i32 {
  const lines = linesAt;
  const records = lines + <usize>LINES_BYTES;
  const kept = records + <usize>(LINE_RECORDS * RECORD_BYTES);
  let pos = lines + <usize>from;
  const end = lines + <usize>to;
  if (maxLines > LINE_RECORDS) maxLines = LINE_RECORDS;
  let k = 0;
  let keptUsed = 0;
  linesStop = STOP_ROOM;
  while (k < maxLines) {
    let nl = findLineFeed(pos, end);
    if (nl >= end) {
      linesStop = STOP_INCOMPLETE;
      break;
    }
    const le = nl > pos && load<u8>(nl - 1) == 13 ? nl - 1 : nl;
    const c0 = <u32>load<u8>(pos);
    if (c0 < 48 || c0 > 57) break;
    const e1 = decimalEnd(pos, le);
    if (e1 == 0) break;
    const e2 = decimalEnd(e1 + 1, le);
    if (e2 == 0) break;
    const e3 = decimalEnd(e2 + 1, le);
    if (e3 == 0) break;
    const p = e3 + 1;
    if (<i32>(le - p) < 5 || load<u8>(p) != 72 || load<u8>(p, 1) != 73 || load<u8>(p, 2) != 83 || load<u8>(p, 3) != 84 || load<u8>(le - 1) <= 32) break;
    const rawStart = plainDecimal(pos, e1);
    const length = plainDecimal(e1 + 1, e2);
    const maxColumn = plainDecimal(e2 + 1, e3);
    if (rawStart < 0 || length < 0 || maxColumn < 0) break;
    if (rawStart + base > JAVA_LATEST_START) break;
    if (keep != 0 && keptUsed + OUT_BYTES > KEPT_BYTES) {
      linesStop = STOP_ROOM;
      return k;
    }
    const chars = <i32>(le - p);
    if (chars > INPUT_BYTES) break;
    // decode(): its trimming finds nothing here (the payload starts with "H" and ends above a space).
    const bytes = base64InPlace(p, le);
    if (bytes < 0) break;
    const n = decodeBytes(bytes);
    if (n < 0) break;
    if (load<i32>(RESULT, 24) != digits || load<f64>(RESULT) != lowest) break;
    const last = n > 0 ? load<i32>(INDICES + (<usize>(n - 1) << 2)) : -1;
    if (last >= 0 ? last > maxLast || last >= capacity : zeroOk == 0) break;
    if (slotAdd(slot, <i32>INDICES, <i32>COUNTS, n) != 0) break;
    const r = records + <usize>(k * RECORD_BYTES);
    store<f64>(r, rawStart);
    store<f64>(r, length, 8);
    store<f64>(r, maxColumn, 16);
    store<f64>(r, load<f64>(RESULT, 16), 24);
    store<i32>(r, last, 32);
    store<i32>(r, load<i32>(RESULT, 28), 36);
    store<i32>(r, <i32>(p - pos), 40);
    store<i32>(r, chars, 44);
    store<i32>(r, <i32>(nl + 1 - pos), 48);
    if (keep != 0) {
      // lastCountsBytes: the counts after the inflated V2 header, as long as its header says.
      const len = be32(OUT + 4);
      memory.copy(kept + <usize>keptUsed, OUT + 40, <usize>len);
      store<i32>(r, keptUsed, 52);
      store<i32>(r, len, 56);
      keptUsed += len;
    }
    k++;
    pos = nl + 1;
  }
  if (k < maxLines && linesStop != STOP_INCOMPLETE) linesStop = STOP_DECLINED;
  return k;
}
