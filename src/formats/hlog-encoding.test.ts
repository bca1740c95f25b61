import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { addDecodedInto, decodeHistogramPayload, valueFromIndex, type DecodedHistogram } from "./hlog-encoding";
import { newHistogram } from "../core/histogram";
import { encodeHistogram, encodeHistogramBytes, toBase64, Writer, wrapCompressed, type DenseHistogram } from "../../tests/support/hlog-encoders";
import { budgetMs } from "../../tests/support/budget";

// ---------------------------------------------------------------------------------------------
// Helpers

/** hdr-histogram-js internals used to compare histograms index by index. */
interface Internals {
  countsArrayLength: number;
  getCountAtIndex(i: number): number;
  countsArrayIndex(v: number): number;
  highestEquivalentValue(v: number): number;
  lowestEquivalentValue(v: number): number;
  valueFromIndex(i: number): number;
  highestTrackableValue: number;
}
const internals = (h: Histogram) => h as unknown as Internals;

function hist(digits: number, lowest: number, highest = Math.max(2 * lowest, 2)): Histogram {
  return build({
    bitBucketSize: 64,
    numberOfSignificantValueDigits: digits as 1 | 2 | 3 | 4 | 5,
    lowestDiscernibleValue: lowest,
    highestTrackableValue: highest,
    autoResize: true,
  });
}

function decodeOk(b64: string): DecodedHistogram {
  const r = decodeHistogramPayload(b64);
  if (!r.ok) throw new Error(`expected a decode, got: ${r.reason}`);
  return r.value;
}

function decodeFail(b64: string): string {
  const r = decodeHistogramPayload(b64);
  if (r.ok) throw new Error(`expected a failure for ${b64.slice(0, 40)}…`);
  expect(r.reason.length).toBeGreaterThan(5);
  return r.reason;
}

const PERCENTILES = [0, 0.001, 0.1, 1, 5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 99, 99.5, 99.9, 99.99, 99.999, 100];

/**
 * "No non-zero value yet" is MAX_SAFE_INTEGER in a new hdr-histogram-js histogram but
 * Number.MAX_VALUE after its decode (establishInternalTackingValues); both mean none.
 */
function minNonZero(h: Histogram): number {
  return h.minNonZeroValue >= Number.MAX_SAFE_INTEGER ? Infinity : h.minNonZeroValue;
}

function expectSameHistogram(actual: Histogram, expected: Histogram, values: number[]): void {
  expect(actual.totalCount).toBe(expected.totalCount);
  expect(actual.maxValue).toBe(expected.maxValue);
  expect(minNonZero(actual)).toBe(minNonZero(expected));
  const a = internals(actual);
  const e = internals(expected);
  for (const v of values) expect(a.getCountAtIndex(a.countsArrayIndex(v))).toBe(e.getCountAtIndex(e.countsArrayIndex(v)));
  for (const p of PERCENTILES) expect(actual.getValueAtPercentile(p)).toBe(expected.getValueAtPercentile(p));
}

/** The dense logical counts of a library histogram. */
function dense(h: Histogram, digits: number, lowest: number): DenseHistogram {
  const x = internals(h);
  const counts = new Float64Array(x.countsArrayLength);
  for (let i = 0; i < counts.length; i++) counts[i] = x.getCountAtIndex(i);
  return { lowest, highest: x.highestTrackableValue, digits, counts };
}

function checkInvariants(d: DecodedHistogram): void {
  expect(d.indices.length).toBe(d.counts.length);
  let sum = 0;
  for (let k = 0; k < d.indices.length; k++) {
    if (k > 0) expect(d.indices[k]!).toBeGreaterThan(d.indices[k - 1]!);
    expect(d.counts[k]!).toBeGreaterThan(0);
    sum += d.counts[k]!;
  }
  expect(d.totalCount).toBe(sum);
}

