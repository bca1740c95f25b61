// A series' spectrum kept between views (view-cache.ts) while a run is followed live: after every
// append the views, over the whole run and over a trailing window, must equal a load of what was
// written so far, number for number; a series that did not append answers with the spectrum it
// had (the same object), one that did answers with a new one.
import { build } from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import { handle } from "./handle";
import type { LiveAnswer, LivePiece, SeriesView, TimeRange } from "./protocol";
import { Store } from "./store";

function log(seed: number, intervals: number): { header: string; lines: string[] } {
  const rnd = mulberry32(seed);
  const ivs = [];
  for (let i = 0; i < intervals; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < 300; k++) h.recordValue(Math.round((100 + rnd() * 900 * (1 + (i % 7))) * 1000));
    // A stall now and then: the tail of the run so far and of a trailing window changes with it.
    if (i % 11 === 5) h.recordValue(40_000_000 + i * 1000);
    ivs.push({ start: i, length: 1, histogram: h });
  }
  const all = writeHlog(ivs).split(/(?<=\n)/);
  const first = all.findIndex((l) => /^[0-9]/.test(l));
  return { header: all.slice(0, first).join(""), lines: all.slice(first) };
}

/** The numbers a view's spectrum shows. */
function numbers(v: SeriesView): unknown {
  const s = v.spectrum;
  return { values: Array.from(s.values), cumulative: Array.from(s.cumulative), totalCount: s.totalCount, max: s.max, min: s.min, count: v.wholeCount, intervals: v.intervalCount };
}

async function append(store: Store, pieces: LivePiece[]): Promise<LiveAnswer> {
  return (await handle(store, { kind: "append", pieces }, () => undefined)) as LiveAnswer;
}

describe("spectra kept between views of a run followed live", () => {
  it("after every append the views equal a load of what was written, and unchanged series keep their spectrum", async () => {
    const a = log(3, 40);
    const b = log(5, 40);
    const live = new Store();
    // Each file's header and first three intervals, then one interval at a time, the files in turn.
    await append(live, [
      { file: "a.hlog", run: 1, start: true, text: a.header + a.lines.slice(0, 3).join("") },
      { file: "b.hlog", run: 1, start: true, text: b.header + b.lines.slice(0, 3).join("") },
    ]);
    const written = { a: 3, b: 3 };
    let before: Map<string, SeriesView> | null = null;
    for (let step = 0; step < 60; step++) {
      const which = step % 2 === 0 ? "a" : "b";
      const f = which === "a" ? a : b;
      const answer = await append(live, [{ file: `${which}.hlog`, run: 1, start: false, text: f.lines[written[which]]! }]);
      written[which]++;
      const loaded = new Store();
      await loaded.load("a.hlog", [a.header + a.lines.slice(0, written.a).join("")]);
      await loaded.load("b.hlog", [b.header + b.lines.slice(0, written.b).join("")]);
      const extent = loaded.timeline({ t0: null, t1: null, columns: 100, percentiles: [] }).extent;
      expect(answer.extent).toEqual(extent);
      // The whole run, a trailing window whose start moves with the end, and a fixed window.
      const ranges: TimeRange[] = [
        { start: null, end: null },
        { start: Math.max(extent[0], extent[1] - 12.5), end: null },
        { start: 4, end: 9 },
      ];
      for (const range of ranges) {
        const got = live.views(range);
        const want = loaded.views(range);
        expect(got.map((v) => v.name)).toEqual(want.map((v) => v.name));
        got.forEach((v, k) => expect(numbers(v), `${v.name} over ${JSON.stringify(range)} after step ${step}`).toEqual(numbers(want[k]!)));
      }
      const now = new Map(live.views().map((v) => [v.name, v]));
      if (before) {
        const other = which === "a" ? "b" : "a";
        // The series that did not append answers with the spectrum it had; the other made a new one.
        expect(now.get(other)!.spectrum).toBe(before.get(other)!.spectrum);
        expect(now.get(which)!.spectrum).not.toBe(before.get(which)!.spectrum);
      }
      before = now;
    }
    expect(written).toEqual({ a: 33, b: 33 });
  });

  it("a window whose bounds move within the same intervals answers the same spectrum; one that takes in another interval does not", async () => {
    const a = log(9, 30);
    const store = new Store();
    await store.load("a.hlog", [a.header + a.lines.join("")]);
    const x = store.views({ start: 10.2, end: null })[0]!;
    const y = store.views({ start: 10.7, end: 25.5 + 10 })[0]!;
    expect(y.spectrum).toBe(x.spectrum);
    const z = store.views({ start: 9.5, end: null })[0]!;
    expect(z.spectrum).not.toBe(x.spectrum);
    expect(z.spectrum.totalCount).toBeGreaterThan(x.spectrum.totalCount);
  });
});
