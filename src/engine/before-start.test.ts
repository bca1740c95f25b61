// A YCSB-shaped log whose first interval starts 5 ms before StartTime: HistogramLogProcessor
// without -start leaves it out (its rule: an interval counts when its start, since StartTime,
// is at least -start, 0 by default); the page counts it and says so on the series.
import { describe, expect, it } from "vitest";
import { newHistogram } from "../core/histogram";
import { PRODUCER_HEADERS, writeHlog } from "../../tests/support/hlog-fixture";
import { Store } from "./store";

function ycsbLike(): string {
  const ivs = [];
  for (let i = 0; i < 5; i++) {
    const h = newHistogram();
    for (let k = 0; k < 100 + i; k++) h.recordValue(1000 + k);
    ivs.push({ start: i - 0.005, length: 1, histogram: h });
  }
  return writeHlog(ivs as never, { ...PRODUCER_HEADERS.ycsb, maxRatio: 1e6 });
}

describe("intervals before StartTime", () => {
  it("are counted in the whole run, named on the series, and left out from a window starting at 0 as HistogramLogProcessor does", async () => {
    const store = new Store();
    await store.load("READ.hdr", [ycsbLike()]);
    const [v] = store.views();
    // 100 + 101 + 102 + 103 + 104 values; the first interval (100 values) starts at -0.005 s.
    expect(v!.wholeCount).toBe(510);
    expect(v!.spectrum.totalCount).toBe(510);
    expect(v!.beforeStart).toEqual({ intervals: 1, count: 100 });
    // HistogramLogProcessor 2.2.2 on this log: Total count 410 without -start, 510 with -start -1.
    expect(store.views({ start: 0, end: null })[0]!.spectrum.totalCount).toBe(410);
    expect(store.views({ start: -1, end: null })[0]!.spectrum.totalCount).toBe(510);
  });

  it("a log starting at its StartTime has no note", async () => {
    const store = new Store();
    const h = newHistogram();
    h.recordValue(5);
    await store.load("a.hlog", [writeHlog([{ start: 0, length: 1, histogram: h }] as never)]);
    expect(store.views()[0]!.beforeStart).toBeNull();
  });
});
