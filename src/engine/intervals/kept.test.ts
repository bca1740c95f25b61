// Counts kept from the load (kept.ts) read back exactly, and time windows read from
// them equal the plain path (every interval decoded again) and hdr-histogram-js's merge of each
// window's intervals: on generated logs of both precisions and two lowest values, with counts
// that need 8-byte words, empty intervals, two tags, payloads the kernel declines (so kept from
// the JS reader's counts), logs read in parts and joined, and a budget that keeps only some.
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { build, type Histogram } from "hdr-histogram-js";
import { writeHlog } from "../../../tests/support/hlog-fixture";
import { encodeHistogram } from "../../../tests/support/hlog-encoders";
import { mulberry32 } from "../../../tests/support/queue-sim";
import { Store } from "../store";
import { windowQuery, type WindowSeries } from "../time-queries";
import { ingestHlogInParts, ingestHlogPart } from "../hlog-ingest";
import { encodeCounts, KeptCounts, keptBytesHeld, keptGroup, keptSparse, setKeptBudget, WORKER_KEPT_BUDGET } from "./kept";
import { keptOf } from ".";
import { decodePayload } from "./decode";

afterEach(() => setKeptBudget(0));

describe("kept counts: encoded and read back", () => {
  it("sparse counts round-trip through encodeCounts and keptSparse, up to 2^52 and gaps of 2^31", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 31 - 2 }), fc.oneof(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 2 ** 52 }))), { maxLength: 60 }),
        (pairs) => {
          const byIndex = new Map<number, number>();
          for (const [i, c] of pairs) byIndex.set(i, c);
          const indices = [...byIndex.keys()].sort((a, b) => a - b);
          const counts = indices.map((i) => byIndex.get(i)!);
          setKeptBudget(1 << 20);
          const k = KeptCounts.create(keptGroup())!;
          // A payload the kernel did not decode: the counts are encoded here.
          k.add({
            version: 1 as const,
            numberOfSignificantValueDigits: 3,
            lowestDiscernibleValue: 1,
            highestTrackableValue: 2 ** 62,
            indices: Int32Array.from(indices),
            counts: Float64Array.from(counts),
            totalCount: 0,
          });
          expect(k.length[0]).toBe(encodeCounts(indices, counts));
          const back = keptSparse(k, 0)!;
          expect(Array.from(back.indices)).toEqual(indices);
          expect(Array.from(back.counts)).toEqual(counts);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps nothing without a budget, and stops at the budget", () => {
    expect(keptGroup()).toBeNull();
    setKeptBudget(40 * 1024);
    const k = KeptCounts.create(keptGroup())!;
    const d = {
      version: 2 as const,
      numberOfSignificantValueDigits: 3,
      lowestDiscernibleValue: 1,
      highestTrackableValue: 1e9,
      indices: Int32Array.from({ length: 300 }, (_, i) => i * 2),
      counts: new Float64Array(300).fill(5),
      totalCount: 1500,
    };
    for (let r = 0; r < 200; r++) k.add(d);
    expect(k.held).toBeLessThanOrEqual(40 * 1024);
    expect(k.at[0]).toBeGreaterThanOrEqual(0);
    expect(k.at[199]).toBe(-1);
  });
});

interface Gen {
  intervals: number;
  digits: 2 | 3;
  lowest: 1 | 1000;
  seed: number;
  /** Intervals without values, one in this many (0: none). */
  emptyEvery: number;
  /** Some counts above 2^32 (8-byte words in V0/V1, 5+ byte varints in V2). */
  huge: boolean;
  /** Lines written uncompressed, which the kernel declines (the JS reader decodes them), one in this many (0: none). */
  otherEvery: number;
  tags: boolean;
}

interface Iv {
  tag: string;
  start: number;
  histogram: Histogram;
}

