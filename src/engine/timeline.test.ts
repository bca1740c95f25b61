import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { build, decodeFromCompressedBase64 } from "hdr-histogram-js";
import { simulateQueue, stallsAt } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { countsLengthOf, maxOf, valueAtPercentile } from "../core/histogram";
import { encodeHistogram } from "../../tests/support/hlog-encoders";
import { Store } from "./store";
import { warmWindow } from "./warm-up";
import { inflatedCache as inflatedCacheForTests } from "./intervals";
import { warningText } from "../core/warnings";

const sim = simulateQueue({ rate: 3000, seconds: 40, medianServiceSec: 80e-6, sigma: 0.6, stalls: stallsAt([11.2, 0.2], [29.5, 0.05]), seed: 42 });
const log = writeHlog(sim);

/** Independent reference: the library's own decode of each line. */
function referenceIntervals(text: string) {
  return text
    .split("\n")
    .filter((l) => /^\d/.test(l))
    .map((l) => {
      const f = l.split(",");
      return { start: Number(f[0]), h: decodeFromCompressedBase64(f[3]!, 64) };
    });
}

async function loaded(text = log) {
  const store = new Store();
  await store.load("sim.hlog", [text]);
  return store;
}

/**
 * The same log with V1 payloads (8-byte words, compressed), which the WebAssembly kernel
 * declines: the inflated-bytes cache holds only what the JavaScript reader decodes.
 */
const v1Log = log
  .split("\n")
  .map((l) => {
    if (!/^\d/.test(l)) return l;
    const f = l.split(",");
    const h = decodeFromCompressedBase64(f[3]!, 64);
    const counts = Array.from({ length: countsLengthOf(h) }, (_, i) => (h as unknown as { getCountAtIndex(i: number): number }).getCountAtIndex(i));
    f[3] = encodeHistogram({ lowest: 1, highest: h.highestTrackableValue, digits: h.numberOfSignificantValueDigits, counts }, { version: 1, wordSize: 8, compressed: true });
    return f.join(",");
  })
  .join("\n");

