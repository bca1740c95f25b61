import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
// @ts-expect-error -- pako 1.x ships no type declarations
import pako from "pako";
import { describe, expect, it } from "vitest";
import { decodeBase64 } from "./hlog-encoding-base64";
import { inflateBounded } from "../../tests/support/pako-inflate";
import { BitWriter, histogramLike, repetitive } from "../../tests/support/inflate-inputs";
import { inflateZlib, lastStreamEnd } from "./inflate";

// inflateZlib must give the verdicts of inflateBounded (pako's zlib port): the same bytes,
// the same `ended`, and an error exactly when pako gives one (reason texts may differ).

type Inflater = (input: Uint8Array, offset: number, length: number, limit: number) => unknown;
type Outcome = { ok: true; ended: boolean; bytes: number[] } | { ok: false };

/** A call's result in a comparable form (both inflaters reuse their output buffers). */
function outcome(inflate: Inflater, input: Uint8Array, offset: number, length: number, limit: number): Outcome {
  const r = inflate(input, offset, length, limit) as { bytes: Uint8Array; ended: boolean } | string;
  if (typeof r === "string") return { ok: false };
  return { ok: true, ended: r.ended, bytes: Array.from(r.bytes) };
}

function expectSameAsPako(input: Uint8Array, limit: number, offset = 0, length = input.length - offset): void {
  const mine = outcome(inflateZlib, input, offset, length, limit);
  const theirs = outcome(inflateBounded, input, offset, length, limit);
  expect(mine).toEqual(theirs);
}

const deflateOptions = fc.record({
  level: fc.integer({ min: 0, max: 9 }),
  // Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED
  strategy: fc.integer({ min: 0, max: 4 }),
  windowBits: fc.integer({ min: 8, max: 15 }),
  memLevel: fc.integer({ min: 1, max: 9 }),
});

/**
 * pako.deflate, or null where pako 1.0.11's deflate itself throws (a RangeError from its
 * stored-block path, e.g. 508 zero bytes at level 0, windowBits 8, memLevel 1): nothing to
 * inflate there.
 */
function deflate(bytes: Uint8Array, options: object): Uint8Array {
  let z: Uint8Array | null;
  try {
    z = pako.deflate(bytes, options) as Uint8Array;
  } catch {
    z = null;
  }
  fc.pre(z !== null);
  return z!;
}

const data = fc.oneof(fc.uint8Array({ maxLength: 3000 }), repetitive, histogramLike);