// Random histograms: 1..5 digits, lowest 1 or larger, values up to 1e12, counts up to 1e10.
const entryArb = fc.tuple(
  fc.double({ min: 0, max: 12, noNaN: true }).map((x) => Math.floor(10 ** x)),
  fc.double({ min: 0, max: 10, noNaN: true }).map((x) => Math.max(1, Math.floor(10 ** x))),
);
const histogramArb = fc.record({
  digits: fc.integer({ min: 1, max: 5 }),
  lowest: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 100_000 }), fc.constant(1024)),
  entries: fc.array(entryArb, { minLength: 1, maxLength: 40 }),
  withZero: fc.boolean(),
  bigRange: fc.boolean(),
});
type HistogramSpec = typeof histogramArb extends fc.Arbitrary<infer T> ? T : never;

function buildRandom(spec: HistogramSpec): { h: Histogram; values: number[] } {
  const h = hist(spec.digits, spec.lowest, spec.bigRange ? 4e12 : Math.max(2 * spec.lowest, 2));
  const values: number[] = [];
  for (const [v, c] of spec.entries) {
    h.recordValueWithCount(v, c);
    values.push(v);
  }
  if (spec.withZero) {
    h.recordValueWithCount(0, 3);
    values.push(0);
  }
  return { h, values };
}

// ---------------------------------------------------------------------------------------------

