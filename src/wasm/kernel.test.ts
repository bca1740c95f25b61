import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
// @ts-expect-error -- pako 1.x ships no type declarations
import pako from "pako";
import { describe, expect, it } from "vitest";
import { decodeHistogramPayload, inflateHistogramPayload, type DecodedHistogram } from "../formats/hlog-encoding";
import { encodeHistogramBytes, putZigZagLong, toBase64, Writer, wrapCompressed } from "../../tests/support/hlog-encoders";
import { BitWriter, histogramLike, repetitive } from "../../tests/support/inflate-inputs";
import { countsArrayLengthFor, subBucketCountMagnitude, unitMagnitudeOf } from "../core/counts-layout";
import { inflateZlib } from "../formats/inflate";
import { decodePayloadCode, decodePayloadFast, inflateFast, kernelAvailable, kernelStats, kernelUnavailableReason, allowNativeBase64, medianIndexOf } from "./kernel";

// The kernel is a fast path: for every input it either returns what the JS reader returns
// (decodeHistogramPayload(payload, true)), field by field, or null. And where the JS reader
// accepts an ordinary V2 compressed payload, the kernel must accept it too, or the fast path
// would never be taken.

interface Plain {
  version: number;
  numberOfSignificantValueDigits: number;
  lowestDiscernibleValue: number;
  highestTrackableValue: number;
  indices: number[];
  counts: number[];
  totalCount: number;
  /** medianIndexOf: found by the kernel for its results, walked in JS for the reader's. */
  medianIndex: number;
}

function plain(d: DecodedHistogram): Plain {
  return {
    version: d.version,
    numberOfSignificantValueDigits: d.numberOfSignificantValueDigits,
    lowestDiscernibleValue: d.lowestDiscernibleValue,
    highestTrackableValue: d.highestTrackableValue,
    indices: Array.from(d.indices),
    counts: Array.from(d.counts),
    totalCount: d.totalCount,
    medianIndex: medianIndexOf(d),
  };
}

/** Both readers on one payload (copied out: both return transient views). */
function both(text: string, start?: number, end?: number): { kernel: Plain | null; js: Plain | null } {
  const k = decodePayloadFast(text, start, end);
  const kernel = k === null ? null : plain(k);
  const r = decodeHistogramPayload(start === undefined ? text : text.slice(start, end), true);
  return { kernel, js: r.ok ? plain(r.value) : null };
}

/** The safety rule: the kernel agrees or declines. Returns whether it handled the payload. */
function agreeOrDecline(text: string, start?: number, end?: number): boolean {
  const { kernel, js } = both(text, start, end);
  if (kernel !== null) {
    expect(js).not.toBeNull();
    expect(kernel).toEqual(js);
  }
  return kernel !== null;
}

/** Agrees, and handles the payload exactly when the JS reader accepts it. */
function agreeAndHandle(text: string): void {
  const { kernel, js } = both(text);
  expect(kernel).toEqual(js);
}

/** The uncompressed histogram the JS reader inflates from a payload (null when it cannot). */
function innerBytes(text: string): Uint8Array | null {
  const r = inflateHistogramPayload(text);
  return r.ok ? r.bytes.slice() : null;
}

function bytesOf(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

/** What the kernel is meant to handle: a V2 (cookie family) histogram inside V2 compression, inflating to at most 64 KiB. */
function ordinary(text: string): boolean {
  const b = bytesOf(text);
  const inner = innerBytes(text);
  if (b.length < 8 || inner === null || inner.length < 4) return false;
  const cookie = (b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!;
  const innerCookie = (inner[0]! << 24) | (inner[1]! << 16) | (inner[2]! << 8) | inner[3]!;
  return (cookie & ~0xf0) === 0x1c849304 && (innerCookie & ~0xf0) === 0x1c849303 && inner.length <= 65536;
}

// ---------------------------------------------------------------------------------------------
// Payloads

function libraryPayload(digits: number, lowest: number, highest: number, entries: [number, number][]): string {
  const h = build({
    bitBucketSize: 64,
    numberOfSignificantValueDigits: digits as 1 | 2 | 3 | 4 | 5,
    lowestDiscernibleValue: lowest,
    highestTrackableValue: highest,
    autoResize: true,
  });
  for (const [v, c] of entries) h.recordValueWithCount(v, c);
  return encodeIntoCompressedBase64(h);
}

const entryArb = fc.tuple(
  fc.double({ min: 0, max: 12, noNaN: true }).map((x) => Math.floor(10 ** x)),
  fc.double({ min: 0, max: 10, noNaN: true }).map((x) => Math.max(1, Math.floor(10 ** x))),
);
const libraryArb = fc
  .record({
    digits: fc.constantFrom(1, 2, 2, 3, 3, 4, 5),
    lowest: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 100_000 }), fc.constant(1024)),
    entries: fc.array(entryArb, { maxLength: 300 }),
    bigRange: fc.boolean(),
  })
  .map((s) => libraryPayload(s.digits, s.lowest, s.bigRange ? 4e12 : Math.max(2 * s.lowest, 2), s.entries));

