import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount, formatCountOf, shortSeriesName } from "./format";

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

describe("shortSeriesName", () => {
  it("keeps the label of a long 'file [label]' name and shortens the file part", () => {
    const names = ["Login", "Search", "Checkout"].map((l) => `jmeter_BatchTestLoad_2024-05-01_run3 [${l}]`);
    const short = names.map((n) => shortSeriesName(n, 18));
    expect(short).toEqual(["jmeter_Ba… [Login]", "jmeter_B… [Search]", "jmeter… [Checkout]"]);
    for (const s of short) expect(s.length).toBe(18);
    expect(new Set(short).size).toBe(3);
  });
  it("leaves short names alone and cuts other long names at the end", () => {
    expect(shortSeriesName("run [a]", 18)).toBe("run [a]");
    expect(shortSeriesName("a_very_long_series_name_without_label", 10)).toBe("a_very_lo…");
    expect(shortSeriesName("file [a label longer than the room]", 12)).toBe("a label lon…");
  });
});
