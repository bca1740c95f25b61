import { RESULT, OUT, OUT_BYTES, INDICES, COUNTS, INPUT_BYTES } from "./layout";
import { base64InPlace, be32, decodeBytes } from "./decode";
import { slotAdd } from "./slots";

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

export let linesAt: usize = 0;
export const LINES_BYTES: i32 = 1 << 20;
export const LINE_RECORDS: i32 = 64;
export const RECORD_BYTES: i32 = 64;
export const KEPT_BYTES: i32 = 1 << 18;
/** Why readLines stopped: records full (or the caller's room), a line not whole in the bytes, a line declined. */
export const STOP_ROOM: i32 = 0;
export const STOP_INCOMPLETE: i32 = 1;
export const STOP_DECLINED: i32 = 2;
export let linesStop: i32 = STOP_ROOM;
/** HdrHistogram's reader stops at a start beyond 2^63 seconds (formats/hlog.ts JAVA_LATEST_START). */
export const JAVA_LATEST_START: f64 = 9223372036854775808.0;
export const POW10 = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]);

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
export function plainDecimal(s: usize, e: usize): f64 {
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
export function decimalEnd(i: usize, end: usize): usize {
  for (; i < end; i++) {
    const c = <u32>load<u8>(i);
    if (c == 44) return i;
    if ((c < 48 || c > 57) && c != 46) return 0;
  }
  return 0;
}

/** The first line feed in [p, end), or `end`: eight bytes a test (a zero byte of word ^ 0x0a…0a). */
export function findLineFeed(p: usize, end: usize): usize {
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