/** Dense counts with runs of zeros, large counts, counts near 2^52 (what the readers' exactness checks are about). */
const countArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 200 }) },
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2 ** 52 - 3, max: 2 ** 52 + 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2 ** 53 - 3, max: 2 ** 53 - 1 }) },
);
const denseArb = fc.record({
  digits: fc.integer({ min: 0, max: 5 }),
  lowest: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 1e6 }), fc.constant(2 ** 40)),
  counts: fc.array(fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: countArb }), { minLength: 1, maxLength: 400 }),
});
type DenseSpec = typeof denseArb extends fc.Arbitrary<infer T> ? T : never;

function densePayloadBytes(s: DenseSpec): Uint8Array {
  return encodeHistogramBytes({ lowest: s.lowest, highest: s.lowest * 2 ** 30, digits: s.digits, counts: s.counts }, { version: 2, compressed: true });
}

/**
 * A V2-in-V2 payload built field by field: each field is usually valid and sometimes not, so
 * most cases get past every check but one, and each of the JS reader's checks gets its turn.
 */
const headerArb = fc.record({
  cookieBits: fc.integer({ min: 0, max: 15 }),
  innerBase: fc.oneof({ weight: 12, arbitrary: fc.constant(0x1c849303) }, { weight: 1, arbitrary: fc.constantFrom(0x1c849301, 0x1c849308, 0x1c849304, 0x0c72124e, 0x12345678) }),
  digits: fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 5 }) }, { weight: 1, arbitrary: fc.constantFrom(-1, 6, 7, -(2 ** 31), 2 ** 31 - 1) }),
  lowest: fc.oneof(
    { weight: 6, arbitrary: fc.bigInt({ min: 1n, max: 1000n }) },
    { weight: 2, arbitrary: fc.constantFrom(1n, 2n ** 40n, 2n ** 44n - 1n, 2n ** 44n, 2n ** 47n, 2n ** 53n + 1n, 2n ** 57n, 2n ** 62n) },
    { weight: 1, arbitrary: fc.constantFrom(0n, -1n, -(2n ** 63n), 2n ** 63n - 1n) },
  ),
  // highest = lowest * factor + delta
  highestFactor: fc.oneof(
    { weight: 6, arbitrary: fc.bigInt({ min: 2n, max: 2n ** 20n }) },
    { weight: 2, arbitrary: fc.constantFrom(2n, 3n, 2n ** 40n) },
    { weight: 1, arbitrary: fc.constantFrom(0n, 1n, 2n ** 62n) },
  ),
  highestDelta: fc.oneof({ weight: 6, arbitrary: fc.constant(0n) }, { weight: 1, arbitrary: fc.constantFrom(-1n, 1n, 2n ** 63n - 1n) }),
  // The counts: runs of zeros and counts, kept inside the counts array...
  cells: fc.array(
    fc.tuple(
      fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 5 }) }, { weight: 1, arbitrary: fc.integer({ min: 6, max: 5000 }) }),
      fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 1, max: 300 }) },
        { weight: 2, arbitrary: fc.integer({ min: 1, max: 2 ** 40 }) },
        { weight: 1, arbitrary: fc.integer({ min: 2 ** 50, max: 2 ** 52 - 1 }) },
      ),
    ),
    { maxLength: 40 },
  ),
  // ...then, sometimes, something the JS reader refuses (or accepts only just).
  ending: fc.oneof(
    { weight: 8, arbitrary: fc.constant("none") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "beyond",
        "zerosPastEnd",
        "runAtLimit",
        "runPastLimit",
        "countAtLimit",
        "countPastLimit",
        "bigCounts",
        "truncatedVarint",
        "nineBytes",
        "zeroValues",
      ),
    },
  ),
  payloadDelta: fc.oneof(
    { weight: 8, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: -3, max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 1 << 20) },
  ),
  tail: fc.oneof({ weight: 3, arbitrary: fc.constant(new Uint8Array(0)) }, { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
});
type HeaderSpec = typeof headerArb extends fc.Arbitrary<infer T> ? T : never;

function countsLengthOf(digits: number, lowest: number, highest: number): number {
  const sub = subBucketCountMagnitude(digits);
  const unit = unitMagnitudeOf(lowest);
  if (sub < 0 || unit < 0 || !(highest >= 2 * lowest) || unit + sub > 62) return 16;
  return countsArrayLengthFor(unit, sub, highest);
}

