import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalsOf, parseLatency, scaleDecimalDigits } from "./decimals";
import { guessEpochUnit, parseDateTime, parseNumericTime } from "./time";

describe("scaleDecimalDigits", () => {
  it("scales exactly and rounds half up (checked against BigInt arithmetic)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), (n, decimals, scale) => {
        const s = n.toString().padStart(decimals + 1, "0");
        const text = decimals > 0 ? `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}` : s;
        // n / 10^decimals * 10^scale, rounded half up
        const num = n * 10n ** BigInt(scale);
        const den = 10n ** BigInt(decimals);
        const expected = (num * 2n + den) / (2n * den);
        expect(scaleDecimalDigits(text, scale)?.digits).toBe(expected.toString());
      }),
      { numRuns: 2000 },
    );
  });
  it("handles exponents, signs and junk", () => {
    expect(scaleDecimalDigits("1.5e3", 0)?.digits).toBe("1500");
    expect(scaleDecimalDigits("15e-1", 0)?.digits).toBe("2");
    expect(scaleDecimalDigits(".5", 0)?.digits).toBe("1");
    expect(scaleDecimalDigits("-0", 0)).toEqual({ negative: false, digits: "0" });
    expect(scaleDecimalDigits("-2", 0)).toEqual({ negative: true, digits: "2" });
    expect(scaleDecimalDigits("0e999999", 0)?.digits).toBe("0");
    expect(scaleDecimalDigits("1e999999", 0)!.digits.length).toBeGreaterThan(16);
    for (const bad of ["", ".", "e5", "1.2.3", "0x10", "1,5", "NaN", "Infinity", " 1"]) expect(scaleDecimalDigits(bad, 0)).toBeNull();
  });
  it("decimalsOf counts written decimals", () => {
    expect([decimalsOf("12"), decimalsOf("12.50"), decimalsOf("1.234567"), decimalsOf("1e-3"), decimalsOf("1.5e2")]).toEqual([0, 1, 6, 3, 0]);
  });
  it("parseLatency bounds and explains", () => {
    expect(parseLatency("12.5", 3, 1e9)).toEqual({ ok: true, value: 12500 });
    expect(parseLatency("inf", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/not a finite number/) });
    expect(parseLatency("11", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/too large/) });
    expect(parseLatency("", 0, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
  });
});

describe("time", () => {
  it("reads epoch timestamps exactly in every unit", () => {
    expect(parseNumericTime("1767323045250000123", "ns")).toEqual({ ok: true, at: { sec: 1767323045, ns: 250000123 } });
    expect(parseNumericTime("1767323045250", "ms")).toEqual({ ok: true, at: { sec: 1767323045, ns: 250000000 } });
    expect(parseNumericTime("1767323045.5", "s")).toEqual({ ok: true, at: { sec: 1767323045, ns: 500000000 } });
    expect(parseNumericTime("12", "us")).toEqual({ ok: true, at: { sec: 0, ns: 12000 } });
    expect(parseNumericTime("-1", "s").ok).toBe(false);
  });
  it("guesses the unit of an epoch from its magnitude", () => {
    expect(["1767323045", "1767323045250", "1767323045250000", "1767323045250000000", "12.5"].map(guessEpochUnit)).toEqual(["s", "ms", "us", "ns", "s"]);
  });
  it("reads RFC 3339 with offsets and ns, and JMeter-style date-times", () => {
    expect(parseDateTime("2017-05-09T14:34:45.239531499+02:00")).toEqual({ ok: true, at: { sec: Date.UTC(2017, 4, 9, 12, 34, 45) / 1000, ns: 239531499 } });
    expect(parseDateTime("2026-01-02T03:04:05Z")).toEqual({ ok: true, at: { sec: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, ns: 0 } });
    expect(parseDateTime("2026/01/02 03:04:05.25")).toEqual({ ok: true, at: { sec: Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, ns: 250000000 } });
    expect(parseDateTime("2026-13-02T03:04:05Z").ok).toBe(false);
    // consecutive times in the same second reuse it; anything else is parsed afresh
    const sec = Date.UTC(2026, 0, 2, 1, 4, 5) / 1000;
    expect(parseDateTime("2026-01-02T03:04:05.5+02:00")).toEqual({ ok: true, at: { sec, ns: 5e8 } });
    expect(parseDateTime("2026-01-02T03:04:05.123456789+02:00")).toEqual({ ok: true, at: { sec, ns: 123456789 } });
    expect(parseDateTime("2026-01-02T03:04:05.25Z")).toEqual({ ok: true, at: { sec: sec + 7200, ns: 25e7 } });
    expect(parseDateTime("2026-01-02T03:04:05.25Zx").ok).toBe(false);
    expect(parseDateTime("yesterday").ok).toBe(false);
  });
});
