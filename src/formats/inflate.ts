// Single-shot, bounded zlib inflate (RFC 1950 wrapper around RFC 1951 deflate), written for
// histogram payloads: a few hundred compressed bytes each, tens of thousands of them per log.
//
// pako (a port of zlib's streaming inflater) spends much of such a small call outside the
// decoding proper: a resumable state machine that re-checks its input at every step, Huffman
// table building that allocates, and a code-length reader that pulls bits one mode at a time.
// Here the whole input is present and the output buffer is the window, so all state lives in
// locals of one function and tables are built into reused typed arrays.
//
// Verdicts match pako's (tested in inflate.test.ts), including where pako is stricter than
// C zlib's defaults: distances beyond the window the header declares are refused (pako builds
// zlib with INFLATE_STRICT).
//
// The Huffman tables and their builder are in inflate-tables.ts. The bit buffer is shifted with
// `>>`, not `>>>`: it never holds more than 31 bits, so both give the same value, but `>>>`
// types it as uint32 and V8 then kept it as a float (~25 % slower overall).

import {
  KIND_MASK,
  KIND_VALUE,
  KIND_LINK,
  KIND_EOB,
  KIND_BAD,
  CODE_LENGTH_ORDER,
  LITLEN_TEMPLATE,
  DIST_TEMPLATE,
  CODE_LENGTH_TEMPLATE,
  LITLEN_ROOT,
  DIST_ROOT,
  CODE_LENGTH_ROOT,
  litlenTable,
  distTable,
  codeLengthTable,
  fixedLitlenTable,
  fixedDistTable,
  codeLengthCount,
  lengthCount,
  litlenCount,
  distCount,
  codedPositions,
  codeLengths,
  buildTable,
} from "./inflate-tables";
import { adler32 } from "./adler32";

/** What inflateZlib returns when the data is a valid zlib stream, or valid as far as it went. */
export interface Inflated {
  /** The bytes produced: a view of a buffer that the next call reuses. */
  bytes: Uint8Array;
  /** True when the zlib stream ended (and its checksum matched) within the limit. */
  ended: boolean;
}

// ---------------------------------------------------------------------------------------
// Output and results

/** Buffers bigger than this are dropped after the call instead of kept for the next one. */
const KEEP_OUTPUT_BYTES = 1 << 20;
const DEFAULT_OUTPUT_BYTES = 64 * 1024;
let output = new Uint8Array(DEFAULT_OUTPUT_BYTES);
let streamEnd = 0;

const TRUNCATED = "compressed payload is truncated (the zlib stream ends early)";
const PRESET_DICTIONARY = "compressed payload needs a zlib preset dictionary, which histograms never use";

function corrupt(why: string): string {
  return `compressed payload is corrupt (zlib: ${why})`;
}

function result(out: Uint8Array, produced: number, ended: boolean): Inflated {
  const bytes = out.subarray(0, produced);
  // The caller's view keeps a huge buffer alive as long as it needs it; we let go now.
  if (out.length > KEEP_OUTPUT_BYTES && output === out) output = new Uint8Array(DEFAULT_OUTPUT_BYTES);
  // `ended` first: V8 shares the hidden class of objects whose literals start with the same
  // property, and progress reports ({ bytes: <number>, … }) would otherwise turn this `bytes`
  // field from "object" to "anything", throwing away the optimised inflater mid-load (seen in
  // --trace-deopt: "dependent field representation changed").
  return { ended, bytes };
}

/**
 * The input ran out. As with zlib, a full output buffer wins: then the caller gets what the
 * limit allowed (whatever follows is unknown), else the stream is truncated.
 */
function exhausted(out: Uint8Array, produced: number, limit: number): Inflated | string {
  return produced >= limit ? result(out, produced, false) : TRUNCATED;
}

/**
 * An error seen after reading `bits`-short of `pos`. Past the end of the input, the reader
 * feeds zero bits; if any of those were consumed, zlib would have stopped for want of input
 * before seeing this error, and so do we.
 */
