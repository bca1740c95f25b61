// Interval lines read by the kernel (assembly/lines.ts readLines), as engine/hlog-ingest.ts
// reads them.
import type { Kernel, KernelExports, ReadLinesArgs } from "./kernel";

/** Sizes of the lines buffer's parts (assembly/lines.ts linesBuffer). */
const LINES_BYTES = 1 << 20;
const LINE_RECORDS = 64;
const RECORD_BYTES = 64;
const KEPT_BYTES = 1 << 18;

/** Doubles and int32 per record (RECORD_BYTES). */
export const RECORD_F64 = RECORD_BYTES / 8;
export const RECORD_I32 = RECORD_BYTES / 4;

/**
 * Interval lines read by the kernel (assembly/lines.ts readLines): a run of consecutive lines
 * of the usual shape, each parsed, decoded and added to a block accumulator in one call, with a
 * record per line.
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

/**
 * readLines' arguments as the module takes them: each flag as 1 or 0, every other argument where
 * it was. The order is ReadLinesArgs' alone (kernel.ts), not restated here.
 */
function flagsAsNumbers(args: ReadLinesArgs<boolean>): ReadLinesArgs<number> {
  return args.map((a) => (a === true ? 1 : a === false ? 0 : a)) as ReadLinesArgs<number>;
}

/** A kernel's lines buffer (made on first use) and its views. */
export class Lines implements KernelLines {
  private base = -1;
  private failed = false;
  private viewsOf: ArrayBuffer | null = null;
  private linesArea = new Uint8Array(0);
  private recF64 = new Float64Array(0);
  private recI32 = new Int32Array(0);
  private keptArea = new Uint8Array(0);

  constructor(
    private readonly kernel: Kernel,
    private readonly k: KernelExports,
  ) {}

  private views(): void {
    const buffer = this.kernel.views();
    if (this.viewsOf === buffer) return;
    this.viewsOf = buffer;
    const base = this.base;
    this.linesArea = new Uint8Array(buffer, base, LINES_BYTES);
    this.recF64 = new Float64Array(buffer, base + LINES_BYTES, (LINE_RECORDS * RECORD_BYTES) / 8);
    this.recI32 = new Int32Array(buffer, base + LINES_BYTES, (LINE_RECORDS * RECORD_BYTES) / 4);
    this.keptArea = new Uint8Array(buffer, base + LINES_BYTES + LINE_RECORDS * RECORD_BYTES, KEPT_BYTES);
  }

  area(): Uint8Array | null {
    if (this.failed) return null;
    if (this.base < 0) {
      this.base = this.k.linesBuffer();
      // Memory that could not grow once is not asked again for every line.
      this.failed = this.base < 0;
      if (this.failed) return null;
    }
    this.views();
    return this.linesArea;
  }

  read(...args: ReadLinesArgs<boolean>): number {
    this.kernel.forgetLast();
    const n = this.k.readLines(...flagsAsNumbers(args));
    const stats = this.kernel.stats;
    stats.bytes += n;
    stats.handled += n;
    stats.lines += n;
    return n;
  }

  stopReason(): number {
    return this.k.linesStopReason();
  }

  recordsF64(): Float64Array {
    this.views();
    return this.recF64;
  }

  recordsI32(): Int32Array {
    this.views();
    return this.recI32;
  }

  kept(): Uint8Array {
    this.views();
    return this.keptArea;
  }
}
