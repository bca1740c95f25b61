// The WebAssembly payload kernel (assembly/kernel.ts): a fast path for decoding one interval
// log payload. It either returns exactly what decodeHistogramPayload(payload, true) returns,
// or null ("not handled"), and then the caller runs the JS reader, which has the verdict and
// the message. Payloads it handles: V2 compressed histograms whose text is ASCII and which
// inflate to at most 64 KiB; anything else (including every invalid payload) is null.
//
// Instantiated synchronously at import. Where WebAssembly is missing or refused (a
// Content-Security-Policy without 'wasm-unsafe-eval' in script-src; a browser's size limit on
// synchronous compiles on a page's main thread), `kernelAvailable` is false and every call
// returns null.
import type { DecodedHistogram } from "../formats/hlog-encoding";
import { KERNEL_WASM_BASE64 } from "./kernel-wasm";

/** readLines' arguments (see assembly/kernel.ts); its two flags are numbers in the module. */
type ReadLinesArgs<Flag> = [
  from: number,
  to: number,
  maxLines: number,
  slot: number,
  capacity: number,
  digits: number,
  lowest: number,
  maxLast: number,
  zeroOk: Flag,
  base: number,
  keep: Flag,
];

interface KernelExports {
  memory: WebAssembly.Memory;
  decode(length: number): number;
  decodeBytes(bytes: number): number;
  inflateAt(length: number, limit: number): number;
  takeBuffer(): number;
  slotAlloc(capacity: number): number;
  slotAdd(base: number, indices: number, counts: number, n: number): number;
  slotAddDecoded(base: number, n: number): number;
  slotTake(base: number, into: number): number;
  slotEmpty(base: number): number;
  slotSpan(base: number): number;
  linesBuffer(): number;
  linesStopReason(): number;
  readLines(...args: ReadLinesArgs<number>): number;
  inputAddress: WebAssembly.Global;
  inputCapacity: WebAssembly.Global;
  outputAddress: WebAssembly.Global;
  indicesAddress: WebAssembly.Global;
  countsAddress: WebAssembly.Global;
  resultAddress: WebAssembly.Global;
}

let kernel: KernelExports | null = null;
/** Why the kernel is not available (null when it is). */
export let kernelUnavailableReason: string | null = null;

