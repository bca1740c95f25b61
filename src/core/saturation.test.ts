import { describe, expect, it } from "vitest";
import { simulateQueue } from "../../tests/support/queue-sim";
import { detectSaturation, spearman } from "./saturation";
import { valueAtPercentile } from "./histogram";

function verdictOf(sim: ReturnType<typeof simulateQueue>) {
  const offsets = sim.map((s) => s.start);
  const p50 = sim.map((s) => valueAtPercentile(s.histogram, 50));
  const counts = sim.map((s) => s.histogram.totalCount);
  return detectSaturation(offsets, p50, counts, sim.length);
}

describe("saturation detector", () => {
  it("spearman: +1 for a monotone rise, -1 for a fall, 0-ish for noise", () => {
    expect(spearman([1, 2, 3, 4], [1, 5, 9, 100])).toBeCloseTo(1, 9);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 9);
  });

  it("fires on a queue fed above its capacity (median rises through the run)", () => {
    // Median service 80 µs, sigma 0.5: mean ≈ 91 µs, capacity ≈ 11k/s; offered 13k/s.
    const v = verdictOf(simulateQueue({ rate: 13000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 7 }));
    expect(v.saturated).toBe(true);
    expect(v.trend).toBeGreaterThan(0.9);
  });

  it("does not fire on a healthy run with occasional long stalls", () => {
    const stalls = [5, 14, 23].map((at) => ({ at, duration: 0.3 }));
    const v = verdictOf(simulateQueue({ rate: 4000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls, seed: 9 }));
    expect(v.saturated).toBe(false);
  });

  it("does not fire on a healthy run with a stall near its end", () => {
    const v = verdictOf(simulateQueue({ rate: 4000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [{ at: 27.5, duration: 1.5 }], seed: 3 }));
    expect(v.saturated).toBe(false);
  });

  it("does not fire on a busy but stable run (high utilisation, no growth)", () => {
    const v = verdictOf(simulateQueue({ rate: 9000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 5 }));
    expect(v.saturated).toBe(false);
  });

  it("needs enough intervals to judge", () => {
    expect(detectSaturation([0, 1, 2], [1, 2, 3], [1, 1, 1], 3).saturated).toBe(false);
  });
});

describe("saturation trend", () => {
  it("is computed whenever the rise could make a verdict, and decides it", () => {
    // A rise of 4× that is not steady (a jump in the last quarter after a fall): trend needed.
    const n = 400;
    const offsets = Array.from({ length: n }, (_, i) => i);
    const counts = new Array<number>(n).fill(1);
    const jumpy = offsets.map((i) => (i < 300 ? 1000 - i : 4000));
    const v = detectSaturation(offsets, jumpy, counts, n);
    expect(v.rise).toBeGreaterThanOrEqual(3);
    expect(Number.isNaN(v.trend)).toBe(false);
    expect(v.saturated).toBe(v.trend >= 0.8);
    // No rise: no verdict can come from the trend, and it is left out.
    const flat = offsets.map((i) => 1000 + (i % 7));
    const f = detectSaturation(offsets, flat, counts, n);
    expect(f.saturated).toBe(false);
    expect(f.rise).toBeLessThan(3);
  });
});
