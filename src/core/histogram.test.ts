import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bucketsOf, maxOf, mergeAll, newHistogram, sparseOf, valueAtPercentile } from "./histogram";
import { spectrumOf } from "./spectrum";

/** The exact percentile of known samples: the smallest value with at least p% of samples at or below it. */
function exactPercentile(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

describe("histogram of known samples", () => {
  it("values 1..10000 once each: percentiles within 0.1% of the exact ones", () => {
    const h = newHistogram(3);
    const sorted: number[] = [];
    for (let v = 1; v <= 10000; v++) {
      h.recordValue(v);
      sorted.push(v);
    }
    for (const p of [50, 90, 99, 99.9, 99.99]) {
      const got = valueAtPercentile(h, p);
      const exact = exactPercentile(sorted, p);
      expect(got).toBeGreaterThanOrEqual(exact);
      expect(got).toBeLessThanOrEqual(exact * 1.001 + 1);
    }
    // 10000 lies in a bucket of width 8 (8192..16383): its highest equivalent is 10007.
    expect(maxOf(h)).toBe(10007);
    expect(valueAtPercentile(h, 100)).toBe(10007);
    expect(h.totalCount).toBe(10000);
  });

  it("property: percentiles bracket the exact sample percentile at 3 significant digits", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1e9 }), { minLength: 1, maxLength: 300 }), fc.double({ min: 0.1, max: 100, noNaN: true }), (vals, p) => {
        const h = newHistogram(3);
        for (const v of vals) h.recordValue(v);
        const sorted = [...vals].sort((a, b) => a - b);
        const exact = exactPercentile(sorted, p);
        const got = valueAtPercentile(h, p);
        expect(got).toBeGreaterThanOrEqual(exact);
        expect(got).toBeLessThanOrEqual(exact * 1.001 + 1);
      }),
      { numRuns: 200 },
    );
  });

  it("counts do not wrap at 2^31 (64-bit counters)", () => {
    const h = newHistogram(3);
    h.recordValueWithCount(1000, 3_000_000_000);
    h.recordValueWithCount(2000, 3_000_000_000);
    expect(h.totalCount).toBe(6_000_000_000);
    expect(valueAtPercentile(h, 50)).toBe(1000);
    const m = mergeAll([h, h]);
    expect(m.totalCount).toBe(12_000_000_000);
  });
});

