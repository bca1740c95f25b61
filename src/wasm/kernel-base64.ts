// The platform's native base64 decoders, held to the JS reader's rules, writing a payload's
// bytes straight into the kernel's input (kernel.ts decodeCode tries them first).

type NativeSet = (this: Uint8Array, text: string) => { read: number; written: number };
/** The browser's base64 decoder where there is one (not in Node 20, which the unit tests run on). */
const nativeSet: NativeSet | null =
  typeof (Uint8Array.prototype as { setFromBase64?: unknown }).setFromBase64 === "function"
    ? (Uint8Array.prototype as unknown as { setFromBase64: NativeSet }).setFromBase64
    : null;

export interface NodeBuffer extends Uint8Array {
  write(text: string, offset: number, length: number, encoding: "base64"): number;
}
type NodeBufferClass = { from(buffer: ArrayBuffer, offset: number, length: number): NodeBuffer; byteLength(text: string, encoding: "utf8"): number };
/**
 * Node's Buffer, where there is no setFromBase64 (Node 20: the command line, the unit tests):
 * its base64 decoder is native too. Never used where the browser has its own decoder.
 */
const NodeBufferClass: NodeBufferClass | null =
  nativeSet === null && typeof (globalThis as { Buffer?: { from?: unknown } }).Buffer?.from === "function" ? (globalThis as unknown as { Buffer: NodeBufferClass }).Buffer : null;
const nodeByteLength = NodeBufferClass !== null ? NodeBufferClass.byteLength.bind(NodeBufferClass) : null;

/** Whether this platform has a native decoder (the browser's, or Node's Buffer). */
export const hasNativeBase64 = nativeSet !== null || NodeBufferClass !== null;

/** The kernel's input as a Node Buffer (null where the browser's decoder is used). */
export function nodeBufferOf(buffer: ArrayBuffer, offset: number, length: number): NodeBuffer | null {
  return NodeBufferClass !== null ? NodeBufferClass.from(buffer, offset, length) : null;
}

/**
 * The browser's base64 decoder (Uint8Array.prototype.setFromBase64, Chromium 140+), writing
 * straight into the kernel's input: in Chromium, TextEncoder.encodeInto per payload was a
 * visible share of a worker's load (profiled), more than the kernel's inflating needed. Held to the JS
 * reader's rules exactly as its own native path is (hlog-encoding-base64.ts decodeNative):
 * padding taken off first, and the whole text read into exactly the bytes it must make (the
 * browser skips white space inside, which the reader refuses). Returns the byte count, or -1
 * when the payload needs the general path: white space or a non-ASCII character at either end
 * (the reader trims those first), a length no base64 has, or text the browser refuses.
 */
export function nativeBase64(text: string, start: number, end: number, input: Uint8Array, inputBuffer: NodeBuffer | null): number {
  if (end <= start) return -1;
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  if (first <= 32 || first >= 127 || last <= 32 || last >= 127) return -1;
  if (text.charCodeAt(end - 1) === 61) end--;
  if (end > start && text.charCodeAt(end - 1) === 61) end--;
  const chars = end - start;
  const tail = chars & 3;
  if (tail === 1) return -1;
  const outLength = (chars >> 2) * 3 + (tail === 0 ? 0 : tail - 1);
  if (outLength > input.length) return -1;
  const body = start === 0 && end === text.length ? text : text.slice(start, end);
  if (nativeSet === null) return nodeBase64(body, outLength, inputBuffer!);
  try {
    const r = nativeSet.call(input, body);
    if (r.read !== body.length || r.written !== outLength) return -1;
  } catch {
    return -1;
  }
  return outLength;
}

/**
 * Node's base64 decoder into the kernel's input, held to the same rules: it skips what is not
 * base64 (white space, other characters, an "=" inside), which leaves fewer bytes than the
 * length must make, and that is declined. What it would take and the reader refuses is declined
 * before it: the URL-safe "-" and "_", and characters beyond ASCII (it reads some of them as
 * their low byte, "Ł" as "A"); the text is ASCII exactly when its UTF-8 is as long as it is.
 */
function nodeBase64(body: string, outLength: number, inputBuffer: NodeBuffer): number {
  if (body.indexOf("-") >= 0 || body.indexOf("_") >= 0) return -1;
  if (nodeByteLength!(body, "utf8") !== body.length) return -1;
  return inputBuffer.write(body, 0, outLength, "base64") === outLength ? outLength : -1;
}
