// Byte-level tools of the share link: LEB128 varints (up to 2^53), zigzag, base64url and a
// zlib deflate/inflate pair whose inflate stops at a byte limit (a few kilobytes of hostile
// deflate can claim gigabytes). Nothing here knows about histograms or the schema.

// pako 1.x ships no type declarations; the shape used is declared below.
// @ts-expect-error -- untyped CommonJS module
import * as pakoDeflate from "pako/lib/deflate.js";
import { inflateZlib, lastStreamEnd } from "../formats/inflate";

/** A malformed link: the message says what is wrong. Thrown inside the decoder, never out of it. */
export class ShareFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShareFormatError";
  }
}

// ---------------------------------------------------------------------------------------------
// Varints

/** Growable byte buffer with LEB128 varint writers. */
export class ByteWriter {
  private buf = new Uint8Array(1024);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(0, this.length));
    this.buf = b;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Unsigned LEB128 of an integer in [0, 2^53). Arithmetic, not bit operations: 32 bits would wrap. */
  varint(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`varint out of range: ${n}`);
    this.ensure(8);
    while (n >= 128) {
      this.buf[this.length++] = (n % 128) + 128;
      n = Math.floor(n / 128);
    }
    this.buf[this.length++] = n;
  }

  /**
   * Zigzag LEB128 of a signed integer with |n| < 2^53: the bytes of varint(2|n| or 2|n|−1),
   * computed without forming that number (above 2^53 a double cannot hold it).
   */
  svarint(n: number): void {
    if (!Number.isSafeInteger(n)) throw new RangeError(`svarint out of range: ${n}`);
    const sign = n < 0 ? 1 : 0;
    let m = n < 0 ? -n - 1 : n;
    const low = (m % 64) * 2 + sign;
    m = Math.floor(m / 64);
    this.ensure(1);
    this.buf[this.length++] = m > 0 ? low + 128 : low;
    if (m > 0) this.varint(m);
  }

  float64(x: number): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.length, 8).setFloat64(0, x, true);
    this.length += 8;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Reads what ByteWriter writes; every read checks bounds and throws ShareFormatError. */
export class ByteReader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    private readonly what: string,
  ) {}

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.buf.length) throw new ShareFormatError(`${this.what} is truncated`);
      const b = this.buf[this.pos++]!;
      value += (b & 127) * scale;
      if (b < 128) {
        if (value > Number.MAX_SAFE_INTEGER) throw new ShareFormatError(`${this.what} holds a number above 2^53`);
        return value;
      }
      scale *= 128;
    }
    throw new ShareFormatError(`${this.what} holds a number longer than 8 bytes`);
  }

  svarint(): number {
    if (this.pos >= this.buf.length) throw new ShareFormatError(`${this.what} is truncated`);
    const first = this.buf[this.pos++]!;
    let m = (first & 127) >> 1;
    if (first >= 128) {
      const high = this.varint();
      if (high > Math.floor(Number.MAX_SAFE_INTEGER / 64)) throw new ShareFormatError(`${this.what} holds a number above 2^53`);
      m += high * 64;
    }
    return first & 1 ? -m - 1 : m;
  }

  float64(): number {
    if (this.remaining < 8) throw new ShareFormatError(`${this.what} is truncated`);
    const x = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return x;
  }

  take(n: number): Uint8Array {
    if (n > this.remaining) throw new ShareFormatError(`${this.what} is truncated`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// base64url, unpadded (RFC 4648 §5): safe in a URL fragment and in Markdown.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function base64urlEncode(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = "";
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    chunk += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    chunk += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  parts.push(chunk);
  return parts.join("");
}

/** Decodes unpadded base64url; throws ShareFormatError naming the first bad character. */
export function base64urlDecode(text: string): Uint8Array {
  if (text.length % 4 === 1) throw new ShareFormatError("the link's data has an impossible length (cut off?)");
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) throw new ShareFormatError(`the link's data holds a character that is not base64url (${JSON.stringify(text[i])} at ${i})`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 255;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// zlib (deflate with a 2-byte header and an Adler-32 trailer: a link damaged in transit fails
// the checksum instead of decoding into something else). Inflating is the app's one inflater,
// the one the log readers use (formats/inflate.ts); deflating is pako's.

const deflater = pakoDeflate as unknown as { deflate(data: Uint8Array, opts: { level: number }): Uint8Array };

/** The first output room tried: most links inflate to less, and the inflater keeps its buffer. */
const FIRST_ROOM = 1 << 20;

export function zlibDeflate(data: Uint8Array): Uint8Array {
  return deflater.deflate(data, { level: 9 });
}

/**
 * Inflates a whole zlib stream, producing at most `limit` bytes. The inflater writes into one
 * buffer as large as the room it is given, so the room starts at 1 MB and doubles up to the
 * limit (plus one byte, to tell "exactly the limit" from "more"): a bomb costs at most about
 * twice the limit before it is refused, and an ordinary link no allocation of the limit's size.
 */
export function zlibInflateBounded(input: Uint8Array, limit: number): Uint8Array {
  let room = Math.min(FIRST_ROOM, limit + 1);
  for (;;) {
    const r = inflateZlib(input, 0, input.length, room);
    if (typeof r === "string") {
      if (r.includes("truncated")) throw new ShareFormatError("the link is cut off (its compressed data ends early)");
      if (r.includes("dictionary")) throw new ShareFormatError("the link's data is corrupt (it asks for a zlib preset dictionary)");
      throw new ShareFormatError(`the link's data is corrupt (${r.replace(/^compressed payload is corrupt \((zlib: )?(.*)\)$/, "$2")})`);
    }
    if (r.ended && r.bytes.length <= limit) {
      if (lastStreamEnd() !== input.length) throw new ShareFormatError("the link's data has trailing bytes after its end");
      // The inflater's buffer is reused by its next call: the caller gets its own copy.
      return r.bytes.slice();
    }
    if (room > limit) throw new ShareFormatError(`the link's data inflates to more than ${limit} bytes: refused`);
    room = Math.min(room * 2, limit + 1);
  }
}
