// The building blocks: varints, base64url, bounded inflate, histogram packing, timeline codes.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bucketsOf, newHistogram, valueAtPercentile } from "../core/histogram";
import { ByteReader, ByteWriter, ShareFormatError, base64urlDecode, base64urlEncode, zlibDeflate, zlibInflateBounded } from "./bytes";
import { LOSSY_TOLERANCE, buildHistogram, packExact, packLossy, quantiseTimelineValue, readPacked, writePacked } from "./histogram-pack";

describe("varints", () => {
  it("property: unsigned and signed round-trip up to 2^53, and signed small values match plain zigzag", () => {
    const big = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.maxSafeNat(), fc.constantFrom(0, 127, 128, 2 ** 31, 2 ** 32, 2 ** 52, Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(
        fc.array(big),
        fc.array(
          fc.oneof(
            big,
            big.map((x) => -x),
          ),
        ),
        (us, ss) => {
          const w = new ByteWriter();
          for (const u of us) w.varint(u);
          for (const s of ss) w.svarint(s);
          const r = new ByteReader(w.finish(), "test");
          for (const u of us) expect(r.varint()).toBe(u);
          for (const s of ss) expect(r.svarint()).toBe(s === 0 ? 0 : s); // -0 is written as 0
          expect(r.remaining).toBe(0);
        },
      ),
    );
    for (const n of [0, -1, 1, -64, 63, 64, -65, 1e6, -1e6]) {
      const a = new ByteWriter();
      a.svarint(n);
      const b = new ByteWriter();
      b.varint(n >= 0 ? 2 * n : -2 * n - 1);
      expect(a.finish()).toEqual(b.finish());
    }
  });

  it("refuses to write what it cannot and to read past the end", () => {
    expect(() => new ByteWriter().varint(-1)).toThrow(RangeError);
    expect(() => new ByteWriter().varint(2 ** 53)).toThrow(RangeError);
    expect(() => new ByteWriter().varint(1.5)).toThrow(RangeError);
    expect(() => new ByteReader(new Uint8Array([0x80]), "x").varint()).toThrow(ShareFormatError);
    expect(() => new ByteReader(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), "x").varint()).toThrow(/above 2\^53/);
    expect(() => new ByteReader(new Uint8Array(3), "x").float64()).toThrow(/truncated/);
  });
});

describe("base64url and inflate", () => {
  it("property: base64url matches Node's and round-trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => {
        const s = base64urlEncode(bytes);
        expect(s).toBe(Buffer.from(bytes).toString("base64url"));
        expect(base64urlDecode(s)).toEqual(bytes);
      }),
    );
  });

  it("inflate: round trip, cap, truncation, corruption", () => {
    const data = new TextEncoder().encode("hello ".repeat(50_000));
    const z = zlibDeflate(data);
    expect(Buffer.from(zlibInflateBounded(z, data.length)).equals(Buffer.from(data))).toBe(true);
    expect(() => zlibInflateBounded(z, data.length - 1)).toThrow(/more than/);
    expect(() => zlibInflateBounded(z.subarray(0, z.length - 1), 1e7)).toThrow(/cut off/);
    expect(() => zlibInflateBounded(z.subarray(0, 20), 1e7)).toThrow(/cut off/);
    const bad = z.slice();
    bad[bad.length - 2]! ^= 0xff; // Adler-32
    expect(() => zlibInflateBounded(bad, 1e7)).toThrow(/corrupt/);
    const trailing = new Uint8Array(z.length + 1);
    trailing.set(z);
    expect(() => zlibInflateBounded(trailing, 1e7)).toThrow(/trailing bytes/);
  });

  it("inflate: output past the first megabyte, up to the cap and one byte over it", () => {
    const data = new Uint8Array(3_000_001);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
    const z = zlibDeflate(data);
    const out = zlibInflateBounded(z, data.length);
    expect(out.length).toBe(data.length);
    expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true);
    expect(() => zlibInflateBounded(z, data.length - 1)).toThrow(new RegExp(`more than ${data.length - 1} bytes`));
    // The result is the caller's own: a later inflate does not overwrite it.
    const small = zlibInflateBounded(zlibDeflate(data.subarray(0, 100)), 100);
    zlibInflateBounded(zlibDeflate(new Uint8Array(100)), 100);
    expect(Buffer.from(small).equals(Buffer.from(data.subarray(0, 100)))).toBe(true);
  });
});