describe("inflateZlib against pako", () => {
  it("inflates what pako.deflate makes, at every level, strategy, window and memory level", () => {
    fc.assert(
      fc.property(data, deflateOptions, (bytes, options) => {
        const z = deflate(bytes, options);
        const r = inflateZlib(z, 0, z.length, bytes.length);
        if (typeof r === "string") throw new Error(r);
        expect(r.ended).toBe(true);
        expect(Array.from(r.bytes)).toEqual(Array.from(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it("stops at any limit where pako stops, with the same bytes", () => {
    fc.assert(
      fc.property(data, deflateOptions, fc.nat(), (bytes, options, l) => {
        const z = deflate(bytes, options);
        expectSameAsPako(z, l % (bytes.length + 3));
      }),
      { numRuns: 400 },
    );
  });

  it("reads the stream inside a larger buffer and ignores bytes after the checksum", () => {
    fc.assert(
      fc.property(data, fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 20 }), (bytes, before, after) => {
        const z: Uint8Array = pako.deflate(bytes);
        const buffer = Uint8Array.from([...before, ...z, ...after]);
        expectSameAsPako(buffer, 1 << 16, before.length, z.length + after.length);
        const r = inflateZlib(buffer, before.length, z.length + after.length, 1 << 16);
        expect(typeof r === "string" ? r : r.bytes.length).toBe(bytes.length);
        // Where the stream stopped: what a caller for which trailing bytes are an error checks.
        expect(lastStreamEnd()).toBe(before.length + z.length);
      }),
      { numRuns: 100 },
    );
  });

  it("agrees on truncated streams, whatever the limit", () => {
    fc.assert(
      fc.property(data, deflateOptions, fc.nat(), fc.nat(), (bytes, options, cut, l) => {
        const z = deflate(bytes, options);
        const length = cut % (z.length + 1);
        // Big limits, and limits at or near the output size, where truncation meets a full buffer.
        const limit = l % 2 === 0 ? 1 << 16 : (l >> 1) % (bytes.length + 2);
        expectSameAsPako(z, limit, 0, length);
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees on streams with flipped bits, whatever the limit", () => {
    fc.assert(
      fc.property(data, deflateOptions, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.nat(), (bytes, options, flips, l) => {
        const z = deflate(bytes, options).slice();
        // Mostly in the first bytes, where a block header's code lengths are.
        for (const f of flips) {
          const bit = f % 2 === 0 ? (f >> 1) % Math.min(z.length * 8, 400) : (f >> 1) % (z.length * 8);
          z[bit >> 3] ^= 1 << (bit & 7);
        }
        const limit = l % 2 === 0 ? 1 << 16 : (l >> 1) % (bytes.length + 2);
        expectSameAsPako(z, limit);
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on garbage, and agrees with pako on it", () => {
    // Garbage behind a valid zlib header reaches the block decoder; fully random bytes mostly
    // test the header checks.
    const header = fc.constantFrom([0x78, 0x9c], [0x78, 0x01], [0x78, 0xda], [0x08, 0x1d], [0x58, 0x85], []);
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 5000 }), (h, rest, limit) => {
        const input = Uint8Array.from([...h, ...rest]);
        expect(() => inflateZlib(input, 0, input.length, limit)).not.toThrow();
        expectSameAsPako(input, limit);
      }),
      { numRuns: 5000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Hand-made streams, for what pako.deflate never writes

function adler32(b: ArrayLike<number>): number {
  let a = 1;
  let s = 0;
  for (let i = 0; i < b.length; i++) {
    a = (a + b[i]) % 65521;
    s = (s + a) % 65521;
  }
  return (s * 65536 + a) >>> 0;
}

/** A zlib stream: header (window bits as given), the deflate bits, the Adler-32 of `output`. */
function zlibStream(w: BitWriter, output: ArrayLike<number>, windowBits = 15): Uint8Array {
  w.align();
  const cmf = ((windowBits - 8) << 4) | 8;
  let flg = 0;
  while (((cmf << 8) | flg) % 31 !== 0) flg++;
  const check = adler32(output);
  return Uint8Array.from([cmf, flg, ...w.bytes, check >>> 24, (check >>> 16) & 0xff, (check >>> 8) & 0xff, check & 0xff]);
}

/** Canonical codes (RFC 1951 3.2.2) for the given lengths. */
/** The Huffman codes a dynamic block's header declares with these code lengths. */
function dynamicCode(litLengths: number[], distLengths: number[]): { lit: Code; dist: Code } {
  return { lit: { codes: canonical(litLengths), lengths: litLengths }, dist: { codes: canonical(distLengths), lengths: distLengths } };
}

/** The zlib stream of what `w` holds, checked to inflate to `out` within `limit` bytes. */
function expectInflates(w: BitWriter, out: number[], limit: number): Uint8Array {
  const z = zlibStream(w, out);
  const r = inflateZlib(z, 0, z.length, limit);
  if (typeof r === "string") throw new Error(r);
  expect(Array.from(r.bytes)).toEqual(out);
  return z;
}

function canonical(lengths: number[]): number[] {
  const count = new Array<number>(16).fill(0);
  for (const l of lengths) if (l) count[l]++;
  const next = new Array<number>(16).fill(0);
  let code = 0;
  for (let l = 1; l < 16; l++) {
    code = (code + count[l - 1]) << 1;
    next[l] = code;
  }
  next[0] = 0;
  return lengths.map((l) => (l ? next[l]++ : -1));
}

const FIXED_LITLEN = Array.from({ length: 288 }, (_, s) => (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8));
const FIXED_CODES = canonical(FIXED_LITLEN);
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** A Huffman code for writing: codes and lengths per symbol. */
interface Code {
  codes: number[];
  lengths: number[];
}
const FIXED: { lit: Code; dist: Code } = {
  lit: { codes: FIXED_CODES, lengths: FIXED_LITLEN },
  dist: { codes: Array.from({ length: 32 }, (_, i) => i), lengths: new Array<number>(32).fill(5) },
};

/** Writes a match (length 3..258, distance 1..32768) and applies it to `out`. */
function writeMatch(w: BitWriter, code: { lit: Code; dist: Code }, out: number[], length: number, distance: number): void {
  let ls = 28;
  while (LENGTH_BASE[ls] > length) ls--;
  // Length 258 has its own symbol (285); 227 + 31 would be the same length the long way.
  w.code(code.lit.codes[257 + ls], code.lit.lengths[257 + ls]).bits(length - LENGTH_BASE[ls], LENGTH_EXTRA[ls]);
  let ds = 29;
  while (DIST_BASE[ds] > distance) ds--;
  w.code(code.dist.codes[ds], code.dist.lengths[ds]).bits(distance - DIST_BASE[ds], DIST_EXTRA[ds]);
  for (let i = 0; i < length; i++) out.push(out[out.length - distance]);
}

function writeLiteral(w: BitWriter, code: { lit: Code }, out: number[], byte: number): void {
  w.code(code.lit.codes[byte], code.lit.lengths[byte]);
  out.push(byte);
}

/** A dynamic block header for the given lengths, its code-length code sending each length plainly. */
function writeDynamicHeader(w: BitWriter, litLengths: number[], distLengths: number[]): void {
  const all = [...litLengths, ...distLengths];
  // A complete code-length code where every length 0..15 has a code: all 4 bits long.
  const clLengths = new Array<number>(19).fill(0);
  for (let s = 0; s < 16; s++) clLengths[s] = 4;
  const clCodes = canonical(clLengths);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  w.bits(litLengths.length - 257, 5)
    .bits(distLengths.length - 1, 5)
    .bits(19 - 4, 4);
  for (const s of order) w.bits(clLengths[s], 3);
  for (const l of all) w.code(clCodes[l], 4);
}

/**
 * A final dynamic block from raw header fields and code-length symbols ([symbol, extra value]),
 * then `body` for the data, in a zlib stream: for headers pako.deflate never writes.
 */
function rawDynamic(nlen: number, ndist: number, symbols: Array<[number, number]>, body: (w: BitWriter) => void = () => {}): Uint8Array {
  // A complete code-length code over all 19 symbols: 13 of 4 bits, 6 of 5 bits.
  const clLengths = Array.from({ length: 19 }, (_, s) => (s < 13 ? 4 : 5));
  const clCodes = canonical(clLengths);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  const w = new BitWriter()
    .bits(1, 1)
    .bits(2, 2)
    .bits(nlen - 257, 5)
    .bits(ndist - 1, 5)
    .bits(19 - 4, 4);
  for (const s of order) w.bits(clLengths[s], 3);
  for (const [sym, extra] of symbols) w.code(clCodes[sym], clLengths[sym]).bits(extra, sym === 16 ? 2 : sym === 17 ? 3 : sym === 18 ? 7 : 0);
  body(w);
  return zlibStream(w, []);
}

describe("inflateZlib on hand-made streams", () => {
  it("reads an empty stored block", () => {
    const w = new BitWriter().bits(1, 1).bits(0, 2).align().bits(0, 16).bits(0xffff, 16);
    const z = zlibStream(w, []);
    const r = inflateZlib(z, 0, z.length, 100);
    expect(r).toEqual({ bytes: new Uint8Array(0), ended: true });
    expectSameAsPako(z, 100);
    expectSameAsPako(z, 0);
  });

  it("reads a stored block then a fixed block", () => {
    const out: number[] = [];
    const w = new BitWriter()
      .bits(0, 1)
      .bits(0, 2)
      .align()
      .bits(5, 16)
      .bits(0xffff ^ 5, 16);
    for (const b of [1, 2, 3, 250, 251]) {
      w.bits(b, 8);
      out.push(b);
    }
    w.bits(1, 1).bits(1, 2);
    for (const b of [7, 200, 143, 144, 255, 0]) writeLiteral(w, FIXED, out, b);
    writeMatch(w, FIXED, out, 10, 11);
    w.code(FIXED.lit.codes[256], FIXED.lit.lengths[256]);
    const z = expectInflates(w, out, 1000);
    for (let limit = 0; limit <= out.length + 1; limit++) expectSameAsPako(z, limit);
    for (let length = 0; length <= z.length; length++) expectSameAsPako(z, 1000, 0, length);
  });

  it("reaches back 32768 bytes with length 258 (window bits 15), and pako's strictness about smaller windows", () => {
    const out: number[] = [];
    const w = new BitWriter().bits(1, 1).bits(1, 2);
    for (let i = 0; i < 200; i++) writeLiteral(w, FIXED, out, (i * 37 + 11) & 0xff);
    while (out.length < 32768) writeMatch(w, FIXED, out, Math.min(258, 32768 - out.length), 199);
    writeMatch(w, FIXED, out, 258, 32768);
    // Not the last symbols, so that the match is decoded by the main loop, not near the end.
    for (let i = 0; i < 30; i++) writeLiteral(w, FIXED, out, i);
    w.code(FIXED.lit.codes[256], FIXED.lit.lengths[256]);
    expect(out.length).toBe(32768 + 258 + 30);
    const z = expectInflates(w, out, 1 << 17);
    expectSameAsPako(z, 1 << 17);
    expectSameAsPako(z, 32768 + 100);
    // The same stream under a header declaring a 16 KB window: C zlib (built without
    // INFLATE_STRICT) would inflate it, pako refuses the distance beyond the declared window,
    // and so does inflateZlib (the one place where pako is stricter than zlib's defaults).
    const z14 = zlibStream(Object.assign(new BitWriter(), { bytes: [...w.bytes] }), out, 14);
    expect(typeof inflateZlib(z14, 0, z14.length, 1 << 17)).toBe("string");
    expectSameAsPako(z14, 1 << 17);
    // A distance one byte further back than the output reaches: an error, unless the limit
    // stops inflating first.
    const w2 = new BitWriter().bits(1, 1).bits(1, 2);
    const out2: number[] = [];
    for (let i = 0; i < 300; i++) writeLiteral(w2, FIXED, out2, i & 0xff);
    writeMatch(w2, FIXED, [...out2, 0], 4, 301);
    w2.code(FIXED.lit.codes[256], FIXED.lit.lengths[256]);
    const tooFar = zlibStream(w2, out2);
    expect(typeof inflateZlib(tooFar, 0, tooFar.length, 1000)).toBe("string");
    for (const limit of [299, 300, 301, 1000]) expectSameAsPako(tooFar, limit);
  });

  it("decodes a dynamic code using all 286 literal/length and 30 distance symbols", () => {
    // Complete codes: 226 lengths of 8 and 60 of 9 (226/256 + 60/512 = 1); 2 of 4 and 28 of 5.
    const litLengths = Array.from({ length: 286 }, (_, s) => (s < 226 ? 8 : 9));
    const distLengths = Array.from({ length: 30 }, (_, s) => (s < 2 ? 4 : 5));
    const code = dynamicCode(litLengths, distLengths);
    const w = new BitWriter().bits(1, 1).bits(2, 2);
    writeDynamicHeader(w, litLengths, distLengths);
    const out: number[] = [];
    for (let b = 0; b < 256; b++) writeLiteral(w, code, out, b);
    while (out.length < 25000) writeMatch(w, code, out, 258, 1 + (out.length % 200));
    for (let ds = 0; ds < 30; ds++) {
      for (let ls = 0; ls < 29; ls++) {
        const length = LENGTH_BASE[ls] + (ds % (1 << LENGTH_EXTRA[ls]));
        const distance = DIST_BASE[ds] + ((ls * 7) % (1 << DIST_EXTRA[ds]));
        writeMatch(w, code, out, length, distance);
      }
    }
    w.code(code.lit.codes[256], code.lit.lengths[256]);
    const z = expectInflates(w, out, 1 << 20);
    expectSameAsPako(z, 1 << 20);
    expectSameAsPako(z, 12345);
  });

  it("decodes codes up to 15 bits long (sub-tables), for literals and distances", () => {
    // Lengths 1, 2, ..., 14, 15, 15: complete, and as deep as deflate allows.
    const skewed = Array.from({ length: 16 }, (_, i) => Math.min(i + 1, 15));
    // Block 1: literals 0, 3, ..., 42 with lengths 1..15, end of block 15.
    const litLengths = new Array<number>(286).fill(0);
    for (let i = 0; i < 15; i++) litLengths[i * 3] = skewed[i];
    litLengths[256] = 15;
    const distLengths = skewed.concat(new Array<number>(14).fill(0));
    const code1 = dynamicCode(litLengths, distLengths);
    const out: number[] = [];
    const w = new BitWriter().bits(0, 1).bits(2, 2);
    writeDynamicHeader(w, litLengths, distLengths);
    for (let rep = 0; rep < 3; rep++) for (let i = 0; i < 15; i++) writeLiteral(w, code1, out, i * 3);
    w.code(code1.lit.codes[256], code1.lit.lengths[256]);
    // Block 2: length symbols with deep codes, and the deep distance codes.
    const lengths2 = new Array<number>(286).fill(0);
    lengths2[0] = 2; // literal 0
    lengths2[256] = 2; // end of block
    lengths2[257] = 2; // length 3
    // The remaining quarter of the code space goes deep: 1/8, 1/16, ..., 2^-14, 2^-15, 2^-15.
    for (let i = 0; i < 13; i++) lengths2[258 + i] = 3 + i; // lengths 4..16 get codes 3..15 bits
    lengths2[271] = 15;
    const code2 = { lit: { codes: canonical(lengths2), lengths: lengths2 }, dist: code1.dist };
    w.bits(1, 1).bits(2, 2);
    writeDynamicHeader(w, lengths2, distLengths);
    for (let i = 0; i < 300; i++) writeLiteral(w, code2, out, 0);
    for (let ls = 0; ls <= 14; ls++) {
      for (let ds = 0; ds < 16; ds++) writeMatch(w, code2, out, LENGTH_BASE[ls], DIST_BASE[ds]);
    }
    w.code(code2.lit.codes[256], code2.lit.lengths[256]);
    const z = expectInflates(w, out, 1 << 20);
    expectSameAsPako(z, 1 << 20);
    for (let length = 0; length < z.length; length += 3) expectSameAsPako(z, 1 << 20, 0, length);
  });

  it("refuses what zlib refuses in headers and code sets", () => {
    const cases: Array<[string, Uint8Array]> = [];
    const ok = pako.deflate(Uint8Array.from([1, 2, 3, 1, 2, 3, 1, 2, 3])) as Uint8Array;
    cases.push(["FCHECK", Uint8Array.from([0x78, 0x9d, ...ok.subarray(2)])]);
    cases.push(["method 7", Uint8Array.from([0x77, 0x85, ...ok.subarray(2)])]);
    cases.push(["window bits 16", Uint8Array.from([0x88, 0x98, ...ok.subarray(2)])]);
    cases.push(["preset dictionary", Uint8Array.from([0x78, 0xbb, 0, 0, 0, 1, ...ok.subarray(2)])]);
    cases.push(["bad checksum", Uint8Array.from([...ok.subarray(0, ok.length - 1), ok[ok.length - 1] ^ 1])]);
    cases.push(["block type 3", zlibStream(new BitWriter().bits(1, 1).bits(3, 2), [])]);
    cases.push(["stored lengths", zlibStream(new BitWriter().bits(1, 1).bits(0, 2).align().bits(3, 16).bits(3, 16), [])]);
    // Over-subscribed literal/length code: three symbols of length 1.
    const over = new Array<number>(257).fill(0);
    over[0] = over[1] = over[256] = 1;
    const wOver = new BitWriter().bits(1, 1).bits(2, 2);
    writeDynamicHeader(wOver, over, [1, 1]);
    cases.push(["over-subscribed", zlibStream(wOver, [])]);
    // Incomplete literal/length code with more than one code: refused.
    const incomplete = new Array<number>(257).fill(0);
    incomplete[0] = 1;
    incomplete[256] = 2;
    const wInc = new BitWriter().bits(1, 1).bits(2, 2);
    writeDynamicHeader(wInc, incomplete, [1, 1]);
    cases.push(["incomplete", zlibStream(wInc, [])]);
    // No end-of-block code.
    const noEob = new Array<number>(257).fill(0);
    noEob[0] = noEob[1] = 1;
    const wEob = new BitWriter().bits(1, 1).bits(2, 2);
    writeDynamicHeader(wEob, noEob, [1, 1]);
    cases.push(["no end of block", zlibStream(wEob, [])]);
    // Code-length repeats: "repeat the previous" with nothing before it; zeros running one
    // past the 257 + 1 lengths; too many literal/length or distance symbols.
    // Each is otherwise a valid stream (an empty block whose code has just the end-of-block
    // symbol), so that only the check in question can refuse it.
    const eob = (w: BitWriter) => w.bits(0, 1);
    cases.push([
      "repeat first",
      rawDynamic(
        257,
        1,
        [
          [16, 0],
          [18, 127],
          [18, 104],
          [1, 0],
          [0, 0],
        ],
        eob,
      ),
    ]);
    cases.push([
      "repeat past the lengths",
      rawDynamic(
        257,
        2,
        [
          [18, 127],
          [18, 107],
          [1, 0],
          [17, 0],
        ],
        eob,
      ),
    ]);
    cases.push([
      "287 literal/length symbols",
      rawDynamic(
        287,
        1,
        [
          [18, 127],
          [18, 107],
          [1, 0],
          [18, 19],
          [0, 0],
        ],
        eob,
      ),
    ]);
    cases.push([
      "31 distance symbols",
      rawDynamic(
        257,
        31,
        [
          [18, 127],
          [18, 107],
          [1, 0],
          [18, 20],
        ],
        eob,
      ),
    ]);
    for (const [name, z] of cases) {
      const r = inflateZlib(z, 0, z.length, 1000);
      expect(typeof r, name).toBe("string");
      expectSameAsPako(z, 1000);
    }
    expect(inflateZlib(cases[3][1], 0, cases[3][1].length, 1000)).toMatch(/dictionary/);
    // Zeros repeated up to exactly the last length are fine: 256 zeros, end of block 1 bit
    // long (a single code, which zlib accepts), 3 distance zeros; the data is that one bit.
    const exact = rawDynamic(
      257,
      3,
      [
        [18, 127],
        [18, 107],
        [1, 0],
        [17, 0],
      ],
      (w) => w.bits(0, 1),
    );
    expect(inflateZlib(exact, 0, exact.length, 1000)).toEqual({ bytes: new Uint8Array(0), ended: true });
    expectSameAsPako(exact, 1000);
    expectSameAsPako(exact, 0);
  });

  it("accepts the one incomplete code zlib accepts: a single distance code, or none", () => {
    for (const distLengths of [[1], [0, 1], [0]]) {
      const litLengths = new Array<number>(257).fill(0);
      litLengths[65] = 1;
      litLengths[256] = 1;
      const code = dynamicCode(litLengths, distLengths);
      const w = new BitWriter().bits(1, 1).bits(2, 2);
      writeDynamicHeader(w, litLengths, distLengths);
      const out: number[] = [];
      for (let i = 0; i < 5; i++) writeLiteral(w, code, out, 65);
      w.code(code.lit.codes[256], 1);
      const z = expectInflates(w, out, 1000);
      expectSameAsPako(z, 1000);
      expectSameAsPako(z, 3);
    }
    // Decoding a distance with the single code's unused half (or with no code) is an error.
    const litLengths = new Array<number>(258).fill(0);
    litLengths[65] = 1;
    litLengths[256] = 2;
    litLengths[257] = 2;
    const lit = { codes: canonical(litLengths), lengths: litLengths };
    for (const distLengths of [[0, 1], [0]]) {
      const w = new BitWriter().bits(1, 1).bits(2, 2);
      writeDynamicHeader(w, litLengths, distLengths);
      for (let i = 0; i < 5; i++) w.code(lit.codes[65], 1);
      w.code(lit.codes[257], 2).bits(0, 1); // length 3, then distance code bit 0: symbol 0 has no code
      w.code(lit.codes[256], 2);
      const z = zlibStream(w, []);
      expect(typeof inflateZlib(z, 0, z.length, 1000)).toBe("string");
      expectSameAsPako(z, 1000);
      expectSameAsPako(z, 5);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Real logs

const SAMPLES = path.resolve(__dirname, "../../../shared/samples");

function hlogFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...hlogFiles(p));
    else if (e.name.endsWith(".hlog")) out.push(p);
  }
  return out;
}

describe("inflateZlib on the sample logs", () => {
  const files = hlogFiles(SAMPLES);
  it.skipIf(files.length === 0)("inflates every compressed payload as pako does", () => {
    let payloads = 0;
    for (const file of files) {
      for (const line of readFileSync(file, "utf8").split(/\r?\n|\r/)) {
        const t = line.trim();
        if (t === "" || t.startsWith("#") || t.startsWith('"') || !t.includes(",")) continue;
        const b = decodeBase64(t, t.lastIndexOf(",") + 1)?.slice();
        if (!b || b.length < 8) continue;
        const cookie = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) & ~0xf0;
        // Compressed V2, V1 and V0 (hlog-encoding.ts); the others are not zlib streams.
        if (cookie !== 0x1c849304 && cookie !== 0x1c849302 && cookie !== 0x1c849309) continue;
        const length = Math.min((b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7], b.length - 8);
        for (const limit of [1 << 20, 40, 0]) expectSameAsPako(b, limit, 8, length);
        const r = inflateZlib(b, 8, length, 1 << 20);
        expect(typeof r === "string" ? r : r.ended, `${file}: ${t.slice(0, 40)}`).toBe(true);
        payloads++;
      }
    }
    expect(payloads).toBeGreaterThan(50);
  });
});
