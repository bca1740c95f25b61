import { describe, expect, it } from "vitest";
import { medianOf } from "./median";

/** The reference: sort a copy, take the middle (or the mean of the two middle values). */
function sortedMedian(xs: Float64Array): number {
  const s = xs.slice().sort();
  const m = s.length >> 1;
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function rng(seed: number) {
  return () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

describe("medianOf", () => {
  it("gives what sorting gives, on random, repeated, sorted, reversed and constant values of every small length", () => {
    const r = rng(7);
    const shapes: ((n: number) => Float64Array)[] = [
      (n) => Float64Array.from({ length: n }, () => r() * 1e6),
      (n) => Float64Array.from({ length: n }, () => Math.floor(r() * 4)),
      (n) => Float64Array.from({ length: n }, (_, i) => i * 0.5),
      (n) => Float64Array.from({ length: n }, (_, i) => n - i),
      (n) => new Float64Array(n).fill(3.25),
      (n) => Float64Array.from({ length: n }, () => (r() < 0.5 ? -Math.exp(r() * 30) : Math.exp(r() * 30))),
    ];
    for (let n = 0; n <= 40; n++)
      for (const shape of shapes)
        for (let rep = 0; rep < 5; rep++) {
          const xs = shape(n);
          const before = xs.slice();
          expect(medianOf(xs)).toBe(sortedMedian(before));
          expect(xs).toEqual(before); // a copy unless asked
          const own = xs.slice();
          expect(medianOf(own, true)).toBe(sortedMedian(before));
        }
  });

  it("gives what sorting gives on large arrays shaped like per-interval rates (a plateau, bursts, a drift)", () => {
    const r = rng(11);
    for (const n of [21_600, 86_400, 86_401]) {
      const xs = Float64Array.from({ length: n }, (_, i) => 1000 + (i % 3600 < 30 ? 5000 * r() : 0) + i * 0.01 + Math.round(r() * 20));
      expect(medianOf(xs)).toBe(sortedMedian(xs));
    }
  });

  it("sorts NaN last, as Float64Array's sort does", () => {
    expect(medianOf(Float64Array.of(3, Number.NaN, 1))).toBe(3);
    expect(Number.isNaN(medianOf(Float64Array.of(Number.NaN, 2)))).toBe(true);
    expect(medianOf(Float64Array.of(5, Number.NaN, 1, 2))).toBe(3.5);
  });
});
