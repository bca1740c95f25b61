// Blocks added up in the kernel's memory must hold exactly what blocks added up in JavaScript
// hold: every stored block, the total, and any range's sum; also when an index outgrows the
// accumulators mid-block, when the kernel's memory cannot grow (Scratches take over), and when
// the interval added is the kernel's own last decode, whose views growing memory detaches.
import { describe, expect, it } from "vitest";
import { BLOCK_SIZES, IntervalBlocks, type Sparse } from "../core/blocks";
import { mulberry32 } from "../../tests/support/queue-sim";
import { decodePayloadFast, kernelSlots, threadKernel, type KernelSlots } from "../wasm/kernel";
import { accumulatorsIn, kernelAccumulators } from "./kernel-accumulators";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";

function randomInterval(rnd: () => number, top: number): Sparse {
  const n = 1 + Math.floor(rnd() * 300);
  const set = new Set<number>();
  for (let k = 0; k < n; k++) set.add(Math.floor(rnd() ** 3 * top));
  const indices = Int32Array.from([...set].sort((a, b) => a - b));
  // Some zero counts: an index touched only by them holds nothing.
  const counts = Float64Array.from(indices, () => (rnd() < 0.05 ? 0 : 1 + Math.floor(rnd() * 1000)));
  return { indices, counts };
}

function asMap(s: Sparse): Map<number, number> {
  const m = new Map<number, number>();
  for (let k = 0; k < s.indices.length; k++) m.set(s.indices[k]!, s.counts[k]!);
  return m;
}

function expectSameBlocks(a: IntervalBlocks, b: IntervalBlocks, n: number): void {
  expect(asMap(b.total())).toEqual(asMap(a.total()));
  for (let start = 0; start + BLOCK_SIZES[0] <= n; start += BLOCK_SIZES[0]) {
    const x = a.storedBlock(start)!;
    const y = b.storedBlock(start)!;
    expect(Array.from(y.indices)).toEqual(Array.from(x.indices));
    expect(Array.from(y.counts)).toEqual(Array.from(x.counts));
  }
  const none = () => null;
  for (const [i0, i1] of [
    [0, n - 1],
    [0, 2047],
    [2048, n - 1],
    [64, 4095],
  ] as const) {
    if (i1 >= n) continue;
    expect(asMap(b.sumRange(i0, i1, none).sum)).toEqual(asMap(a.sumRange(i0, i1, none).sum));
  }
}

describe("block accumulators in the kernel", () => {
  it("hold what JavaScript's hold, as indices grow past the accumulators mid-block", () => {
    expect(kernelSlots).not.toBeNull();
    const rnd = mulberry32(5);
    const js = new IntervalBlocks();
    const wasm = new IntervalBlocks(kernelAccumulators(threadKernel));
    const n = 2048 * 2 + 300;
    for (let i = 0; i < n; i++) {
      // The range widens as the log goes on: 3,000 → 200,000 indices.
      const iv = randomInterval(rnd, 3000 + Math.floor((i / n) * 200_000));
      js.add(iv);
      wasm.add(iv);
    }
    expectSameBlocks(js, wasm, n);
    wasm.seal();
    js.seal();
    expectSameBlocks(js, wasm, n);
  });

  it("hold what JavaScript's hold for wide intervals added as dense (gaps, zero counts, spans across bit words)", () => {
    const rnd = mulberry32(17);
    const js = new IntervalBlocks();
    const wasm = new IntervalBlocks(kernelAccumulators(threadKernel));
    const n = 2048 + 200;
    let denseOnes = 0;
    for (let i = 0; i < n; i++) {
      // Thousands of buckets side by side from anywhere (not on a 32-index boundary), a share
      // of them missing or zero; every fifth interval sparse, so both ways meet in one slot.
      const from = 1 + Math.floor(rnd() * 20_000);
      const span = 64 + Math.floor(rnd() * 9000);
      const keep = i % 5 === 4 ? 0.1 : 0.3 + rnd() * 0.7;
      const indices: number[] = [];
      for (let k = from; k < from + span; k++) if (rnd() < keep) indices.push(k);
      if (indices.length === 0) indices.push(from);
      const counts = Float64Array.from(indices, () => (rnd() < 0.05 ? 0 : 1 + Math.floor(rnd() * 50)));
      if (indices.length >= 64 && indices.length * 4 > indices[indices.length - 1]! - indices[0]!) denseOnes++;
      const iv = { indices: Int32Array.from(indices), counts };
      js.add(iv);
      wasm.add(iv);
    }
    expect(denseOnes).toBeGreaterThan(n / 2);
    expectSameBlocks(js, wasm, n);
    wasm.seal();
    js.seal();
    expectSameBlocks(js, wasm, n);
  });

  it("move to JavaScript when the kernel's memory cannot grow, with what they held", () => {
    let allowed = 2; // the first two slots, then no more
    const failing: KernelSlots = { ...kernelSlots!, alloc: (c) => (allowed-- > 0 ? kernelSlots!.alloc(c) : -1) };
    const rnd = mulberry32(9);
    const js = new IntervalBlocks();
    const wasm = new IntervalBlocks(() => accumulatorsIn(failing));
    const n = 3000;
    for (let i = 0; i < n; i++) {
      const iv = randomInterval(rnd, i < 1000 ? 3000 : 50_000);
      js.add(iv);
      wasm.add(iv);
    }
    expect(allowed).toBeLessThan(0);
    expectSameBlocks(js, wasm, n);
  });

  it("add the kernel's own last decode where it lies, also when growing memory detaches its views", () => {
    const rnd = mulberry32(3);
    const js = new IntervalBlocks();
    const wasm = new IntervalBlocks(kernelAccumulators(threadKernel));
    const n = 700;
    for (let i = 0; i < n; i++) {
      const h = build({ numberOfSignificantValueDigits: 3 });
      // Values reaching higher over time, so the accumulators grow while decodes are held.
      const top = 1000 * 2 ** Math.floor((i / n) * 30);
      for (let k = 0; k < 200; k++) h.recordValueWithCount(1 + Math.floor(rnd() * top), 1 + Math.floor(rnd() * 5));
      const payload = encodeIntoCompressedBase64(h);
      h.destroy();
      const d = decodePayloadFast(payload)!;
      expect(d).not.toBeNull();
      js.add({ indices: d.indices.slice(), counts: d.counts.slice() });
      wasm.add(d);
    }
    expectSameBlocks(js, wasm, n);
  });
});
