import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount, formatCountOf } from "./format";

describe("formatCount", () => {
  it("writes whole counts with thousands separators, as toLocaleString('en-US') of the rounded count", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999.5)).toBe("1,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(2 ** 53)).toBe("9,007,199,254,740,992");
    fc.assert(fc.property(fc.double({ min: -1e18, max: 1e18, noNaN: true }), (n) => formatCount(n) === Math.round(n).toLocaleString("en-US")));
  });
});

describe("formatCountOf", () => {
  it("says one value, and any other count in the plural", () => {
    expect(formatCountOf(1, "value")).toBe("1 value");
    expect(formatCountOf(0, "value")).toBe("0 values");
    expect(formatCountOf(2, "interval")).toBe("2 intervals");
    expect(formatCountOf(1234, "value")).toBe("1,234 values");
    expect(formatCountOf(1, "series", "series")).toBe("1 series");
  });
});
