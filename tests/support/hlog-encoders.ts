// Test-only encoders for HdrHistogram's V0, V1 and V2 histogram encodings, written from the
// format as HdrHistogram Java writes it (AbstractHistogram.encodeIntoByteBuffer /
// encodeIntoCompressedByteBuffer / fillBufferFromCountsArray in 2.0.x (V0), 2.1.x (V1)
// and 2.1.7+ (V2)). Used by tests only; never imported by app code.
import { deflateSync } from "node:zlib";

export interface DenseHistogram {
  lowest: number;
  highest: number;
  digits: number;
  /** Logical counts array (index 0 first). */
  counts: ArrayLike<number>;
}

export interface EncodeOptions {
  version: 0 | 1 | 2;
  /** V0/V1 word size; ignored for V2. */
  wordSize?: 2 | 4 | 8;
  compressed?: boolean;
  /** V1/V2 header field; HdrHistogram's decoder does not move counts by it. */
  normalizingIndexOffset?: number;
  /** V1/V2 header field integerToDoubleValueConversionRatio: 1 for integer histograms. */
  integerToDoubleRatio?: number;
}

const COOKIE = {
  0: { plain: 0x1c849308, compressed: 0x1c849309 },
  1: { plain: 0x1c849301, compressed: 0x1c849302 },
  2: { plain: 0x1c849303, compressed: 0x1c849304 },
} as const;

