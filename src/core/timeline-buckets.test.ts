import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketIntervals, snapToBlocks } from "./timeline-buckets";

describe("snapToBlocks", () => {
  it("keeps the intervals and their order, puts inner boundaries on block multiples, recomputes span and max", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 3000 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 1e6 }), (n, columns, seed) => {
        const offsets = Float64Array.from({ length: n }, (_, i) => i * 1.0);
        const lengths = new Float64Array(n).fill(1);
        const maxes = Float64Array.from({ length: n }, (_, i) => ((i * 7919 + seed) % 1000) + 1);
        const c = { offsets, lengths, maxes, n };
        const { buckets } = bucketIntervals(c, 0, n, columns);
        const snapped = snapToBlocks(c, buckets, 64);
        expect(snapped[0]!.first).toBe(buckets[0]!.first);
        const end = (b: { first: number; count: number }) => b.first + b.count;
        expect(end(snapped[snapped.length - 1]!)).toBe(end(buckets[buckets.length - 1]!));
        for (let k = 0; k < snapped.length; k++) {
          const b = snapped[k]!;
          expect(b.count).toBeGreaterThan(0);
          if (k > 0) {
            expect(b.first).toBe(end(snapped[k - 1]!));
            expect(b.first % 64).toBe(0);
          }
          expect(b.t0).toBe(offsets[b.first]);
          expect(b.t1).toBe(offsets[b.first + b.count - 1]! + 1);
          expect(b.max).toBe(Math.max(...maxes.subarray(b.first, b.first + b.count)));
        }
        expect(snapped.length).toBeLessThanOrEqual(buckets.length);
      }),
      { numRuns: 300 },
    );
  });
});