function headerPayload(s: HeaderSpec): string {
  const lowest = BigInt.asIntN(64, s.lowest);
  const highest = BigInt.asIntN(64, s.lowest * s.highestFactor + s.highestDelta);
  const toNumber = (v: bigint) => Number(BigInt.asIntN(32, v >> 32n)) * 4294967296 + Number(BigInt.asUintN(32, v));
  const countsLength = countsLengthOf(s.digits, toNumber(lowest), toNumber(highest));
  const body = new Writer();
  let index = 0;
  for (const [zeros, count] of s.cells) {
    if (index + zeros + 1 > countsLength) break;
    if (zeros === 1) putZigZagLong(body, 0n);
    else if (zeros > 1) putZigZagLong(body, BigInt(-zeros));
    putZigZagLong(body, BigInt(count));
    index += zeros + 1;
  }
  switch (s.ending) {
    case "beyond": // a count just past the end of the counts array
      if (countsLength - index > 1) putZigZagLong(body, BigInt(-(countsLength - index)));
      else if (countsLength - index === 1) putZigZagLong(body, 0n);
      putZigZagLong(body, 1n);
      break;
    case "zerosPastEnd": // zero values only, more bytes than 9 per counts-array entry
      for (let i = 0; i < Math.min(countsLength * 9 + 2, 3000); i++) putZigZagLong(body, 0n);
      break;
    case "runAtLimit":
      putZigZagLong(body, -(2n ** 31n - 1n));
      break;
    case "runPastLimit":
      putZigZagLong(body, -(2n ** 31n));
      break;
    case "countAtLimit": // raw ZigZag 2^53 - 2 (the count 2^52 - 1): the largest raw value accepted
      putZigZagLong(body, 2n ** 52n - 1n);
      break;
    case "countPastLimit": // raw ZigZag 2^53 (the count 2^52)
      putZigZagLong(body, 2n ** 52n);
      break;
    case "bigCounts": // a total past 2^53 - 1, or just below it
      for (let i = 0; i < 3 && index < countsLength; i++, index++) putZigZagLong(body, 2n ** 51n + BigInt(i) * 2n ** 50n);
      break;
    case "truncatedVarint":
      body.u8(0x80);
      break;
    case "nineBytes": // a 9-byte varint whose last byte carries 8 bits
      for (let i = 0; i < 8; i++) body.u8(0x80);
      body.u8(0x01);
      break;
    case "zeroValues": // non-minimal encodings of 0
      body.u8(0x80);
      body.u8(0x00);
      break;
  }
  const payload = body.result();
  const w = new Writer();
  w.i32(s.innerBase | (s.cookieBits << 4));
  w.i32(Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, payload.length + s.payloadDelta)));
  w.i32(0);
  w.i32(s.digits);
  w.i64(lowest);
  w.i64(highest);
  w.f64(1);
  w.bytes(payload);
  w.bytes(s.tail);
  return toBase64(wrapCompressed(0x1c849304 | (s.cookieBits << 4), w.result()));
}

const deflateOptions = fc.record({
  level: fc.integer({ min: 0, max: 9 }),
  strategy: fc.integer({ min: 0, max: 4 }),
  windowBits: fc.integer({ min: 8, max: 15 }),
  memLevel: fc.integer({ min: 1, max: 9 }),
});

function deflate(bytes: Uint8Array, options: object): Uint8Array | null {
  try {
    return pako.deflate(bytes, options) as Uint8Array;
  } catch {
    return null; // pako 1.0.11's deflate throws on a few option sets (see inflate.test.ts)
  }
}

function envelope(cookie: number, z: Uint8Array, declared = z.length): Uint8Array {
  const w = new Writer();
  w.i32(cookie);
  w.i32(declared);
  w.bytes(z);
  return w.result();
}

// A few fixed payloads for the mutation properties.
const SEEDS = [
  libraryPayload(3, 1, 3.6e12, [
    [1, 5],
    [1000, 300],
    [25_000, 12],
    [1e6, 1],
    [3e9, 2],
  ]),
  libraryPayload(
    2,
    1000,
    1e10,
    Array.from({ length: 120 }, (_, i) => [1000 + i * i * 977, 1 + (i % 7)] as [number, number]),
  ),
  libraryPayload(
    5,
    1,
    1e8,
    Array.from({ length: 40 }, (_, i) => [i * 12_345 + 1, 2 ** 40 + i] as [number, number]),
  ),
  toBase64(encodeHistogramBytes({ lowest: 1, highest: 1e6, digits: 2, counts: [0, 3, 0, 0, 9, 1, 0, 0, 0, 2 ** 52 - 1] }, { version: 2, compressed: true })),
  libraryPayload(3, 1, 2, []),
];

// ---------------------------------------------------------------------------------------------

describe("kernel", () => {
  it("loads in Node", () => {
    expect(kernelUnavailableReason).toBeNull();
    expect(kernelAvailable).toBe(true);
  });

  it("handles the seed payloads, and agrees", () => {
    for (const s of SEEDS) agreeAndHandle(s);
    for (const s of SEEDS) expect(decodePayloadFast(s)).not.toBeNull();
  });
});