const SUB_MAG = [1, 5, 8, 11, 15, 18];

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v & 0xff;
  }
  i16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
  }
  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.length, v | 0);
    this.length += 4;
  }
  setI32(at: number, v: number): void {
    this.view.setInt32(at, v | 0);
  }
  i64(v: number | bigint): void {
    this.ensure(8);
    this.view.setBigInt64(this.length, BigInt(v));
    this.length += 8;
  }
  f64(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }
  zeros(n: number): void {
    this.ensure(n);
    this.buf.fill(0, this.length, this.length + n);
    this.length += n;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Java ZigZagEncoding.putLong: ZigZag, then LEB128 with a 9th byte holding 8 bits. */
export function putZigZagLong(w: Writer, value: bigint): void {
  let zz = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
  for (let k = 0; k < 8; k++) {
    if (zz >> 7n === 0n) {
      w.u8(Number(zz));
      return;
    }
    w.u8(Number(zz & 0x7fn) | 0x80);
    zz >>= 7n;
  }
  w.u8(Number(zz & 0xffn));
}

function lastNonZero(counts: ArrayLike<number>): number {
  for (let i = counts.length - 1; i >= 0; i--) if (counts[i] !== 0) return i;
  return -1;
}

/** Encodes to bytes (the uncompressed form, or the compressed wrapper around it). */
export function encodeHistogramBytes(h: DenseHistogram, opts: EncodeOptions): Uint8Array {
  const { version } = opts;
  const wordSize = version === 2 ? 0 : (opts.wordSize ?? 8);
  const maxIndex = lastNonZero(h.counts);
  let relevant: number;
  if (version === 0) {
    // 2.0.x: getLengthForNumberOfBuckets(getBucketsNeededToCoverValue(maxValue)) -- whole buckets.
    const half = SUB_MAG[h.digits]! - 1;
    const bucket = Math.max(0, ((maxIndex < 0 ? 0 : maxIndex) >> half) - 1);
    relevant = Math.min((bucket + 2) << half, h.counts.length);
  } else {
    relevant = Math.max(maxIndex, 0) + 1; // countsArrayIndex(maxValue) + 1
  }
  const w = new Writer();
  let total = 0;
  for (let i = 0; i < h.counts.length; i++) total += h.counts[i]!;
  if (version === 0) {
    w.i32(COOKIE[0].plain | (wordSize << 4));
    w.i32(h.digits);
    w.i64(h.lowest);
    w.i64(h.highest);
    w.i64(total);
  } else {
    w.i32(version === 1 ? COOKIE[1].plain | (wordSize << 4) : COOKIE[2].plain | 0x10);
    w.i32(0); // payload length, filled in below
    w.i32(opts.normalizingIndexOffset ?? 0);
    w.i32(h.digits);
    w.i64(h.lowest);
    w.i64(h.highest);
    w.f64(opts.integerToDoubleRatio ?? 1.0);
  }
  const payloadStart = w.length;
  if (version === 2) {
    let i = 0;
    while (i < relevant) {
      const count = h.counts[i++]!;
      let zeros = 0;
      if (count === 0) {
        zeros = 1;
        while (i < relevant && h.counts[i] === 0) {
          zeros++;
          i++;
        }
      }
      putZigZagLong(w, zeros > 1 ? BigInt(-zeros) : BigInt(count));
    }
  } else {
    for (let i = 0; i < relevant; i++) {
      const c = h.counts[i]!;
      if (c === 0) w.zeros(wordSize);
      else if (wordSize === 2) w.i16(c);
      else if (wordSize === 4) w.i32(c);
      else w.i64(c);
    }
  }
  if (version !== 0) w.setI32(4, w.length - payloadStart);
  const plain = w.result();
  if (!opts.compressed) return plain;
  const deflated = new Uint8Array(deflateSync(plain));
  const c = new Writer();
  c.i32(version === 2 ? COOKIE[2].compressed | 0x10 : COOKIE[version].compressed | (wordSize << 4));
  c.i32(deflated.length);
  c.bytes(deflated);
  return c.result();
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function encodeHistogram(h: DenseHistogram, opts: EncodeOptions): string {
  return toBase64(encodeHistogramBytes(h, opts));
}

/** Wraps arbitrary uncompressed bytes in a compressed envelope with the given outer cookie. */
export function wrapCompressed(outerCookie: number, inner: Uint8Array): Uint8Array {
  const deflated = new Uint8Array(deflateSync(inner));
  const c = new Writer();
  c.i32(outerCookie);
  c.i32(deflated.length);
  c.bytes(deflated);
  return c.result();
}

export { Writer };

// DoubleHistogram (DoubleHistogram.encodeIntoByteBuffer / encodeIntoCompressedByteBuffer):
// cookie, digits, configuredHighestToLowestValueRatio, then the wrapped integer histogram
// (lowest 1), plain or compressed, whose header carries the conversion ratio.
export const DHIST_COOKIE = { plain: 0x0c72124e, compressed: 0x0c72124f } as const;

export interface DoubleEncoding {
  /** The wrapped integer histogram (lowest must be 1 for Java to accept it). */
  inner: DenseHistogram;
  /** integerToDoubleValueConversionRatio: integer value i stands for i * ratio. */
  ratio: number;
  configuredHighestToLowestValueRatio?: number;
  compressed?: boolean;
  /** Version of the wrapped encoding (Java 2.1.7+ writes V2). */
  version?: 1 | 2;
}

export function encodeDoubleHistogramBytes(d: DoubleEncoding): Uint8Array {
  const inner = encodeHistogramBytes(d.inner, { version: d.version ?? 2, compressed: d.compressed ?? true, integerToDoubleRatio: d.ratio });
  const w = new Writer();
  w.i32((d.compressed ?? true) ? DHIST_COOKIE.compressed : DHIST_COOKIE.plain);
  w.i32(d.inner.digits);
  w.i64(d.configuredHighestToLowestValueRatio ?? 2);
  w.bytes(inner);
  return w.result();
}

export function encodeDoubleHistogram(d: DoubleEncoding): string {
  return toBase64(encodeDoubleHistogramBytes(d));
}

const SUB_MAG_OF = SUB_MAG;

/**
 * Records double samples as Java's DoubleHistogram does, independently of the app's reader:
 * the conversion ratio is lowestValueInAutoRange / subBucketHalfCount with lowestValueInAutoRange
 * the largest power of two at or below the smallest sample (so every sample keeps the full
 * precision), and each sample becomes the integer (long)(sample / ratio).
 */
export function doubleHistogramOf(samples: readonly number[], digits: number): DoubleEncoding & { integers: number[] } {
  const subMag = SUB_MAG_OF[digits]!;
  const half = subMag - 1;
  const min = Math.min(...samples.filter((x) => x > 0));
  const ratio = 2 ** (Math.floor(Math.log2(min)) - half);
  const integers = samples.map((x) => Math.floor(x / ratio));
  const top = Math.max(...integers);
  // Index of the top value in the layout lowest 1, then a counts array covering it.
  const indexOf = (v: number) => {
    if (v < 2 ** subMag) return v;
    let lg = Math.floor(Math.log2(v));
    while (2 ** lg > v) lg--;
    while (2 ** (lg + 1) <= v) lg++;
    const bucket = lg + 1 - subMag;
    return (bucket + 1) * 2 ** half + (Math.floor(v / 2 ** bucket) - 2 ** half);
  };
  const counts = new Array<number>(indexOf(top) + 1).fill(0);
  for (const v of integers) counts[indexOf(v)]!++;
  const highest = 2 ** Math.ceil(Math.log2(top + 2));
  return { inner: { lowest: 1, highest, digits, counts }, ratio, integers, compressed: true };
}
