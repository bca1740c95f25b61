// Standard base64 (RFC 4648, "+/" alphabet) decoding into a reused scratch buffer.
// Written for the histogram payloads of interval logs: many short strings, decoded one
// after another, each consumed before the next is decoded.

const DECODE = new Int8Array(256).fill(-1);
{
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) DECODE[alphabet.charCodeAt(i)] = i;
}

const KEEP_SCRATCH_BYTES = 1 << 20;
let scratch = new Uint8Array(4096);

/**
 * The browser's own decoder (Uint8Array.prototype.setFromBase64: Chromium 140+, Firefox 133+,
 * Safari 18.2+), which writes into an existing buffer: about five times faster than the loop
 * below on a log's payloads, and base64 was ~7 % of reading a log. Node 20 lacks it.
 */
type NativeSet = (this: Uint8Array, text: string) => { read: number; written: number };
const nativeSet: NativeSet | null =
  typeof (Uint8Array.prototype as { setFromBase64?: unknown }).setFromBase64 === "function"
    ? (Uint8Array.prototype as unknown as { setFromBase64: NativeSet }).setFromBase64
    : null;

/** Whether decodeBase64 uses the browser's decoder (for tests that compare the two). */
export const usesNativeBase64 = nativeSet !== null;

/**
 * Decodes `text[start, end)` as base64. Padding is optional; no whitespace is allowed
 * inside. Returns a view of a buffer that is reused by the next call, or null when the
 * text is not base64.
 */
export function decodeBase64(text: string, start = 0, end = text.length): Uint8Array | null {
  // Up to two trailing "=".
  if (end > start && text.charCodeAt(end - 1) === 61) end--;
  if (end > start && text.charCodeAt(end - 1) === 61) end--;
  const chars = end - start;
  const tail = chars & 3;
  if (tail === 1) return null;
  const outLength = (chars >> 2) * 3 + (tail === 0 ? 0 : tail - 1);
  if (scratch.length < outLength || (scratch.length > KEEP_SCRATCH_BYTES && outLength <= KEEP_SCRATCH_BYTES)) {
    scratch = new Uint8Array(Math.max(outLength, 4096));
  }
  const out = scratch;
  if (nativeSet !== null) return decodeNative(nativeSet, out, text, start, end, outLength);
  return decodeLoop(out, text, start, end, tail);
}

/**
 * The native decoder, held to this reader's rules (the loop below): it skips white space inside
 * the text, which is refused here, and it is stricter about padding than the loop, so it is
 * given the text without its padding and must read all of it and write exactly `outLength`
 * bytes (white space would make it write fewer).
 */
function decodeNative(set: NativeSet, out: Uint8Array, text: string, start: number, end: number, outLength: number): Uint8Array | null {
  try {
    const body = start === 0 && end === text.length ? text : text.slice(start, end);
    const r = set.call(out, body);
    if (r.read !== body.length || r.written !== outLength) return null;
  } catch {
    return null; // SyntaxError: a character outside the alphabet, or a lone last character
  }
  return out.subarray(0, outLength);
}

function decodeLoop(out: Uint8Array, text: string, start: number, end: number, tail: number): Uint8Array | null {
  let o = 0;
  let i = start;
  const fullEnd = end - tail;
  while (i < fullEnd) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    i += 4;
    // Characters above 255 map outside the table; `& 0xff` would alias them, so check.
    if ((c0 | c1 | c2 | c3) > 255) return null;
    const a = DECODE[c0]!,
      b = DECODE[c1]!,
      c = DECODE[c2]!,
      d = DECODE[c3]!;
    if ((a | b | c | d) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (tail !== 0) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = tail === 3 ? text.charCodeAt(i + 2) : 65; // 'A' = 0
    if ((c0 | c1 | c2) > 255) return null;
    const a = DECODE[c0]!,
      b = DECODE[c1]!,
      c = DECODE[c2]!;
    if ((a | b | c) < 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6);
    out[o++] = n >>> 16;
    if (tail === 3) out[o++] = (n >>> 8) & 0xff;
  }
  return out.subarray(0, o);
}
