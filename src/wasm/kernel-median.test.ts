import fc from "fast-check";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { decodeHistogramPayload, type DecodedHistogram } from "../formats/hlog-encoding";
import { subBucketCountMagnitude, unitMagnitudeOf, valueAtIndex } from "../core/counts-layout";
import { decodePayloadFast, kernelAvailable, medianIndexOf } from "./kernel";

// medianIndexOf gives a decoded interval's median bucket: the kernel finds it while decoding,
// the JS reader's results get it computed in JS. Both are held here to the samples themselves
// (the ceil(n/2)-th smallest) and to HdrHistogram's own 50th percentile.

interface Built {
  payload: string;
  /** The library's getValueAtPercentile(50): the highest value of the median's bucket. */
  p50: number;
  lowest: number;
  digits: number;
}

function histogramOf(samples: number[], digits = 3, lowest = 1): Built {
  const h = build({
    bitBucketSize: 64,
    numberOfSignificantValueDigits: digits as 1 | 2 | 3 | 4 | 5,
    lowestDiscernibleValue: lowest,
    highestTrackableValue: 2 * lowest,
    autoResize: true,
  });
  for (const v of samples) h.recordValue(v);
  return { payload: encodeIntoCompressedBase64(h), p50: samples.length > 0 ? h.getValueAtPercentile(50) : 0, lowest, digits };
}

/** [lowest, next bucket's lowest) of counts-array `index`. */
function bucketOf(index: number, b: Built): [number, number] {
  const unit = unitMagnitudeOf(b.lowest);
  const half = subBucketCountMagnitude(b.digits) - 1;
  return [valueAtIndex(index, unit, half), valueAtIndex(index + 1, unit, half)];
}

/** The kernel's and the JS reader's decode of one payload, each with its median index. */
function medians(payload: string): { kernel: number; js: number } {
  const k: DecodedHistogram | null = decodePayloadFast(payload);
  expect(k).not.toBeNull();
  const kernel = medianIndexOf(k!);
  const r = decodeHistogramPayload(payload, true);
  if (!r.ok) throw new Error(r.reason);
  return { kernel, js: medianIndexOf(r.value) };
}

/** A latency run: a steady service time with jitter, and a GC-like pause now and then whose queue drains over the next samples. */
function latencyRun(n: number, seed: number): number[] {
  let s = seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const out: number[] = [];
  let queue = 0;
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.002) queue = 50_000_000 + Math.floor(rnd() * 200_000_000);
    out.push(200_000 + Math.floor(rnd() * 300_000) + queue);
    queue = Math.max(0, queue - 2_000_000);
  }
  return out;
}

describe("medianIndexOf", () => {
  it("is the bucket of the ceil(n/2)-th smallest sample and of HdrHistogram's 50th percentile, from the kernel and from the JS reader alike", () => {
    expect(kernelAvailable).toBe(true);
    const cases: number[][] = [
      [42],
      [1, 2],
      [5, 5, 5, 5],
      [1, 1000, 1000],
      // An even count split between two far values: the median is the lower one (ceil(n/2)).
      [...Array<number>(500).fill(1000), ...Array<number>(500).fill(9_000_000)],
      Array.from({ length: 1001 }, (_, i) => i + 1),
      latencyRun(20_000, 1),
      latencyRun(3_001, 7),
    ];
    for (const samples of cases) {
      const b = histogramOf(samples);
      const { kernel, js } = medians(b.payload);
      expect(kernel).toBe(js);
      const sorted = [...samples].sort((x, y) => x - y);
      const median = sorted[Math.ceil(sorted.length / 2) - 1]!;
      const [from, to] = bucketOf(kernel, b);
      expect(from).toBeLessThanOrEqual(median);
      expect(median).toBeLessThan(to);
      expect(from).toBeLessThanOrEqual(b.p50);
      expect(b.p50).toBeLessThan(to);
    }
  });

  it("is -1 for a histogram with no count, on both paths", () => {
    const { kernel, js } = medians(histogramOf([]).payload);
    expect(kernel).toBe(-1);
    expect(js).toBe(-1);
  });

  it("agrees with HdrHistogram's 50th percentile on random histograms (1..5 digits, any unit), on both paths", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 2, 3, 4, 5),
        fc.constantFrom(1, 3, 1000, 65536),
        fc.array(fc.tuple(fc.double({ min: 0, max: 11, noNaN: true }), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 200 }),
        (digits, lowest, entries) => {
          const samples: number[] = [];
          for (const [e, c] of entries) for (let i = 0; i < c; i++) samples.push(Math.floor(lowest * 10 ** e));
          const b = histogramOf(samples, digits, lowest);
          const { kernel, js } = medians(b.payload);
          expect(kernel).toBe(js);
          const [from, to] = bucketOf(kernel, b);
          expect(from).toBeLessThanOrEqual(b.p50);
          expect(b.p50).toBeLessThan(to);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("answers for the decode it was given: a JS result after a kernel decode is walked in JS", () => {
    const a = histogramOf(Array.from({ length: 99 }, (_, i) => 10 * (i + 1)));
    const b = histogramOf([7, 7, 7, 8_000, 9_000]);
    const fromKernel = decodePayloadFast(a.payload)!;
    const r = decodeHistogramPayload(b.payload, true);
    if (!r.ok) throw new Error(r.reason);
    const [from, to] = bucketOf(medianIndexOf(r.value), b);
    expect(from).toBeLessThanOrEqual(7);
    expect(7).toBeLessThan(to);
    const [fromA, toA] = bucketOf(medianIndexOf(fromKernel), a);
    expect(fromA).toBeLessThanOrEqual(500);
    expect(500).toBeLessThan(toA);
  });
});