describe("merge", () => {
  const arbHist = fc.array(fc.tuple(fc.integer({ min: 1, max: 1e8 }), fc.integer({ min: 1, max: 1000 })), { maxLength: 40 });
  const build = (pairs: [number, number][]) => {
    const h = newHistogram(3);
    for (const [v, c] of pairs) h.recordValueWithCount(v, c);
    return h;
  };
  const shape = (h: ReturnType<typeof newHistogram>) => {
    const b = bucketsOf(h);
    return { v: Array.from(b.values), c: Array.from(b.cumulative), n: b.totalCount, max: maxOf(h) };
  };

  it("preserves counts, and order does not matter (commutative, associative)", () => {
    fc.assert(
      fc.property(arbHist, arbHist, arbHist, (a, b, c) => {
        const [ha, hb, hc] = [build(a), build(b), build(c)];
        const abc = mergeAll([ha, hb, hc]);
        expect(abc.totalCount).toBe(ha.totalCount + hb.totalCount + hc.totalCount);
        expect(shape(mergeAll([hc, ha, hb]))).toEqual(shape(abc));
        expect(shape(mergeAll([mergeAll([ha, hb]), hc]))).toEqual(shape(mergeAll([ha, mergeAll([hb, hc])])));
        // Merging equals recording every sample into one histogram.
        expect(shape(build([...a, ...b, ...c]))).toEqual(shape(abc));
      }),
      { numRuns: 100 },
    );
  });

  it("percentiles never decrease with p", () => {
    fc.assert(
      fc.property(
        arbHist.filter((x) => x.length > 0),
        (a) => {
          const h = build(a);
          let prev = 0;
          for (const p of [0, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100]) {
            const v = valueAtPercentile(h, p);
            expect(v).toBeGreaterThanOrEqual(prev);
            prev = v;
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("merging histograms of different precisions", () => {
  // Members recorded at random layouts (1–4 digits, lowest discernible value 1 to 2^14): the
  // merge must never report a value below what some member recorded.
  const arbMember = fc.record({
    digits: fc.integer({ min: 1, max: 4 }),
    lowest: fc.constantFrom(1, 3, 1000, 1024, 20000),
    values: fc.array(fc.integer({ min: 1, max: 2e9 }), { minLength: 1, maxLength: 40 }),
  });

  it("never below: every percentile of the sum is at or above the same percentile of the members' values as each member reports them", () => {
    fc.assert(
      fc.property(fc.array(arbMember, { minLength: 2, maxLength: 4 }), (members) => {
        const hs = members.map((m) => {
          const h = newHistogram(m.digits, m.lowest);
          for (const v of m.values) h.recordValue(v);
          return h;
        });
        const m = mergeAll(hs);
        expect(m.totalCount).toBe(members.reduce((a, x) => a + x.values.length, 0));
        // Reference: each recorded value as its own member reports it (its bucket's top), pooled.
        const reported = hs
          .flatMap((h, k) => members[k]!.values.map((v) => (h as unknown as { highestEquivalentValue(v: number): number }).highestEquivalentValue(v)))
          .sort((a, b) => a - b);
        for (const p of [1, 10, 50, 90, 99, 99.9, 100]) expect(valueAtPercentile(m, p)).toBeGreaterThanOrEqual(exactPercentile(reported, p));
        expect(maxOf(m)).toBeGreaterThanOrEqual(Math.max(...hs.map(maxOf)));
        // And it is exactly the raw values recorded into the coarsest layout (fewest digits,
        // largest unit): each member's buckets nest in that layout's buckets.
        const digits = Math.min(...members.map((x) => x.digits));
        const lowest = members.map((x) => x.lowest).reduce((a, b) => (Math.floor(Math.log2(b)) > Math.floor(Math.log2(a)) ? b : a));
        const direct = newHistogram(digits, lowest);
        for (const x of members) for (const v of x.values) direct.recordValue(v);
        expect(Array.from(bucketsOf(m).values)).toEqual(Array.from(bucketsOf(direct).values));
        expect(Array.from(bucketsOf(m).cumulative)).toEqual(Array.from(bucketsOf(direct).cumulative));
      }),
      { numRuns: 200 },
    );
  });

  it("a 3-digit and a 2-digit histogram: the sum is read at 2 digits, the 2-digit member's top kept", () => {
    const fine = newHistogram(3);
    fine.recordValue(1000);
    const coarse = newHistogram(2, 20000);
    coarse.recordValue(1_790_000_000); // 2-digit bucket 1786773504..1795162111
    for (const hs of [
      [fine, coarse],
      [coarse, fine],
    ]) {
      const m = mergeAll(hs);
      expect(m.numberOfSignificantValueDigits).toBe(2);
      expect(maxOf(m)).toBe(1795162111);
      // Merged into the 3-digit layout, the coarse bucket would read 1786773504's 3-digit bucket.
      const wrong = newHistogram(3);
      wrong.add(fine);
      wrong.add(coarse);
      expect(maxOf(wrong)).toBeLessThan(1_790_000_000);
    }
  });
});

describe("one-pass summaries and declared sizes", () => {
  it("bucketsOf's mean and standard deviation equal the library's", async () => {
    const { bucketsOf: b } = await import("./histogram");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 50 }),
        fc.constantFrom(2, 3, 4),
        (pairs, sig) => {
          const h = newHistogram(sig);
          for (const [v, c] of pairs) h.recordValueWithCount(v, c);
          const s = b(h);
          expect(s.mean).toBeCloseTo(h.mean, 6);
          expect(s.stdDeviation / Math.max(1, h.stdDeviation)).toBeCloseTo(h.stdDeviation / Math.max(1, h.stdDeviation), 9);
        },
      ),
      // The library's own mean walks every bucket through its iterator: slow at 4 digits.
      { numRuns: 40 },
    );
  }, 120_000);

  it("declaredCountsLength equals the library's counts array length; huge declarations start small", async () => {
    const { declaredCountsLength, MAX_DECLARED_COUNTS } = await import("./histogram");
    const { build } = await import("hdr-histogram-js");
    for (const [sig, lowest, highest] of [
      [2, 20000, 3.6e12],
      [3, 1, 3.6e12],
      [1, 1, 1000],
      [3, 1000, 1e15],
    ] as const) {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: sig, lowestDiscernibleValue: lowest, highestTrackableValue: highest }) as unknown as {
        countsArrayLength: number;
      };
      expect(declaredCountsLength(sig, lowest, highest)).toBe(h.countsArrayLength);
    }
    const big = newHistogram(5, 1, 2 ** 62) as unknown as { countsArrayLength: number };
    expect(big.countsArrayLength).toBeLessThanOrEqual(MAX_DECLARED_COUNTS);
  });
});

describe("bucketsOf reads buckets as the library's own methods do", () => {
  it("values and cumulative counts match the library's per-index calls, for any layout", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom(1, 2, 1000, 1024, 2 ** 20),
        fc.array(fc.tuple(fc.double({ min: 0, max: 40, noNaN: true }), fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 60 }),
        (digits, lowest, entries) => {
          const h = newHistogram(digits, lowest);
          for (const [e, c] of entries) h.recordValueWithCount(Math.floor(lowest * 2 ** e), c);
          const js = h as unknown as {
            countsArrayLength: number;
            getCountAtIndex(i: number): number;
            valueFromIndex(i: number): number;
            highestEquivalentValue(v: number): number;
          };
          const values: number[] = [];
          const cumulative: number[] = [];
          let run = 0;
          for (let i = 0; i < js.countsArrayLength; i++) {
            const c = js.getCountAtIndex(i);
            if (c > 0) {
              run += c;
              values.push(js.highestEquivalentValue(js.valueFromIndex(i)));
              cumulative.push(run);
            }
          }
          const b = bucketsOf(h);
          expect(Array.from(b.values)).toEqual(values);
          expect(Array.from(b.cumulative)).toEqual(cumulative);
          // The spectrum's max is its last bucket's: what maxOf finds walking down every slot.
          expect(spectrumOf(h).max).toBe(maxOf(h));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("sparseOf", () => {
  it("lists every non-zero count the library reports, by index, after the histogram grew", () => {
    const h = newHistogram(3, 1, 2);
    const values = [1, 7, 1000, 1001, 65_000, 3_000_000, 3_000_000, 9e9];
    for (const v of values) h.recordValue(v);
    const s = sparseOf(h);
    const lib = h as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number };
    const expected: [number, number][] = [];
    for (let i = 0; i < lib.countsArrayLength; i++) if (lib.getCountAtIndex(i) > 0) expected.push([i, lib.getCountAtIndex(i)]);
    expect(Array.from(s.indices, (i, k) => [i, s.counts[k]!])).toEqual(expected);
    expect(s.totalCount).toBe(values.length);
    expect(expected.length).toBe(7);
  });
});
