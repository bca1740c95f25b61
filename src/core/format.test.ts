import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount, formatCountOf, formatNumber, middleEllipsis, shortNames } from "./format";

describe("formatCount", () => {
  it("writes whole counts with thousands separators, as toLocaleString('en-US') of the rounded count", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999.5)).toBe("1,000");
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(2 ** 53)).toBe("9,007,199,254,740,992");
    fc.assert(fc.property(fc.double({ min: -1e18, max: 1e18, noNaN: true }), (n) => formatCount(n) === Math.round(n).toLocaleString("en-US")));
  });

  it("agrees with Intl's en-US grouping everywhere: group edges, negatives, -0, exponents, non-finite", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    const edges = [
      -0,
      -0.4,
      0.4,
      1,
      99,
      100,
      999,
      1000,
      9999,
      10000,
      99999,
      100000,
      999999,
      1e6,
      123456789,
      1e20,
      2 ** 66,
      1e21,
      1.5e21,
      1e300,
      Number.MAX_VALUE,
      Infinity,
      -Infinity,
      NaN,
    ];
    for (const v of [...edges, ...edges.map((x) => -x)]) expect(formatCount(v)).toBe(intl.format(Math.round(v)));
    fc.assert(fc.property(fc.double(), (n) => formatCount(n) === intl.format(Math.round(n))));
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), (n) => formatCount(n) === intl.format(n)));
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

describe("names side by side", () => {
  it("a middle ellipsis keeps both ends of a long name", () => {
    expect(middleEllipsis("run [a]", 18)).toBe("run [a]");
    expect(middleEllipsis("a_very_long_series_name_without_label", 11)).toBe("a_ver…label");
    expect(middleEllipsis("a_very_long_series_name_without_label", 11)).toHaveLength(11);
  });

  it("drops the words every name shares: a Gatling run's file, the demo's '.response'", () => {
    const gatling = ["Login", "Search", "Get document with breadcrumb"].map((l) => `gatling-20261101-run3/simulation [${l}]`);
    expect(shortNames(gatling, 40)).toEqual(["Login", "Search", "Get document with breadcrumb"]);
    expect(shortNames(["sysA_2k.response", "sysA_4k.response", "sysB_8k.response"], 30)).toEqual(["sysA_2k", "sysA_4k", "sysB_8k"]);
  });

  it("keeps names whole where nothing is shared, and a lone name whole but cut", () => {
    expect(shortNames(["k6-out [Home]", "jmeter [Search]"], 30)).toEqual(["k6-out [Home]", "jmeter [Search]"]);
    expect(shortNames(["latency", "latency (run2)"], 30)).toEqual(["latency", "latency (run2)"]);
    expect(shortNames(["only-one-series-with-a-long-name"], 12)).toEqual(["only-o…-name"]);
  });

  it("a name never comes out empty", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-c_ .[\]]{1,8}$/), { minLength: 2, maxLength: 6 }), (names) => {
        const out = shortNames(names, 1000);
        expect(out.every((n) => n.length > 0)).toBe(true);
      }),
    );
  });
});

describe("formatNumber below one", () => {
  it("keeps about four significant digits, powers of ten included", () => {
    expect(formatNumber(0.5)).toBe("0.5");
    expect(formatNumber(0.12345678)).toBe("0.1235");
    expect(formatNumber(0.1)).toBe("0.1");
    expect(formatNumber(0.012345678)).toBe("0.01235");
    expect(formatNumber(0.001)).toBe("0.001");
    expect(formatNumber(0.0009999)).toBe("0.0009999");
    expect(formatNumber(0.00012345678)).toBe("0.0001235");
    expect(formatNumber(1.2345678e-6)).toBe("0.000001235");
    expect(formatNumber(1.2345678e-7)).toBe("0.000000123");
  });
});
