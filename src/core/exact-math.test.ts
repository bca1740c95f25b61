import { describe, expect, it } from "vitest";
import { cbrt, exp, exp2, ln, log10, log2 } from "./exact-math";
import { makeRng } from "./compare/rng";

/** Distance in units in the last place. */
function ulps(a: number, b: number): number {
  if (a === b) return 0;
  const buf = new DataView(new ArrayBuffer(16));
  buf.setFloat64(0, a);
  buf.setFloat64(8, b);
  return Math.abs(Number(buf.getBigInt64(0) - buf.getBigInt64(8)));
}

describe("log2 and 2^x from basic operations", () => {
  it("agree with Math to a few units in the last place over a wide range", () => {
    const r = makeRng(7);
    let worstLog = 0;
    let worstExp = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = Math.exp((r.next() - 0.5) * 1400); // 1e-304 … 1e304
      const l = log2(x);
      const want = Math.log2(x);
      // Near log2(x) = 0 an absolute error is what counts.
      worstLog = Math.max(worstLog, Math.abs(want) < 1 ? Math.abs(l - want) / Number.EPSILON : ulps(l, want));
      const y = (r.next() - 0.5) * 2000;
      worstExp = Math.max(worstExp, ulps(exp2(y), 2 ** y));
    }
    expect(worstLog).toBeLessThanOrEqual(4);
    expect(worstExp).toBeLessThanOrEqual(4);
  });

  it("ln, e^x, log10 and the cube root built on them agree with Math to within 1e-14", () => {
    const r = makeRng(8);
    for (let i = 0; i < 20_000; i++) {
      const x = Math.exp((r.next() - 0.5) * 200);
      expect(Math.abs(ln(x) - Math.log(x))).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(Math.log(x))));
      expect(Math.abs(log10(x) - Math.log10(x))).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(Math.log10(x))));
      expect(Math.abs(cbrt(x) - Math.cbrt(x))).toBeLessThanOrEqual(1e-14 * Math.cbrt(x));
      const y = (r.next() - 0.5) * 100;
      expect(Math.abs(exp(y) - Math.exp(y))).toBeLessThanOrEqual(1e-14 * Math.exp(y));
    }
    expect(cbrt(-27)).toBeCloseTo(-3, 14);
    expect(cbrt(0)).toBe(0);
  });

  it("are exact at powers of two, and at the edges", () => {
    for (let k = -1074; k <= 1023; k++) {
      expect(log2(2 ** k)).toBe(k);
      expect(exp2(k)).toBe(2 ** k);
    }
    expect(log2(0)).toBe(-Infinity);
    expect(log2(-1)).toBeNaN();
    expect(log2(Infinity)).toBe(Infinity);
    expect(exp2(2000)).toBe(Infinity);
    expect(exp2(-2000)).toBe(0);
    expect(exp2(Number.NaN)).toBeNaN();
    expect(exp2(log2(1.05))).toBeCloseTo(1.05, 14);
  });
});