function histogramOf(g: Gen): Histogram {
  return build({ bitBucketSize: 64, numberOfSignificantValueDigits: g.digits, lowestDiscernibleValue: g.lowest, highestTrackableValue: 2 ** 40, autoResize: true });
}

function intervalsOf(g: Gen): Iv[] {
  const rnd = mulberry32(g.seed);
  return Array.from({ length: g.intervals }, (_, i) => {
    const h = histogramOf(g);
    if (g.emptyEvery === 0 || i % g.emptyEvery !== 1) {
      const n = 1 + Math.floor(rnd() * 60);
      for (let k = 0; k < n; k++) {
        const v = rnd() < 0.03 ? 1e6 + rnd() * 1e9 : 1e3 + Math.exp(rnd() * 12);
        const count = g.huge && rnd() < 0.05 ? 2 ** 33 + Math.floor(rnd() * 2 ** 36) : 1 + Math.floor(rnd() * (rnd() < 0.1 ? 5000 : 50));
        h.recordValueWithCount(Math.round(v), count);
      }
    }
    // Two tags take turns in runs of a few intervals; each tag's starts are one second apart.
    const tag = g.tags && Math.floor(i / 3) % 2 === 1 ? "b" : "";
    return { tag, start: i, histogram: h };
  });
}

/** The log, its lines written by the library, some rewritten in another encoding. */
function logOf(g: Gen, ivs: Iv[]): string {
  const lines: string[] = [];
  const head = writeHlog([]).trimEnd().split("\n");
  lines.push(...head);
  ivs.forEach((iv, i) => {
    const text = writeHlog([{ start: iv.start, length: 1, histogram: iv.histogram }], iv.tag ? { tag: iv.tag } : {})
      .trimEnd()
      .split("\n")
      .pop()!;
    if (g.otherEvery > 0 && i % g.otherEvery === 0) {
      const js = iv.histogram as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number; highestTrackableValue: number };
      const counts = Array.from({ length: js.countsArrayLength }, (_, k) => js.getCountAtIndex(k));
      const payload = encodeHistogram({ lowest: g.lowest, highest: js.highestTrackableValue, digits: g.digits, counts }, { version: 2, compressed: false });
      lines.push(text.replace(/[^,]+$/, payload));
    } else lines.push(text);
  });
  return lines.join("\n") + "\n";
}

/** The library's value at a percentile of the merged histogram (at 100: the max bucket's highest equivalent value). */
function libraryValue(h: Histogram, p: number): number {
  // Not highestEquivalentValue(maxValue): after add() with a lowest value above 1, the library's
  // maxValue can lie a bucket above the highest count.
  return h.totalCount === 0 ? 0 : h.getValueAtPercentile(p);
}

const gen = fc.record({
  intervals: fc.integer({ min: 1, max: 300 }),
  digits: fc.constantFrom(2 as const, 3 as const),
  lowest: fc.constantFrom(1 as const, 1000 as const),
  seed: fc.integer({ min: 1, max: 1e9 }),
  emptyEvery: fc.constantFrom(0, 3, 40),
  huge: fc.boolean(),
  otherEvery: fc.constantFrom(0, 1, 7),
  tags: fc.boolean(),
});

async function loadWith(budget: number, text: string, split: number | null): Promise<Store> {
  setKeptBudget(budget);
  const store = new Store();
  if (split === null) await store.load("k.hlog", [text]);
  else {
    // Cut at a line break, as load-files.ts cuts a big log for the helper workers.
    const at = text.indexOf("\n", Math.floor(text.length * split)) + 1;
    const bytes = new TextEncoder().encode(text.slice(at));
    const part = ingestHlogPart("k.hlog", [text.slice(at)], undefined, bytes);
    store.add(await ingestHlogInParts("k.hlog", [text.slice(0, at)], [part]));
  }
  return store;
}

const plain = (w: WindowSeries) => ({ ...w, id: "" });