describe("V2 decoding against hdr-histogram-js", () => {
  it("decode + addDecodedInto equals decodeFromCompressedBase64 (same-layout fast path)", () => {
    fc.assert(
      fc.property(histogramArb, (spec) => {
        const { h, values } = buildRandom(spec);
        const b64 = encodeIntoCompressedBase64(h);
        const expected = decodeFromCompressedBase64(b64, 64);
        const d = decodeOk(b64);
        expect(d.version).toBe(2);
        expect(d.numberOfSignificantValueDigits).toBe(spec.digits);
        expect(d.lowestDiscernibleValue).toBe(spec.lowest);
        expect(d.totalCount).toBe(h.totalCount);
        checkInvariants(d);
        const actual = hist(spec.digits, spec.lowest);
        addDecodedInto(actual, d);
        expectSameHistogram(actual, expected, values);
      }),
      { numRuns: 150 },
    );
  });

  it("accumulating several decoded histograms equals one histogram of all their values", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 5000 })),
        fc.array(fc.array(entryArb, { minLength: 1, maxLength: 15 }), { minLength: 1, maxLength: 5 }),
        (digits, lowest, parts) => {
          const target = hist(digits, lowest);
          const all = hist(digits, lowest);
          const values: number[] = [];
          for (const entries of parts) {
            const part = hist(digits, lowest);
            for (const [v, c] of entries) {
              part.recordValueWithCount(v, c);
              all.recordValueWithCount(v, c);
              values.push(v);
            }
            addDecodedInto(target, decodeOk(encodeIntoCompressedBase64(part)));
          }
          const expected = decodeFromCompressedBase64(encodeIntoCompressedBase64(all), 64);
          expectSameHistogram(target, expected, values);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("different layouts go through recorded values, like the library's own add()", () => {
    fc.assert(
      fc.property(histogramArb, fc.integer({ min: 1, max: 4 }), (spec, targetDigits) => {
        const { h } = buildRandom(spec);
        const b64 = encodeIntoCompressedBase64(h);
        const digits = targetDigits === spec.digits ? targetDigits + 1 : targetDigits;
        const actual = hist(digits, 1);
        addDecodedInto(actual, decodeOk(b64));
        // Expected: every non-zero count of the library's decode recorded at the library's
        // valueFromIndex, largest first (as its add() does).
        const ref = internals(decodeFromCompressedBase64(b64, 64));
        const expected = hist(digits, 1);
        const nonZero: number[] = [];
        for (let i = 0; i < ref.countsArrayLength; i++) if (ref.getCountAtIndex(i) > 0) nonZero.push(i);
        for (const i of [nonZero[nonZero.length - 1]!, ...nonZero.slice(0, -1)]) {
          expected.recordValueWithCount(ref.valueFromIndex(i), ref.getCountAtIndex(i));
        }
        expect(actual.totalCount).toBe(expected.totalCount);
        expect(actual.maxValue).toBe(expected.maxValue);
        expect(minNonZero(actual)).toBe(minNonZero(expected));
        for (const p of PERCENTILES) expect(actual.getValueAtPercentile(p)).toBe(expected.getValueAtPercentile(p));
        // The library's own add() agrees on everything but maxValue, which it can overshoot
        // when lowestDiscernibleValue > 1 (it looks up the index of maxValue + unit mask).
        const added = hist(digits, 1);
        added.add(decodeFromCompressedBase64(b64, 64));
        expect(actual.totalCount).toBe(added.totalCount);
        for (const p of PERCENTILES.slice(0, -1)) expect(actual.getValueAtPercentile(p)).toBe(added.getValueAtPercentile(p));
      }),
      { numRuns: 100 },
    );
  });

  it("grows a too-small target even when autoResize is off, and works on 32-bit targets", () => {
    const src = hist(3, 1, 1e12);
    src.recordValueWithCount(123_456_789_012, 5);
    src.recordValueWithCount(17, 2);
    const d = decodeOk(encodeIntoCompressedBase64(src));
    const small = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3, highestTrackableValue: 1000, autoResize: false });
    expect(() => addDecodedInto(small, d)).not.toThrow();
    expect(small.totalCount).toBe(7);
    expect(small.maxValue).toBe(internals(small).highestEquivalentValue(123_456_789_012));
    expect(small.autoResize).toBe(false);
    const int32 = build({ bitBucketSize: 32, numberOfSignificantValueDigits: 3, highestTrackableValue: 1000, autoResize: false });
    addDecodedInto(int32, d);
    expect(int32.totalCount).toBe(7);
    expect(int32.getValueAtPercentile(100)).toBe(small.getValueAtPercentile(100));
    expect(int32.autoResize).toBe(false);
  });

  it("my V2 encoder (compressed and not) decodes to the same as the library's encoding", () => {
    fc.assert(
      fc.property(histogramArb, fc.boolean(), fc.integer({ min: -5, max: 5 }), (spec, compressed, offset) => {
        const { h } = buildRandom(spec);
        const fromLibrary = decodeOk(encodeIntoCompressedBase64(h));
        const mine = decodeOk(encodeHistogram(dense(h, spec.digits, spec.lowest), { version: 2, compressed, normalizingIndexOffset: offset }));
        expect(mine).toEqual(fromLibrary);
      }),
      { numRuns: 100 },
    );
  });
});