function failed(why: string, pos: number, end: number, bits: number, out: Uint8Array, produced: number, limit: number): Inflated | string {
  if (pos > end && bits < (pos - end) * 8) return exhausted(out, produced, limit);
  return corrupt(why);
}

// ---------------------------------------------------------------------------------------

/**
 * Inflates the zlib stream in `input[offset, offset + length)`, producing at most `limit`
 * bytes. When the limit is reached before the stream ends,
 * returns what fits with `ended: false`; returns a reason string when the data is not a valid
 * zlib stream or ends before the stream does. Bytes after the checksum are ignored. Never
 * throws. `bytes` is a view of a buffer that the next call reuses.
 */
export function inflateZlib(input: Uint8Array, offset: number, length: number, limit: number): Inflated | string {
  if (!(limit > 0)) limit = 0;
  limit = Math.floor(limit);
  if (output.length < limit) output = new Uint8Array(Math.max(limit, DEFAULT_OUTPUT_BYTES));
  const out = output;
  const inp = input;
  const end = Math.min(offset + Math.max(0, length), input.length);
  let pos = offset;
  let op = 0;

  // zlib header: CMF, FLG (RFC 1950 2.2).
  if (end - pos < 2) return exhausted(out, 0, limit);
  const cmf = inp[pos];
  const flg = inp[pos + 1];
  pos += 2;
  if (((cmf << 8) | flg) % 31 !== 0) return corrupt("incorrect header check");
  if ((cmf & 0x0f) !== 8) return corrupt("unknown compression method");
  const windowBits = (cmf >>> 4) + 8;
  if (windowBits > 15) return corrupt("invalid window size");
  // pako refuses distances beyond the declared window; so do we, for identical verdicts.
  const maxDistance = 1 << windowBits;
  if (flg & 0x20) {
    // zlib reads the dictionary id before asking for the dictionary.
    if (end - pos < 4) return exhausted(out, 0, limit);
    return PRESET_DICTIONARY;
  }

  // The bit buffer: `bits` valid bits in `hold`, next bit lowest. Past `end` the careful
  // reads below feed zeros (and keep counting pos), so that a code can be looked up with a
  // full table index near the end; `failed` and the checks against `(pos - end) * 8` tell
  // whether any of those zeros were actually used.
  let hold = 0;
  let bits = 0;
  let last: number;
  do {
    while (bits < 3) {
      hold |= (pos < end ? inp[pos] : 0) << bits;
      pos++;
      bits += 8;
    }
    last = hold & 1;
    const type = (hold >>> 1) & 3;
    hold >>= 3;
    bits -= 3;
    if (pos > end && bits < (pos - end) * 8) return exhausted(out, op, limit);

    if (type === 0) {
      // Stored: drop to a byte boundary and hand whole buffered bytes back to the input.
      bits -= bits & 7;
      pos -= bits >>> 3;
      hold = 0;
      bits = 0;
      if (end - pos < 4) return exhausted(out, op, limit);
      const len = inp[pos] | (inp[pos + 1] << 8);
      if (len !== (~(inp[pos + 2] | (inp[pos + 3] << 8)) & 0xffff)) return corrupt("invalid stored block lengths");
      pos += 4;
      const n = Math.min(len, limit - op, end - pos);
      if (n > 64) out.set(inp.subarray(pos, pos + n), op);
      else for (let i = 0; i < n; i++) out[op + i] = inp[pos + i];
      pos += n;
      op += n;
      if (n < len) return exhausted(out, op, limit);
      continue;
    }

    let lt: Int32Array;
    let dt: Int32Array;
    let lmask: number;
    let dmask: number;
    if (type === 1) {
      lt = fixedLitlenTable;
      dt = fixedDistTable;
      lmask = (1 << 9) - 1;
      dmask = (1 << 5) - 1;
    } else if (type === 2) {
      // Dynamic block header (RFC 1951 3.2.7).
      while (bits < 14) {
        hold |= (pos < end ? inp[pos] : 0) << bits;
        pos++;
        bits += 8;
      }
      const nlen = (hold & 0x1f) + 257;
      const ndist = ((hold >>> 5) & 0x1f) + 1;
      const ncode = ((hold >>> 10) & 0x0f) + 4;
      hold >>= 14;
      bits -= 14;
      if (nlen > 286 || ndist > 30) return failed("too many length or distance symbols", pos, end, bits, out, op, limit);
      const lens = codeLengths;
      const clCount = codeLengthCount;
      for (let l = 0; l < 16; l++) clCount[l] = 0;
      for (let l = 0; l < 32; l++) lengthCount[l] = 0;
      for (let i = 0; i < 19; i++) {
        let l = 0;
        if (i < ncode) {
          if (bits < 3) {
            hold |= (pos < end ? inp[pos] : 0) << bits;
            pos++;
            bits += 8;
          }
          l = hold & 7;
          hold >>= 3;
          bits -= 3;
        }
        lens[CODE_LENGTH_ORDER[i]] = l;
        clCount[l]++;
      }
      const coded = codedPositions;
      let nCoded = 0;
      for (let s = 0; s < 19; s++) {
        // Branch-free append of the nonzero ones: which lengths are zero follows no pattern a
        // branch predictor could learn.
        coded[nCoded] = s;
        nCoded += -lens[s] >>> 31;
      }
      const clRoot = buildTable(lens, 0, coded, 0, nCoded, clCount, CODE_LENGTH_TEMPLATE, codeLengthTable, CODE_LENGTH_ROOT, false);
      if (clRoot < 0) return failed("invalid code lengths set", pos, end, bits, out, op, limit);
      // No code-length code at all: zlib's table then reads every length as a 1-bit zero,
      // which ends in "missing end-of-block"; emulated so truncation verdicts agree too.
      if (clRoot === 0) codeLengthTable[0] = codeLengthTable[1] = 1;
      const clMask = (1 << (clRoot === 0 ? 1 : clRoot)) - 1;
      const total = nlen + ndist;
      let i = 0;
      nCoded = 0;
      while (i < total) {
        // A code (<= 7 bits) and its repeat count (<= 7 bits).
        if (bits < 14) {
          if (pos + 2 <= end) {
            hold |= (inp[pos] | (inp[pos + 1] << 8)) << bits;
            pos += 2;
            bits += 16;
          } else {
            while (bits < 14) {
              hold |= (pos < end ? inp[pos] : 0) << bits;
              pos++;
              bits += 8;
            }
          }
        }
        const e = codeLengthTable[hold & clMask];
        const sym = e >> 16;
        hold >>= e & 15;
        bits -= e & 15;
        if (sym < 16) {
          lengthCount[(i < nlen ? 0 : 16) + sym]++;
          coded[nCoded] = i;
          nCoded += -sym >>> 31;
          lens[i++] = sym;
          continue;
        }
        let repeat: number;
        let value = 0;
        if (sym === 16) {
          repeat = 3 + (hold & 3);
          hold >>= 2;
          bits -= 2;
          if (i === 0) return failed("invalid bit length repeat", pos, end, bits, out, op, limit);
          value = lens[i - 1];
        } else if (sym === 17) {
          repeat = 3 + (hold & 7);
          hold >>= 3;
          bits -= 3;
        } else {
          repeat = 11 + (hold & 0x7f);
          hold >>= 7;
          bits -= 7;
        }
        if (i + repeat > total) return failed("invalid bit length repeat", pos, end, bits, out, op, limit);
        if (value === 0) {
          // Zero lengths are not counted (count[0] is unused).
          while (repeat-- > 0) lens[i++] = 0;
        } else {
          while (repeat-- > 0) {
            lengthCount[(i < nlen ? 0 : 16) + value]++;
            coded[nCoded++] = i;
            lens[i++] = value;
          }
        }
      }
      if (pos > end && bits < (pos - end) * 8) return exhausted(out, op, limit);
      if (lens[256] === 0) return corrupt("invalid code -- missing end-of-block");
      // The literal/length symbols' codes are the first coded positions.
      let litlenCoded = 0;
      for (let l = 1; l <= 15; l++) litlenCoded += litlenCount[l];
      const lroot = buildTable(lens, 0, coded, 0, litlenCoded, litlenCount, LITLEN_TEMPLATE, litlenTable, LITLEN_ROOT, true);
      if (lroot <= 0) return corrupt("invalid literal/lengths set");
      let droot = buildTable(lens, nlen, coded, litlenCoded, nCoded, distCount, DIST_TEMPLATE, distTable, DIST_ROOT, true);
      if (droot < 0) return corrupt("invalid distances set");
      if (droot === 0) {
        // No distance codes (a block of literals only). zlib accepts it; decoding a distance
        // is then an error, after reading one bit.
        distTable[0] = distTable[1] = KIND_BAD | 1;
        droot = 1;
      }
      lt = litlenTable;
      dt = distTable;
      lmask = (1 << lroot) - 1;
      dmask = (1 << droot) - 1;
    } else {
      return corrupt("invalid block type");
    }

    // Fast loop: while at least 8 input bytes (the most one length/distance pair can need
    // with 2-byte refills) and 258 bytes of output room (the longest match) remain, nothing
    // inside needs a bounds check.
    const inFast = end - 8;
    const outFast = limit - 258;
    let blockDone = false;
    while (pos <= inFast && op <= outFast) {
      if (bits < 15) {
        hold |= (inp[pos] | (inp[pos + 1] << 8)) << bits;
        pos += 2;
        bits += 16;
      }
      let e = lt[hold & lmask];
      if (e < 0) {
        hold >>= e & 15;
        bits -= e & 15;
        out[op++] = e >> 16;
        // Literals come in runs: try the next one without going round the loop, as long as
        // the bits it takes are already in `hold` (the index's missing top bits are zeros,
        // but an entry no longer than `bits` did not use them).
        e = lt[hold & lmask];
        if (e < 0 && (e & 15) <= bits) {
          hold >>= e & 15;
          bits -= e & 15;
          out[op++] = e >> 16;
        }
        continue;
      }
      if ((e & KIND_MASK) === KIND_LINK) {
        hold >>= e & 15;
        bits -= e & 15;
        e = lt[(e >> 16) + (hold & ((1 << ((e >> 4) & 15)) - 1))];
        if (e < 0) {
          hold >>= e & 15;
          bits -= e & 15;
          out[op++] = e >> 16;
          continue;
        }
      }
      hold >>= e & 15;
      bits -= e & 15;
      if ((e & KIND_MASK) !== KIND_VALUE) {
        if ((e & KIND_MASK) === KIND_EOB) {
          blockDone = true;
          break;
        }
        return corrupt("invalid literal/length code");
      }
      let extra = (e >> 4) & 15;
      if (bits < extra) {
        hold |= (inp[pos] | (inp[pos + 1] << 8)) << bits;
        pos += 2;
        bits += 16;
      }
      const len = (e >> 16) + (hold & ((1 << extra) - 1));
      hold >>= extra;
      bits -= extra;

      if (bits < 15) {
        hold |= (inp[pos] | (inp[pos + 1] << 8)) << bits;
        pos += 2;
        bits += 16;
      }
      e = dt[hold & dmask];
      if ((e & KIND_MASK) === KIND_LINK) {
        hold >>= e & 15;
        bits -= e & 15;
        e = dt[(e >> 16) + (hold & ((1 << ((e >> 4) & 15)) - 1))];
      }
      hold >>= e & 15;
      bits -= e & 15;
      if ((e & KIND_MASK) !== KIND_VALUE) return corrupt("invalid distance code");
      extra = (e >> 4) & 15;
      if (bits < extra) {
        hold |= (inp[pos] | (inp[pos + 1] << 8)) << bits;
        pos += 2;
        bits += 16;
      }
      const dist = (e >> 16) + (hold & ((1 << extra) - 1));
      hold >>= extra;
      bits -= extra;
      if (dist > op || dist > maxDistance) return corrupt("invalid distance too far back");
      // Byte by byte: overlapping matches (dist < len) repeat what they have just written,
      // and matches here are short enough that a copyWithin call would cost more.
      let from = op - dist;
      const stop = op + len;
      while (op < stop) out[op++] = out[from++];
    }

    // Careful loop: near the end of the input or of the room, one symbol at a time.
    while (!blockDone) {
      while (bits < 15) {
        hold |= (pos < end ? inp[pos] : 0) << bits;
        pos++;
        bits += 8;
      }
      let e = lt[hold & lmask];
      if ((e & KIND_MASK) === KIND_LINK) {
        hold >>= e & 15;
        bits -= e & 15;
        e = lt[(e >> 16) + (hold & ((1 << ((e >> 4) & 15)) - 1))];
      }
      hold >>= e & 15;
      bits -= e & 15;
      if (pos > end && bits < (pos - end) * 8) return exhausted(out, op, limit);
      if (e < 0) {
        if (op >= limit) return result(out, op, false);
        out[op++] = e >> 16;
        continue;
      }
      if ((e & KIND_MASK) !== KIND_VALUE) {
        if ((e & KIND_MASK) === KIND_EOB) break;
        return corrupt("invalid literal/length code");
      }
      let extra = (e >> 4) & 15;
      while (bits < 15) {
        hold |= (pos < end ? inp[pos] : 0) << bits;
        pos++;
        bits += 8;
      }
      const len = (e >> 16) + (hold & ((1 << extra) - 1));
      hold >>= extra;
      bits -= extra;
      while (bits < 15) {
        hold |= (pos < end ? inp[pos] : 0) << bits;
        pos++;
        bits += 8;
      }
      e = dt[hold & dmask];
      if ((e & KIND_MASK) === KIND_LINK) {
        hold >>= e & 15;
        bits -= e & 15;
        e = dt[(e >> 16) + (hold & ((1 << ((e >> 4) & 15)) - 1))];
      }
      hold >>= e & 15;
      bits -= e & 15;
      if ((e & KIND_MASK) !== KIND_VALUE) return failed("invalid distance code", pos, end, bits, out, op, limit);
      extra = (e >> 4) & 15;
      while (bits < 15) {
        hold |= (pos < end ? inp[pos] : 0) << bits;
        pos++;
        bits += 8;
      }
      const dist = (e >> 16) + (hold & ((1 << extra) - 1));
      hold >>= extra;
      bits -= extra;
      if (pos > end && bits < (pos - end) * 8) return exhausted(out, op, limit);
      // zlib's order: the declared-window check comes with the distance, the check against
      // what has been produced only when there is room to copy.
      if (dist > maxDistance) return corrupt("invalid distance too far back");
      if (op >= limit) return result(out, op, false);
      if (dist > op) return corrupt("invalid distance too far back");
      let from = op - dist;
      const n = Math.min(len, limit - op);
      const stop = op + n;
      while (op < stop) out[op++] = out[from++];
      if (n < len) return result(out, op, false);
    }
  } while (!last);

  // Adler-32 trailer, big-endian, from the byte boundary.
  bits -= bits & 7;
  pos -= bits >>> 3;
  if (end - pos < 4) return exhausted(out, op, limit);
  const expected = ((inp[pos] << 24) | (inp[pos + 1] << 16) | (inp[pos + 2] << 8) | inp[pos + 3]) >>> 0;
  if (adler32(out, op) !== expected) return corrupt("incorrect data check");
  streamEnd = pos + 4;
  return result(out, op, true);
}

/**
 * Where, in its input, the stream the last call ended (`ended: true`) stopped: one past its
 * checksum. inflateZlib ignores what follows; a caller for which trailing bytes are an error
 * (a share link) compares this with its input's end.
 */
export function lastStreamEnd(): number {
  return streamEnd;
}
