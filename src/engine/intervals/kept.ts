// Each interval's counts kept from the load in HdrHistogram's own ZigZag LEB128 form (the V2
// encoding after its 40-byte header: what the payload inflates to), so that a time window adds
// its intervals by walking these bytes instead of decoding their base64 text again (base64 and
// inflate are most of a decode, and a day of ten-second windows decodes every interval).
//
// The load decodes every payload anyway: a payload the WebAssembly kernel decoded leaves its
// inflated counts in the kernel's memory (lastCountsBytes), copied here as they are; one the
// JS reader decoded (V0, V1, uncompressed, DoubleHistogram …) is encoded here from its decoded
// counts. Either way, walking the bytes gives exactly the indices and counts the decode gave.
//
// Memory: about as much again as the payloads' text (a one-second jHiccup interval inflates to
// ~520 bytes). The bytes live in chunks of at most 1 MiB, and every thread holds at most its
// budget of them, over every table alive: a log beyond it (the 502 MB log of a million
// intervals) keeps its first intervals only, and the rest take the decoding path, as every
// interval did before. The budget is 0 (nothing kept) until the thread's engine context sets
// it (engine/context.ts): the command line keeps none.
import type { IntervalTable } from "../../core/series";
import type { Sparse } from "../../core/blocks";
import type { DecodedHistogram } from "../../formats/hlog-encoding";
import { lastCountsBytes } from "./decode";

/** A row's position is chunk << CHUNK_BITS | offset: chunk = at >>> CHUNK_BITS, offset = at & OFFSET_MASK. */
export const CHUNK_BITS = 20;
export const OFFSET_MASK = (1 << CHUNK_BITS) - 1;
/** Largest chunk. */
const MAX_CHUNK = 1 << CHUNK_BITS;
const FIRST_CHUNK = 16 * 1024;

/** What the page's engine worker keeps: room for two 24-hour logs of one-second intervals. */
export const WORKER_KEPT_BUDGET = 96 * 1024 * 1024;
/**
 * What a helper keeps of the part it reads, until the engine takes it: half a 24-hour log is
 * well within it, and a log too big for the engine's budget costs the helper less on the way
 * (the engine drops what does not fit).
 */
export const HELPER_KEPT_BUDGET = WORKER_KEPT_BUDGET / 2;

/**
 * A thread's kept counts: the bound on their bytes and the tables' counts attached (weakly: a
 * table dropped without being disposed goes at its collection). The engine context sets the
 * bound when the thread's main makes it.
 */
export class KeptRegistry {
  private budget = 0;
  private readonly attached = new Set<WeakRef<KeptCounts>>();

  /** Sets the bound on kept bytes (0: keep nothing). Tables already kept stay. */
  setBudget(bytes: number): void {
    this.budget = Math.max(0, bytes);
  }

  get bytes(): number {
    return this.budget;
  }

  /** Bytes of chunks held by the kept counts of every table alive. */
  held(): number {
    let n = 0;
    for (const r of this.attached) {
      const k = r.deref();
      if (k === undefined) this.attached.delete(r);
      else n += k.held;
    }
    return n;
  }

  /**
   * Whether a table's kept counts may be attached (the load's last step): they hold every row
   * and fit the budget beside what is attached already (readers running at once each kept
   * within it alone). Sealed either way; dropped when they may not.
   */
  mayAttach(t: IntervalTable, k: KeptCounts): boolean {
    k.seal();
    if (k.n === t.n && this.held() + k.held <= this.budget) {
      this.attached.add(new WeakRef(k));
      return true;
    }
    k.drop();
    return false;
  }

  /** A reader's group, or null when nothing is kept. */
  group(): KeptGroup | null {
    return this.budget > 0 ? { held: 0, registry: this } : null;
  }
}

/** This thread's kept counts (the engine context holds them and hands them to the reader). */
export const threadKept = new KeptRegistry();

/** Sets this thread's bound on kept bytes (0: keep nothing); the engine context does, and tests and benchmarks. */
export function setKeptBudget(bytes: number): void {
  threadKept.setBudget(bytes);
}

export function keptBudget(): number {
  return threadKept.bytes;
}