describe("V0 and V1 decoding agree with the V2 path", () => {
  const wordSizes = [2, 4, 8] as const;
  it("on random histograms, for every word size that holds the counts, compressed or not", () => {
    fc.assert(
      fc.property(histogramArb, fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.boolean(), (spec, small, offset, compressFirst) => {
        // Half the runs use small counts so that 2- and 4-byte words are exercised. Values stay
        // below 1e10 here: dense 5-digit arrays up to 1e12 make a dozen encodings per run slow.
        const entries = spec.entries.map(([v, c]) => [v % 1e10, small ? 1 + (c % 30000) : c] as [number, number]);
        const s = { ...spec, entries, bigRange: false };
        const { h } = buildRandom(s);
        const v2 = decodeOk(encodeIntoCompressedBase64(h));
        const d = dense(h, s.digits, s.lowest);
        let maxCount = 0;
        for (let i = 0; i < d.counts.length; i++) maxCount = Math.max(maxCount, d.counts[i]!);
        for (const version of [0, 1] as const) {
          for (const wordSize of wordSizes) {
            if (maxCount > (wordSize === 2 ? 32767 : wordSize === 4 ? 2147483647 : Number.MAX_SAFE_INTEGER)) continue;
            // Compressed for one word size, uncompressed for the next: both forms in every run.
            for (const compressed of [compressFirst !== (wordSize === 4)]) {
              const b64 = encodeHistogram(d, { version, wordSize, compressed, normalizingIndexOffset: offset });
              // Same parameters, indices, counts and total: whatever is built from it is the same.
              expect(decodeOk(b64)).toEqual({ ...v2, version });
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it("reads the V0 header layout: 32 bytes, no payload length, a discarded total count", () => {
    const counts = new Float64Array(3 * 1024);
    counts[5] = 7;
    counts[2000] = 3;
    const b = encodeHistogramBytes({ lowest: 1, highest: 3000, digits: 3, counts }, { version: 0, wordSize: 4 });
    // Corrupt the header's totalCount: Java discards it, so must we.
    new DataView(b.buffer).setBigInt64(24, 999n);
    const d = decodeOk(toBase64(b));
    expect(d.version).toBe(0);
    expect(Array.from(d.indices)).toEqual([5, 2000]);
    expect(Array.from(d.counts)).toEqual([7, 3]);
    expect(d.totalCount).toBe(10);
    expect(d.highestTrackableValue).toBe(3000);
    // Word size from cookie bits 4-7: 0x1c849348 is V0 with 4-byte words.
    expect(new DataView(b.buffer).getUint32(0)).toBe(0x1c849348);
  });

  it("ignores bytes after a V0 payload's counts array and tolerates a short V0 payload", () => {
    const counts = new Float64Array(2 * 1024);
    counts[1] = 1;
    const b = encodeHistogramBytes({ lowest: 1, highest: 2047, digits: 3, counts }, { version: 0, wordSize: 8 });
    const extended = new Uint8Array(b.length + 9 * 8 * 1024);
    extended.set(b);
    extended.fill(0x7f, b.length + 1024 * 8); // beyond the counts array of this range
    expect(Array.from(decodeOk(toBase64(wrapCompressed(0x1c849389, extended))).indices)).toEqual([1]);
    expect(Array.from(decodeOk(toBase64(b.subarray(0, 32 + 16))).indices)).toEqual([1]);
  });
});

describe("valueFromIndex", () => {
  it("matches hdr-histogram-js for random parameters and indices", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 1e9 }), fc.double({ min: 0, max: 1, noNaN: true }), (digits, lowest, at) => {
        // Indices up to those of values near 2^53.
        const h = internals(build({ numberOfSignificantValueDigits: digits as 1, lowestDiscernibleValue: lowest, highestTrackableValue: 2 ** 53 }));
        const index = Math.min(Math.floor(at * h.countsArrayLength), h.countsArrayLength - 1);
        expect(valueFromIndex(index, lowest, digits)).toBe(h.valueFromIndex(index));
      }),
      { numRuns: 300 },
    );
  });
  it("is NaN for impossible parameters", () => {
    expect(valueFromIndex(3, 0, 3)).toBeNaN();
    expect(valueFromIndex(3, 1, 6)).toBeNaN();
    expect(valueFromIndex(-1, 1, 3)).toBeNaN();
  });
});

// ---------------------------------------------------------------------------------------------
// Real logs written by jHiccup (HdrHistogram Java), read in place.

const SAMPLES = path.resolve(__dirname, "../../../shared/samples/hdrhistogram");

interface LogLine {
  tag: string | null;
  maxColumn: number;
  payload: string;
}

function readLog(file: string): LogLine[] {
  const out: LogLine[] = [];
  for (const raw of readFileSync(path.join(SAMPLES, file), "utf8").split("\n")) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith('"')) continue;
    let tag: string | null = null;
    const m = /^Tag=([^,]*),/.exec(line);
    if (m) {
      tag = m[1]!;
      line = line.slice(m[0].length);
    }
    const fields = line.split(",");
    out.push({ tag, maxColumn: Number(fields[2]), payload: fields[3]! });
  }
  return out;
}

/**
 * Java's HistogramLogReaderWriterTest: every interval added into a `new Histogram(3)`, here
 * explicitly. A test of the reader (every count decoded, at the right index): its published
 * values are those of that 3-digit sum. The page reads these 2-digit logs at their own
 * precision instead, as HistogramLogProcessor does (engine/store.test.ts has those values).
 */
function merged(lines: LogLine[]): Histogram {
  const acc = newHistogram(3);
  for (const l of lines) addDecodedInto(acc, decodeOk(l.payload));
  return acc;
}

describe.skipIf(!existsSync(SAMPLES))("sample logs", () => {
  const logs = [
    { file: "jHiccup-2.0.1.logV0.hlog", version: 0, intervals: 81, total: 61256, p999: 1510998015, max: 1569718271 },
    { file: "jHiccup-2.0.6.logV1.hlog", version: 1, intervals: 88, total: 65964, p999: 1829765119, max: 1888485375 },
    { file: "jHiccup-2.0.7S.logV2.hlog", version: 2, intervals: 62, total: 48761, p999: 1745879039, max: 1796210687 },
  ] as const;

  for (const log of logs) {
    it(`${log.file}: every payload decodes, totals and merged percentiles match HdrHistogram Java`, () => {
      const lines = readLog(log.file);
      expect(lines.length).toBe(log.intervals);
      let total = 0;
      for (const l of lines) {
        const d = decodeOk(l.payload);
        expect(d.version).toBe(log.version);
        checkInvariants(d);
        total += d.totalCount;
      }
      expect(total).toBe(log.total);
      const acc = merged(lines);
      expect(acc.totalCount).toBe(log.total);
      expect(acc.getValueAtPercentile(99.9)).toBe(log.p999);
      expect(internals(acc).highestEquivalentValue(acc.maxValue)).toBe(log.max);
    });

    it(`${log.file}: each interval's top value agrees with its Interval_Max column`, () => {
      for (const l of readLog(log.file)) {
        const d = decodeOk(l.payload);
        const top = d.indices[d.indices.length - 1]!;
        const lowest = valueFromIndex(top, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits);
        const highest = valueFromIndex(top + 1, d.lowestDiscernibleValue, d.numberOfSignificantValueDigits) - 1;
        const column = l.maxColumn * 1e6; // ms -> ns, rounded to 3 decimals (±500 ns)
        expect(column).toBeGreaterThanOrEqual(lowest - 500);
        expect(column).toBeLessThanOrEqual(highest + 500);
      }
    });
  }

  it("V0 headers' discarded totalCount equals the decoded total anyway", async () => {
    const { inflateSync } = await import("node:zlib");
    for (const l of readLog("jHiccup-2.0.1.logV0.hlog")) {
      const b = Buffer.from(l.payload, "base64");
      const inner = inflateSync(b.subarray(8, 8 + b.readInt32BE(4)));
      expect(inner.readUInt32BE(0)).toBe(0x1c849388); // V0, 8-byte words
      expect(decodeOk(l.payload).totalCount).toBe(Number(inner.readBigInt64BE(24)));
    }
  });

  it("merging into a same-layout histogram (fast path) agrees with the library's own V2 decode", () => {
    const lines = readLog("jHiccup-2.0.7S.logV2.hlog");
    const d0 = decodeOk(lines[0]!.payload);
    const fast = hist(d0.numberOfSignificantValueDigits, d0.lowestDiscernibleValue, d0.highestTrackableValue);
    const lib = hist(d0.numberOfSignificantValueDigits, d0.lowestDiscernibleValue, d0.highestTrackableValue);
    for (const l of lines) {
      addDecodedInto(fast, decodeOk(l.payload));
      lib.add(decodeFromCompressedBase64(l.payload, 64));
    }
    expect(fast.totalCount).toBe(48761);
    for (const p of PERCENTILES) expect(fast.getValueAtPercentile(p)).toBe(lib.getValueAtPercentile(p));
  });

  it("tagged and odd V2 logs decode; tagged copies equal their untagged twins", () => {
    const tagged = readLog("tagged-Log.logV2.hlog");
    const untagged = tagged.filter((l) => l.tag === null);
    const a = tagged.filter((l) => l.tag === "A");
    expect(a.length).toBe(untagged.length);
    for (let i = 0; i < a.length; i++) expect(decodeOk(a[i]!.payload)).toEqual(decodeOk(untagged[i]!.payload));
    for (const f of ["bug-whitespace.hlog", "jHiccup-no-header-2.0.7S.logV2.hlog", "jHiccup-with-basetime-2.0.7S.logV2.hlog"]) {
      if (!existsSync(path.join(SAMPLES, f))) continue;
      for (const l of readLog(f)) checkInvariants(decodeOk(l.payload + " "));
    }
  });

  it("corrupted payloads fail with a reason and never throw", () => {
    const payloads = ["jHiccup-2.0.1.logV0.hlog", "jHiccup-2.0.6.logV1.hlog", "jHiccup-2.0.7S.logV2.hlog"].flatMap((f) =>
      readLog(f)
        .slice(0, 4)
        .map((l) => l.payload),
    );
    let flips = 0;
    let failures = 0;
    for (const p of payloads) {
      const bytes = new Uint8Array(Buffer.from(p, "base64"));
      const original = decodeOk(p);
      // Every byte flipped. A flip must fail, or leave a stream that inflates to the very same
      // bytes (zlib cannot tell: padding bits after the last block, a distance that copies
      // zeros from elsewhere in a run of zeros, the cookie's word-size nibble that
      // HdrHistogram ignores in the compressed envelope). Never different counts.
      for (let i = 0; i < bytes.length; i++) {
        for (const mask of [0x01, 0x80, 0xff]) {
          const c = bytes.slice();
          c[i]! ^= mask;
          const r = decodeHistogramPayload(toBase64(c));
          flips++;
          if (r.ok) expect(r.value).toEqual(original);
          else failures++;
        }
      }
      const unpadded = p.replace(/=+$/, "");
      for (let n = 0; n < unpadded.length; n += 1) decodeFail(unpadded.slice(0, n));
    }
    expect(failures / flips).toBeGreaterThan(0.9);
    // A flip inside the deflate data of a V2 payload, and one in its checksum.
    const v2 = new Uint8Array(Buffer.from(readLog("jHiccup-2.0.7S.logV2.hlog")[0]!.payload, "base64"));
    const mid = v2.slice();
    mid[20]! ^= 0x10;
    expect(decodeFail(toBase64(mid))).toMatch(/corrupt/);
    const sum = v2.slice();
    sum[sum.length - 1]! ^= 0x01;
    expect(decodeFail(toBase64(sum))).toMatch(/corrupt/);
  });
});

// ---------------------------------------------------------------------------------------------

describe("bad and hostile input", () => {
  it("gives clear reasons", () => {
    expect(decodeFail("")).toMatch(/empty/);
    expect(decodeFail("not base64 at all!")).toMatch(/base64/);
    expect(decodeFail("AAAAAAAA")).toMatch(/unknown encoding cookie 0x00000000/);
    expect(decodeFail("HIST")).toMatch(/too short|truncated/);
    expect(decodeFail("HISTFAAAAEV42pNpmSzMwMCgyAABTBDKT4GBgdnNYMcCBvsPEBEJ")).toMatch(/truncated/);
  });

  it("refuses a DoubleHistogram that is cut short, plain or inside an envelope", () => {
    expect(decodeFail("DHISTwAAAAMAAAAAAAAABBxJHgk=")).toMatch(/not a compressed histogram/);
    const w = new Writer();
    w.i32(0x0c72124e);
    w.i32(3);
    w.i64(1000);
    expect(decodeFail(toBase64(wrapCompressed(0x1c849314, w.result())))).toMatch(/truncated/);
    expect(decodeFail(toBase64(w.result()))).toMatch(/truncated/);
  });

  function v1Header(payloadLength: number, digits = 3, lowest = 1, highest = 1e6, cookie = 0x1c849381): Writer {
    const w = new Writer();
    w.i32(cookie);
    w.i32(payloadLength);
    w.i32(0);
    w.i32(digits);
    w.i64(lowest);
    w.i64(highest);
    w.f64(1);
    return w;
  }

  it("takes the word size from cookie bits 4-7 masked with 0xe, as Java does", () => {
    for (const cookie of [0x1c849381, 0x1c849391]) {
      const w = v1Header(16, 3, 1, 1e6, cookie);
      w.i64(0);
      w.i64(6);
      const d = decodeOk(toBase64(w.result()));
      expect(Array.from(d.indices)).toEqual([1]);
      expect(Array.from(d.counts)).toEqual([6]);
    }
  });

  it("rejects impossible headers", () => {
    expect(decodeFail(toBase64(v1Header(0, 6).result()))).toMatch(/significant digits/);
    expect(decodeFail(toBase64(v1Header(0, 3, 0).result()))).toMatch(/lowest discernible/);
    expect(decodeFail(toBase64(v1Header(0, 3, 100, 150).result()))).toMatch(/highest trackable/);
    expect(decodeFail(toBase64(v1Header(-8).result()))).toMatch(/negative/);
    expect(decodeFail(toBase64(v1Header(0, 3, 1, 1e6, 0x1c849361).result()))).toMatch(/6-byte counts/);
    expect(decodeFail(toBase64(v1Header(12, 3, 1, 1e6, 0x1c849381).result()))).toMatch(/whole number/);
    expect(decodeFail(toBase64(v1Header(80).result()))).toMatch(/truncated/);
  });

  it("rejects negative counts and counts beyond the declared range", () => {
    const w = v1Header(16, 3, 1, 1e6, 0x1c849341);
    w.i32(5);
    w.i32(-2);
    w.i32(0);
    w.i32(1);
    expect(decodeFail(toBase64(w.result()))).toMatch(/negative count/);
    const w2 = v1Header(4, 3, 1, 1e6, 0x1c849321); // 2-byte words: 1, then 0xffff (-1)
    w2.i16(1);
    w2.i16(-1);
    expect(decodeFail(toBase64(w2.result()))).toMatch(/negative count/);
    const w0 = new Writer(); // V0, 8-byte words: 0, then -5
    w0.i32(0x1c849388);
    w0.i32(3);
    w0.i64(1);
    w0.i64(1e6);
    w0.i64(0);
    w0.i64(0);
    w0.i64(-5);
    expect(decodeFail(toBase64(w0.result()))).toMatch(/negative count/);
    const big = v1Header(8, 3, 1, 1e6, 0x1c849381);
    big.i64(2n ** 53n);
    expect(decodeFail(toBase64(big.result()))).toMatch(/above 2\^53/);
    // V2: a nine-byte LEB128 count (2^60).
    const nine = new Uint8Array([...v1Header(9, 3, 1, 1e6, 0x1c849313).result(), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
    expect(decodeFail(toBase64(nine))).toMatch(/above 2\^53/);
    // V2 with a zero run that walks past the counts array, then a count.
    const v = v1Header(0, 2, 1, 1000, 0x1c849313);
    const body = new Writer();
    body.u8(0x02); // count 1 at index 0
    // zigzag(-100000) = 199999 -> LEB128 bf 9a 0c
    body.u8(0xbf);
    body.u8(0x9a);
    body.u8(0x0c);
    body.u8(0x02); // count 1 at index 100001
    const bytes = new Uint8Array([...v.result(), ...body.result()]);
    new DataView(bytes.buffer).setInt32(4, body.length);
    expect(decodeFail(toBase64(bytes))).toMatch(/beyond the value range/);
    // Truncated LEB128.
    const t = new Uint8Array([...v.result(), 0x02, 0x80]);
    new DataView(t.buffer).setInt32(4, 2);
    expect(decodeFail(toBase64(t))).toMatch(/truncated/);
  });

  it("never allocates what a header or length field merely claims", () => {
    // Declared compressed length of 2 GB with a few bytes present.
    const w = new Writer();
    w.i32(0x1c849314);
    w.i32(0x7fffffff);
    w.bytes(new Uint8Array([0x78, 0x9c, 1, 2, 3]));
    expect(decodeFail(toBase64(w.result()))).toMatch(/truncated/);
    // A header declaring a payload far larger than its range could need.
    expect(decodeFail(toBase64(wrapCompressed(0x1c849314, v1Header(1 << 30, 3, 1, 1e6, 0x1c849313).result())))).toMatch(/more than its value range/);
    // A zip bomb: a small V1 histogram followed by 100 MB of zeros; only what the header needs is inflated.
    const head = v1Header(8, 3, 1, 1e6, 0x1c849381);
    head.i64(4);
    const bomb = new Uint8Array(100 * 1024 * 1024);
    bomb.set(head.result());
    const b64 = toBase64(wrapCompressed(0x1c849382, bomb));
    const t0 = performance.now();
    const d = decodeOk(b64);
    expect(performance.now() - t0).toBeLessThan(budgetMs(1000));
    expect(Array.from(d.indices)).toEqual([0]);
  });

  it("never throws on random strings, random bytes, or mutated real payloads", () => {
    const seeds = [
      encodeHistogram({ lowest: 1, highest: 1e6, digits: 2, counts: [0, 3, 0, 0, 9, 1] }, { version: 1, wordSize: 2 }),
      encodeHistogram({ lowest: 1, highest: 1e6, digits: 2, counts: [0, 3, 0, 0, 9, 1] }, { version: 0, wordSize: 8 }),
      encodeHistogram({ lowest: 1, highest: 1e6, digits: 2, counts: [0, 3, 0, 0, 9, 1] }, { version: 2 }),
      encodeHistogram({ lowest: 1, highest: 1e6, digits: 2, counts: [0, 3, 0, 0, 9, 1] }, { version: 2, compressed: true }),
    ].map((s) => new Uint8Array(Buffer.from(s, "base64")));
    const check = (s: string) => {
      const r = decodeHistogramPayload(s);
      if (r.ok) checkInvariants(r.value);
      else expect(typeof r.reason).toBe("string");
    };
    fc.assert(fc.property(fc.string(), check), { numRuns: 300 });
    fc.assert(fc.property(fc.base64String(), check), { numRuns: 300 });
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat(), (seed, edits, cut) => {
        const b = seed.slice(0, Math.max(4, seed.length - (cut % 4)));
        for (const [at, v] of edits) b[at % b.length] = v;
        check(toBase64(b));
      }),
      { numRuns: 500 },
    );
  });
});

describe("speed", () => {
  // Speed is measured by `npm run bench`; this keeps the long run's sum exact.
  it.skipIf(!existsSync(SAMPLES))("decodes and merges 86,400 real V2 intervals into their exact total", () => {
    const payloads = readLog("jHiccup-2.0.7S.logV2.hlog").map((l) => l.payload);
    const acc = hist(2, 20000, 3.6e12);
    let expected = 0;
    for (let i = 0; i < 86_400; i++) {
      const r = decodeHistogramPayload(payloads[i % payloads.length]!);
      if (r.ok) {
        addDecodedInto(acc, r.value);
        expected += r.value.totalCount;
      }
    }
    expect(acc.totalCount).toBe(expected);
  });
});