describe("kernel against the JS reader: valid payloads", () => {
  it("hdr-histogram-js histograms (1..5 digits, any lowest, small and huge ranges, empty): handled, identical", () => {
    fc.assert(
      fc.property(libraryArb, (s) => agreeAndHandle(s)),
      { numRuns: 400 },
    );
  });

  it("dense histograms with counts near 2^52 and totals near 2^53 (0..5 digits): identical, or both refuse", () => {
    let handled = 0;
    let refused = 0;
    fc.assert(
      fc.property(denseArb, (spec) => {
        const s = toBase64(densePayloadBytes(spec));
        agreeAndHandle(s);
        if (decodePayloadFast(s) === null) refused++;
        else handled++;
      }),
      { numRuns: 600 },
    );
    // Both outcomes were exercised.
    expect(handled).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(20);
  });

  it("any header field and any ZigZag value: identical, or declined exactly where JS refuses or the histogram is not V2-in-V2", () => {
    let handled = 0;
    let refused = 0;
    fc.assert(
      fc.property(headerArb, (spec) => {
        const s = headerPayload(spec);
        const ok = decodeHistogramPayload(s, true).ok;
        const handledHere = agreeOrDecline(s);
        if (ordinary(s) && ok) expect(handledHere).toBe(true);
        if (handledHere) handled++;
        if (!ok) refused++;
      }),
      { numRuns: 6000 },
    );
    expect(handled).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it("re-deflated by pako at every level, strategy, window and memory level: handled, identical", () => {
    fc.assert(
      fc.property(fc.oneof(libraryArb, fc.constantFrom(...SEEDS)), deflateOptions, fc.integer({ min: 0, max: 15 }), (s, options, bits) => {
        const inner = innerBytes(s)!;
        const z = deflate(inner, options);
        fc.pre(z !== null);
        const text = toBase64(envelope(0x1c849304 | (bits << 4), z!));
        agreeAndHandle(text);
        expect(decodePayloadFast(text)).not.toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it("a window smaller than the stream's distances is refused by both (pako's INFLATE_STRICT)", () => {
    // 400 two-byte counts, twice: the second half is one match 800 bytes back.
    const half = Array.from({ length: 400 }, (_, i) => 64 + ((i * 7919) % 8000));
    const inner = encodeHistogramBytes({ lowest: 1, highest: 2 ** 30, digits: 3, counts: [...half, ...half] }, { version: 2 });
    for (let windowBits = 8; windowBits <= 15; windowBits++) {
      const z = (pako.deflate(inner, { level: 9 }) as Uint8Array).slice();
      z[0] = ((windowBits - 8) << 4) | 8;
      z[1] = 0;
      while (((z[0]! << 8) | z[1]!) % 31 !== 0) z[1]!++;
      const text = toBase64(envelope(0x1c849314, z));
      agreeAndHandle(text);
      expect(decodeHistogramPayload(text, true).ok).toBe(windowBits >= 10);
    }
  });

  it("bytes after the zlib stream, inside or outside the declared length, and after the payload", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.uint8Array({ minLength: 1, maxLength: 30 }), fc.boolean(), (s, extra, inside) => {
        const b = bytesOf(s);
        const declared = (b[4]! << 24) | (b[5]! << 16) | (b[6]! << 8) | b[7]!;
        const z = b.subarray(8, 8 + declared);
        const grown = envelope((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!, Uint8Array.from([...z, ...extra]), inside ? declared + extra.length : declared);
        agreeAndHandle(toBase64(grown));
        // After the payload, inside the inflated bytes: the JS reader ignores them.
        const inner = innerBytes(s)!;
        agreeAndHandle(toBase64(wrapCompressed(0x1c849314, Uint8Array.from([...inner, ...extra]))));
      }),
      { numRuns: 200 },
    );
  });

  it("white space around the text, padding or none, and ranges of a longer string", () => {
    const space = fc.array(fc.constantFrom(" ", "\t", "\n", "\r", "\f", "\v"), { maxLength: 3 }).map((a) => a.join(""));
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), space, space, fc.boolean(), fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), (s, before, after, unpad, left, right) => {
        const body = unpad ? s.replace(/=+$/, "") : s;
        const text = before + body + after;
        agreeAndHandle(text);
        const line = left + text + right;
        expect(agreeOrDecline(line, left.length, left.length + text.length)).toBe(true);
      }),
      { numRuns: 300 },
    );
    // Non-ASCII white space the JS reader trims: declined, the JS reader decides.
    for (const ws of ["\u00a0", "\ufeff"]) {
      expect(decodePayloadFast(ws + SEEDS[0]!)).toBeNull();
      expect(decodeHistogramPayload(ws + SEEDS[0]!, true).ok).toBe(true);
    }
  });
});

/**
 * A seed payload's text with up to four edits (a character overwritten or inserted, or the text
 * cut), the characters drawn from base64's own and the ones decoders treat differently.
 */
function editedSeed() {
  const char = fc.oneof(
    fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
    fc.constantFrom("=", " ", "\n", "-", "_", ".", "\u00e9", "\u0141", "\ufeff", "\u00a0", "\0"),
  );
  const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 2 }), char);
  return fc.tuple(fc.constantFrom(...SEEDS), fc.array(edit, { minLength: 1, maxLength: 4 })).map(([s, edits]) => {
    let t = s;
    for (const [at, kind, c] of edits) {
      const i = at % (t.length + 1);
      if (kind === 0) t = t.slice(0, i) + c + t.slice(i + 1);
      else if (kind === 1) t = t.slice(0, i) + c + t.slice(i);
      else t = t.slice(0, i);
    }
    return t;
  });
}

