// The inflater (see kernel.ts): zlib streams at fixed addresses, checked as inflate.ts checks them.
import { LIT_TABLE, DIST_TABLE, CL_TABLE, FIXED_LIT, FIXED_DIST, LIT_TEMPLATE, DIST_TEMPLATE, CL_TEMPLATE, CL_COUNT, LEN_COUNT, DIST_COUNT, CODED, LENS, OUT, OUT_BYTES, INPUT, inputCapacity, INFLATE_FAILED, INFLATE_UNFINISHED } from "./layout";
import { KIND_MASK, KIND_VALUE, KIND_LINK, KIND_EOB, KIND_BAD, LITLEN_ROOT, DIST_ROOT, CODE_LENGTH_ROOT, CODE_LENGTH_ORDER, i32At, setI32, buildTable } from "./tables";

export function adler32(start: usize, n: i32): u32 {
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
export function inflate(inp: usize, length: i32, limit: i32): i32 {
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
