// Views sent again as marks must come back as the very views the page holds, equal to what the
// engine computed, for every window and however many windows were asked in between.
import { describe, expect, it } from "vitest";
import { build } from "hdr-histogram-js";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import type { SeriesView, TimeRange } from "./protocol";
import { Store } from "./store";
import { handedOver, sameData, ViewsHeld, ViewsSent, type PackedView } from "./views-reuse";

function view(id: string, count: number): SeriesView {
  return {
    id,
    name: id,
    spectrum: { values: [1, 2, count], cumulative: new Float64Array([0.5, 0.9, 1]), totalCount: count, max: count, min: 1 },
    warnings: [],
  } as unknown as SeriesView;
}

describe("views sent as marks", () => {
  it("an unchanged view comes back as the object held, a changed one as sent; equal to the engine's every time", () => {
    const sent = new ViewsSent();
    const held = new ViewsHeld();
    const whole: TimeRange = { start: null, end: null };
    const last: TimeRange = { start: 10, end: null };
    let counts = [5, 7, 9];
    const engine = (r: TimeRange) => counts.map((c, i) => view(`s${i}`, c + (r.start ?? 0)));
    const ask = (r: TimeRange) => {
      const packed = sent.pack(r, engine(r));
      return { packed, views: held.unpack(r, structuredClone(packed)) };
    };
    const a = ask(whole);
    expect(a.packed.some((p) => "same" in p)).toBe(false);
    ask(last);
    counts = [5, 8, 9];
    const b = ask(whole);
    expect(b.packed.map((p) => ("same" in p ? "same" : "view"))).toEqual(["same", "view", "same"]);
    expect(b.views[0]).toBe(a.views[0]);
    expect(b.views[1]).not.toBe(a.views[1]);
    expect(b.views).toEqual(engine(whole));
    // Many windows in between: the oldest are forgotten on both sides alike.
    for (let k = 0; k < 20; k++) ask({ start: k, end: k + 1 });
    const c = ask(whole);
    expect(c.packed.some((p) => "same" in p)).toBe(false);
    expect(c.views).toEqual(engine(whole));
  });

  it("equal means value for value, typed arrays and NaN included", () => {
    expect(sameData({ a: [1, NaN], b: new Float64Array([1, 2]) }, { a: [1, NaN], b: new Float64Array([1, 2]) })).toBe(true);
    expect(sameData({ b: new Float64Array([1, 2]) }, { b: new Float64Array([1, 3]) })).toBe(false);
    expect(sameData({ b: new Float64Array([1, 2]) }, { b: [1, 2] })).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameData([0], [-0])).toBe(true);
  });

  it("a spectrum told apart by its arrays alone, one bucket's count or value, is sent whole", () => {
    const sent = new ViewsSent();
    const r: TimeRange = { start: null, end: null };
    const of = (values: number[], cumulative: number[]) =>
      ({
        id: "s",
        name: "s",
        spectrum: { values: new Float64Array(values), cumulative: new Float64Array(cumulative), totalCount: 10, max: 30, min: 1 },
        warnings: [],
      }) as unknown as SeriesView;
    expect(sent.pack(r, [of([1, 2, 30], [4, 9, 10])])[0]).not.toHaveProperty("same");
    expect(sent.pack(r, [of([1, 2, 30], [4, 9, 10])])[0]).toEqual({ same: "s" });
    // The same values and total, the counts moved between two buckets; then one value moved.
    expect(sent.pack(r, [of([1, 2, 30], [5, 9, 10])])[0]).not.toHaveProperty("same");
    expect(sent.pack(r, [of([1, 3, 30], [5, 9, 10])])[0]).not.toHaveProperty("same");
    // The same numbers split otherwise between the two arrays.
    expect(sent.pack(r, [of([1, 3], [30, 5, 9, 10])])[0]).not.toHaveProperty("same");
    expect(sent.pack(r, [of([1, 3], [30, 5, 9, 10])])[0]).toEqual({ same: "s" });
  });

  it("spectra handed over to the page leave the engine's own whole: windows it kept answer again in full", async () => {
    const rnd = mulberry32(7);
    const ivs = [];
    for (let i = 0; i < 30; i++)
      for (const tag of ["a", "b"]) {
        const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
        for (let k = 0; k < 100; k++) h.recordValue(Math.round((100 + rnd() * 900) * 1000));
        h.tag = tag;
        ivs.push({ start: i, length: 1, histogram: h });
      }
    const store = new Store();
    await store.load("run.hlog", [writeHlog(ivs)]);
    const sent = new ViewsSent();
    const held = new ViewsHeld();
    // As the worker posts an answer and the page receives it: the buffers moved, not copied.
    let marks = 0;
    const ask = (r: TimeRange) => {
      const out = handedOver(sent.pack(r, store.views(r)));
      marks = out.views.filter((p) => "same" in p).length;
      const arrived = structuredClone(out.views, { transfer: out.buffers }) as PackedView[];
      for (const b of out.buffers) expect(b.byteLength).toBe(0);
      return held.unpack(r, arrived);
    };
    const whole: TimeRange = { start: null, end: null };
    const first = ask(whole);
    expect(first.every((v) => v.spectrum.values.length > 0)).toBe(true);
    // Asked again unchanged: the engine made the spectra anew (it handed its own away) and still
    // knows them for the ones sent: marks, and the page's own objects back.
    const again = ask(whole);
    expect(marks).toBe(first.length);
    expect(again).toEqual(first);
    again.forEach((v, i) => expect(v).toBe(first[i]));
    // Two windows the engine keeps as one (the same intervals): the second is sent whole, from what it kept.
    const w1 = ask({ start: 10.2, end: 20.5 });
    const w2 = ask({ start: 10.4, end: 20.6 });
    expect(w2.every((v) => v.spectrum.values.length > 0)).toBe(true);
    expect(w2.map((v) => v.spectrum)).toEqual(w1.map((v) => v.spectrum));
    // And what the engine holds is still what it answered.
    expect(store.views(whole)).toEqual(first);
    const fresh = new Store();
    await fresh.load("run.hlog", [writeHlog(ivs)]);
    expect(fresh.views(whole).map((v) => v.spectrum)).toEqual(first.map((v) => v.spectrum));
  });
});
