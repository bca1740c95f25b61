// Block accumulators in the kernel's memory (assembly/slots.ts), as engine/kernel-accumulators.ts
// uses them.
import type { Kernel, KernelExports } from "./kernel";

/**
 * Block accumulators in the kernel's memory (engine/kernel-accumulators.ts uses them): see
 * assembly/slots.ts.
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

const TAKE_ENTRIES = 65536;

/**
 * A kernel's slots: the take buffer (made with the first slot) and its views. A plain object
 * of functions (tests spread it to replace one).
 */
export function slotsOf(kernel: Kernel, k: KernelExports): KernelSlots {
  let takeIndicesView = new Int32Array(0);
  let takeCountsView = new Float64Array(0);
  let takeBase = -1;
  const takeViews = (): void => {
    const buffer = kernel.views();
    if (takeIndicesView.length !== 0 && takeIndicesView.buffer === buffer) return;
    takeIndicesView = new Int32Array(buffer, takeBase, TAKE_ENTRIES);
    takeCountsView = new Float64Array(buffer, takeBase + TAKE_ENTRIES * 4, TAKE_ENTRIES);
  };
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
      return idx.buffer === kernel.views() && idx.byteOffset === kernel.INDICES;
    },
    decodedIndices() {
      kernel.views();
      return kernel.indices;
    },
    decodedCounts() {
      kernel.views();
      return kernel.counts;
    },
  };
}
