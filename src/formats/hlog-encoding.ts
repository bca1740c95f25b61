// Decoding of the base64 histogram payload of one HdrHistogram interval-log line, for every
// encoding version HdrHistogram has written, into a sparse (index, count) form.
//
// Format facts are from HdrHistogram Java's AbstractHistogram (decodeFromByteBuffer,
// decodeFromCompressedByteBuffer, fillCountsArrayFromSourceBuffer, getCookieBase,
// getWordSizeInBytesFromCookie) and ZigZagEncoding; DoubleHistogram cookies from
// DoubleHistogram.java. All integers are big-endian.
//
//   compressed:  cookie(4) compressedLength(4) zlib-stream(compressedLength)
//                 the zlib stream inflates to one of the uncompressed forms below
//   V2 / V1:     cookie(4) payloadLength(4) normalizingIndexOffset(4) digits(4)
//                 lowest(8) highest(8) integerToDoubleRatio(8) = 40 bytes, then payload
//   V0:          cookie(4) digits(4) lowest(8) highest(8) totalCount(8) = 32 bytes, then
//                 the payload, whose length is not recorded (it runs to the end)
//
// The cookie's bits 4-7 hold the counts' word size: 2, 4 or 8 bytes in V0/V1 (Java masks
// with 0xe); V2 always uses ZigZag LEB128 longs (0x10 set there means "TLZE"). The payload
// holds logical counts-array indices 0.. in order; normalizingIndexOffset only describes
// how the writer's own array was rotated and does not move anything in the encoding.