/** Bytes of chunks held by the kept counts of every table alive on this thread. */
export function keptBytesHeld(): number {
  return threadKept.held();
}

/** The tables one reader is keeping counts for (bytes not attached yet, counted against the budget with the attached ones). */
export interface KeptGroup {
  held: number;
  /** The registry whose budget bounds it (the reader's engine context's). */
  registry: KeptRegistry;
}

/** A reader's group, or null when this realm keeps nothing. */
export function keptGroup(): KeptGroup | null {
  return threadKept.group();
}

/** A part's kept counts as transferable arrays (see HlogPart). */
export interface KeptParts {
  digits: number;
  lowest: number;
  top: number;
  n: number;
  at: Int32Array;
  length: Int32Array;
  last: Int32Array;
  chunks: Uint8Array[];
}

/** The buffers of a part's kept counts, for postMessage's transfer list. */
export function keptTransferables(k: KeptParts | null | undefined): ArrayBufferLike[] {
  return k ? [k.at.buffer, k.length.buffer, k.last.buffer, ...k.chunks.map((c) => c.buffer)] : [];
}

/** Bytes a value takes as LEB128 (up to 2^53). */
function varintLength(raw: number): number {
  let n = 1;
  while (raw >= 128) {
    raw = Math.floor(raw / 128);
    n++;
  }
  return n;
}

function writeVarint(out: Uint8Array, p: number, raw: number): number {
  while (raw >= 128) {
    out[p++] = (raw % 128) | 0x80;
    raw = Math.floor(raw / 128);
  }
  out[p++] = raw;
  return p;
}

/**
 * Writes sparse counts (ascending indices, positive whole counts) as ZigZag LEB128 the way
 * HdrHistogram encodes a counts array: a run of g empty buckets as −g, a count c as c. Returns
 * the byte count; with `out`, writes them at `at`.
 */
export function encodeCounts(indices: ArrayLike<number>, counts: ArrayLike<number>, out: Uint8Array | null = null, at = 0): number {
  let p = at;
  let next = 0;
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const gap = i - next;
    // ZigZag: −g is 2g − 1, c is 2c.
    if (gap > 0) p = out ? writeVarint(out, p, 2 * gap - 1) : p + varintLength(2 * gap - 1);
    p = out ? writeVarint(out, p, 2 * counts[k]!) : p + varintLength(2 * counts[k]!);
    next = i + 1;
  }
  return p - at;
}

/** One table's kept counts, row by row (a row not kept: at −1). */
export class KeptCounts {
  /** The layout every kept row is in (the first row's); −1 before any row. */
  digits = -1;
  lowest = -1;
  /** Highest counts-array index of any kept row (−1: none). */
  top = -1;
  n = 0;
  at = new Int32Array(64);
  length = new Int32Array(64);
  /** Each kept row's highest index with a count (−1: none), where a walk from the top starts. */
  last = new Int32Array(64);
  chunks: Uint8Array[] = [];
  /** Bytes of chunks allocated (what the budget counts). */
  held = 0;
  private used = 0;
  /** No further row is kept (the budget was reached, or parts were appended). */
  private closed = false;

  private constructor(private readonly group: KeptGroup) {}

  /** A table to keep rows in, within a reader's group (null: none kept). */
  static create(group: KeptGroup | null): KeptCounts | null {
    return group ? new KeptCounts(group) : null;
  }

  /**
   * Adds the next row: the interval just decoded, before any other payload is decoded (the
   * kernel's inflated bytes are still where lastCountsBytes finds them).
   */
  add(d: DecodedHistogram): void {
    const row = this.open(d.numberOfSignificantValueDigits, d.lowestDiscernibleValue);
    if (row < 0) return;
    const inflated = lastCountsBytes();
    const n = d.indices.length;
    const pos = this.place(row, inflated ? inflated.length : encodeCounts(d.indices, d.counts), n > 0 ? d.indices[n - 1]! : -1);
    if (pos < 0) return;
    const chunk = this.chunks[pos >>> CHUNK_BITS]!;
    const off = pos & OFFSET_MASK;
    if (inflated) chunk.set(inflated, off);
    else encodeCounts(d.indices, d.counts, chunk, off);
  }

