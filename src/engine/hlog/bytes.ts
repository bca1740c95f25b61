// The interval-log reader's byte path: lines of the usual shape read from the bytes themselves
// (runs of them in the kernel), every other line decoded and handed to the text path.
import type { LineSplitter } from "../../core/lines";
import { plainDecimalBytes } from "../../formats/hlog";
import { valueFromIndex } from "../../formats/hlog-encoding";
import type { KernelLines } from "../../wasm/kernel-lines";
import type { EngineContext } from "../context";
import { RECORD_F64, RECORD_I32 } from "../../wasm/kernel-lines";
import { lastIndexOf, topOf, type HlogSink, type TagSeries } from "./sink";
import type { TextLines } from "./text";

/** Lines the kernel reads in one call at most (its records). */
const RECORDS = 64;

/** Whether text holds a character beyond ASCII. */
const BEYOND_ASCII = /[\u0080-\uffff]/;

/**
 * Where the decimal field that starts at `i` ends: the index of its comma (before `end`), or -1
 * when a byte other than a digit or a point comes first.
 */
function decimalEnd(b: Uint8Array, i: number, end: number): number {
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === 44) return i;
    if ((c < 48 || c > 57) && c !== 46) return -1;
  }
  return -1;
}

/**
 * The highest counts-array index whose bucket's highest value, valueFromIndex(i + 1) − 1 (topOf),
 * is at most `top` in this layout (−1: none): the short path's `top <= fastTop` as an index.
 */