describe("kernel against the JS reader: damaged payloads", () => {
  it("edited, cut and grown base64 text", () => {
    fc.assert(
      fc.property(editedSeed(), (t) => void agreeOrDecline(t)),
      { numRuns: 3000 },
    );
  });

  it("bit flips, cuts, insertions and overwrites in the decoded bytes", () => {
    const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 255 }));
    let handled = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), fc.array(edit, { minLength: 1, maxLength: 4 }), (s, edits) => {
        let b = Array.from(bytesOf(s));
        for (const [at, kind, v] of edits) {
          // Mostly near the front: the envelope, the zlib header and the block header.
          const i = at % 2 === 0 ? (at >> 1) % Math.min(b.length + 1, 48) : (at >> 1) % (b.length + 1);
          if (kind === 0 && i < b.length) b[i]! ^= 1 << (v & 7);
          else if (kind === 1) b.splice(i, 0, v);
          else if (kind === 2) b = b.slice(0, i);
          else if (i < b.length) b[i] = v;
        }
        if (agreeOrDecline(toBase64(Uint8Array.from(b)))) handled++;
      }),
      { numRuns: 4000 },
    );
    expect(handled).toBeGreaterThan(0);
  });

  it("bit flips inside the deflate stream, re-wrapped with a correct envelope", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SEEDS), deflateOptions, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), (s, options, flips) => {
        const z = deflate(innerBytes(s)!, options);
        fc.pre(z !== null);
        const d = z!.slice();
        for (const f of flips) {
          const bit = f % 2 === 0 ? (f >> 1) % Math.min(d.length * 8, 400) : (f >> 1) % (d.length * 8);
          d[bit >> 3]! ^= 1 << (bit & 7);
        }
        agreeOrDecline(toBase64(envelope(0x1c849314, d)));
      }),
      { numRuns: 3000 },
    );
  });

  it("random strings and random bytes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => void agreeOrDecline(s)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.base64String({ maxLength: 200 }), (s) => void agreeOrDecline(s)),
      { numRuns: 500 },
    );
    const prefix = fc.constantFrom([0x1c, 0x84, 0x93, 0x14], [0x1c, 0x84, 0x93, 0x04], []);
    fc.assert(
      fc.property(prefix, fc.uint8Array({ maxLength: 300 }), (p, rest) => void agreeOrDecline(toBase64(Uint8Array.from([...p, ...rest])))),
      { numRuns: 1000 },
    );
  });

  it("declines what is not a V2 compressed histogram", () => {
    const counts = [0, 3, 0, 0, 9, 1];
    const h = { lowest: 1, highest: 1e6, digits: 2, counts };
    for (const opts of [
      { version: 2 as const },
      { version: 1 as const, wordSize: 4 as const, compressed: true },
      { version: 0 as const, wordSize: 8 as const, compressed: true },
    ]) {
      const s = toBase64(encodeHistogramBytes(h, opts));
      expect(decodeHistogramPayload(s, true).ok).toBe(true);
      expect(decodePayloadFast(s)).toBeNull();
    }
    // A V1 histogram inside V2 compression: legal, read by the JS reader, declined here.
    const v1 = encodeHistogramBytes(h, { version: 1, wordSize: 4 });
    const s = toBase64(wrapCompressed(0x1c849314, v1));
    expect(decodeHistogramPayload(s, true).ok).toBe(true);
    expect(decodePayloadFast(s)).toBeNull();
    // Text beyond the kernel's input buffer (256 KiB): declined, the JS reader decides.
    const padded = " ".repeat(300_000) + SEEDS[0]!;
    expect(decodeHistogramPayload(padded, true).ok).toBe(true);
    expect(decodePayloadFast(padded)).toBeNull();
    expect(decodePayloadFast(padded, 300_000)).not.toBeNull();
    for (const bad of ["", "   ", "DHISTwAAAAMAAAAAAAAAAj", "====", "A", "AAAA=A"]) {
      expect(decodePayloadFast(bad)).toBeNull();
    }
    // Inflating to 64 KiB is handled; a byte more, and the JS reader goes on, the kernel declines.
    const atLimit = (inflated: number) => {
      const counts = new Array<number>(inflated - 40).fill(0).map((_, i) => (i % 2 === 0 ? 1 : 0));
      counts[counts.length - 1] = 1;
      const bytes = encodeHistogramBytes({ lowest: 1, highest: 2 ** 40, digits: 5, counts }, { version: 2 });
      expect(bytes.length).toBe(inflated);
      return toBase64(wrapCompressed(0x1c849314, bytes));
    };
    agreeAndHandle(atLimit(65536));
    expect(decodePayloadFast(atLimit(65536))).not.toBeNull();
    const big = atLimit(65537);
    expect(decodeHistogramPayload(big, true).ok).toBe(true);
    expect(decodePayloadFast(big)).toBeNull();
    expect(decodePayloadCode(big)).toBe(-5);
  });
});

// ---------------------------------------------------------------------------------------------
// The inflater alone: the kernel's inflate succeeds exactly where inflateZlib ends the stream.

const data = fc.oneof(fc.uint8Array({ maxLength: 3000 }), repetitive, histogramLike);

function expectSameInflate(input: Uint8Array, offset: number, length: number, limit: number): boolean {
  const k = inflateFast(input, offset, length, limit);
  const mine = k === null ? null : Array.from(k);
  const r = inflateZlib(input, offset, length, limit);
  const theirs = typeof r !== "string" && r.ended ? Array.from(r.bytes) : null;
  expect(mine).toEqual(theirs);
  return mine !== null;
}