  /**
   * add() for a row whose counts bytes are given (the kernel read the line and copied them out,
   * engine/hlog-ingest.ts kernelLines): in layout (`digits`, `lowest`), `last` its highest index
   * with a count (−1: none).
   */
  addBytes(bytes: Uint8Array, digits: number, lowest: number, last: number): void {
    const row = this.open(digits, lowest);
    if (row < 0) return;
    const pos = this.place(row, bytes.length, last);
    if (pos >= 0) this.chunks[pos >>> CHUNK_BITS]!.set(bytes, pos & OFFSET_MASK);
  }

  /** The next row, not kept yet; its index, or −1 when it will not be (another layout, or nothing more is kept). */
  private open(digits: number, lowest: number): number {
    const row = this.nextRow();
    if (this.digits < 0) {
      this.digits = digits;
      this.lowest = lowest;
    }
    this.at[row] = -1;
    return this.closed || digits !== this.digits || lowest !== this.lowest ? -1 : row;
  }

  /** Where row `row`'s `len` bytes go (−1: not kept, and nothing further is); `last` its highest index with a count. */
  private place(row: number, len: number, last: number): number {
    const pos = this.reserve(len);
    if (pos < 0) return -1;
    this.at[row] = pos;
    this.length[row] = len;
    this.last[row] = last;
    if (last > this.top) this.top = last;
    return pos;
  }

  private nextRow(): number {
    if (this.n === this.at.length) {
      const at = new Int32Array(this.n * 2);
      at.set(this.at);
      const length = new Int32Array(this.n * 2);
      length.set(this.length);
      const last = new Int32Array(this.n * 2);
      last.set(this.last);
      this.at = at;
      this.length = length;
      this.last = last;
    }
    return this.n++;
  }

  /** Where `len` bytes go (−1: not kept, and nothing further is). */
  private reserve(len: number): number {
    if (len > MAX_CHUNK) return -1;
    const last = this.chunks[this.chunks.length - 1];
    if (!last || this.used + len > last.length) {
      const size = Math.max(len, Math.min(MAX_CHUNK, last ? last.length * 2 : FIRST_CHUNK));
      if (this.group.registry.held() + this.group.held + size > this.group.registry.bytes) {
        this.closed = true;
        return -1;
      }
      this.chunks.push(new Uint8Array(size));
      this.held += size;
      this.group.held += size;
      this.used = 0;
    }
    const pos = (this.chunks.length - 1) * MAX_CHUNK + this.used;
    this.used += len;
    return pos;
  }

  /** Trims the row arrays and the last chunk to what is used (after the last row). */
  seal(): void {
    if (this.at.length !== this.n) {
      this.at = this.at.slice(0, this.n);
      this.length = this.length.slice(0, this.n);
      this.last = this.last.slice(0, this.n);
    }
    const k = this.chunks.length - 1;
    if (k >= 0 && !this.closed && this.used < this.chunks[k]!.length) {
      this.held -= this.chunks[k]!.length - this.used;
      this.group.held -= this.chunks[k]!.length - this.used;
      this.chunks[k] = this.chunks[k]!.slice(0, this.used);
    }
    this.closed = true;
  }

  /** This table's rows for another worker to append (sealed first). */
  toParts(): KeptParts {
    this.seal();
    return { digits: this.digits, lowest: this.lowest, top: this.top, n: this.n, at: this.at, length: this.length, last: this.last, chunks: this.chunks };
  }

