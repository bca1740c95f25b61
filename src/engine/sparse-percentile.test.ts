import { describe, expect, it } from "vitest";
import { newHistogram, valueAtPercentile } from "../core/histogram";
import { compactHistogram } from "../core/lazy-histogram";
import { highestAtIndex, layoutOf, percentileOfSparse } from "./sparse-percentile";

type Js = { valueFromIndex(i: number): number; highestEquivalentValue(v: number): number; getCountAtIndex(i: number): number; countsArrayLength: number };

describe("percentiles of sparse counts, read by the layout's arithmetic", () => {
  it.each([
    [3, 1],
    [2, 1],
    [1, 7],
    [3, 1000],
    [5, 1],
  ])("names each index's bucket top as the library does (%i digits from %i)", (digits, lowest) => {
    const h = newHistogram(digits, lowest, 1e12);
    const js = h as unknown as Js;
    const layout = layoutOf(h);
    for (let i = 0; i < js.countsArrayLength; i += 1 + (i >> 6)) expect(highestAtIndex(layout, i), `index ${i}`).toBe(js.highestEquivalentValue(js.valueFromIndex(i)));
  });

  it("reads a series kept as its counts as the histogram reads itself", () => {
    const h = newHistogram(3, 1, 1e10);
    [
      [1_000, 5],
      [12_345, 40],
      [9_999_999, 3],
      [2_000_000_000, 1],
    ].forEach(([v, c]) => h.recordValueWithCount(v!, c!));
    const c = compactHistogram(h, 4096, "made");
    const js = h as unknown as Js;
    const indices: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < js.countsArrayLength; i++) {
      const n = js.getCountAtIndex(i);
      if (n > 0) {
        indices.push(i);
        counts.push(n);
      }
    }
    const sum = { indices: Int32Array.from(indices), counts: Float64Array.from(counts) };
    for (const p of [1, 10, 50, 90, 99, 99.9, 100]) expect(percentileOfSparse(sum, p, layoutOf(c)), `p${p}`).toBe(valueAtPercentile(h, p));
  });
});