describe("timeline downsampling is honest", () => {
  it("one interval per bucket reports each interval as it is", async () => {
    const store = await loaded();
    const tl = store.timeline({ t0: null, t1: null, columns: 1000, percentiles: [99] });
    const ref = referenceIntervals(log);
    const s = tl.series[0]!;
    expect(s.max.length).toBe(ref.length);
    ref.forEach((r, i) => {
      expect(s.max[i]).toBe(maxOf(r.h));
      expect(s.count[i]).toBe(r.h.totalCount);
    });
  });

  it("several intervals per bucket: max of maxes, percentiles of the merged histogram (not averages)", async () => {
    const store = await loaded();
    const columns = 7;
    const tl = store.timeline({ t0: 0, t1: 40, columns, percentiles: [50, 99, 99.9] });
    const s = tl.series[0]!;
    const ref = referenceIntervals(log);
    let checked = 0;
    let averagesDiffer = 0;
    for (let b = 0; b < s.t0.length; b++) {
      const members = ref.filter((r) => r.start >= s.t0[b]! && r.start < s.t1[b]!);
      expect(members.length).toBeGreaterThan(1);
      const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (const m of members) merged.add(m.h);
      expect(s.max[b]).toBe(Math.max(...members.map((m) => maxOf(m.h))));
      expect(s.count[b]).toBe(members.reduce((a, m) => a + m.h.totalCount, 0));
      for (const p of [50, 99, 99.9]) {
        expect(s.percentiles[String(p)]![b]).toBe(valueAtPercentile(merged, p));
        const avg = members.reduce((a, m) => a + valueAtPercentile(m.h, p), 0) / members.length;
        if (Math.abs(avg - s.percentiles[String(p)]![b]!) > 1) averagesDiffer++;
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(columns - 1);
    // The stall buckets make averaged percentiles visibly wrong: the test would notice averaging.
    expect(averagesDiffer).toBeGreaterThan(0);
    expect(s.count.reduce((a, b) => a + b, 0)).toBe(sim.reduce((a, x) => a + x.histogram.totalCount, 0));
  });
});

describe("series over the same times share their columns' times", () => {
  it("two logs of the same intervals get one array of column starts and one of ends, each series its own values", async () => {
    const store = new Store();
    await store.load("a.hlog", [log]);
    await store.load("b.hlog", [log]);
    const tl = store.timeline({ t0: null, t1: null, columns: 300, percentiles: [99] });
    const [a, b] = tl.series;
    expect(b!.t0).toBe(a!.t0);
    expect(b!.t1).toBe(a!.t1);
    expect(b!.max).not.toBe(a!.max);
    // The times are each column's own: as one log alone draws them.
    const one = (await loaded()).timeline({ t0: null, t1: null, columns: 300, percentiles: [99] }).series[0]!;
    expect([...a!.t0]).toEqual([...one.t0]);
    expect([...a!.t1]).toEqual([...one.t1]);
    expect([...b!.max]).toEqual([...one.max]);
    // Over a window that only one of them reaches, nothing is shared.
    const shifted = new Store();
    await shifted.load("a.hlog", [log]);
    await shifted.load("c.hlog", [log.replace(/^(\d+\.\d+),/gm, (_, t: string) => `${(Number(t) + 0.5).toFixed(3)},`)]);
    const [x, y] = shifted.timeline({ t0: null, t1: null, columns: 300, percentiles: [] }).series;
    expect(y!.t0).not.toBe(x!.t0);
  });
});

describe("intervals inflated once are read again from the store's cache", () => {
  it("queries that reuse them (other columns, the same again, a window) still equal the library's merge", async () => {
    const store = await loaded(v1Log);
    const ref = referenceIntervals(log);
    const first = store.timeline({ t0: 0, t1: 40, columns: 7, percentiles: [50, 99.9] });
    for (const columns of [13, 7, 40]) {
      const s = store.timeline({ t0: 0, t1: 40, columns, percentiles: [50, 99.9] }).series[0]!;
      for (let b = 0; b < s.t0.length; b++) {
        const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
        for (const m of ref.filter((r) => r.start >= s.t0[b]! && r.start < s.t1[b]!)) merged.add(m.h);
        for (const p of [50, 99.9]) expect(s.percentiles[String(p)]![b]).toBe(valueAtPercentile(merged, p));
      }
    }
    expect(store.timeline({ t0: 0, t1: 40, columns: 7, percentiles: [50, 99.9] })).toEqual(first);
    // A window's edges come from the same cache.
    const id = store.series[0]!.id;
    const windowed = store.histogramFor(id, { start: 10, end: 30 });
    const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const m of ref.filter((r) => r.start >= 10 && r.start <= 30)) merged.add(m.h);
    expect(windowed.totalCount).toBe(merged.totalCount);
    for (const p of [50, 99, 99.99]) expect(valueAtPercentile(windowed, p)).toBe(valueAtPercentile(merged, p));
  });

  it("stays within its bound, forgetting the least recently used, with the same answers", async () => {
    // Start empty (other tests' stores leave their intervals in this module-wide cache).
    inflatedCacheForTests.setLimit(0);
    expect(inflatedCacheForTests.held()).toBe(0);
    inflatedCacheForTests.setLimit(32 * 1024 * 1024);
    const store = await loaded(v1Log);
    const ref = referenceIntervals(log);
    const all = store.timeline({ t0: 0, t1: 40, columns: 40, percentiles: [99.9] });
    const whole = inflatedCacheForTests.held();
    expect(whole).toBeGreaterThan(0);
    try {
      inflatedCacheForTests.setLimit(Math.floor(whole / 3));
      expect(inflatedCacheForTests.held()).toBeLessThanOrEqual(whole / 3);
      for (const columns of [40, 9, 40]) {
        const s = store.timeline({ t0: 0, t1: 40, columns, percentiles: [99.9] }).series[0]!;
        expect(inflatedCacheForTests.held()).toBeLessThanOrEqual(whole / 3);
        for (let b = 0; b < s.t0.length; b++) {
          const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
          for (const m of ref.filter((r) => r.start >= s.t0[b]! && r.start < s.t1[b]!)) merged.add(m.h);
          expect(s.percentiles["99.9"]![b]).toBe(valueAtPercentile(merged, 99.9));
        }
      }
      expect(store.timeline({ t0: 0, t1: 40, columns: 40, percentiles: [99.9] })).toEqual(all);
      store.clear();
      expect(inflatedCacheForTests.held()).toBe(0);
    } finally {
      inflatedCacheForTests.setLimit(32 * 1024 * 1024);
    }
  });
});

describe("time-range selection follows HistogramLogProcessor's -start/-end rule", () => {
  it("an interval counts when its start lies within [start, end], edges included", async () => {
    const store = await loaded();
    const id = store.series[0]!.id;
    const counts = sim.map((s) => s.histogram.totalCount);
    const sum = (a: number, b: number) => counts.slice(a, b + 1).reduce((x, y) => x + y, 0);
    // Intervals start at 0, 1, 2 … s exactly.
    expect(store.histogramFor(id, { start: 2, end: 5 }).totalCount).toBe(sum(2, 5));
    expect(store.histogramFor(id, { start: 2.001, end: 4.999 }).totalCount).toBe(sum(3, 4));
    expect(store.histogramFor(id, { start: null, end: 0 }).totalCount).toBe(sum(0, 0));
    expect(store.histogramFor(id, { start: 39, end: null }).totalCount).toBe(sum(39, 39));
    expect(store.histogramFor(id, { start: 50, end: 60 }).totalCount).toBe(0);
  });

  it("the window's spectrum is the merged histogram of exactly those intervals", async () => {
    const store = await loaded();
    const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const s of sim.slice(10, 13)) merged.add(s.histogram);
    const [v] = store.views({ start: 10, end: 12 });
    expect(v!.spectrum.totalCount).toBe(merged.totalCount);
    for (const p of [50, 99, 99.9, 100]) expect(v!.spectrum.percentiles[String(p)]).toBe(valueAtPercentile(merged, p));
    expect(v!.wholeCount).toBe(sim.reduce((a, x) => a + x.histogram.totalCount, 0));
  });
});