describe("kernel: Node's base64 decoder against the kernel's own", () => {
  /** The kernel's verdict and output on a text through each base64 path (copied out: transient views). */
  function viaEach(text: string, start?: number, end?: number): { native: [number, Plain | null]; own: [number, Plain | null]; nativeUsed: boolean } {
    const run = (): [number, Plain | null] => {
      const code = decodePayloadCode(text, start, end);
      const d = decodePayloadFast(text, start, end);
      return [code, d === null ? null : plain(d)];
    };
    const before = kernelStats.nativeBase64;
    const native = run();
    const nativeUsed = kernelStats.nativeBase64 > before;
    allowNativeBase64(false);
    try {
      return { native, own: run(), nativeUsed };
    } finally {
      allowNativeBase64(true);
    }
  }
  function same(text: string, start?: number, end?: number): boolean {
    const r = viaEach(text, start, end);
    expect(r.native).toEqual(r.own);
    return r.nativeUsed;
  }

  it("valid payloads, padded or not, in ranges of a longer string: Node's decoder is taken, identical", () => {
    for (const s of SEEDS) {
      expect(same(s)).toBe(true);
      expect(same(s.replace(/=+$/, ""))).toBe(true);
      expect(same(`1.0,2.0,3.0,${s}\n`, 12, 12 + s.length)).toBe(true);
    }
    fc.assert(
      fc.property(libraryArb, (s) => void expect(same(s)).toBe(true)),
      { numRuns: 200 },
    );
  });

  it("text Node would read but the kernel refuses (URL-safe letters, white space or '=' inside, non-ASCII): the same verdict", () => {
    const seed = SEEDS[0]!;
    for (const c of ["-", "_", " ", "\n", "\t", "=", "==", ".", "\u00e9", "\u0141", "\ufeff", "\0", "*"]) {
      for (const at of [0, 1, 5, Math.floor(seed.length / 2), seed.length - 3, seed.length - 1]) {
        same(seed.slice(0, at) + c + seed.slice(at));
        same(seed.slice(0, at) + c + seed.slice(at + 1));
      }
    }
    // A payload whose every "+" and "/" is written URL-safe: Node decodes it to the very same bytes; the reader refuses it.
    const urlSafe = SEEDS.find((s) => /[+/]/.test(s))!
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    expect(
      Buffer.from(urlSafe, "base64").equals(
        Buffer.from(
          SEEDS.find((s) => /[+/]/.test(s))!,
          "base64",
        ),
      ),
    ).toBe(true);
    expect(decodePayloadFast(urlSafe)).toBeNull();
    same(urlSafe);
  });

  it("edited, cut and grown text, random strings: the same verdict and output", () => {
    fc.assert(
      fc.property(editedSeed(), (t) => void same(t)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => void same(s)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.base64String({ maxLength: 200 }), (s) => void same(s)),
      { numRuns: 500 },
    );
  });
});

describe("kernel inflate against inflateZlib", () => {
  it("pako.deflate output at every option set, any limit", () => {
    fc.assert(
      fc.property(data, deflateOptions, fc.nat(), (bytes, options, l) => {
        const z = deflate(bytes, options);
        fc.pre(z !== null);
        expect(expectSameInflate(z!, 0, z!.length, 65536)).toBe(true);
        expectSameInflate(z!, 0, z!.length, l % (bytes.length + 3));
      }),
      { numRuns: 800 },
    );
  });

  it("truncated, bit-flipped and garbage streams", () => {
    fc.assert(
      fc.property(data, deflateOptions, fc.nat(), fc.array(fc.nat(), { maxLength: 4 }), fc.nat(), (bytes, options, cut, flips, l) => {
        const z0 = deflate(bytes, options);
        fc.pre(z0 !== null);
        const z = z0!.slice(0, cut % 3 === 0 ? z0!.length : (cut >> 2) % (z0!.length + 1));
        for (const f of flips) {
          if (z.length === 0) break;
          const bit = f % 2 === 0 ? (f >> 1) % Math.min(z.length * 8, 400) : (f >> 1) % (z.length * 8);
          z[bit >> 3]! ^= 1 << (bit & 7);
        }
        const limit = l % 2 === 0 ? 65536 : (l >> 1) % (bytes.length + 2);
        expectSameInflate(z, 0, z.length, limit);
      }),
      { numRuns: 4000 },
    );
    const header = fc.constantFrom([0x78, 0x9c], [0x78, 0x01], [0x78, 0xda], [0x08, 0x1d], [0x58, 0x85], []);
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 300 }), fc.nat({ max: 5000 }), (h, rest, limit) => {
        const input = Uint8Array.from([...h, ...rest]);
        expectSameInflate(input, 0, input.length, limit);
      }),
      { numRuns: 4000 },
    );
  });

  it("streams inside a larger buffer, with bytes after the checksum", () => {
    fc.assert(
      fc.property(data, fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 20 }), (bytes, before, after) => {
        const z = pako.deflate(bytes) as Uint8Array;
        const buffer = Uint8Array.from([...before, ...z, ...after]);
        expect(expectSameInflate(buffer, before.length, z.length + after.length, 65536)).toBe(bytes.length <= 65536);
      }),
      { numRuns: 200 },
    );
  });
});

/** The stream with its header declaring another window (0..15 in CMF's top nibble; above 7 is invalid). */
function withWindow(z: Uint8Array, nibble: number): Uint8Array {
  const out = z.slice();
  out[0] = (nibble << 4) | 8;
  out[1] = out[1]! & 0xe0;
  while (((out[0]! << 8) | out[1]!) % 31 !== 0) out[1]!++;
  return out;
}

