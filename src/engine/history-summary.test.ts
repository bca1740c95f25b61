// A run holding two files of one series (repeats, same stem in two folders): the store names
// them apart for the page ("latency", "latency (b)"), the history still reads them as one series.
import { describe, expect, it } from "vitest";
import { newHistogram } from "../core/histogram";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { summarizeStore } from "./history-summary";
import { Store } from "./store";

function log(values: number[]): string {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  return writeHlog([{ start: 0, length: 1, histogram: h }] as never);
}

describe("history summaries of a run with same-stem files", () => {
  it("group the renamed series under the name their files gave them, values added", async () => {
    const store = new Store();
    await store.load("a/latency.hlog", [log([100, 200, 300])]);
    await store.load("b/latency.hlog", [log([400, 500])]);
    expect(store.series.map((s) => s.name)).toEqual(["latency", "latency (b)"]);
    const { series } = summarizeStore(store);
    expect(series.map((s) => [s.name, s.count])).toEqual([["latency", 5]]);
  });
});
