// Decoding one interval's payload: by the WebAssembly kernel when it handles the payload
// (compressed V2, up to 64 KiB inflated), else by the JavaScript reader (the reference, which
// also words every error), with a bounded cache of what the JavaScript reader inflated. The one
// place that chooses between them, and the one engine file that imports the kernel: the
// thread's kernel comes in a PayloadDecoder, which the engine context holds and passes to the
// reader (engine/hlog-ingest.ts); the interval sources (source.ts) decode through the thread's.
import type { IntervalTable } from "../../core/series";
import { medianIndexOf, threadKernel, type Kernel } from "../../wasm/kernel";
import {
  decodeHistogramPayload,
  decodeInflated,
  inflateHistogramPayload,
  valueFromIndex,
  type DecodedHistogram,
  type DecodeResult,
  type EncodingVersion,
} from "../../formats/hlog-encoding";

/** Payloads decoded with a kernel (null: the JavaScript reader alone). */
export class PayloadDecoder {
  constructor(readonly kernel: Kernel | null) {}

  /** Transient, like decodeHistogramPayload(text, true): the arrays are valid until the next decode. */
  decode(text: string): DecodeResult {
    const d = this.kernel === null ? null : this.kernel.decode(text, 0, text.length);
    return d !== null ? { ok: true, value: d } : decodeHistogramPayload(text, true);
  }

  /** The kernel's decode alone: null when it declines (or there is none). */
  decodeFast(text: string): DecodedHistogram | null {
    return this.kernel === null ? null : this.kernel.decode(text, 0, text.length);
  }

  /**
   * The inflated counts bytes of the last payload the kernel decoded (null when the last decode
   * was the JavaScript reader's), which kept counts copy as they are (kept.ts).
   */
  lastCountsBytes(): Uint8Array | null {
    return this.kernel === null ? null : this.kernel.lastCountsBytes();
  }

  /**
   * Median of a decoded interval (lowest equivalent value; 0 without counts), read off its sparse
   * counts: for the kernel's last decode, the bucket it found while decoding.
   */
  medianOf(d: DecodedHistogram): number {
    const found = this.kernel?.lastMedianOf(d);
    const at = found !== undefined ? found : medianIndexOf(d);
    return at < 0 ? 0 : valueFromIndex(at, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits);
  }
}

/** This thread's decoder, over its kernel (the engine context holds it). */
export const threadDecoder = new PayloadDecoder(threadKernel);

/** threadDecoder.decode. */
export function decodePayload(text: string): DecodeResult {
  return threadDecoder.decode(text);
}

/** threadDecoder.lastCountsBytes. */
export function lastCountsBytes(): Uint8Array | null {
  return threadDecoder.lastCountsBytes();
}

/** threadDecoder.medianOf. */
export function medianOf(d: DecodedHistogram): number {
  return threadDecoder.medianOf(d);
}

interface Entry {
  bytes: Uint8Array;
  outer: EncodingVersion | -1;
}

/**
 * Recently inflated intervals (the uncompressed histogram bytes, ~540 for a jHiccup second),
 * least recently used first, for every table. A timeline zoomed in to a few intervals per
 * column decodes each one (for a screen of the 24-hour log, mostly base64 and inflate), and a
 * pan, the next zoom step or a window query asks for mostly the same ones.
 */
export class InflatedCache {
  private readonly tables = new Map<IntervalTable, Map<number, Entry>>();
  private bytes = 0;

  constructor(
    private readonly decoder: PayloadDecoder,
    private limit = 32 * 1024 * 1024,
  ) {}

  /** The bound (bytes); lowering it below what is held trims at once. */
  setLimit(bytes: number): void {
    this.limit = bytes;
    if (this.bytes > bytes) this.trim();
  }

  /** Bytes held now. */
  held(): number {
    return this.bytes;
  }

  /** Forgets what was inflated from a table (its series is gone). */
  forget(t: IntervalTable | null | undefined): void {
    const m = t ? this.tables.get(t) : undefined;
    if (!m) return;
    for (const e of m.values()) this.bytes -= e.bytes.length;
    this.tables.delete(t!);
  }

  /**
   * Interval i of a table, decoded; null when its payload cannot be read. Transient: callers
   * (Blocks.sumRange) add each edge interval before decoding the next. The kernel decodes the
   * usual payload from its text faster than the JS reader decodes it from cached inflated
   * bytes, so the cache keeps only what the kernel declines (V0 and V1 payloads, mostly).
   */
  decodeAt(t: IntervalTable, i: number): DecodedHistogram | null {
    const fast = this.decoder.decodeFast(t.payload(i));
    if (fast !== null) return fast;
    let m = this.tables.get(t);
    const hit = m?.get(i);
    if (hit) {
      m!.delete(i); // most recently used goes last
      m!.set(i, hit);
      const d = decodeInflated(hit.bytes, hit.outer, true);
      return d.ok ? d.value : null;
    }
    const r = inflateHistogramPayload(t.payload(i));
    if (!r.ok) return null;
    if (r.outer !== -1) {
      // Only inflated payloads are worth keeping (the rest are their own bytes again).
      if (!m) {
        m = new Map();
        this.tables.set(t, m);
      }
      m.set(i, { bytes: r.bytes.slice(), outer: r.outer });
      this.bytes += r.bytes.length;
      if (this.bytes > this.limit) this.trim();
    }
    const d = decodeInflated(r.bytes, r.outer, true);
    return d.ok ? d.value : null;
  }

  /** Drops the least recently used entries down to three quarters of the bound. */
  private trim(): void {
    const floor = this.limit * 0.75;
    for (const [table, m] of this.tables) {
      for (const [i, e] of m) {
        if (this.bytes <= floor) break;
        m.delete(i);
        this.bytes -= e.bytes.length;
      }
      if (m.size === 0) this.tables.delete(table);
      if (this.bytes <= floor) return;
    }
  }
}

/** The engine's one cache: every table's source shares its bound. */
export const inflatedCache = new InflatedCache(threadDecoder);
