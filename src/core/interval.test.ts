import { describe, expect, it } from "vitest";
import { formatInterval, parseExpectedInterval } from "./interval";

describe("parseExpectedInterval", () => {
  it("reads durations and rates", () => {
    expect(parseExpectedInterval("10ms")).toBe(10e6);
    expect(parseExpectedInterval(" 250 us ")).toBe(250e3);
    expect(parseExpectedInterval("1.5s")).toBe(1.5e9);
    expect(parseExpectedInterval("100/s")).toBe(1e7);
    expect(parseExpectedInterval("2k/s")).toBe(5e5);
    expect(parseExpectedInterval("")).toBeNull();
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
