// One payload (see kernel.ts): base64 in place, the V2 header and its ZigZag LEB128 counts.
import { B64, RESULT, ONE_BYTE, ONE_BYTE_COUNT, OUT, INDICES, COUNTS, INPUT, inputCapacity, NOT_BASE64, NOT_V2_COMPRESSED, BAD_LENGTH, BAD_HEADER, BAD_COUNTS } from "./layout";
import { inflate } from "./inflate";

// Base64, in place: the characters at INPUT become bytes at INPUT.

/** hlog-encoding-base64's rules (padding optional, no white space inside); returns the byte count or -1. */
export function base64InPlace(start: usize, end: usize): i32 {
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
@inline export function isSpace(c: u32): bool {
  // The ASCII members of hlog-encoding.ts's isSpace; the wrapper declines non-ASCII text.
  return c == 32 || (c >= 9 && c <= 13);
}

// @ts-ignore: decorator
@inline export function be32(p: usize): i32 {
  return <i32>bswap<u32>(load<u32>(p));
}

/** A Java long as hlog-encoding.ts's int64 computes it: high * 2^32 + low, in float64. */
// @ts-ignore: decorator
@inline export function int64AsDouble(p: usize): f64 {
  return <f64>be32(p) * 4294967296.0 + <f64><u32>be32(p + 4);
}

export const MAX_EXACT_INT: i64 = 9007199254740991;
export const V2_COMPRESSED: i32 = 0x1c849304;
export const V2_ENCODING: i32 = 0x1c849303;
export const FIRST_INFLATE_LIMIT: i32 = 65536;

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
export function decodeV2(b: usize, len: i32): i32 {
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
export function medianIndex(n: i32, total: i64): i32 {
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