try {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.Module !== "function") throw new Error("no WebAssembly");
  const text = atob(KERNEL_WASM_BASE64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  kernel = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as KernelExports;
} catch (e) {
  kernel = null;
  kernelUnavailableReason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Whether the WebAssembly kernel loaded (else decodePayloadFast always returns null). */
export const kernelAvailable = kernel !== null;

const INPUT = kernel ? (kernel.inputAddress.value as number) : 0;
const INPUT_CAPACITY = kernel ? (kernel.inputCapacity.value as number) : 0;
const OUTPUT = kernel ? (kernel.outputAddress.value as number) : 0;
const INDICES = kernel ? (kernel.indicesAddress.value as number) : 0;
const COUNTS = kernel ? (kernel.countsAddress.value as number) : 0;
const RESULT = kernel ? (kernel.resultAddress.value as number) : 0;

// Views of the kernel's memory, made again if it ever grows (growth detaches the old buffer;
// the kernel itself never grows it).
let buffer: ArrayBuffer | null = null;
let bytes = new Uint8Array(0);
let indices = new Int32Array(0);
let counts = new Float64Array(0);
let resultF64 = new Float64Array(0);
let resultI32 = new Int32Array(0);
let input = new Uint8Array(0);
const encoder = new TextEncoder();
/** Whether the last decodePayloadFast call decoded its payload (its inflated bytes are at OUTPUT). */
let lastDecoded = false;
/** What the last decodePayloadFast call returned, and its median's index as the kernel found it. */
let lastResult: DecodedHistogram | null = null;
let lastMedian = -1;

type NativeSet = (this: Uint8Array, text: string) => { read: number; written: number };
/** The browser's base64 decoder where there is one (not in Node 20, which the unit tests run on). */
const nativeSet: NativeSet | null =
  typeof (Uint8Array.prototype as { setFromBase64?: unknown }).setFromBase64 === "function"
    ? (Uint8Array.prototype as unknown as { setFromBase64: NativeSet }).setFromBase64
    : null;

interface NodeBuffer extends Uint8Array {
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
/** The kernel's input as a Node Buffer (made again with the other views). */
let inputBuffer: NodeBuffer | null = null;
/** Tests turn the native decoders off to compare with the kernel's own base64. */
let nativeAllowed = true;

/**
 * Makes the views again if the kernel's memory has grown (the kernel never grows it itself;
 * a grown memory detaches the old views, whose length then reads 0). Reading memory.buffer on
 * every call instead was a visible share of a worker's 24-hour load in Chromium (profiled).
 */
function views(): void {
  if (input.length !== 0) return;
  const b = kernel!.memory.buffer;
  if (b === buffer) return;
  buffer = b;
  bytes = new Uint8Array(b);
  indices = new Int32Array(b, INDICES, 65536);
  counts = new Float64Array(b, COUNTS, 65536);
  resultF64 = new Float64Array(b, RESULT, 3);
  resultI32 = new Int32Array(b, RESULT + 24, 2);
  input = new Uint8Array(b, INPUT, INPUT_CAPACITY);
  inputBuffer = NodeBufferClass !== null ? NodeBufferClass.from(b, INPUT, INPUT_CAPACITY) : null;
}

/**
 * Copies `text[start, end)` into the kernel's input as bytes; false when it does not fit or is
 * not ASCII. TextEncoder.encodeInto is a native copy (in Node 20, ~15x faster than a
 * charCodeAt loop on these payloads); its UTF-8 is the text itself exactly when every
 * character is ASCII, and non-ASCII text is declined: the only non-ASCII characters the JS
 * reader accepts are the white space it trims (U+00A0, U+FEFF), so the kernel trims ASCII only.
 */
function writeInput(text: string, start: number, end: number): boolean {
  const n = end - start;
  if (n > INPUT_CAPACITY) return false;
  const r = encoder.encodeInto(start === 0 && end === text.length ? text : text.slice(start, end), input);
  return r.read === n && r.written === n;
}

/**
 * Payloads this realm's kernel decoded and declined (and of them, how many came as text to the
 * platform's base64 decoder, how many as bytes), published as `self.hdrKernelStats` so that
 * end-to-end tests can tell that the browser really ran the fast path, which is otherwise
 * invisible (the JS path gives the same answers). `lines`: of `bytes`, those whose whole line
 * the kernel read (kernelLines).
 */
export const kernelStats = { available: kernel !== null, handled: 0, declined: 0, nativeBase64: 0, bytes: 0, lines: 0 };
(globalThis as unknown as { hdrKernelStats: typeof kernelStats }).hdrKernelStats = kernelStats;

/** The kernel's raw verdict for a payload: pairs written (>= 0), or why it declined (< 0). For tests. */
export function decodePayloadCode(text: string, start = 0, end = text.length): number {
  lastDecoded = false;
  lastResult = null;
  if (kernel === null) return -100;
  if (typeof text !== "string") return -101;
  if (!(start >= 0 && end <= text.length && start <= end)) return -102;
  views();
  if (nativeAllowed && (nativeSet !== null || inputBuffer !== null)) {
    const n = nativeBase64(text, start, end);
    if (n >= 0) {
      kernelStats.nativeBase64++;
      return kernel.decodeBytes(n);
    }
    // Anything unusual (white space or non-ASCII at an end, text the browser refuses) takes
    // the kernel's own base64, which declines what it does not handle.
  }
  if (!writeInput(text, start, end)) return -103;
  return kernel.decode(end - start);
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
function nativeBase64(text: string, start: number, end: number): number {
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
  if (outLength > INPUT_CAPACITY) return -1;
  const body = start === 0 && end === text.length ? text : text.slice(start, end);
  if (nativeSet === null) return nodeBase64(body, outLength);
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
function nodeBase64(body: string, outLength: number): number {
  if (body.indexOf("-") >= 0 || body.indexOf("_") >= 0) return -1;
  if (nodeByteLength!(body, "utf8") !== body.length) return -1;
  return inputBuffer!.write(body, 0, outLength, "base64") === outLength ? outLength : -1;
}

/** For tests: whether payloads may take the platform's base64 decoder (setFromBase64, Node's Buffer) before the kernel's own. */
export function allowNativeBase64(allowed: boolean): void {
  nativeAllowed = allowed;
}

/**
 * decodeHistogramPayload(text.slice(start, end), true) when the kernel handles the payload,
 * else null. `indices` and `counts` are views of the kernel's memory, valid until the next call
 * (like the JS reader's transient result).
 */
export function decodePayloadFast(text: string, start = 0, end = text.length): DecodedHistogram | null {
  return resultOf(decodePayloadCode(text, start, end));
}

/**
 * decodePayloadFast for a payload given as bytes, `src[start, end)`, that are its text's
 * characters one for one (a log read as bytes, see engine/hlog-ingest.ts pushBytes): copied
 * into the kernel's input as they are and decoded by the kernel's own base64, which takes no
 * byte beyond ASCII. Null when the kernel declines; the caller then reads the line as text,
 * and the JS reader gives the verdict.
 */
export function decodePayloadBytes(src: Uint8Array, start: number, end: number): DecodedHistogram | null {
  lastDecoded = false;
  lastResult = null;
  if (kernel === null) return null;
  const n = end - start;
  if (!(start >= 0 && end <= src.length && n > 0 && n <= INPUT_CAPACITY)) return null;
  views();
  input.set(src.subarray(start, end));
  kernelStats.bytes++;
  return resultOf(kernel.decode(n));
}

/** What decodePayloadFast returns for the kernel's verdict `n` on the payload just written. */
function resultOf(n: number): DecodedHistogram | null {
  lastDecoded = n >= 0;
  if (n < 0) {
    kernelStats.declined++;
    return null;
  }
  kernelStats.handled++;
  lastMedian = resultI32[1]!;
  return (lastResult = {
    version: 2,
    numberOfSignificantValueDigits: resultI32[0]!,
    lowestDiscernibleValue: resultF64[0]!,
    highestTrackableValue: resultF64[1]!,
    indices: indicesOf(n),
    counts: countsOf(n),
    totalCount: resultF64[2]!,
  });
}

// The views of the first n pairs, made once per n (and again when the memory's buffer is new):
// subarray() per call was a visible share of a call. Payloads of a log have a few hundred
// different lengths at most. Handing out the same view again is what "valid until the next
// call" allows.
let indexViews: Int32Array[] = [];
let countViews: Float64Array[] = [];
let viewsOf: ArrayBuffer | null = null;

function indicesOf(n: number): Int32Array {
  if (viewsOf !== buffer) {
    indexViews = [];
    countViews = [];
    viewsOf = buffer;
  }
  return (indexViews[n] ??= indices.subarray(0, n));
}

function countsOf(n: number): Float64Array {
  return (countViews[n] ??= counts.subarray(0, n));
}

/**
 * The counts-array index of a decoded histogram's median: the index at which the running
 * count first reaches ceil(totalCount / 2); -1 when the histogram holds no count. For what
 * decodePayloadFast returned last, the kernel already found it while decoding; for anything
 * else (the JS reader's result) it is computed here, the same way.
 */
export function medianIndexOf(d: DecodedHistogram): number {
  if (d === lastResult) return lastMedian;
  if (!(d.totalCount > 0)) return -1;
  const target = Math.ceil(d.totalCount / 2);
  const { indices, counts } = d;
  let run = 0;
  for (let k = 0; k < indices.length; k++) {
    run += counts[k]!;
    if (run >= target) return indices[k]!;
  }
  return -1;
}

/**
 * The kernel's inflater alone, for tests and benchmarks: the zlib stream in
 * `input[offset, offset + length)` inflated with at most `limit` (<= 65536) bytes of output.
 * Returns a view of the kernel's memory (valid until the next call) when the stream ended
 * within the limit with a good checksum, else null (where inflateZlib would report an error,
 * a truncation, or an unfinished output).
 */
export function inflateFast(input: Uint8Array, offset: number, length: number, limit: number): Uint8Array | null {
  if (kernel === null) return null;
  const end = Math.min(offset + Math.max(0, length), input.length);
  const n = Math.max(0, end - offset);
  if (n > INPUT_CAPACITY || !(limit >= 0 && limit <= 65536)) return null;
  views();
  lastDecoded = false;
  lastResult = null;
  bytes.set(input.subarray(offset, offset + n), INPUT);
  const r = kernel.inflateAt(n, Math.floor(limit));
  return r < 0 ? null : bytes.subarray(OUTPUT, OUTPUT + r);
}

/**
 * The ZigZag LEB128 counts (the V2 encoding after its 40-byte header) of the payload the last
 * decodePayloadFast call decoded, as a view of the kernel's memory valid until the next call;
 * null when that call declined. Reading them again gives exactly that call's indices and counts
 * (the kernel checked every value while decoding): the load keeps them for time windows
 * (engine/intervals/kept.ts).
 */
export function lastCountsBytes(): Uint8Array | null {
  if (!lastDecoded) return null;
  views();
  const length = ((bytes[OUTPUT + 4]! << 24) | (bytes[OUTPUT + 5]! << 16) | (bytes[OUTPUT + 6]! << 8) | bytes[OUTPUT + 7]!) >>> 0;
  return bytes.subarray(OUTPUT + 40, OUTPUT + 40 + length);
}

/**
 * Block accumulators in the kernel's memory (engine/kernel-accumulators.ts uses them): see the
 * "Block accumulators" part of assembly/kernel.ts. Null where there is no kernel.
 */
export interface KernelSlots {
  alloc(capacity: number): number;
  /** Adds the first n pairs of the last decode (decodePayloadFast's indices and counts); false when an index does not fit. */
  addDecoded(slot: number, n: number): boolean;
  /** Adds pairs given in JavaScript arrays, [from, to); false when an index does not fit. */
  addArrays(slot: number, indices: Int32Array, counts: Float64Array, from: number, to: number): boolean;
  /** Takes the next entries out (and into `into`, 0 for none); returns how many are in takeIndices/takeCounts. */
  take(slot: number, into: number): number;
  empty(slot: number): boolean;
  span(slot: number): number;
  /** The take buffer's views (valid until memory grows: ask again after alloc). */
  takeIndices(): Int32Array;
  takeCounts(): Float64Array;
  /** Whether these arrays are the last decode's (decodePayloadFast's views). */
  isDecoded(indices: Int32Array): boolean;
  /** The last decode's pairs as views made now (after memory grew, the old views are detached). */
  decodedIndices(): Int32Array;
  decodedCounts(): Float64Array;
}

let takeIndicesView = new Int32Array(0);
let takeCountsView = new Float64Array(0);
let takeBase = -1;
const TAKE_ENTRIES = 65536;

function takeViews(): void {
  views();
  if (takeIndicesView.length !== 0 && takeIndicesView.buffer === buffer) return;
  takeIndicesView = new Int32Array(buffer!, takeBase, TAKE_ENTRIES);
  takeCountsView = new Float64Array(buffer!, takeBase + TAKE_ENTRIES * 4, TAKE_ENTRIES);
}

export const kernelSlots: KernelSlots | null = (() => {
  if (kernel === null) return null;
  const k = kernel;
  return {
    alloc(capacity) {
      if (takeBase < 0) takeBase = k.takeBuffer();
      if (takeBase < 0) return -1;
      const slot = k.slotAlloc(capacity);
      takeViews();
      return slot;
    },
    addDecoded(slot, n) {
      return k.slotAddDecoded(slot, n) === 0;
    },
    addArrays(slot, idx, cnt, from, to) {
      takeViews();
      // Staged through the take buffer, a piece at a time (taking never runs meanwhile).
      for (let a = from; a < to; a += TAKE_ENTRIES) {
        const b = Math.min(to, a + TAKE_ENTRIES);
        takeIndicesView.set(idx.subarray(a, b));
        takeCountsView.set(cnt.subarray(a, b));
        if (k.slotAdd(slot, takeBase, takeBase + TAKE_ENTRIES * 4, b - a) !== 0) return false;
      }
      return true;
    },
    take(slot, into) {
      return k.slotTake(slot, into);
    },
    empty(slot) {
      return k.slotEmpty(slot) !== 0;
    },
    span(slot) {
      return k.slotSpan(slot);
    },
    takeIndices() {
      takeViews();
      return takeIndicesView;
    },
    takeCounts() {
      takeViews();
      return takeCountsView;
    },
    isDecoded(idx) {
      views();
      return idx.buffer === buffer && idx.byteOffset === INDICES;
    },
    decodedIndices() {
      views();
      return indices;
    },
    decodedCounts() {
      views();
      return counts;
    },
  };
})();

/** Sizes of the lines buffer's parts (assembly/kernel.ts linesBuffer). */
const LINES_BYTES = 1 << 20;
const LINE_RECORDS = 64;
const RECORD_BYTES = 64;
const KEPT_BYTES = 1 << 18;

/**
 * Interval lines read by the kernel (assembly/kernel.ts readLines): a run of consecutive lines
 * of the usual shape, each parsed, decoded and added to a block accumulator in one call, with a
 * record per line. Null where there is no kernel.
 */
export interface KernelLines {
  /** Where the log's bytes go (LINES_BYTES of them); null when the kernel's memory cannot grow. A view valid until the memory grows. */
  area(): Uint8Array | null;
  /** readLines: the lines read into records 0 … n − 1 (see the kernel for the arguments). */
  read(...args: ReadLinesArgs<boolean>): number;
  /** Why the last read stopped: 0 the room asked for was used, 1 a line is not whole in the area, 2 a line was declined. */
  stopReason(): number;
  /** The records: per line, 8 float64 (raw start, length, max column, total count), then as int32 from index 8 (last index, median index, payload offset, payload length, line length, kept offset, kept length). */
  recordsF64(): Float64Array;
  recordsI32(): Int32Array;
  /** The kept counts' bytes (records' kept offset and length). */
  kept(): Uint8Array;
}

/** Doubles and int32 per record (RECORD_BYTES). */
export const RECORD_F64 = RECORD_BYTES / 8;
export const RECORD_I32 = RECORD_BYTES / 4;

let linesBase = -1;
let linesFailed = false;
let linesOf: ArrayBuffer | null = null;
let linesArea = new Uint8Array(0);
let recF64 = new Float64Array(0);
let recI32 = new Int32Array(0);
let keptArea = new Uint8Array(0);

function linesViews(): void {
  views();
  if (linesOf === buffer) return;
  linesOf = buffer;
  linesArea = new Uint8Array(buffer!, linesBase, LINES_BYTES);
  recF64 = new Float64Array(buffer!, linesBase + LINES_BYTES, (LINE_RECORDS * RECORD_BYTES) / 8);
  recI32 = new Int32Array(buffer!, linesBase + LINES_BYTES, (LINE_RECORDS * RECORD_BYTES) / 4);
  keptArea = new Uint8Array(buffer!, linesBase + LINES_BYTES + LINE_RECORDS * RECORD_BYTES, KEPT_BYTES);
}

export const kernelLines: KernelLines | null = (() => {
  if (kernel === null) return null;
  const k = kernel;
  return {
    area() {
      if (linesFailed) return null;
      if (linesBase < 0) {
        linesBase = k.linesBuffer();
        // Memory that could not grow once is not asked again for every line.
        linesFailed = linesBase < 0;
        if (linesFailed) return null;
      }
      linesViews();
      return linesArea;
    },
    read(from, to, maxLines, slot, capacity, digits, lowest, maxLast, zeroOk, base, keep) {
      lastDecoded = false;
      lastResult = null;
      const n = k.readLines(from, to, maxLines, slot, capacity, digits, lowest, maxLast, zeroOk ? 1 : 0, base, keep ? 1 : 0);
      kernelStats.bytes += n;
      kernelStats.handled += n;
      kernelStats.lines += n;
      return n;
    },
    stopReason() {
      return k.linesStopReason();
    },
    recordsF64() {
      linesViews();
      return recF64;
    },
    recordsI32() {
      linesViews();
      return recI32;
    },
    kept() {
      linesViews();
      return keptArea;
    },
  };
})();