describe("time windows from kept counts", () => {
  it("equal the plain path and the library's merge of each window's intervals", async () => {
    await fc.assert(
      fc.asyncProperty(
        gen,
        fc.constantFrom(1, 3, 10, 64, 100, 300),
        fc.subarray([1, 25, 50, 90, 99, 99.9, 99.99, 100], { minLength: 1 }),
        fc.constantFrom(null, 0.3, 0.6),
        fc.constantFrom(WORKER_KEPT_BUDGET, 24 * 1024),
        async (g, length, percentiles, split, budget) => {
          const ivs = intervalsOf(g);
          const text = logOf(g, ivs);
          const q = { length, wallClock: false, percentiles };
          const fast = await loadWith(budget, text, split);
          const kept = fast.series.map((s) => keptOf(s.intervals!, g.digits, g.lowest));
          // With room, every row is kept (when the series has any value).
          if (budget === WORKER_KEPT_BUDGET)
            fast.series.forEach((s, n) => expect(s.histogram.totalCount === 0 || (kept[n] !== null && kept[n].at.every((a) => a >= 0))).toBe(true));
          const a = windowQuery(fast.series, q);
          const slow = await loadWith(0, text, split);
          expect(slow.series.map((s) => keptOf(s.intervals!, g.digits, g.lowest))).toEqual(slow.series.map(() => null));
          const b = windowQuery(slow.series, q);
          expect(a.map(plain)).toEqual(b.map(plain));
          fast.series.forEach((s, n) => {
            const w = a[n]!;
            const mine = ivs.filter((iv) => iv.tag === s.tag);
            // The library's merge for 25 windows spread over the run (each one costs a histogram).
            const every = Math.max(1, Math.ceil(w.start.length / 25));
            w.start.forEach((start, k) => {
              if (k % every !== 0) return;
              const h = histogramOf(g);
              for (const iv of mine) if (iv.start >= start && iv.start < start + length) h.add(iv.histogram);
              expect(w.count[k]).toBe(h.totalCount);
              for (const p of percentiles) expect(w.values[String(p)]![k]).toBe(libraryValue(h, p));
            });
          });
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it("every interval is kept, read back as the payload decodes, in a log read whole or in parts", async () => {
    const g: Gen = { intervals: 300, digits: 3, lowest: 1, seed: 5, emptyEvery: 9, huge: true, otherEvery: 4, tags: true };
    const text = logOf(g, intervalsOf(g));
    for (const split of [null, 0.5]) {
      const store = await loadWith(WORKER_KEPT_BUDGET, text, split);
      expect(store.series).toHaveLength(2);
      for (const s of store.series) {
        const t = s.intervals!;
        const k = keptOf(t, 3, 1)!;
        expect(k.n).toBe(t.n);
        for (let i = 0; i < t.n; i++) {
          const d = decodePayload(t.payload(i));
          if (!d.ok) throw new Error(d.reason);
          const want = { indices: Array.from(d.value.indices), counts: Array.from(d.value.counts) };
          const got = keptSparse(k, i)!;
          expect({ indices: Array.from(got.indices), counts: Array.from(got.counts) }).toEqual(want);
          expect(k.last[i]).toBe(want.indices.length > 0 ? want.indices[want.indices.length - 1] : -1);
        }
      }
    }
  });

  it("a removed series lets its bytes go", async () => {
    const g: Gen = { intervals: 200, digits: 2, lowest: 1, seed: 9, emptyEvery: 0, huge: false, otherEvery: 0, tags: false };
    const store = await loadWith(WORKER_KEPT_BUDGET, logOf(g, intervalsOf(g)), null);
    const before = keptBytesHeld();
    expect(before).toBeGreaterThan(0);
    const t = store.series[0]!.intervals!;
    store.remove(store.series[0]!.id);
    expect(keptBytesHeld()).toBeLessThan(before);
    expect(keptOf(t, 2, 1)).toBeNull();
  });
});