import { decodeBase64 } from "./hlog-encoding-base64";
import { readFixedWordCounts, readZigZagCounts, releaseLargeScratch, scratch } from "./hlog-encoding-counts";
// The project's own inflater: pako's verdicts, 1.7x faster on histogram payloads (inflate.ts).
import { inflateZlib } from "./inflate";
import { countsArrayLengthFor, subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../core/counts-layout";
import { DHIST_COMPRESSED, DHIST_ENCODING, DHIST_HEADER_SIZE, requantizeInPlace, targetDigitsFor, targetHighest, type DoubleInfo } from "./hlog-encoding-double";

export { addDecodedInto, growToCover } from "../core/counts-add";

export type EncodingVersion = 0 | 1 | 2;
/** `indices` and `counts` are views on one ArrayBuffer of their own (one allocation per decode). */
export interface DecodedHistogram {
  version: EncodingVersion;
  numberOfSignificantValueDigits: number;
  lowestDiscernibleValue: number; // Java's lowestTrackableUnitValue
  highestTrackableValue: number;
  /** Counts-array indices (in HdrHistogram's layout for these parameters), ascending, only non-zero counts. */
  indices: Int32Array;
  /** Counts for those indices (float64 so nothing wraps at 2^31). */
  counts: Float64Array;
  totalCount: number;
  /**
   * Set when the payload was a DoubleHistogram: the counts above are its wrapped integer
   * histogram mapped to integer ns (see hlog-encoding-double.ts); this is what it wrapped.
   */
  double?: DoubleInfo;
}
export type DecodeResult = { ok: true; value: DecodedHistogram } | { ok: false; reason: string };

const V0_ENCODING = 0x1c849308;
const V0_COMPRESSED = 0x1c849309;
const V1_ENCODING = 0x1c849301;
const V1_COMPRESSED = 0x1c849302;
const V2_ENCODING = 0x1c849303;
const V2_COMPRESSED = 0x1c849304;

const V0_HEADER_SIZE = 32;
const V1_V2_HEADER_SIZE = 40;
const V2_MAX_WORD_BYTES = 9;
/** Inflate this much before knowing what the header asks for. */
const FIRST_INFLATE_LIMIT = 64 * 1024;
/** Never inflate more than this, whatever the header says. */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

const NESTED_DOUBLE = "DoubleHistogram nested inside another histogram";

function fail(reason: string): DecodeResult {
  return { ok: false, reason };
}

function hex(cookie: number): string {
  return "0x" + (cookie >>> 0).toString(16).padStart(8, "0");
}

function int32(b: Uint8Array, p: number): number {
  return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
}

/** A Java long as a float64 (exact below 2^53). */
function int64(b: Uint8Array, p: number): number {
  return int32(b, p) * 4294967296 + (int32(b, p + 4) >>> 0);
}

interface Header {
  version: EncodingVersion;
  headerSize: number;
  /** 2, 4 or 8 for V0/V1; 0 for V2's variable-length words. */
  wordSize: number;
  /** -1 for V0, which does not record it. */
  payloadLength: number;
  digits: number;
  lowest: number;
  highest: number;
  unitMagnitude: number;
  halfMagnitude: number;
  countsLength: number;
}

function versionName(v: EncodingVersion): string {
  return "V" + v;
}

/** Reads and checks the header of an uncompressed histogram in `b[0, len)`. */
function parseHeader(b: Uint8Array, len: number): Header | string {
  if (len < 4) return "histogram header is truncated";
  const cookie = int32(b, 0);
  if (cookie === DHIST_ENCODING || cookie === DHIST_COMPRESSED) return NESTED_DOUBLE;
  const base = cookie & ~0xf0;
  let version: EncodingVersion;
  if (base === V2_ENCODING) version = 2;
  else if (base === V1_ENCODING) version = 1;
  else if (base === V0_ENCODING) version = 0;
  else if (base === V0_COMPRESSED || base === V1_COMPRESSED || base === V2_COMPRESSED) {
    return "compressed histogram nested inside a compressed payload";
  } else return `unknown encoding cookie ${hex(cookie)} inside the compressed payload`;
  const headerSize = version === 0 ? V0_HEADER_SIZE : V1_V2_HEADER_SIZE;
  if (len < headerSize) return `histogram header is truncated (${len} of ${headerSize} bytes)`;

  let wordSize = 0;
  let payloadLength = -1;
  let digits: number, lowest: number, highest: number;
  if (version === 0) {
    digits = int32(b, 4);
    lowest = int64(b, 8);
    highest = int64(b, 16);
    // b[24, 32) is the writer's totalCount, which Java discards (counts are authoritative).
  } else {
    payloadLength = int32(b, 4);
    // b[8, 12) is normalizingIndexOffset: not needed, see the top of the file.
    digits = int32(b, 12);
    lowest = int64(b, 16);
    highest = int64(b, 24);
    // b[32, 40) is integerToDoubleValueConversionRatio: 1.0 for integer histograms.
    if (payloadLength < 0) return "header declares a negative payload length";
  }
  if (version !== 2) {
    wordSize = ((cookie & 0xf0) >> 4) & 0xe;
    if (wordSize !== 2 && wordSize !== 4 && wordSize !== 8) {
      return `cookie ${hex(cookie)} declares ${wordSize}-byte counts; only 2, 4 and 8 exist`;
    }
  }

  const subMagnitude = subBucketCountMagnitude(digits);
  if (subMagnitude < 0) return `header declares ${digits} significant digits; HdrHistogram allows 0 to 5`;
  if (!(lowest >= 1)) return `header declares lowest discernible value ${lowest}; it must be at least 1`;
  if (!(highest >= 2 * lowest)) {
    return `header declares highest trackable value ${highest}, below twice the lowest discernible value ${lowest}`;
  }
  const unitMagnitude = unitMagnitudeOf(lowest);
  if (unitMagnitude + subMagnitude > 62) {
    return `header's lowest discernible value ${lowest} and ${digits} significant digits do not fit in 64 bits`;
  }
  const countsLength = countsArrayLengthFor(unitMagnitude, subMagnitude, highest);
  if (version !== 0) {
    const most = countsLength * (version === 2 ? V2_MAX_WORD_BYTES : wordSize);
    if (payloadLength > most) {
      return `header declares a ${payloadLength}-byte payload, more than its value range could ever need`;
    }
    if (version === 1 && payloadLength % wordSize !== 0) {
      return `header declares a ${payloadLength}-byte payload, not a whole number of ${wordSize}-byte counts`;
    }
  }
  return {
    version,
    headerSize,
    wordSize,
    payloadLength,
    digits,
    lowest,
    highest,
    unitMagnitude,
    halfMagnitude: subMagnitude - 1,
    countsLength,
  };
}

/** Bytes of uncompressed histogram the header says are needed. */
function neededBytes(h: Header): number {
  return h.headerSize + (h.version === 0 ? h.countsLength * h.wordSize : h.payloadLength);
}

/**
 * Decodes an uncompressed histogram in `b[0, len)`. With `transient`, indices and counts are
 * views of the readers' scratch arrays, valid until the next decode: loading adds each
 * interval and forgets it, and a fresh ArrayBuffer per interval cost more than the decoding.
 */
function decodeUncompressed(b: Uint8Array, len: number, outer: EncodingVersion | -1, transient: boolean): DecodeResult {
  if (len >= 4 && int32(b, 0) === DHIST_ENCODING) return decodeDouble(b, len, outer, transient);
  return decodeInteger(b, len, outer, transient);
}

/**
 * An uncompressed DoubleHistogram (its header, then the integer histogram it wraps), mapped
 * into an integer histogram of ns (hlog-encoding-double.ts says how and why).
 */
function decodeDouble(b: Uint8Array, len: number, outer: EncodingVersion | -1, transient: boolean): DecodeResult {
  if (len < DHIST_HEADER_SIZE) return fail(`DoubleHistogram header is truncated (${len} of ${DHIST_HEADER_SIZE} bytes)`);
  const digits = int32(b, 4);
  const inner = b.subarray(DHIST_HEADER_SIZE, len);
  const h = parseHeader(inner, inner.length);
  if (typeof h === "string") return fail(h);
  if (h.version === 0) return fail("DoubleHistogram wraps a V0 histogram, which records no conversion ratio");
  const ratio = new DataView(inner.buffer, inner.byteOffset + 32, 8).getFloat64(0);
  if (!(ratio > 0) || !Number.isFinite(ratio)) return fail(`DoubleHistogram's conversion ratio ${ratio} is not a positive number`);
  // Java refuses these too ("integer values histogram does not match stated parameters").
  if (h.lowest !== 1) return fail(`DoubleHistogram wraps a histogram with lowest discernible value ${h.lowest}; it must be 1`);
  if (h.digits !== digits) return fail(`DoubleHistogram declares ${digits} significant digits but wraps a histogram of ${h.digits}`);
  const r = decodeInteger(inner, inner.length, outer, true);
  if (!r.ok) return r;
  const d = r.value;
  // d's arrays are views of the scratch (kept alive by the views if the scratch was let go): rewrite them in place.
  const n = requantizeInPlace(d.indices, d.counts, d.indices.length, digits, ratio);
  if (typeof n === "string") return fail(n);
  let indices = d.indices.subarray(0, n);
  let counts = d.counts.subarray(0, n);
  if (!transient) ({ indices, counts } = ownCopy(indices, counts));
  // The inner histogram's version and total count, with the DoubleHistogram's digits, range and requantized arrays.
  const value: DecodedHistogram = {
    ...d,
    numberOfSignificantValueDigits: targetDigitsFor(digits),
    lowestDiscernibleValue: 1,
    highestTrackableValue: targetHighest(h.highest, ratio),
    indices,
    counts,
    double: { ratio, digits },
  };
  return { ok: true, value };
}

function decodeInteger(b: Uint8Array, len: number, outer: EncodingVersion | -1, transient: boolean): DecodeResult {
  const h = parseHeader(b, len);
  if (typeof h === "string") return fail(h);
  // Java picks the inner header size from the outer cookie: V0 must hold V0; V1 and V2 share it.
  if (outer !== -1 && (outer === 0) !== (h.version === 0)) {
    return fail(`compressed ${versionName(outer)} payload holds a ${versionName(h.version)} histogram`);
  }
  const start = h.headerSize;
  const available = len - start;
  let n: number | string;
  if (h.version === 0) {
    // No recorded length: everything after the header, up to a full counts array.
    const words = Math.floor(Math.min(available, h.countsLength * h.wordSize) / h.wordSize);
    n = readFixedWordCounts(b, start, words, h.wordSize);
  } else {
    if (h.payloadLength > available) {
      return fail(`payload is truncated (header declares ${h.payloadLength} bytes, ${available} present)`);
    }
    n = h.version === 2 ? readZigZagCounts(b, start, start + h.payloadLength, h.countsLength) : readFixedWordCounts(b, start, h.payloadLength / h.wordSize, h.wordSize);
  }
  if (typeof n === "string") return fail(n);
  // Views of the scratch; they keep its buffers when releaseLargeScratch replaces them.
  let indices: Int32Array = scratch.indices.subarray(0, n);
  let counts: Float64Array = scratch.counts.subarray(0, n);
  if (!transient) ({ indices, counts } = ownCopy(indices, counts));
  const value: DecodedHistogram = {
    version: h.version,
    numberOfSignificantValueDigits: h.digits,
    lowestDiscernibleValue: h.lowest,
    highestTrackableValue: h.highest,
    indices,
    counts,
    totalCount: scratch.total,
  };
  releaseLargeScratch();
  return { ok: true, value };
}

/**
 * A copy of a decode's arrays in one ArrayBuffer for both: allocating typed-array memory costs
 * more than decoding a typical interval, so do it once.
 */
function ownCopy(indices: Int32Array, counts: Float64Array): { indices: Int32Array; counts: Float64Array } {
  const n = indices.length;
  const memory = new ArrayBuffer(n * 12);
  const ownCounts = new Float64Array(memory, 0, n);
  const ownIndices = new Int32Array(memory, n * 8, n);
  ownCounts.set(counts);
  ownIndices.set(indices);
  return { indices: ownIndices, counts: ownCounts };
}

/** A payload's histogram bytes, uncompressed: what decodeInflated reads. */
export type InflateResult = { ok: true; bytes: Uint8Array; outer: EncodingVersion | -1 } | { ok: false; reason: string };

/** Inflates a compressed payload's zlib stream (bounded by what its header can need). `bytes` is reused by the next call. */
function inflateCompressed(b: Uint8Array, outer: EncodingVersion): InflateResult {
  if (b.length < 8) return { ok: false, reason: "compressed payload is truncated (no length field)" };
  const compressedLength = int32(b, 4);
  if (compressedLength < 0) return { ok: false, reason: "compressed payload declares a negative length" };
  if (compressedLength > b.length - 8) {
    return { ok: false, reason: `compressed payload is truncated (declares ${compressedLength} bytes, ${b.length - 8} present)` };
  }
  let r = inflateZlib(b, 8, compressedLength, FIRST_INFLATE_LIMIT);
  if (typeof r === "string") return { ok: false, reason: r };
  if (!r.ended) {
    // The buffer filled up: find out from the header how much the histogram needs.
    const h = parseHeader(r.bytes, r.bytes.length);
    if (typeof h === "string") return { ok: false, reason: h };
    const needed = neededBytes(h);
    if (needed > r.bytes.length) {
      if (needed > MAX_INFLATED_BYTES) {
        return {
          ok: false,
          reason: `payload would inflate to ${Math.ceil(needed / 1048576)} MiB, more than the ${MAX_INFLATED_BYTES / 1048576} MiB this reader accepts`,
        };
      }
      r = inflateZlib(b, 8, compressedLength, needed);
      if (typeof r === "string") return { ok: false, reason: r };
    }
  }
  return { ok: true, bytes: r.bytes, outer };
}

/**
 * A compressed DoubleHistogram: its 16-byte header, then a compressed integer histogram.
 * Gives the uncompressed DoubleHistogram form (plain cookie, same header, inflated integer
 * histogram), with the wrapped histogram's version as `outer`, as Java would read it.
 */
function inflateDouble(b: Uint8Array): InflateResult {
  if (b.length < DHIST_HEADER_SIZE + 4) return { ok: false, reason: "DoubleHistogram header is truncated" };
  const inner = b.subarray(DHIST_HEADER_SIZE);
  const base = int32(inner, 0) & ~0xf0;
  const version: EncodingVersion | -1 = base === V2_COMPRESSED ? 2 : base === V1_COMPRESSED ? 1 : base === V0_COMPRESSED ? 0 : -1;
  if (version === -1) return { ok: false, reason: `compressed DoubleHistogram wraps cookie ${hex(int32(inner, 0))}, not a compressed histogram` };
  const r = inflateCompressed(inner, version);
  if (!r.ok) return r;
  const out = new Uint8Array(DHIST_HEADER_SIZE + r.bytes.length);
  out.set(b.subarray(0, DHIST_HEADER_SIZE));
  out[3] = DHIST_ENCODING & 0xff;
  out.set(r.bytes, DHIST_HEADER_SIZE);
  return { ok: true, bytes: out, outer: version };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xfeff || c === 0xa0;
}

/**
 * The first half of decoding a payload: base64, and inflating when it is compressed. Never
 * throws. `bytes` are a view of a buffer the next call reuses (copy them to keep them: the
 * uncompressed form is the compact one to cache, and decodeInflated reads it cheaply).
 */
export function inflateHistogramPayload(base64: string): InflateResult {
  try {
    if (typeof base64 !== "string") return { ok: false, reason: "payload is not text" };
    let start = 0;
    let end = base64.length;
    while (start < end && isSpace(base64.charCodeAt(start))) start++;
    while (end > start && isSpace(base64.charCodeAt(end - 1))) end--;
    if (start === end) return { ok: false, reason: "payload is empty" };
    const b = decodeBase64(base64, start, end);
    if (b === null) return { ok: false, reason: "payload is not valid base64" };
    if (b.length < 4) return { ok: false, reason: `payload is too short to be a histogram (${b.length} bytes)` };
    const cookie = int32(b, 0);
    if (cookie === DHIST_ENCODING) return b.length < DHIST_HEADER_SIZE ? { ok: false, reason: "DoubleHistogram header is truncated" } : { ok: true, bytes: b, outer: -1 };
    if (cookie === DHIST_COMPRESSED) return inflateDouble(b);
    const base = cookie & ~0xf0;
    if (base === V2_COMPRESSED) return inflateCompressed(b, 2);
    if (base === V1_COMPRESSED) return inflateCompressed(b, 1);
    if (base === V0_COMPRESSED) return inflateCompressed(b, 0);
    if (base === V2_ENCODING || base === V1_ENCODING || base === V0_ENCODING) return { ok: true, bytes: b, outer: -1 };
    return { ok: false, reason: `unknown encoding cookie ${hex(cookie)}; this is not an HdrHistogram payload` };
  } catch {
    return { ok: false, reason: "payload could not be decoded (internal error)" };
  }
}

/** The second half: the histogram in bytes from inflateHistogramPayload. Never throws; `transient` as below. */
export function decodeInflated(bytes: Uint8Array, outer: EncodingVersion | -1, transient = false): DecodeResult {
  try {
    return decodeUncompressed(bytes, bytes.length, outer, transient);
  } catch {
    return fail("payload could not be decoded (internal error)");
  }
}

/**
 * Decodes one interval's base64 histogram payload. Never throws. With `transient`, the
 * result's arrays are only valid until the next call (see decodeUncompressed).
 */
export function decodeHistogramPayload(base64: string, transient = false): DecodeResult {
  const r = inflateHistogramPayload(base64);
  return r.ok ? decodeInflated(r.bytes, r.outer, transient) : fail(r.reason);
}

/** Value at a counts-array index for given parameters (HdrHistogram's valueFromIndex). */
export function valueFromIndex(index: number, lowestDiscernibleValue: number, numberOfSignificantValueDigits: number): number {
  const unit = unitMagnitudeOf(lowestDiscernibleValue);
  const sub = subBucketCountMagnitude(numberOfSignificantValueDigits);
  if (unit < 0 || sub < 0 || !Number.isInteger(index) || index < 0 || index > 0x7fffffff) return NaN;
  return valueAtIndex(index, unit, sub - 1);
}
