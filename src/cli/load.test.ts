// The merge's histogram add against hdr-histogram-js's own add: the same counts and the same
// internal state (its max and min fields, length, range), whatever the lengths and layouts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newHistogram, type Histogram } from "../core/histogram";
import { addHistogram } from "./load";

function state(h: Histogram) {
  const j = h as unknown as {
    _counts: Float64Array;
    maxValue: number;
    minNonZeroValue: number;
    countsArrayLength: number;
    bucketCount: number;
    startTimeStampMsec: number;
    endTimeStampMsec: number;
  };
  return {
    counts: Array.from(j._counts),
    total: h.totalCount,
    max: j.maxValue,
    min: j.minNonZeroValue,
    length: j.countsArrayLength,
    buckets: j.bucketCount,
    highest: h.highestTrackableValue,
    times: [j.startTimeStampMsec, j.endTimeStampMsec],
  };
}

describe("addHistogram", () => {
  it("leaves the target exactly as the library's add does (same or different layouts and lengths)", () => {
    const layout = fc.record({ digits: fc.constantFrom(2, 3), lowest: fc.constantFrom(1, 1, 1000), highest: fc.constantFrom(2, 1e4, 1e9, 3.6e12) });
    const values = fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 1, max: 1000 })), { maxLength: 60 });
    let indexPath = 0;
    fc.assert(
      fc.property(layout, layout, values, values, fc.boolean(), (a, b, va, vb, sameLayout) => {
        if (sameLayout) b = { ...b, digits: a.digits, lowest: a.lowest };
        const make = () => {
          const t = newHistogram(a.digits, a.lowest, a.highest);
          for (const [v, c] of va) t.recordValueWithCount(Math.max(v, a.lowest), c);
          return t;
        };
        const o = newHistogram(b.digits, b.lowest, b.highest);
        for (const [v, c] of vb) o.recordValueWithCount(Math.max(v, b.lowest), c);
        const mine = make();
        const theirs = make();
        if (sameLayout && (mine as unknown as { bucketCount: number }).bucketCount !== (o as unknown as { bucketCount: number }).bucketCount) indexPath++;
        addHistogram(mine, o);
        theirs.add(o);
        expect(state(mine)).toEqual(state(theirs));
      }),
      { numRuns: 400 },
    );
    // The path by index was taken, not only the library's.
    expect(indexPath).toBeGreaterThan(50);
  });
});
