// Bytes to deflate and inflate again in the inflaters' property tests (fast-check: test code
// only), and a writer of deflate's bits for streams made by hand.
import fc from "fast-check";

/** Like a histogram's counts: runs of zero bytes and small LEB128-ish varints. */
export const histogramLike = fc
  .array(
    fc.oneof(
      fc.integer({ min: 1, max: 300 }).map((n) => new Array<number>(n).fill(0)),
      fc.array(fc.integer({ min: 0, max: 0x7f }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 128, max: 1 << 20 }).map((v) => {
        const out: number[] = [];
        while (v >= 0x80) {
          out.push((v & 0x7f) | 0x80);
          v >>>= 7;
        }
        out.push(v);
        return out;
      }),
    ),
    { maxLength: 400 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

/** Few distinct bytes, with repeats near and far (matches of all lengths and distances). */
export const repetitive = fc
  .tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 600 })), { maxLength: 60 }))
  .map(([seed, copies]) => {
    const out = Array.from(seed, (b) => b & 7);
    for (const [from, n] of copies) {
      const start = from % out.length;
      for (let i = 0; i < n; i++) out.push(out[start + i]!);
    }
    return Uint8Array.from(out);
  });

/** Deflate's bit order: values LSB first, Huffman codes MSB first. */
export class BitWriter {
  bytes: number[] = [];
  private acc = 0;
  private n = 0;
  bits(value: number, count: number): this {
    for (let i = 0; i < count; i++) {
      this.acc |= ((value >>> i) & 1) << this.n;
      if (++this.n === 8) this.flush();
    }
    return this;
  }
  code(code: number, length: number): this {
    for (let i = length - 1; i >= 0; i--) this.bits((code >>> i) & 1, 1);
    return this;
  }
  align(): this {
    if (this.n > 0) this.flush();
    return this;
  }
  private flush(): void {
    this.bytes.push(this.acc);
    this.acc = 0;
    this.n = 0;
  }
}
