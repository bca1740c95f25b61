// A Prometheus range read into sparse counts answers every query exactly as the same steps kept
// as payloads do (the way a log's intervals are kept), the reference built here from the known
// increases with the old recording rule (each bucket's count at its upper bound).
import { describe, expect, it } from "vitest";
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { maxOf, newHistogram, sparseOf, valueAtPercentile, type Histogram } from "../../core/histogram";
import { indexAtValue } from "../../core/counts-layout";
import { IntervalTable, type SeriesModel } from "../../core/series";
import { MAX_LATENCY_NS } from "../../formats/support/decimals";
import { recordIncrease, type FloatBucket } from "../../formats/support/snapshots";
import { prometheusAnswerReader } from "../../formats/prometheus-api";
import { ingestWith } from "../ingest";
import { makeSeries } from "../series-make";
import { Store, OPEN_RANGE, type TimeRange } from "../store";
import { heatmapQuery } from "../heatmap-query";
import { windowQuery } from "../window-values";
import { tailQuery } from "../time-queries";
import { compareQuery } from "../compare-query";
import { SparseIntervalTable } from "./sparse-rows";
import { decodePayload } from "./decode";
import { addDecodedInto } from "../../formats/hlog-encoding";

const STEP = 10;
const T0 = 1_767_225_600;
const STEPS = 200;

/** Schema-3 bucket bounds around a few ms, the zero bucket first. */
const BOUNDS: [number, number][] = [[-0.001, 0.001], ...Array.from({ length: 12 }, (_, k): [number, number] => [2 ** ((k - 80) / 8), 2 ** ((k - 79) / 8)])];

interface Fleet {
  text: string;
  /** Per series, per step: each bucket's increase (the reference's steps). */
  increases: number[][][];
}

/** An answer of cumulative native histograms; series 1 restarts at step 120 (a counter reset), series 2 has a quiet stretch. */
function fleet(series: number): Fleet {
  let seed = 17;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const increases: number[][][] = [];
  const result = Array.from({ length: series }, (_, s) => {
    const cum = new Array<number>(BOUNDS.length).fill(0);
    const incs: number[][] = [];
    const points = [];
    for (let p = 0; p <= STEPS; p++) {
      const inc = BOUNDS.map((_, k) => (s === 2 && p > 50 && p < 90 ? 0 : rnd() < 0.5 ? 0 : Math.floor(rnd() * (k === 0 ? 3 : 40) * (k > 9 && rnd() < 0.9 ? 0 : 1))));
      if (s === 1 && p === 120) cum.fill(0);
      inc.forEach((c, k) => (cum[k]! += c));
      // The first point counts in full; after the reset, the point in full (what it holds).
      incs.push(s === 1 && p === 120 ? cum.slice() : inc);
      points.push([
        T0 + p * STEP,
        {
          count: String(cum.reduce((a, b) => a + b, 0)),
          sum: "1",
          buckets: BOUNDS.map(([lo, hi], k) => [k === 0 ? 3 : 0, String(lo), String(hi), String(cum[k])]).filter((b) => b[3] !== "0"),
        },
      ]);
    }
    increases.push(incs);
    return { metric: { __name__: "api_request_duration_seconds", instance: `host-${s}` }, histograms: points };
  });
  return { text: JSON.stringify({ status: "success", data: { resultType: "matrix", result } }), increases };
}

/** The reference: each step's histogram recorded as the reader used to, kept as a payload like a log's interval. */
function referenceSeries(f: Fleet, from: SeriesModel[]): SeriesModel[] {
  return f.increases.map((incs, s) => {
    const got = from[s]!;
    const buckets = (inc: number[]): FloatBucket[] => inc.map((c, k) => ({ lower: Math.max(0, BOUNDS[k]![0]), upper: BOUNDS[k]![1], count: c }));
    let top = 0;
    for (const inc of incs) inc.forEach((c, k) => c > 0 && (top = Math.max(top, BOUNDS[k]![1] * 1e9)));
    const highest = Math.min(MAX_LATENCY_NS, Math.max(2, Math.ceil(top * 2)));
    const table = new IntervalTable();
    const total = newHistogram();
    incs.forEach((inc, p) => {
      const h: Histogram = recordIncrease({ buckets: buckets(inc), min: null, max: null }, 1e9, MAX_LATENCY_NS, newHistogram(3, 1, highest)).histogram;
      recordIncrease({ buckets: buckets(inc), min: null, max: null }, 1e9, MAX_LATENCY_NS, total);
      table.push(p * STEP, STEP, maxOf(h), h.totalCount, 0, encodeIntoCompressedBase64(h), valueAtPercentile(h, 50));
    });
    return makeSeries({ ...got, name: got.name, histogram: total, intervals: table, startTime: T0 - STEP, blocks: undefined, tagIsLabel: true });
  });
}

