// The heatmap's block rows computed ahead, in the engine's wait after a load's timeline answer:
// only then, for the series the page shows first, and a heatmap asked afterwards answers exactly
// what it answers without the head start, decoding nothing more.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDayLog } from "../../tests/support/day-log";
import type { SeriesModel } from "../core/series";
import { newHistogram } from "../core/histogram";
import { heatmapQuery, prepareBlockRows } from "./heatmap-query";
import { HeatmapPrefetch } from "./heatmap-prefetch";
import { Store } from "./store";
import { kernelStats } from "../wasm/kernel";

describe("heatmap rows prepared ahead", () => {
  it("runs once after a load, when the timeline is answered with nothing waiting, for the series with the highest max", () => {
    const withMax = (id: string, recordedUnit: string, value: number) => {
      const histogram = newHistogram(3, 1, 2);
      histogram.recordValue(value);
      return { id, intervals: { n: 10 }, blocks: {}, recordedUnit, histogram };
    };
    // 5 ms against 9 ms: b, though a's number is the larger.
    const series = [
      withMax("a", "us", 5000),
      withMax("b", "ns", 9e6),
      { id: "c", intervals: null, recordedUnit: "s", histogram: newHistogram(3, 1, 2) },
    ] as unknown as SeriesModel[];
    const calls: [string, number][] = [];
    const p = new HeatmapPrefetch(
      () => series,
      (s, rows) => calls.push([s.id, rows]),
    );
    p.idle("timeline");
    expect(calls).toEqual([]); // no load yet
    p.requested("load");
    p.idle("load");
    p.idle("views");
    expect(calls).toEqual([]); // never before the spectra and the timeline
    p.idle("timeline");
    p.idle("timeline");
    expect(calls).toEqual([["b", 110]]); // once
    p.requested("heatmap", 40);
    p.requested("load");
    p.requested("heatmap", 40); // asked before the wait: the query computes its rows itself
    p.idle("timeline");
    expect(calls).toHaveLength(1);
    p.requested("loadText");
    p.idle("timeline");
    expect(calls).toEqual([
      ["b", 110],
      ["b", 40],
    ]); // the rows the page asked last
  });

  it("a heatmap after the head start is the heatmap without it, and decodes no more", async () => {
    const dir = mkdtempSync(join(tmpdir(), "heat-pre-"));
    const text = readFileSync(writeDayLog(join(dir, "d.hlog"), { intervals: 20_000, seed: 5, distinctPerInterval: 8, samplesPerInterval: 40 }).path, "utf8");
    const cold = new Store();
    await cold.load("d.hlog", [text]);
    const warm = new Store();
    await warm.load("d.hlog", [text]);
    const s = warm.series[0]!;
    const picked: string[] = [];
    const p = new HeatmapPrefetch(
      () => warm.series,
      (x, rows) => picked.push(`${x.id}:${prepareBlockRows(x, rows)}`),
    );
    p.requested("load");
    p.idle("timeline");
    expect(picked).toEqual([`${s.id}:${Math.floor(20_000 / 64)}`]);
    // Without the series' id (each store numbers its own).
    const q = (st: Store) => heatmapQuery(st.series, { ids: [st.series[0]!.id], t0: null, t1: null, columns: 300, rows: 110 }).series.map((x) => ({ ...x, id: "" }));
    const before = kernelStats.handled + kernelStats.declined;
    const after = q(warm);
    expect(kernelStats.handled + kernelStats.declined - before).toBeLessThan(64);
    expect(after).toEqual(q(cold));
  });
});
