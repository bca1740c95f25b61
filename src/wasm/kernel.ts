// The WebAssembly payload kernel (assembly/kernel.ts): a fast path for decoding one interval
// log payload. It either returns exactly what decodeHistogramPayload(payload, true) returns,
// or null ("not handled"), and then the caller runs the JS reader, which has the verdict and
// the message. Payloads it handles: V2 compressed histograms whose text is ASCII and which
// inflate to at most 64 KiB; anything else (including every invalid payload) is null.
//
// A Kernel is one instance of the module with its memory and the views of it. A thread has one
// (`threadKernel`, instantiated synchronously at import), which engine/intervals/decode.ts
// alone imports (its thread's PayloadDecoder) and the engine context passes to the reader:
// what one decode leaves in the memory (the inflated counts, the pairs) is read by the next
// step of the same load, so everything on a thread shares it. Where WebAssembly is missing or
// refused (a Content-Security-Policy without 'wasm-unsafe-eval' in script-src; a browser's size
// limit on synchronous compiles on a page's main thread), it is null and every call returns null.
import type { DecodedHistogram } from "../formats/hlog-encoding";
import { hasNativeBase64, nativeBase64, nodeBufferOf, type NodeBuffer } from "./kernel-base64";
import { Lines, type KernelLines } from "./kernel-lines";
import { slotsOf, type KernelSlots } from "./kernel-slots";
import { KERNEL_WASM_BASE64 } from "./kernel-wasm";

export { RECORD_F64, RECORD_I32, type KernelLines } from "./kernel-lines";
export type { KernelSlots } from "./kernel-slots";

/**
 * readLines' arguments in the module's order (assembly/lines.ts): the one definition, which
 * KernelLines.read and the module's export both take; its two flags are numbers in the module.
 */
