import { describe, expect, it } from "vitest";
import { spectrumSpanNs, wantsLogAxis } from "./log-axis";

describe("the log axis rule", () => {
  it("goes log only past two decades between the lowest positive value and the highest max", () => {
    expect(wantsLogAxis("auto", 1_000, 100_000)).toBe(false); // exactly two decades
    expect(wantsLogAxis("auto", 1_000, 100_001)).toBe(true);
    expect(wantsLogAxis("auto", 0, 1e9)).toBe(false); // no positive value: nothing to span
    expect(wantsLogAxis("auto", Infinity, 0)).toBe(false);
    expect(wantsLogAxis("on", 1, 2)).toBe(true);
    expect(wantsLogAxis("off", 1, 1e9)).toBe(false);
  });
  it("spans spectra of different units in ns, skipping zeros", () => {
    // System B's 0.2 ms (µs spectrum with a zero) beside System A's 160 ms max (ms spectrum).
    const span = spectrumSpanNs([
      { values: [0, 200, 900], max: 1100, nanos: 1_000 },
      { values: [2, 40], max: 160, nanos: 1_000_000 },
    ]);
    expect(span).toEqual([200_000, 160_000_000]);
    expect(wantsLogAxis("auto", ...span)).toBe(true);
  });
});
