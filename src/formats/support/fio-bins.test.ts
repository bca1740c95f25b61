import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fioBinTopByC, fioPlatValToIdx } from "../../../tests/support/producer-outputs";
import { FIO_PLAT_NR, fioBinHigh, fioBinLow, fioBinOf, fioBinValue } from "./fio-bins";

describe("fio's latency bins", () => {
  it("place every value in the bin fio's plat_val_to_idx does, inside the bin's bounds", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 36n }), (v) => {
        const idx = fioBinOf(Number(v));
        expect(idx).toBe(fioPlatValToIdx(v));
        expect(fioBinLow(idx)).toBeLessThanOrEqual(Number(v));
        expect(fioBinHigh(idx)).toBeGreaterThanOrEqual(Number(v));
      }),
      { numRuns: 3000 },
    );
  });

  it("have an upper bound that is the largest value of the bin, and contiguous bins", () => {
    for (let i = 0; i < FIO_PLAT_NR - 1; i++) {
      expect(fioBinHigh(i)).toBe(Number(fioBinTopByC(BigInt(fioBinLow(i)))));
      expect(fioBinLow(i + 1)).toBe(fioBinHigh(i) + 1);
      // fio prints a bin as its middle: that value lies in the bin.
      expect(fioPlatValToIdx(BigInt(fioBinValue(i)))).toBe(i);
    }
    expect(fioBinHigh(FIO_PLAT_NR - 1)).toBe(Infinity);
    expect(fioBinLow(FIO_PLAT_NR - 1)).toBe(2 ** 34 - 2 ** 27);
    // powers of two and their neighbours, where a float log2 could slip
    for (let k = 7; k < 40; k++) for (const d of [-1, 0, 1]) expect(fioBinOf(2 ** k + d)).toBe(fioPlatValToIdx(BigInt(2 ** k + d)));
  });
});