  /**
   * Appends a part's `rows` rows (read by another worker after this table's): kept when the
   * part kept them in this table's layout and its chunks fit this realm's budget, else as rows
   * not kept.
   */
  append(p: KeptParts | null | undefined, rows: number): void {
    this.seal();
    if (this.digits < 0 && p) {
      this.digits = p.digits;
      this.lowest = p.lowest;
    }
    let bytes = 0;
    for (const c of p?.chunks ?? []) bytes += c.length;
    const fits = !!p && p.n === rows && p.digits === this.digits && p.lowest === this.lowest && this.group.registry.held() + this.group.held + bytes <= this.group.registry.bytes;
    const at = new Int32Array(this.n + rows);
    at.set(this.at.subarray(0, this.n));
    const length = new Int32Array(this.n + rows);
    length.set(this.length.subarray(0, this.n));
    const last = new Int32Array(this.n + rows);
    last.set(this.last.subarray(0, this.n));
    at.fill(-1, this.n);
    if (fits) {
      const shift = this.chunks.length * MAX_CHUNK;
      for (let k = 0; k < rows; k++) {
        const a = p.at[k]!;
        if (a < 0) continue;
        at[this.n + k] = a + shift;
        length[this.n + k] = p.length[k]!;
        last[this.n + k] = p.last[k]!;
      }
      this.chunks.push(...p.chunks);
      this.held += bytes;
      this.group.held += bytes;
      this.top = Math.max(this.top, p.top);
    }
    this.at = at;
    this.length = length;
    this.last = last;
    this.n += rows;
  }

  /** Lets the bytes go (the series is gone); no row is kept after. */
  drop(): void {
    this.group.held -= this.held;
    this.chunks = [];
    this.held = 0;
    this.at = new Int32Array(this.n).fill(-1);
    this.length = new Int32Array(this.n);
    this.last = new Int32Array(this.n);
    this.top = -1;
    this.closed = true;
  }
}

/** Whether a table's kept counts may be attached (KeptRegistry.mayAttach, on this thread's). */
export function mayAttach(t: IntervalTable, k: KeptCounts): boolean {
  return threadKept.mayAttach(t, k);
}

/** Whether kept counts are in the given layout (a series' own), hold any row and every row of the table. */
export function keptFits(k: KeptCounts | null, t: IntervalTable, digits: number, lowest: number): k is KeptCounts {
  return !!k && k.n === t.n && k.top >= 0 && k.digits === digits && k.lowest === lowest;
}

/** keptSparse's output arrays, grown as rows need (a thread reads one row at a time). */
const scratch = { indices: new Int32Array(1024), counts: new Float64Array(1024) };

/**
 * Row i's counts read back from its kept bytes (views of scratch arrays, valid until the next
 * call), or null when the row is not kept. In the kept table's layout.
 */
export function keptSparse(k: KeptCounts, i: number): Sparse | null {
  const pos = k.at[i]!;
  if (!(pos >= 0)) return null;
  const bytes = k.chunks[pos >>> CHUNK_BITS]!;
  let p = pos & OFFSET_MASK;
  const end = p + k.length[i]!;
  let idx = 0;
  let m = 0;
  let indices = scratch.indices;
  let counts = scratch.counts;
  while (p < end) {
    const first = bytes[p++]!;
    let raw = first;
    if (first >= 0x80) {
      raw = readVarint(bytes, p - 1);
      p = varintCursor.end;
    }
    // ZigZag: the value's sign is bit 0 of the first byte; −g (odd) skips g empty buckets.
    if ((first & 1) !== 0) idx += (raw + 1) / 2;
    else {
      const c = raw / 2;
      if (c > 0) {
        if (m === indices.length) {
          const gi = new Int32Array(m * 2);
          gi.set(indices);
          indices = scratch.indices = gi;
          const gc = new Float64Array(m * 2);
          gc.set(counts);
          counts = scratch.counts = gc;
        }
        indices[m] = idx;
        counts[m++] = c;
      }
      idx++;
    }
  }
  return { indices: indices.subarray(0, m), counts: counts.subarray(0, m) };
}

/** Where the last readVarint stopped. */
export const varintCursor = { end: 0 };

/**
 * The LEB128 value of two or more bytes at `p` (as the kernel reads it: up to 9 bytes, the 9th
 * carrying 8 bits), in float64 arithmetic (exact: the load refused values above 2^53 − 1);
 * sets varintCursor.end.
 */
export function readVarint(bytes: Uint8Array, p: number): number {
  let b = bytes[p++]!;
  let raw = b & 0x7f;
  let scale = 128;
  for (let s = 1; ; s++) {
    b = bytes[p++]!;
    if (s === 8) {
      raw += b * scale;
      break;
    }
    raw += (b & 0x7f) * scale;
    if (b < 0x80) break;
    scale *= 128;
  }
  varintCursor.end = p;
  return raw;
}