describe("kernel inflate: declared windows", () => {
  it("distances beyond the declared window are refused by both, in either decoding loop; windows above 32 KiB too", () => {
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(repetitive, histogramLike), fc.integer({ min: 0, max: 15 }), fc.nat(), (bytes, nibble, cut) => {
        const z = withWindow(pako.deflate(bytes, { level: 9 }) as Uint8Array, nibble);
        // Cut a few bytes off the end too (the careful loop decodes the last symbols).
        const length = cut % 3 === 0 ? z.length : Math.max(0, z.length - (cut % 12));
        if (!expectSameInflate(z, 0, length, 65536)) refused++;
      }),
      { numRuns: 1500 },
    );
    expect(refused).toBeGreaterThan(300);
  });
});

// Hand-made dynamic blocks: what zlib's deflate never writes (unused symbols 286-287 and
// distance codes 30-31 with codes, too many symbols, incomplete and over-full codes, a single
// distance code, none at all), where the inflaters' verdicts must still agree.

function canonicalCodes(lengths: number[]): number[] {
  const count = new Array<number>(17).fill(0);
  for (const l of lengths) if (l) count[l]!++;
  const next = new Array<number>(17).fill(0);
  let code = 0;
  for (let l = 1; l <= 16; l++) {
    code = (code + count[l - 1]!) << 1;
    next[l] = code;
  }
  return lengths.map((l) => (l ? next[l]!++ : -1));
}

/** Lengths of a complete prefix code over `symbols` (random splits of a leaf, depth <= 15). */
function completeLengths(rnd: () => number, size: number, symbols: number[]): number[] {
  const depths = [0];
  while (depths.length < symbols.length) {
    const i = Math.floor(rnd() * depths.length);
    if (depths[i]! >= 15) continue;
    depths[i]!++;
    depths.push(depths[i]!);
  }
  const lengths = new Array<number>(size).fill(0);
  symbols.forEach((s, i) => (lengths[s] = symbols.length === 1 ? 1 : depths[i]!));
  return lengths;
}

/** A small seeded generator (mulberry32), so one fast-check integer drives a whole stream. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const D_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const D_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

function adler(b: number[]): number {
  let a = 1;
  let s = 0;
  for (const x of b) {
    a = (a + x) % 65521;
    s = (s + a) % 65521;
  }
  return (s * 65536 + a) >>> 0;
}

type Shape = "complete" | "incomplete" | "overfull" | "singleDistance" | "noDistance" | "maxSymbols" | "leadingRepeat" | "repeatPastEnd";

/**
 * The code lengths as code-length symbols: with runs (16: repeat the last, 17/18: zeros) or
 * without; "leadingRepeat" starts with a 16 (nothing to repeat), "repeatPastEnd" ends with a
 * run longer than what is left.
 */
function lengthSymbols(rnd: () => number, lengths: number[], shape: Shape): [number, number, number][] {
  const out: [number, number, number][] = []; // symbol, extra value, extra bits
  const runs = rnd() < 0.5 || shape === "leadingRepeat" || shape === "repeatPastEnd";
  let i = 0;
  if (shape === "leadingRepeat") {
    // In place of the first lengths, zeros (the generator left them out of the code).
    let k = 0;
    while (k < 6 && lengths[k] === 0) k++;
    if (k >= 3) {
      out.push([16, k - 3, 2]);
      i = k;
    } else out.push([16, 0, 2]);
  }
  while (i < lengths.length) {
    const l = lengths[i]!;
    let n = 1;
    while (i + n < lengths.length && lengths[i + n] === l) n++;
    if (runs && l === 0 && n >= 11) {
      const k = Math.min(n, 138);
      out.push([18, k - 11, 7]);
      i += k;
    } else if (runs && l === 0 && n >= 3) {
      const k = Math.min(n, 10);
      out.push([17, k - 3, 3]);
      i += k;
    } else if (runs && n >= 4) {
      out.push([l, 0, 0]);
      const k = Math.min(n - 1, 6);
      out.push([16, k - 3, 2]);
      i += k + 1;
    } else {
      out.push([l, 0, 0]);
      i++;
    }
  }
  if (shape === "repeatPastEnd") out.push([18, Math.floor(rnd() * 128), 7]);
  return out;
}