export type ReadLinesArgs<Flag> = [
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

export interface KernelExports {
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

/** Payloads a kernel decoded and declined, and of them how many came as text to the platform's base64 decoder, how many as bytes, and how many whole lines it read. */
export interface KernelStats {
  available: boolean;
  handled: number;
  declined: number;
  nativeBase64: number;
  bytes: number;
  lines: number;
}

const encoder = new TextEncoder();

export class Kernel {
  readonly stats: KernelStats = { available: true, handled: 0, declined: 0, nativeBase64: 0, bytes: 0, lines: 0 };
  /** Block accumulators in this kernel's memory. */
  readonly slots: KernelSlots;
  /** Interval lines read by this kernel. */
  readonly lines: KernelLines;
  readonly INPUT: number;
  readonly INPUT_CAPACITY: number;
  readonly OUTPUT: number;
  readonly INDICES: number;
  readonly COUNTS: number;
  readonly RESULT: number;

  // Views of the memory, made again if it ever grows (growth detaches the old buffer; the
  // module itself never grows it). Read by the slots and the lines too.
  private buffer: ArrayBuffer | null = null;
  private bytes = new Uint8Array(0);
  indices = new Int32Array(0);
  counts = new Float64Array(0);
  private resultF64 = new Float64Array(0);
  private resultI32 = new Int32Array(0);
  private input = new Uint8Array(0);
  /** The input as a Node Buffer (made again with the other views). */
  private inputBuffer: NodeBuffer | null = null;
  /** Whether the last decode call decoded its payload (its inflated bytes are at OUTPUT). */
  private lastDecoded = false;
  /** What the last decode call returned, and its median's index as the module found it. */
  private lastResult: DecodedHistogram | null = null;
  private lastMedian = -1;
  /** Tests turn the native decoders off to compare with the module's own base64. */
  private nativeAllowed = true;
  // The views of the first n pairs, made once per n (and again when the memory's buffer is
  // new): subarray() per call was a visible share of a call. Payloads of a log have a few
  // hundred different lengths at most. Handing out the same view again is what "valid until
  // the next call" allows.
  private indexViews: Int32Array[] = [];
  private countViews: Float64Array[] = [];
  private viewsOf: ArrayBuffer | null = null;

  private constructor(private readonly k: KernelExports) {
    this.INPUT = k.inputAddress.value as number;
    this.INPUT_CAPACITY = k.inputCapacity.value as number;
    this.OUTPUT = k.outputAddress.value as number;
    this.INDICES = k.indicesAddress.value as number;
    this.COUNTS = k.countsAddress.value as number;
    this.RESULT = k.resultAddress.value as number;
    this.slots = slotsOf(this, k);
    this.lines = new Lines(this, k);
  }

  /** A new instance of the module (synchronous); throws where WebAssembly is missing or refused. */
  static instantiate(): Kernel {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.Module !== "function") throw new Error("no WebAssembly");
    const text = atob(KERNEL_WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return new Kernel(new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as KernelExports);
  }

  /**
   * Makes the views again if the memory has grown (a grown memory detaches the old views, whose
   * length then reads 0); returns the memory's buffer. Reading memory.buffer on every call
   * instead was a visible share of a worker's 24-hour load in Chromium (profiled).
   */
  views(): ArrayBuffer {
    if (this.input.length !== 0) return this.buffer!;
    const b = this.k.memory.buffer;
    if (b === this.buffer) return b;
    this.buffer = b;
    this.bytes = new Uint8Array(b);
    this.indices = new Int32Array(b, this.INDICES, 65536);
    this.counts = new Float64Array(b, this.COUNTS, 65536);
    this.resultF64 = new Float64Array(b, this.RESULT, 3);
    this.resultI32 = new Int32Array(b, this.RESULT + 24, 2);
    this.input = new Uint8Array(b, this.INPUT, this.INPUT_CAPACITY);
    this.inputBuffer = nodeBufferOf(b, this.INPUT, this.INPUT_CAPACITY);
    return b;
  }

  /** What the last decode left is no longer there (another call used the memory). */
  forgetLast(): void {
    this.lastDecoded = false;
    this.lastResult = null;
  }

  /** For tests: whether payloads may take the platform's base64 decoder (setFromBase64, Node's Buffer) before the module's own. */
  allowNativeBase64(allowed: boolean): void {
    this.nativeAllowed = allowed;
  }

  /** The module's raw verdict for a payload: pairs written (>= 0), or why it declined (< 0). */
  decodeCode(text: string, start: number, end: number): number {
    this.forgetLast();
    if (typeof text !== "string") return -101;
    if (!(start >= 0 && end <= text.length && start <= end)) return -102;
    this.views();
    if (this.nativeAllowed && hasNativeBase64) {
      const n = nativeBase64(text, start, end, this.input, this.inputBuffer);
      if (n >= 0) {
        this.stats.nativeBase64++;
        return this.k.decodeBytes(n);
      }
      // Anything unusual (white space or non-ASCII at an end, text the browser refuses) takes
      // the module's own base64, which declines what it does not handle.
    }
    if (!this.writeInput(text, start, end)) return -103;
    return this.k.decode(end - start);
  }

  /**
   * Copies `text[start, end)` into the input as bytes; false when it does not fit or is not
   * ASCII. TextEncoder.encodeInto is a native copy (in Node 20, ~15x faster than a charCodeAt
   * loop on these payloads); its UTF-8 is the text itself exactly when every character is
   * ASCII, and non-ASCII text is declined: the only non-ASCII characters the JS reader accepts
   * are the white space it trims (U+00A0, U+FEFF), so the module trims ASCII only.
   */
  private writeInput(text: string, start: number, end: number): boolean {
    const n = end - start;
    if (n > this.INPUT_CAPACITY) return false;
    const r = encoder.encodeInto(start === 0 && end === text.length ? text : text.slice(start, end), this.input);
    return r.read === n && r.written === n;
  }

  /** decodeHistogramPayload(text.slice(start, end), true) when the module handles it, else null (see decodePayloadFast). */
  decode(text: string, start: number, end: number): DecodedHistogram | null {
    return this.resultOf(this.decodeCode(text, start, end));
  }

  /** decode for a payload given as bytes that are its text's characters one for one (see decodePayloadBytes). */
  decodeBytes(src: Uint8Array, start: number, end: number): DecodedHistogram | null {
    this.forgetLast();
    const n = end - start;
    if (!(start >= 0 && end <= src.length && n > 0 && n <= this.INPUT_CAPACITY)) return null;
    this.views();
    this.input.set(src.subarray(start, end));
    this.stats.bytes++;
    return this.resultOf(this.k.decode(n));
  }

  /** What decode returns for the module's verdict `n` on the payload just written. */
  private resultOf(n: number): DecodedHistogram | null {
    this.lastDecoded = n >= 0;
    if (n < 0) {
      this.stats.declined++;
      return null;
    }
    this.stats.handled++;
    const resultI32 = this.resultI32;
    const resultF64 = this.resultF64;
    this.lastMedian = resultI32[1]!;
    return (this.lastResult = {
      version: 2,
      numberOfSignificantValueDigits: resultI32[0]!,
      lowestDiscernibleValue: resultF64[0]!,
      highestTrackableValue: resultF64[1]!,
      indices: this.indicesOf(n),
      counts: this.countsOf(n),
      totalCount: resultF64[2]!,
    });
  }

  private indicesOf(n: number): Int32Array {
    if (this.viewsOf !== this.buffer) {
      this.indexViews = [];
      this.countViews = [];
      this.viewsOf = this.buffer;
    }
    return (this.indexViews[n] ??= this.indices.subarray(0, n));
  }

  private countsOf(n: number): Float64Array {
    return (this.countViews[n] ??= this.counts.subarray(0, n));
  }

  /** The median index the module found for what decode returned last; undefined for anything else. */
  lastMedianOf(d: DecodedHistogram): number | undefined {
    return d === this.lastResult ? this.lastMedian : undefined;
  }

  /** The inflater alone (see inflateFast). */
  inflate(input: Uint8Array, offset: number, length: number, limit: number): Uint8Array | null {
    const end = Math.min(offset + Math.max(0, length), input.length);
    const n = Math.max(0, end - offset);
    if (n > this.INPUT_CAPACITY || !(limit >= 0 && limit <= 65536)) return null;
    this.views();
    this.forgetLast();
    this.bytes.set(input.subarray(offset, offset + n), this.INPUT);
    const r = this.k.inflateAt(n, Math.floor(limit));
    return r < 0 ? null : this.bytes.subarray(this.OUTPUT, this.OUTPUT + r);
  }

  /** The ZigZag LEB128 counts of the payload the last decode call decoded (see lastCountsBytes). */
  lastCountsBytes(): Uint8Array | null {
    if (!this.lastDecoded) return null;
    this.views();
    const bytes = this.bytes;
    const at = this.OUTPUT;
    const length = ((bytes[at + 4]! << 24) | (bytes[at + 5]! << 16) | (bytes[at + 6]! << 8) | bytes[at + 7]!) >>> 0;
    return bytes.subarray(at + 40, at + 40 + length);
  }
}

function instantiateForThread(): { kernel: Kernel | null; reason: string | null } {
  try {
    return { kernel: Kernel.instantiate(), reason: null };
  } catch (e) {
    return { kernel: null, reason: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

const loaded = instantiateForThread();
/** This thread's kernel (null where WebAssembly is missing or refused); the engine context holds it. */
export const threadKernel: Kernel | null = loaded.kernel;
/** Why the kernel is not available (null when it is). */
export const kernelUnavailableReason: string | null = loaded.reason;
/** Whether the WebAssembly kernel loaded (else decodePayloadFast always returns null). */
export const kernelAvailable = threadKernel !== null;

/**
 * Payloads this thread's kernel decoded and declined (and of them, how many came as text to the
 * platform's base64 decoder, how many as bytes), published as `self.hdrKernelStats` so that
 * end-to-end tests can tell that the browser really ran the fast path, which is otherwise
 * invisible (the JS path gives the same answers). `lines`: of `bytes`, those whose whole line
 * the kernel read (kernelLines).
 */
export const kernelStats: KernelStats = threadKernel?.stats ?? { available: false, handled: 0, declined: 0, nativeBase64: 0, bytes: 0, lines: 0 };
(globalThis as unknown as { hdrKernelStats: KernelStats }).hdrKernelStats = kernelStats;

// The functions below are the thread's kernel's, for the callers that reach it without an
// engine context (the interval sources' decoder, the tests and the benchmarks).

/** The kernel's raw verdict for a payload: pairs written (>= 0), or why it declined (< 0). For tests. */
export function decodePayloadCode(text: string, start = 0, end = text.length): number {
  return threadKernel === null ? -100 : threadKernel.decodeCode(text, start, end);
}

/**
 * decodeHistogramPayload(text.slice(start, end), true) when the kernel handles the payload,
 * else null. `indices` and `counts` are views of the kernel's memory, valid until the next call
 * (like the JS reader's transient result).
 */
export function decodePayloadFast(text: string, start = 0, end = text.length): DecodedHistogram | null {
  return threadKernel === null ? null : threadKernel.decode(text, start, end);
}

/**
 * decodePayloadFast for a payload given as bytes, `src[start, end)`, that are its text's
 * characters one for one (a log read as bytes, see engine/hlog-ingest.ts pushBytes): copied
 * into the kernel's input as they are and decoded by the kernel's own base64, which takes no
 * byte beyond ASCII. Null when the kernel declines; the caller then reads the line as text,
 * and the JS reader gives the verdict.
 */
export function decodePayloadBytes(src: Uint8Array, start: number, end: number): DecodedHistogram | null {
  return threadKernel === null ? null : threadKernel.decodeBytes(src, start, end);
}

/** For tests: whether payloads may take the platform's base64 decoder (setFromBase64, Node's Buffer) before the kernel's own. */
export function allowNativeBase64(allowed: boolean): void {
  threadKernel?.allowNativeBase64(allowed);
}

/**
 * The counts-array index of a decoded histogram's median: the index at which the running
 * count first reaches ceil(totalCount / 2); -1 when the histogram holds no count. For what
 * decodePayloadFast returned last, the kernel already found it while decoding; for anything
 * else (the JS reader's result) it is computed here, the same way.
 */
export function medianIndexOf(d: DecodedHistogram): number {
  const found = threadKernel?.lastMedianOf(d);
  if (found !== undefined) return found;
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
  return threadKernel === null ? null : threadKernel.inflate(input, offset, length, limit);
}

/**
 * The ZigZag LEB128 counts (the V2 encoding after its 40-byte header) of the payload the last
 * decodePayloadFast call decoded, as a view of the kernel's memory valid until the next call;
 * null when that call declined. Reading them again gives exactly that call's indices and counts
 * (the kernel checked every value while decoding): the load keeps them for time windows
 * (engine/intervals/kept.ts).
 */
export function lastCountsBytes(): Uint8Array | null {
  return threadKernel === null ? null : threadKernel.lastCountsBytes();
}

/** Block accumulators in the thread's kernel's memory (see kernel-slots.ts); null where there is no kernel. */
export const kernelSlots: KernelSlots | null = threadKernel?.slots ?? null;

/** Interval lines read by the thread's kernel (see kernel-lines.ts); null where there is no kernel. */
export const kernelLines: KernelLines | null = threadKernel?.lines ?? null;
