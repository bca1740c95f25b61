import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { newHistogram, valueAtPercentile } from "./histogram";
import { spectrumOf, valueAtFromBuckets } from "./spectrum";

describe("valueAtFromBuckets", () => {
  it("equals the library's getValueAtPercentile (and the max at 100) on random histograms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1e10 }), fc.integer({ min: 1, max: 1e6 })), { minLength: 1, maxLength: 60 }),
        // p > 0: a requirement never has p0 (the library gives the lowest equivalent value there).
        fc.array(fc.double({ min: 1e-9, max: 100, noNaN: true }), { minLength: 1, maxLength: 10 }),
        (pairs, ps) => {
          const h = newHistogram(3);
          for (const [v, c] of pairs) h.recordValueWithCount(v, c);
          const s = spectrumOf(h);
          for (const p of [...ps, 50, 90, 99, 99.9, 99.99, 99.999, 99.99999, 100]) {
            expect(valueAtFromBuckets(s, p)).toBe(valueAtPercentile(h, p));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
