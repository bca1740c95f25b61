import { describe, expect, it } from "vitest";
import { formatInterval, parseExpectedInterval } from "./interval";

describe("parseExpectedInterval", () => {
  it("reads durations and rates", () => {
    expect(["10ms", " 250 us ", "1.5s", "100/s", "2k/s", ""].map(parseExpectedInterval)).toEqual([10e6, 250e3, 1.5e9, 1e7, 5e5, null]);
  });
  it("rejects what is neither", () => {
    expect(parseExpectedInterval("10")).toBeNaN();
    expect(parseExpectedInterval("fast")).toBeNaN();
    expect(parseExpectedInterval("0ms")).toBeNaN();
  });
  it("formats back to text that parses to the same value", () => {
    for (const ns of [1, 250e3, 10e6, 1.5e9]) expect(parseExpectedInterval(formatInterval(ns))).toBe(ns);
  });
});