describe("saturation warning on loaded logs", () => {
  it("fires on an overloaded run and not on a healthy one with stalls", async () => {
    const store = new Store();
    await store.load("over.hlog", [writeHlog(simulateQueue({ rate: 13000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 1 }))]);
    await store.load("ok.hlog", [log]);
    const named = (n: string) => store.views().find((v) => v.name === n);
    const [over, ok] = [named("over"), named("ok")];
    expect(over!.warnings.map((w) => w.kind)).toEqual(["saturation"]);
    expect(warningText(over!.warnings[0]!)).toMatch(/past its capacity/);
    expect(ok!.warnings).toEqual([]);
  });
});

describe("timeline percentiles on coarser logs (2 digits, lowest discernible value above 1)", () => {
  const HDR = resolve(__dirname, "../../../shared/samples/hdrhistogram");
  const file = resolve(HDR, "jHiccup-2.0.7S.logV2.hlog");
  /**
   * The library's decodes of a column's intervals summed at the log's own precision, as
   * HistogramLogProcessor sums them (a copy of the first, the others added: same layout, so
   * by index).
   */
  function nativeSum(members: { h: ReturnType<typeof decodeFromCompressedBase64> }[]) {
    const first = members[0]!.h as unknown as { numberOfSignificantValueDigits: 1 | 2 | 3 | 4 | 5; lowestDiscernibleValue: number };
    const merged = build({
      bitBucketSize: 64,
      numberOfSignificantValueDigits: first.numberOfSignificantValueDigits,
      lowestDiscernibleValue: first.lowestDiscernibleValue,
      highestTrackableValue: 2 ** 40,
    });
    for (const m of members) merged.add(m.h);
    return merged;
  }
  /** The same intervals added into a Histogram(3): each 2-digit bucket recorded at its lowest value. */
  function threeDigitSum(members: { h: ReturnType<typeof decodeFromCompressedBase64> }[]) {
    const merged = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const m of members) merged.add(m.h);
    return merged;
  }

  async function check(store: Store, text: string, id: string) {
    const ref = referenceIntervals(text);
    const tl = store.timeline({ t0: null, t1: null, columns: 13, percentiles: [50, 90, 99.9, 100] });
    const s = tl.series.find((x) => x.id === id)!;
    // Membership by the table's offsets (bucketing is tested above); the values are the point.
    const offsets = store.get(id).intervals!.offsets;
    expect(ref.length).toBe(store.get(id).intervals!.n);
    let checked = 0;
    let belowWouldShow = 0;
    for (let b = 0; b < s.t0.length; b++) {
      const members = ref.filter((_, i) => offsets[i]! >= s.t0[b]! && offsets[i]! < s.t1[b]!);
      if (members.length === 0) continue;
      const merged = nativeSum(members);
      const three = threeDigitSum(members);
      expect(s.count[b]).toBe(merged.totalCount);
      for (const p of [50, 90, 99.9, 100]) {
        expect(s.percentiles[String(p)]![b]).toBe(valueAtPercentile(merged, p));
        // Never below the 3-digit re-bucketing, and (the point of reading natively) often above it.
        expect(s.percentiles[String(p)]![b]).toBeGreaterThanOrEqual(valueAtPercentile(three, p));
        if (s.percentiles[String(p)]![b]! > valueAtPercentile(three, p)) belowWouldShow++;
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(8);
    expect(belowWouldShow).toBeGreaterThan(checked);
  }

  it.skipIf(!existsSync(file))("each column (block sums) equals the library's decodes of its intervals summed at the log's own precision", async () => {
    const text = readFileSync(file, "latin1");
    const store = new Store();
    await store.load("jHiccup-2.0.7S.logV2.hlog", [text]);
    expect(store.series[0]!.blocks).toBeTruthy();
    await check(store, text, store.series[0]!.id);
  });

  it.skipIf(!existsSync(file))("so does each column of a series without blocks (decoded per column)", async () => {
    const text = readFileSync(file, "latin1");
    const store = new Store();
    await store.load("jHiccup-2.0.7S.logV2.hlog", [text]);
    store.series[0]!.blocks = null;
    await check(store, text, store.series[0]!.id);
  });
});

describe("warmWindow (run by the worker when idle after a load)", () => {
  it("warms a log's window path without changing any answer", async () => {
    expect(warmWindow(new Store())).toBe(false); // nothing loaded
    const store = await loaded();
    const before = JSON.stringify(store.views({ start: 5, end: 20 }));
    const whole = JSON.stringify(store.views());
    expect(warmWindow(store)).toBe(true);
    expect(JSON.stringify(store.views({ start: 5, end: 20 }))).toBe(before);
    expect(JSON.stringify(store.views())).toBe(whole);
  });
});