/** A zlib stream of one dynamic block, from a seed. */
function handMadeStream(seed: number, shape: Shape, ops: number): Uint8Array {
  const rnd = seeded(seed);
  const nlen = shape === "maxSymbols" ? pick(rnd, [286, 287, 288]) : 257 + Math.floor(rnd() * 29);
  const ndist = shape === "maxSymbols" ? pick(rnd, [30, 31, 32]) : 1 + Math.floor(rnd() * 30);
  const litSymbols = [256];
  const first = shape === "leadingRepeat" ? 3 + Math.floor(rnd() * 4) : 0;
  for (let s = first; s < nlen; s++) if (s !== 256 && rnd() < 0.3) litSymbols.push(s);
  if (shape === "maxSymbols") litSymbols.push(nlen - 1);
  let lit = completeLengths(rnd, nlen, litSymbols);
  let dist: number[];
  if (shape === "noDistance") dist = new Array<number>(ndist).fill(0);
  else if (shape === "singleDistance") {
    dist = new Array<number>(ndist).fill(0);
    dist[Math.floor(rnd() * ndist)] = 1;
  } else {
    const ds: number[] = [];
    for (let s = 0; s < ndist; s++) if (rnd() < 0.5) ds.push(s);
    if (ds.length === 0) ds.push(0);
    if (shape === "maxSymbols") ds.push(ndist - 1);
    dist = completeLengths(rnd, ndist, [...new Set(ds)]);
  }
  if (shape === "incomplete") {
    const coded = lit.flatMap((l, s) => (l > 0 && s !== 256 ? [s] : []));
    if (coded.length > 0) lit[pick(rnd, coded)] = 0;
  } else if (shape === "overfull") {
    const free = lit.flatMap((l, s) => (l === 0 ? [s] : []));
    if (free.length > 0) lit[pick(rnd, free)] = 1 + Math.floor(rnd() * 15);
  }
  lit = lit.map((l) => Math.min(l, 15));
  const litCodes = canonicalCodes(lit);
  const distCodes = canonicalCodes(dist);

  const w = new BitWriter();
  w.bits(1, 1).bits(2, 2); // last block, dynamic
  w.bits(nlen - 257, 5)
    .bits(ndist - 1, 5)
    .bits(19 - 4, 4);
  // Code-length code, complete: 0-12 four bits long, 13-18 five.
  const clLengths = Array.from({ length: 19 }, (_, s) => (s <= 12 ? 4 : 5));
  const clCodes = canonicalCodes(clLengths);
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  for (const s of order) w.bits(clLengths[s]!, 3);
  for (const [sym, extra, bits] of lengthSymbols(rnd, [...lit, ...dist], shape)) w.code(clCodes[sym]!, clLengths[sym]!).bits(extra, bits);

  const out: number[] = [];
  const lits = lit.flatMap((l, s) => (l > 0 && s !== 256 ? [s] : []));
  const dists = dist.flatMap((l, s) => (l > 0 ? [s] : []));
  for (let i = 0; i < ops && lits.length > 0; i++) {
    const s = pick(rnd, lits);
    w.code(litCodes[s]!, lit[s]!);
    if (s < 256) {
      out.push(s);
      continue;
    }
    if (s > 285) break;
    const extra = LEN_EXTRA[s - 257]!;
    const e = Math.floor(rnd() * (1 << extra));
    w.bits(e, extra);
    if (dists.length === 0) break;
    const d = pick(rnd, dists);
    w.code(distCodes[d]!, dist[d]!);
    if (d >= 30) break;
    const de = Math.floor(rnd() * (1 << D_EXTRA[d]!));
    w.bits(de, D_EXTRA[d]!);
    const length = LEN_BASE[s - 257]! + e;
    const distance = D_BASE[d]! + de;
    for (let k = 0; k < length; k++) out.push(out.length >= distance ? out[out.length - distance]! : 0);
  }
  if (lit[256]! > 0) w.code(litCodes[256]!, lit[256]!);
  w.align();
  const check = adler(out);
  return Uint8Array.from([0x78, 0x9c, ...w.bytes, check >>> 24, (check >>> 16) & 0xff, (check >>> 8) & 0xff, check & 0xff]);
}

describe("kernel inflate: hand-made dynamic blocks", () => {
  it("agrees with inflateZlib on every shape of code, whatever the limit", () => {
    const shapes: Shape[] = ["complete", "incomplete", "overfull", "singleDistance", "noDistance", "maxSymbols", "leadingRepeat", "repeatPastEnd"];
    const ended = new Map<Shape, number>();
    fc.assert(
      fc.property(fc.integer(), fc.constantFrom(...shapes), fc.integer({ min: 0, max: 300 }), fc.nat(), (seed, shape, ops, l) => {
        const z = handMadeStream(seed, shape, ops);
        if (expectSameInflate(z, 0, z.length, 65536)) ended.set(shape, (ended.get(shape) ?? 0) + 1);
        expectSameInflate(z, 0, z.length, l % 2000);
        expectSameInflate(z, 0, Math.max(0, z.length - 1 - (l % 8)), 65536);
      }),
      { numRuns: 3000 },
    );
    // The generator makes streams both inflaters accept, of the shapes zlib accepts.
    expect(ended.get("complete") ?? 0).toBeGreaterThan(50);
    expect(ended.get("singleDistance") ?? 0).toBeGreaterThan(5);
  });
});

// ---------------------------------------------------------------------------------------------
// Real logs written by jHiccup (HdrHistogram Java), read in place.

const SAMPLES = path.resolve(__dirname, "../../../shared/samples/hdrhistogram");

describe.skipIf(!existsSync(SAMPLES))("sample logs", () => {
  it("every payload of every sample log: the kernel agrees or declines, and handles every V2 one", () => {
    let handled = 0;
    for (const file of readdirSync(SAMPLES).filter((f) => f.endsWith(".hlog"))) {
      for (const raw of readFileSync(path.join(SAMPLES, file), "utf8").split("\n")) {
        const line = raw.trim();
        if (line === "" || line.startsWith("#") || line.startsWith('"')) continue;
        const payload = line.slice(line.lastIndexOf(",") + 1);
        const ok = agreeOrDecline(payload);
        if (ordinary(payload) && decodeHistogramPayload(payload, true).ok) expect(ok).toBe(true);
        if (ok) handled++;
      }
    }
    expect(handled).toBeGreaterThan(100);
  });
});
