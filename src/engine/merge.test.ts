// The engine's one merge: its layout rule against hdr-histogram-js histograms that recorded the
// same values at the coarse layout, merged at once or in a stream of batches; and its add by
// index against the library's own add (the same counts and internal state, whatever the
// lengths and layouts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { maxOf, newHistogram, sparseOf, valueAtPercentile, type Histogram } from "../core/histogram";
import { mulberry32 } from "../../tests/support/queue-sim";
import { addHistogram, mergeHistograms } from "./merge";
import { compactHistogram } from "../core/lazy-histogram";

/** Log-normal-ish values (ns), the same for a seed. */
function valuesOf(seed: number, n: number): number[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => Math.round(20_000 * Math.exp(3 * r() * r()) + r() * 5e6 * (r() < 0.01 ? 1 : 0)));
}

function recorded(digits: number, lowest: number, values: readonly number[]): Histogram {
  const h = newHistogram(digits, lowest, 2 ** 40);
  for (const v of values) h.recordValue(v);
  return h;
}

describe("mergeHistograms", () => {
  const fine = valuesOf(1, 5000);
  const coarse = valuesOf(2, 5000);
  const fine2 = valuesOf(3, 5000);
  // The reference: every value recorded by the library at the coarsest layout (2 digits, lowest 1000).
  const ref = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2, lowestDiscernibleValue: 1000, highestTrackableValue: 2 ** 40 });
  for (const v of [...fine, ...coarse, ...fine2]) ref.recordValue(v);
  const parts = () => [recorded(3, 1, fine), recorded(2, 1000, coarse), recorded(3, 1, fine2)];

  it("adds into the coarsest layout, never below what a part recorded: the library's coarse histogram of every value", () => {
    const m = mergeHistograms(parts());
    expect(m.numberOfSignificantValueDigits).toBe(2);
    expect(m.totalCount).toBe(ref.totalCount);
    for (const p of [50, 90, 99, 99.9, 99.99]) expect(valueAtPercentile(m, p)).toBe(ref.getValueAtPercentile(p));
    expect(maxOf(m)).toBe(ref.getValueAtPercentile(100));
    expect(maxOf(m)).toBeGreaterThanOrEqual(Math.max(...fine, ...coarse, ...fine2));
  });

  it("one part at a time (the command line's batches), the finest first, ends where all at once does", () => {
    const [a, b, c] = parts();
    let into = mergeHistograms([a!]);
    expect(into.numberOfSignificantValueDigits).toBe(3);
    into = mergeHistograms([b!], into);
    into = mergeHistograms([c!], into);
    expect(sparseOf(into)).toEqual(sparseOf(mergeHistograms(parts())));
  });

  it("a part in the target's layout is added in place", () => {
    const into = recorded(3, 1, fine);
    expect(mergeHistograms([recorded(3, 1, fine2)], into)).toBe(into);
    expect(into.totalCount).toBe(fine.length + fine2.length);
  });
});

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

describe("mergeHistograms of histograms kept as their counts", () => {
  const made = (digits: number, highest: number, values: [number, number][], t: number): Histogram => {
    const h = newHistogram(digits, 1, highest);
    for (const [v, c] of values) h.recordValueWithCount(v, c);
    h.startTimeStampMsec = t;
    h.endTimeStampMsec = t + 1000;
    return h;
  };
  const fields = (h: Histogram) => [
    h.totalCount,
    h.maxValue,
    h.minNonZeroValue,
    h.startTimeStampMsec,
    h.endTimeStampMsec,
    h.highestTrackableValue,
    h.numberOfSignificantValueDigits,
  ];
  const parts = () => [
    made(
      3,
      1e9,
      [
        [1_234, 5],
        [9_999_999, 2],
      ],
      5000,
    ),
    made(
      3,
      1e9,
      [
        [1_001, 1],
        [77_777, 40],
      ],
      3000,
    ),
    // More buckets than the others (another path of the library's add), and values past them.
    made(
      3,
      1e12,
      [
        [3, 2],
        [500_000_000_000, 1],
      ],
      9000,
    ),
    made(3, 1e9, [[123_456, 9]], 1000),
  ];

  it.each([
    ["one layout, counts arrays of two lengths", [0, 1, 2, 3]],
    ["one layout, one length", [0, 1, 3]],
    ["a coarser one among them", [0, 4]],
  ])("gives what merging the histograms themselves gives, counts and fields (%s)", (_, pick) => {
    const all = [...parts(), made(2, 1e9, [[5_555, 3]], 200)];
    const ref = mergeHistograms(pick.map((k) => all[k]!));
    const kept = mergeHistograms(pick.map((k) => compactHistogram([...parts(), made(2, 1e9, [[5_555, 3]], 200)][k]!, 4096, "made")));
    expect(sparseOf(kept)).toEqual(sparseOf(ref));
    expect(fields(kept)).toEqual(fields(ref));
    expect(encodeIntoCompressedBase64(kept)).toBe(encodeIntoCompressedBase64(ref));
  });
});