function lastIndexUpTo(top: number, lowest: number, digits: number): number {
  let lo = -1;
  let hi = 1 << 26; // beyond any layout's counts array
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (valueFromIndex(mid + 1, lowest, digits) - 1 <= top) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class ByteLines {
  private readonly splitter: LineSplitter;

  /** The reader's engine context's kernel (context.ts), and its lines reader: null without one. */
  private readonly kernel: EngineContext["kernel"];
  private readonly lines: KernelLines | null;

  constructor(
    private readonly sink: HlogSink,
    private readonly text: TextLines,
  ) {
    this.splitter = text.splitter;
    this.kernel = sink.options.context.kernel;
    this.lines = this.kernel?.lines ?? null;
  }

  /** The decoder of the text way (made when first needed); bytes pushed so far. */
  private byteDecoder: TextDecoder | null = null;
  private bytesPushed = 0;
  /** Every byte pushed so far was an ASCII character: positions in the bytes are positions in the text. */
  private bytesAreText = true;

  /**
   * Pushes the log's next bytes: a byte stream's chunks in order, never mixed with push().
   * Lines of the usual shape (untagged "start,length,max,HIST…" with plain decimals and no
   * white space, ended by \n or \r\n, that take the short path) are read from the bytes
   * themselves: no text is made of them and their payloads go to the kernel as bytes. Text
   * decoding, the line splitter's strings, the reader's fields and the payloads' text were a
   * third of a worker's time beside the kernel, and most of its garbage (profiled). Every other
   * line, and all bytes after one beyond ASCII (positions in the bytes are then no longer
   * positions in the text), is decoded and pushed as text. What is read is what push() of the
   * decoded text reads (tests compare them).
   */
  push(chunk: Uint8Array): void {
    const at0 = this.bytesPushed;
    this.bytesPushed += chunk.length;
    if (!this.bytesAreText || this.kernel === null || (this.sink.options.keepPayloads && this.sink.options.ownBytes === null)) {
      this.pushDecoded(chunk, at0);
      return;
    }
    let st = 0;
    if (!this.splitter.atLineStart) {
      // The end of a line begun in an earlier chunk.
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.pushDecoded(chunk, at0);
        return;
      }
      st = nl + 1;
      this.pushDecoded(chunk.subarray(0, st), at0);
    }
    this.window = null;
    for (let nl = chunk.indexOf(10, st); nl >= 0 && this.bytesAreText; nl = chunk.indexOf(10, st)) {
      if (this.lines !== null) {
        const used = this.kernelLines(chunk, st);
        if (used > 0) {
          st += used;
          continue;
        }
      }
      // A line may end in \r\n (as Java writes lines on Windows); any other \r makes the
      // kernel decline, and the splitter then cuts the line there, as the text has it.
      const end = nl > st && chunk[nl - 1] === 13 ? nl - 1 : nl;
      if (!this.plainLine(chunk, st, end, nl + 1)) this.pushDecoded(chunk.subarray(st, nl + 1), at0 + st);
      st = nl + 1;
    }
    if (st < chunk.length) this.pushDecoded(chunk.subarray(st), at0 + st);
  }

  /** The chunk whose bytes from windowStart to windowEnd are in the kernel's lines area (within one push). */
  private window: Uint8Array | null = null;
  private windowStart = 0;
  private windowEnd = 0;
  /** lastIndexUpTo of the untagged series' fast layout and top, for the kernel, and what it was computed for. */
  private fastLast = { top: NaN, digits: -1, lowest: -1, last: -1 };

  /**
   * Reads lines from `chunk[st]` on in the kernel while they take the short path (plainLine and
   * addShort, in one call for up to a block's worth of lines): the bytes of the lines read, 0
   * when the first is not read there (the caller reads it the usual way). Only for untagged
   * lines of a series whose counts are added up in its blocks' kernel accumulator; what each
   * line leaves (its row, kept counts, start, line count) is put here as the short path puts it.
   */
  private kernelLines(chunk: Uint8Array, st: number): number {
    const t = this.sink.tags.get("");
    if (t === undefined || t.fastDigits < 0 || !t.pending || t.blocks === null) return 0;
    const target = t.blocks.kernelTarget();
    if (target === null) return 0;
    const base = this.sink.reader.plainBase();
    if (base === null) return 0;
    if (this.window !== chunk || st < this.windowStart || st >= this.windowEnd) {
      if (!this.fillWindow(chunk, st)) return 0;
    }
    const fl = this.fastLast;
    if (fl.top !== t.fastTop || fl.digits !== t.fastDigits || fl.lowest !== t.fastLowest) this.newFastLast(t);
    const kl = this.lines!;
    const lines = Math.min(RECORDS, target.room);
    const keep = t.kept !== null;
    let k = kl.read(st - this.windowStart, this.windowEnd - this.windowStart, lines, target.slot, target.capacity, fl.digits, fl.lowest, fl.last, 0 <= fl.top, base, keep);
    // A line cut by the area's end: the area again from this line on.
    if (k === 0 && kl.stopReason() === 1 && this.windowStart !== st && this.fillWindow(chunk, st)) {
      k = kl.read(0, this.windowEnd - this.windowStart, lines, target.slot, target.capacity, fl.digits, fl.lowest, fl.last, 0 <= fl.top, base, keep);
    }
    return k === 0 ? 0 : this.kernelRecords(t, k);
  }

  private newFastLast(t: TagSeries): void {
    const fl = this.fastLast;
    fl.top = t.fastTop;
    fl.digits = t.fastDigits;
    fl.lowest = t.fastLowest;
    fl.last = lastIndexUpTo(t.fastTop, t.fastLowest, t.fastDigits);
  }

  /** What the kernel's `k` lines leave, put where the short path puts it; the bytes of those lines. */
  private kernelRecords(t: TagSeries, k: number): number {
    const kl = this.lines!;
    const f = kl.recordsF64();
    const r = kl.recordsI32();
    const keptBytes = kl.kept();
    const sink = this.sink;
    const digits = t.fastDigits;
    const lowest = t.fastLowest;
    const kept = t.kept;
    let used = 0;
    for (let i = 0; i < k; i++) {
      const fo = i * RECORD_F64;
      const io = i * RECORD_I32 + 8;
      const last = r[io]!;
      const median = r[io + 1]!;
      const max = last >= 0 ? valueFromIndex(last + 1, lowest, digits) - 1 : 0;
      const p50 = median < 0 ? 0 : valueFromIndex(median, lowest, digits);
      if (kept !== null) kept.addBytes(keptBytes.subarray(r[io + 5]!, r[io + 5]! + r[io + 6]!), digits, lowest, last);
      sink.addRow(t, f[fo]!, f[fo + 1]!, max, f[fo + 3]!, f[fo + 2]!, p50, null, r[io + 3]!, this.splitter.charsRead + r[io + 2]!, null);
      this.splitter.passLine(r[io + 4]!);
      used += r[io + 4]!;
    }
    // Last, as addRow adds to the blocks last (a block's end takes it out of the kernel).
    t.blocks!.addedInKernel(k);
    return used;
  }

  /** Copies `chunk` from `st` (as much as fits) into the kernel's lines area; false when there is none. */
  private fillWindow(chunk: Uint8Array, st: number): boolean {
    const area = this.lines!.area();
    if (area === null) return false;
    const end = Math.min(chunk.length, st + area.length);
    area.set(chunk.subarray(st, end));
    this.window = chunk;
    this.windowStart = st;
    this.windowEnd = end;
    return true;
  }

  /** After the last push(): what the decoder still holds (an unfinished character). */
  end(): void {
    const rest = this.byteDecoder?.decode() ?? "";
    this.byteDecoder = null;
    if (rest !== "") {
      this.bytesAreText = false;
      this.text.push(rest);
    }
  }

  /** The text way: `bytes`, at `at` in the bytes pushed, decoded as a stream and pushed. */
  private pushDecoded(bytes: Uint8Array, at: number): void {
    // Made at the stream's start, the decoder takes a byte-order mark off as a stream's decoder
    // does (fileChunks); made later, it must not.
    const decoder = (this.byteDecoder ??= new TextDecoder("utf-8", { ignoreBOM: at > 0 }));
    const text = decoder.decode(bytes, { stream: true });
    if (this.bytesAreText && (text.length !== bytes.length || BEYOND_ASCII.test(text))) this.bytesAreText = false;
    this.text.push(text);
  }

  /**
   * Reads the line `b[st, nl)` (its line break ends at `next`) from its bytes when it takes the
   * short path in every respect; false (nothing done) leaves it to be read as text.
   */
  private plainLine(b: Uint8Array, st: number, nl: number, next: number): boolean {
    const c0 = b[st]!;
    if (c0 < 48 || c0 > 57) return false;
    const e1 = decimalEnd(b, st, nl);
    if (e1 < 0) return false;
    const e2 = decimalEnd(b, e1 + 1, nl);
    if (e2 < 0) return false;
    const e3 = decimalEnd(b, e2 + 1, nl);
    if (e3 < 0) return false;
    const p = e3 + 1;
    // "HIST" (a DoubleHistogram's "DHIST" goes the text way); a comma or white space inside
    // makes the kernel decline, white space at the end is trimmed by the reader: text way.
    if (nl - p < 5 || b[p] !== 72 || b[p + 1] !== 73 || b[p + 2] !== 83 || b[p + 3] !== 84 || b[nl - 1]! <= 32) return false;
    const rawStart = plainDecimalBytes(b, st, e1);
    const length = plainDecimalBytes(b, e1 + 1, e2);
    const maxColumn = plainDecimalBytes(b, e2 + 1, e3);
    if (rawStart < 0 || length < 0 || maxColumn < 0) return false;
    const t = this.sink.tags.get("");
    if (t === undefined || t.fastDigits < 0) return false;
    if (!this.sink.reader.plainLine(rawStart)) return false;
    const d = this.kernel!.decodeBytes(b, p, nl);
    if (d === null) return false;
    const lastIndex = lastIndexOf(d);
    if (!this.sink.addShort(t, d, lastIndex, topOf(d, lastIndex), rawStart, length, maxColumn, null, nl - p, this.splitter.charsRead + (p - st))) return false;
    this.splitter.passLine(next - st);
    return true;
  }
}