async function stores(n: number): Promise<{ sparse: Store; ref: Store; f: Fleet }> {
  const f = fleet(n);
  const reader = prometheusAnswerReader({ source: "fleet.json", firstPoint: "whole", step: STEP });
  const r = await ingestWith("fleet.json", reader, [f.text]);
  expect(r.problems.filter((p) => !p.note)).toEqual([]);
  const sparse = new Store();
  sparse.add(r);
  const ref = new Store();
  ref.add({ series: referenceSeries(f, r.series), problems: [], lines: 0 });
  return { sparse, ref, f };
}

const noIds = <T>(x: T): T => JSON.parse(JSON.stringify(x, (k, v: unknown) => (k === "id" || k === "baseIds" || k === "candIds" || k === "elapsedMs" ? undefined : v))) as T;

/**
 * `summed`: `a`'s series hold one row per step where `b`'s hold one per part and step (a fleet
 * merged at the same times): every answer over time is the same, but its intervals are the
 * steps (their count, the tail's intervals, the table's rows are compared apart).
 */
/** Every series of the store merged into one, "fleet"; its id. */
function mergeAll(s: Store): string {
  return s.merge(
    s.series.map((x) => x.id),
    "fleet",
  );
}

function expectSameQueries(a: Store, b: Store, ids: (s: Store) => string[], summed = false): void {
  const ia = ids(a);
  const ib = ids(b);
  const views = (s: Store, range: TimeRange, i: string[]) => noIds(s.views(range).filter((v) => i.includes(v.id))).map((v) => (summed ? { ...v, intervalCount: 0 } : v));
  expect(views(a, OPEN_RANGE, ia)).toEqual(views(b, OPEN_RANGE, ib));
  for (const range of [OPEN_RANGE, { start: 95, end: 1234 }, { start: 600, end: 600 }, { start: 1900, end: null }]) {
    ia.forEach((id, k) => {
      expect(a.exportHgrm(id, range, "ms")).toBe(b.exportHgrm(ib[k]!, range, "ms"));
      expect(a.histogramFor(id, range).totalCount).toBe(b.histogramFor(ib[k]!, range).totalCount);
    });
    expect(views(a, range, ia)).toEqual(views(b, range, ib));
  }
  for (const q of [
    { t0: null, t1: null, columns: 37, percentiles: [50, 99, 99.9, 100] },
    { t0: 300, t1: 900, columns: 1000, percentiles: [50, 90, 100] },
  ])
    expect(noIds(a.timeline(q).series.filter((s) => ia.includes(s.id)))).toEqual(noIds(b.timeline(q).series.filter((s) => ib.includes(s.id))));
  const pick = (s: Store, i: string[]) => s.series.filter((x) => i.includes(x.id));
  for (const q of [
    { length: 60, wallClock: false, percentiles: [50, 99, 100] },
    { length: 25, wallClock: true, percentiles: [90, 100] },
  ])
    expect(noIds(windowQuery(pick(a, ia), q))).toEqual(noIds(windowQuery(pick(b, ib), q)));
  for (const q of [
    { ids: ia, t0: null, t1: null, columns: 50, rows: 40 },
    { ids: ia, t0: 100, t1: 700, columns: 400, rows: 64 },
  ])
    expect(noIds(heatmapQuery(a.series, q))).toEqual(noIds(heatmapQuery(b.series, { ...q, ids: ib })));
  if (summed) return;
  expect(noIds(tailQuery(pick(a, ia), { thresholdNs: 2e5, keep: 5, maxMarks: 20 }))).toEqual(noIds(tailQuery(pick(b, ib), { thresholdNs: 2e5, keep: 5, maxMarks: 20 })));
  ia.forEach((id, k) => {
    const ta = a.get(id).intervals!;
    const tb = b.get(ib[k]!).intervals!;
    expect(tb.n).toBe(ta.n);
    for (const col of ["offsets", "lengths", "maxes", "counts", "p50", "maxColumn"] as const)
      expect(Array.from(tb[col].subarray(0, tb.n))).toEqual(Array.from(ta[col].subarray(0, ta.n)));
    // A payload made on demand is the one the reference kept.
    for (const i of [0, 1, 57, 119, 120, ta.n - 1]) expect(tb.payload(i)).toBe(ta.payload(i));
  });
}