describe("histogram packing", () => {
  function roundTrip(h: ReturnType<typeof newHistogram>, lossy: boolean) {
    const p = lossy ? packLossy(h) : packExact(h);
    const w = new ByteWriter();
    writePacked(w, p, lossy);
    const r = new ByteReader(w.finish(), "test");
    const back = readPacked(r, p.sig, p.ldv, lossy, "test");
    expect(r.remaining).toBe(0);
    expect(back).toEqual(p);
    return buildHistogram(back);
  }

  it("exact: identical buckets for 1..5 digits and several lowest discernible values", () => {
    for (const sig of [1, 2, 3, 4, 5]) {
      for (const ldv of [1, 1000, 2048]) {
        const h = newHistogram(sig, ldv);
        for (let v = 1; v < 1e10; v = Math.ceil(v * 1.3) + 7) h.recordValueWithCount(v, (v % 97) + 1);
        h.recordValue(0);
        const r = roundTrip(h, false);
        expect(r.numberOfSignificantValueDigits).toBe(sig);
        expect(bucketsOf(r)).toEqual(bucketsOf(h));
      }
    }
  });

  it("lossy: at every rank the rebuilt value is at or above the original and within the tolerance, for originals of any layout", () => {
    for (const sig of [1, 2, 3, 4, 5]) {
      for (const ldv of [1, 1000]) {
        const h = newHistogram(sig, ldv);
        // Dense (every bucket) from 1 to 1e6, then sparse to 1e12: both grouping regimes.
        for (let v = 0; v < 1e6; v++) if (v < 3000 || v % 97 === 0) h.recordValueWithCount(v, 1 + (v % 5));
        for (let v = 1e6; v < 1e12; v *= 1.37) h.recordValueWithCount(Math.round(v), 3);
        const r = roundTrip(h, true);
        const a = bucketsOf(h);
        const b = bucketsOf(r);
        expect(b.totalCount).toBe(a.totalCount);
        // 1- and 2-digit buckets (up to 6 % and 1.6 % wide) are about as coarse as the tolerance:
        // little merges; finer ones merge several buckets into one.
        if (sig > 2) expect(b.values.length).toBeLessThan(a.values.length / 2);
        else expect(b.values.length).toBeLessThanOrEqual(a.values.length);
        // Every original bucket's rank lands in a rebuilt bucket reporting within tolerance.
        let j = 0;
        for (let k = 0; k < a.values.length; k++) {
          while (b.cumulative[j]! < a.cumulative[k]!) j++;
          const o = a.values[k]!;
          const got = b.values[j]!;
          expect(Math.abs(got - o)).toBeLessThanOrEqual(LOSSY_TOLERANCE * o);
          // Never below what was recorded: a rounded link may only read high.
          expect(got).toBeGreaterThanOrEqual(o);
          // and the group ends exactly on an original bucket boundary: counts are never split
          if (b.cumulative[j] === a.cumulative[k]) continue;
          expect(b.cumulative[j]!).toBeGreaterThan(a.cumulative[k]!);
        }
        for (const p of [0, 0.1, 50, 99.999, 100]) {
          const o = valueAtPercentile(h, p);
          expect(Math.abs(valueAtPercentile(r, p) - o)).toBeLessThanOrEqual(0.01 * o);
          if (p > 0) expect(valueAtPercentile(r, p)).toBeGreaterThanOrEqual(o);
        }
      }
    }
  });

  it("lossy grouping is coarse where values are dense: about 70 groups per octave (groups 1 % wide, rounded upward)", () => {
    const h = newHistogram(3);
    for (let v = 1 << 20; v < 1 << 24; v += 1024) h.recordValue(v); // 4 octaves, every 3-digit bucket (≥ 1024 wide)
    const groups = packLossy(h).indices.length;
    expect(groups).toBeGreaterThan(4 * 60);
    expect(groups).toBeLessThan(4 * 75);
  });

  it("refuses counts the link cannot carry exactly", () => {
    const h = newHistogram(3);
    h.recordValueWithCount(5, 2 ** 52);
    h.recordValueWithCount(5000, 2 ** 52);
    expect(() => packExact(h)).toThrow(/2\^53/);
    expect(() => packLossy(h)).toThrow(/2\^53/);
  });
});

describe("timeline values", () => {
  it("property: quantised within 1 %, zero and NaN kept", () => {
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, max: Number.MAX_VALUE, noNaN: true }), (v) => {
        const q = quantiseTimelineValue(v);
        expect(Math.abs(q - v)).toBeLessThanOrEqual(0.01 * v);
      }),
    );
    expect(quantiseTimelineValue(0)).toBe(0);
    expect(quantiseTimelineValue(NaN)).toBeNaN();
  });
});
