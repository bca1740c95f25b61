import { describe, expect, it } from "vitest";
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { bucketsOf, maxOf, newHistogram, sparseOf, valueAtPercentile, type Histogram } from "./histogram";
import { spectrumOf } from "./spectrum";
import { formatPercentileDistribution } from "./hgrm-export";
import { compactCounts, compactHistogram, compactSpectrum, forEachRead, isCompact, solidHistogram } from "./lazy-histogram";
import { prometheusAnswerReader } from "../formats/prometheus-api";
import { ingestWith } from "../engine/ingest";
import { OPEN_RANGE, Store } from "../engine/store";

/** A whole of a few buckets as the Prometheus reader records it: each count at its bucket's upper bound, in ns. */
function fewBuckets(): Histogram {
  const h = newHistogram();
  [
    [7_812_500, 40],
    [8_519_671, 1200],
    [9_290_819, 51_000],
    [13_139_968, 7],
    [14_328_788, 1],
  ].forEach(([v, c]) => h.recordValueWithCount(v!, c!));
  return h;
}

const PERCENTILES = [0, 1, 50, 90, 99, 99.9, 99.99, 99.999, 100];

describe("a histogram kept as its non-zero counts", () => {
  it("answers every read as the histogram it was made from: percentiles, max, buckets, spectrum, payload, .hgrm", () => {
    const h = fewBuckets();
    // Read from one made from the counts, as after the original is collected.
    const c = compactHistogram(h, 4096, "made");
    expect(isCompact(c)).toBe(true);
    expect(solidHistogram(c)).not.toBe(h);
    expect(c).not.toBe(h);
    for (const p of PERCENTILES) expect(valueAtPercentile(c, p), `p${p}`).toBe(valueAtPercentile(h, p));
    expect(maxOf(c)).toBe(14_335_999);
    expect(maxOf(c)).toBe(maxOf(h));
    expect(c.totalCount).toBe(52_248);
    expect(c.minNonZeroValue).toBe(h.minNonZeroValue);
    expect(c.maxValue).toBe(h.maxValue);
    expect(bucketsOf(c)).toEqual(bucketsOf(h));
    expect(spectrumOf(c)).toEqual(spectrumOf(h));
    expect(encodeIntoCompressedBase64(c)).toBe(encodeIntoCompressedBase64(h));
    expect(formatPercentileDistribution(c, 1e6)).toBe(formatPercentileDistribution(h, 1e6));
    expect(sparseOf(c)).toEqual(sparseOf(h));
    expect(c.mean).toBe(h.mean);
    expect(c.stdDeviation).toBe(h.stdDeviation);
    const cc = (x: Histogram) => (x as unknown as { copyCorrectedForCoordinatedOmission(i: number): Histogram }).copyCorrectedForCoordinatedOmission(2_000_000);
    expect(spectrumOf(cc(c))).toEqual(spectrumOf(cc(h)));
  });

  it("keeps a change: a value recorded into it stays, read after read", () => {
    const h = fewBuckets();
    const c = compactHistogram(fewBuckets(), 4096, "made");
    h.recordValue(50_000_000);
    c.recordValue(50_000_000);
    expect(maxOf(c)).toBe(maxOf(h));
    expect(c.totalCount).toBe(h.totalCount);
    expect(valueAtPercentile(c, 100)).toBeGreaterThanOrEqual(50_000_000);
  });

  it("stays the histogram itself when its counts are not few", () => {
    const h = newHistogram();
    for (let v = 1; v <= 10_000; v++) h.recordValue(v);
    expect(compactHistogram(h, 4096)).toBe(h);
    expect(solidHistogram(h)).toBe(h);
  });

  it("is what a store keeps for a Prometheus series, and the series' views, export and merge are unchanged", async () => {
    const T0 = 1_767_225_600;
    const result = [0, 1, 2].map((s) => ({
      metric: { __name__: "api_seconds", instance: `host-${s}` },
      histograms: [0, 1, 2, 3].map((p) => [
        T0 + 60 * p,
        {
          count: String(30 * p + s),
          sum: "1",
          buckets: [
            [0, String(2 ** (-57 / 8)), String(2 ** (-56 / 8)), String(20 * p)],
            [0, String(2 ** ((-50 + s) / 8)), String(2 ** ((-49 + s) / 8)), String(10 * p + s)],
          ],
        },
      ]),
    }));
    const text = JSON.stringify({ status: "success", data: { resultType: "matrix", result } });
    const load = async () => {
      const r = await ingestWith("api.json", prometheusAnswerReader({ source: "api.json", firstPoint: "whole", step: 60 }), [text]);
      const store = new Store();
      // The reader's own wholes (the histograms it recorded, still held: no collection came since), the reference.
      const wholes = r.series.map((s) => solidHistogram(s.histogram));
      store.add(r);
      return { store, wholes };
    };
    const { store, wholes } = await load();
    expect(wholes.map(isCompact)).toEqual([false, false, false]);
    expect(store.series.map((s) => isCompact(s.histogram))).toEqual([true, true, true]);
    store.series.forEach((s, i) => {
      expect(spectrumOf(s.histogram)).toEqual(spectrumOf(wholes[i]!));
      expect(store.exportHgrm(s.id, OPEN_RANGE, "ms")).toBe(formatPercentileDistribution(wholes[i]!, 1e6));
      expect(encodeIntoCompressedBase64(s.histogram)).toBe(encodeIntoCompressedBase64(wholes[i]!));
    });
    // The max range each says (no max kept) and the percentiles of the merge: as from the reader's own.
    const views = store.views();
    expect(views.map((v) => v.warnings.find((w) => w.kind === "bucketed"))).toEqual(store.series.map((s) => ({ kind: "bucketed", series: s.name, ...s.bucketed })));
    const m = store.merge(store.series.map((s) => s.id));
    const ref = newHistogram();
    for (const w of wholes) ref.add(w);
    for (const p of PERCENTILES) expect(valueAtPercentile(store.get(m).histogram, p), `p${p}`).toBe(valueAtPercentile(ref, p));
  });

  it.each([
    [3, 1, 1],
    [2, 1, 1],
    [3, 1000, 1000],
    [1, 7, 3],
  ])("gives its spectrum from its counts, as spectrumOf the histogram, in every layout, until it changes (%i digits, lowest %i, values ×%i)", (digits, lowest, scale) => {
    const h = newHistogram(digits, lowest, 1e12);
    [
      [9, 1],
      [1234, 40],
      [99_999, 3],
      [5_000_000, 2],
      [7_777_777_777, 1],
    ].forEach(([v, c]) => h.recordValueWithCount(v! * scale, c!));
    const c = compactHistogram(h, 4096, "made");
    expect(isCompact(c)).toBe(true);
    const sp = compactSpectrum(c)!;
    expect(sp, `${digits} digits from ${lowest}`).toEqual(spectrumOf(h));
    expect(sp.max).toBe(maxOf(h));
    // Kept: the same answer, not made again.
    expect(compactSpectrum(c)).toBe(sp);
    // Until its arrays go to another thread (the engine hands a view's to the page): made again, whole.
    structuredClone(sp, { transfer: [sp.values.buffer, sp.cumulative.buffer] });
    const again = compactSpectrum(c)!;
    expect(again === sp).toBe(false);
    expect(again).toEqual(spectrumOf(h));
    expect(c.totalCount).toBe(h.totalCount);
    c.recordValue(9e11);
    h.recordValue(9e11);
    expect(compactSpectrum(c)).toBeNull();
    expect(compactCounts(c)).toBeNull();
    expect(spectrumOf(c)).toEqual(spectrumOf(h));
  });

  it("a histogram not made compact gives no compact spectrum", () => {
    expect(compactSpectrum(newHistogram())).toBeNull();
  });

  it("reads many through one scratch histogram each as itself, counts and fields", () => {
    const hs = [0, 1, 2, 3].map((k) => {
      const h = newHistogram(3, 1, k === 3 ? 1e12 : 1e9);
      h.recordValueWithCount(1000 + 7 * k, 5 + k);
      h.recordValueWithCount(2_000_000 * (k + 1), 1);
      h.startTimeStampMsec = 1000 * k;
      h.endTimeStampMsec = 1000 * k + 500;
      return h;
    });
    const parts = hs.map((h, k) => (k === 2 ? h : compactHistogram(h, 4096, "made")));
    const seen: { sparse: unknown; payload: string; fields: unknown[] }[] = [];
    forEachRead(parts, (h) =>
      seen.push({ sparse: sparseOf(h), payload: encodeIntoCompressedBase64(h), fields: [h.totalCount, h.maxValue, h.minNonZeroValue, h.startTimeStampMsec, h.endTimeStampMsec] }),
    );
    expect(seen).toEqual(
      hs.map((h) => ({
        sparse: sparseOf(h),
        payload: encodeIntoCompressedBase64(h),
        fields: [h.totalCount, h.maxValue, h.minNonZeroValue, h.startTimeStampMsec, h.endTimeStampMsec],
      })),
    );
  });
});