/** `h`'s counts in a histogram of the layout a payload declares (what the payload of a row of that layout encodes). */
function copyInto(h: Histogram, payload: string): Histogram {
  const d = decodePayload(payload);
  if (!d.ok) throw new Error(d.reason);
  const out = newHistogram(d.value.numberOfSignificantValueDigits, d.value.lowestDiscernibleValue, d.value.highestTrackableValue);
  addDecodedInto(out, { version: 2, ...sparseOf(h) });
  return out;
}

describe("a Prometheus range kept as sparse counts", () => {
  it("reads a reader's rows kept narrow already (16-bit indices from a base, 8-bit counts) as the same rows kept wide", () => {
    const rows = { n: 2, starts: Float64Array.from([0, 10]), lengths: Float64Array.from([10, 10]), rowStart: Int32Array.from([0, 2, 3]), digits: 3, lowest: 1, highest: 1e9 };
    const wide = SparseIntervalTable.of({ ...rows, indices: Int32Array.from([20_000, 20_017, 21_500]), counts: Float64Array.from([3, 250, 7]) });
    const narrow = SparseIntervalTable.of({ ...rows, indices: Uint16Array.from([0, 17, 1500]), base: 20_000, counts: Uint8Array.from([3, 250, 7]) });
    for (const i of [0, 1]) {
      const [a, b] = [wide.decodedRow(i)!, narrow.decodedRow(i)!];
      expect([Array.from(b.indices), Array.from(b.counts), b.totalCount]).toEqual([Array.from(a.indices), Array.from(a.counts), a.totalCount]);
      expect(narrow.payload(i)).toBe(wide.payload(i));
    }
    expect(Array.from(narrow.maxes)).toEqual(Array.from(wide.maxes));
    expect(Array.from(narrow.p50)).toEqual(Array.from(wide.p50));
  });

  it("tables of one length share one column of zeros as their max column (steps have none), and a row added to one leaves the others' as they were", () => {
    const rows = (starts: number[]) => ({
      n: starts.length,
      starts: Float64Array.from(starts),
      lengths: Float64Array.from(starts, () => 10),
      rowStart: Int32Array.from([0, ...starts.map((_, i) => i + 1)]),
      indices: Int32Array.from(starts, (_, i) => 20_000 + i),
      counts: Float64Array.from(starts, () => 2),
      digits: 3,
      lowest: 1,
      highest: 1e9,
    });
    const times = (n: number, from: number) => Array.from({ length: n }, (_, i) => from + 10 * i);
    const [a, b, c] = [SparseIntervalTable.of(rows(times(100, 0))), SparseIntervalTable.of(rows(times(100, 5))), SparseIntervalTable.of(rows(times(101, 0)))];
    expect(b.maxColumn).toBe(a.maxColumn);
    expect(c.maxColumn).not.toBe(a.maxColumn);
    expect([...a.maxColumn, ...c.maxColumn].every((x) => x === 0)).toBe(true);
    a.push(1000, 10, 5000, 1, 7, "", 5000);
    expect(a.n).toBe(101);
    expect(a.maxColumn[100]).toBe(7);
    expect(b.n).toBe(100);
    expect(b.maxColumn).toHaveLength(100);
    expect(b.maxColumn.every((x) => x === 0)).toBe(true);
    expect([...b.offsets]).toEqual(times(100, 5));
    expect(SparseIntervalTable.of(rows(times(100, 0))).maxColumn.every((x) => x === 0)).toBe(true);
  });

  it.each([
    ["small counts, near indices", [3, 200, 255], [20_000, 20_400, 21_000]],
    ["counts past 8 bits", [1, 300, 65_535], [20_000, 20_001, 20_002]],
    ["counts past 16 bits", [70_000, 1, 2], [5, 6, 7]],
    ["counts past 32 bits", [5e9, 7, 1], [100, 200, 300]],
    ["indices spanning more than 16 bits", [1, 2, 3], [5, 40_000, 90_000]],
  ])("keeps %s exactly, each row as given", (_, counts, indices) => {
    // Row 0: the first two; row 1: none; row 2: the last.
    const t = SparseIntervalTable.of({
      n: 3,
      starts: Float64Array.from([0, 10, 20]),
      lengths: Float64Array.from([10, 10, 10]),
      rowStart: Int32Array.from([0, 2, 2, 3]),
      indices: Int32Array.from(indices),
      counts: Float64Array.from(counts),
      digits: 3,
      lowest: 1,
      highest: 1e15,
    });
    const rows = [0, 1, 2].map((i) => {
      const d = t.decodedRow(i)!;
      return { indices: Array.from(d.indices), counts: Array.from(d.counts), total: d.totalCount };
    });
    expect(rows).toEqual([
      { indices: indices.slice(0, 2), counts: counts.slice(0, 2), total: counts[0]! + counts[1]! },
      { indices: [], counts: [], total: 0 },
      { indices: indices.slice(2), counts: counts.slice(2), total: counts[2]! },
    ]);
    expect(Array.from(t.counts)).toEqual([counts[0]! + counts[1]!, 0, counts[2]!]);
    // Its max: the highest value of its top index's bucket.
    const h = newHistogram(3, 1, 1e15) as unknown as { valueFromIndex(i: number): number; highestEquivalentValue(v: number): number };
    expect(t.maxes[0]).toBe(h.highestEquivalentValue(h.valueFromIndex(indices[1]!)));
    expect(t.maxes[2]).toBe(h.highestEquivalentValue(h.valueFromIndex(indices[2]!)));
  });

  it("is kept without a payload per step, and every query answers as the steps kept as payloads do", async () => {
    const { sparse, ref } = await stores(3);
    for (const s of sparse.series) expect(s.intervals).toBeInstanceOf(SparseIntervalTable);
    const all = (s: Store) => s.series.map((x) => x.id);
    expectSameQueries(sparse, ref, all);
    const [a, b] = [sparse.series[0]!.id, sparse.series[1]!.id];
    const [ra, rb] = [ref.series[0]!.id, ref.series[1]!.id];
    const q = { range: OPEN_RANGE, resamples: 40, seed: 3 };
    expect(noIds(await compareQuery(sparse, { baseline: a, candidate: b, ...q }))).toEqual(noIds(await compareQuery(ref, { baseline: ra, candidate: rb, ...q })));
  });

  it("merges a fleet whose steps are at other times, some the same, by joining its rows, answering as the merge of the payloads does", async () => {
    const shifts = [0, 5, -30, 1234.5];
    const { sparse, ref } = await stores(4);
    for (const st of [sparse, ref]) st.series.forEach((s, k) => (s.startTime! += shifts[k]!));
    const m = mergeAll(sparse);
    const rm = mergeAll(ref);
    expect(sparse.get(m).intervals).toBeInstanceOf(SparseIntervalTable);
    expect(ref.get(rm).intervals).not.toBeInstanceOf(SparseIntervalTable);
    expect(sparse.get(m).intervals!.n).toBe(4 * (STEPS + 1));
    expectSameQueries(sparse, ref, (s) => [s.series[s.series.length - 1]!.id]);
    // A merge of a merge reads through to the parts' counts.
    const again = sparse.merge([m, sparse.series[0]!.id], "again");
    ref.merge([rm, ref.series[0]!.id], "again");
    expect(sparse.get(again).intervals).toBeInstanceOf(SparseIntervalTable);
    expectSameQueries(sparse, ref, (s) => [s.series[s.series.length - 1]!.id]);
  });

  it("merges a fleet whose steps are at the same times into one row per step, the parts' counts summed: every answer as the merge of the payloads", async () => {
    const { sparse, ref } = await stores(4);
    const m = mergeAll(sparse);
    const rm = mergeAll(ref);
    const t = sparse.get(m).intervals!;
    expect(t).toBeInstanceOf(SparseIntervalTable);
    expect(ref.get(rm).intervals!.n).toBe(4 * (STEPS + 1));
    expect(t.n).toBe(STEPS + 1);
    // Percentiles, the max range, .hgrm exports, the timeline, windows and the heatmap: as the merge of the payloads.
    expectSameQueries(sparse, ref, (s) => [s.series[s.series.length - 1]!.id], true);
    // Each step's row: the four parts' known increases at that step, added (the reference's payloads of that time).
    const rt = ref.get(rm).intervals!;
    for (let i = 0; i < t.n; i++) {
      const h = newHistogram();
      let max = 0;
      for (let k = 0; k < rt.n; k++) {
        if (rt.offsets[k] !== t.offsets[i]) continue;
        expect(rt.lengths[k]).toBe(t.lengths[i]);
        max = Math.max(max, rt.maxes[k]!);
        const d = decodePayload(rt.payload(k));
        if (d.ok) addDecodedInto(h, d.value);
      }
      expect(t.counts[i], `step ${i}`).toBe(h.totalCount);
      expect(t.maxes[i], `step ${i}`).toBe(max);
      expect(t.p50[i], `step ${i}`).toBe(h.totalCount > 0 ? valueAtPercentile(h, 50) : 0);
      expect(t.payload(i), `step ${i}`).toBe(encodeIntoCompressedBase64(copyInto(h, t.payload(i))));
    }
    // The merged whole: what the steps hold, and what the reference's merge holds, field for field.
    const whole = sparse.get(m).histogram;
    expect(whole.totalCount).toBe(Array.from(t.counts.subarray(0, t.n)).reduce((x, y) => x + y, 0));
    const rw = ref.get(rm).histogram;
    for (const f of ["totalCount", "maxValue", "minNonZeroValue", "startTimeStampMsec", "endTimeStampMsec", "highestTrackableValue"] as const) expect(whole[f], f).toBe(rw[f]);
    // A merge of that merge with a part: at the same times again, summed again.
    const again = sparse.merge([m, sparse.series[0]!.id], "again");
    ref.merge([rm, ref.series[0]!.id], "again");
    expect(sparse.get(again).intervals!.n).toBe(STEPS + 1);
    expectSameQueries(sparse, ref, (s) => [s.series[s.series.length - 1]!.id], true);
  });

  it("draws each timeline column's percentiles as the histogram of its intervals reads them", async () => {
    const { sparse, ref } = await stores(3);
    const m = mergeAll(sparse);
    // The reference: the column's intervals' payloads (kept by the reference) decoded into one histogram.
    const refRows = ref.series.flatMap((s) => Array.from({ length: s.intervals!.n }, (_, i) => ({ at: s.intervals!.offsets[i]!, payload: s.intervals!.payload(i) })));
    for (const columns of [1000, 37]) {
      const tl = sparse.timeline({ t0: null, t1: null, columns, percentiles: [50, 99, 100] }).series.find((x) => x.id === m)!;
      let multi = 0;
      for (let k = 0; k < tl.t0.length; k++) {
        const rows = refRows.filter((r) => r.at >= tl.t0[k]! && r.at < tl.t1[k]!);
        const h = newHistogram();
        for (const r of rows) {
          const d = decodePayload(r.payload);
          if (d.ok) addDecodedInto(h, d.value);
        }
        expect(h.totalCount, `column ${k} of ${columns}`).toBe(tl.count[k]);
        if (rows.length > 1) multi++;
        for (const p of [50, 99, 100]) expect(tl.percentiles[String(p)]![k], `p${p} of column ${k} of ${columns}`).toBe(valueAtPercentile(h, p));
      }
      expect(multi).toBeGreaterThan(0);
    }
  });

  it.each([
    [3, 1],
    [2, 1],
    [3, 1000],
    [5, 1],
    [1, 16],
  ])("places a value where recordValue counts it, at every digits and unit (%i digits, lowest %i)", (digits, lowest) => {
    const h = newHistogram(digits, lowest, 2 ** 50) as unknown as { countsArrayIndex(v: number): number; unitMagnitude: number; subBucketHalfCountMagnitude: number };
    for (const v of [0, 1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 1e6, 5e6 + 1, 2 ** 40 - 1, 2 ** 40, 3600e9, 2 ** 50 - 3])
      expect(indexAtValue(v, h.unitMagnitude, h.subBucketHalfCountMagnitude), `${v} at ${digits} digits, lowest ${lowest}`).toBe(h.countsArrayIndex(v));
  });
});
