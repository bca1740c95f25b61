// A loaded series that grows (a run followed live): its table takes appended rows while the
// page keeps asking (views, timeline, windows, heatmap, comparison), and after the last row
// every answer is the one a load of the whole log gives. The reference is that load itself,
// read by the ordinary reader; the grown store reaches the same rows through append alone.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "hdr-histogram-js";
import { writeHlog } from "../../../tests/support/hlog-fixture";
import { mulberry32 } from "../../../tests/support/queue-sim";
import { Store, OPEN_RANGE } from "../store";
import { heatmapQuery, windowQuery } from "../time-queries";
import { compareQuery } from "../compare-query";
import { sparseOf } from "../../core/histogram";
import { ingestHlogInParts, ingestHlogPart } from "../hlog-ingest";
import { keptBytesHeld, setKeptBudget, WORKER_KEPT_BUDGET } from "./kept";
import type { AppendedRow } from ".";

afterEach(() => setKeptBudget(0));

/** A log of `n` one-second intervals of a queue with pauses (values up to seconds, in ns). */
function generatedLog(n: number, seed: number): string {
  const rnd = mulberry32(seed);
  const ivs = [];
  for (let i = 0; i < n; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1, highestTrackableValue: 2 ** 40, autoResize: true });
    const pause = rnd() < 0.01 ? 1e9 * rnd() : 0;
    for (let k = 0; k < 40; k++) h.recordValue(Math.round(2e5 + 3e6 * rnd() ** 6 + pause * rnd()));
    ivs.push({ start: 1000 + i, length: 1, histogram: h });
  }
  return writeHlog(ivs);
}

const INTERVAL = /^(Tag=[^,]*,)?([0-9.]+),([0-9.]+),([0-9.]+),(\S+)$/;

/** The log cut after its `k`-th interval line: the text of the lines before, and the rest as rows to append. */
function cut(text: string, k: number): { head: string; rest: { raw: number; length: number; maxColumn: number; payload: string }[] } {
  const lines = text.split("\n");
  const head: string[] = [];
  const rest = [];
  let seen = 0;
  for (const line of lines) {
    const m = INTERVAL.exec(line.trim());
    if (m && seen >= k) rest.push({ raw: Number(m[2]), length: Number(m[3]), maxColumn: Number(m[4]), payload: m[5]! });
    else head.push(line);
    if (m) seen++;
  }
  return { head: head.join("\n"), rest };
}

/** Every answer the page asks of one series, ids left out (each store names its series). */
async function answers(store: Store, id: string, other: string) {
  const s = store.get(id);
  const t = s.intervals!;
  const mid = (t.offsets[0]! + t.offsets[t.n - 1]!) / 2;
  const strip = <T extends { id?: string }>(x: T) => ({ ...x, id: undefined });
  const views = store.views().map((v) => ({ ...v, id: undefined, name: undefined }));
  const timelines = [
    { t0: null, t1: null, columns: 40, percentiles: [50, 99, 99.9] },
    { t0: null, t1: null, columns: 3, percentiles: [99] },
    { t0: mid - 37.5, t1: mid + 80, columns: 200, percentiles: [90, 99.99] },
  ].map((q) => store.timeline(q).series.map(strip));
  const windows = [10, 64, 600].map((length) => windowQuery(store.series, { length, wallClock: false, percentiles: [50, 99, 100] }).map(strip));
  const heatmaps = [
    { ids: [id], t0: null, t1: null, columns: 30, rows: 50 },
    { ids: [id], t0: mid - 100, t1: mid + 100, columns: 150, rows: 50 },
  ].map((q) => heatmapQuery(store.series, q).series.map(strip));
  const range = { start: t.offsets[0]! + 17, end: mid + 500 };
  const compares = [];
  for (const r of [OPEN_RANGE, range]) {
    const a = await compareQuery(store, { baseline: other, candidate: id, range: r, resamples: 200, seed: 7, repeats: false });
    compares.push({ ...a, baseIds: undefined, candIds: undefined });
  }
  const histogram = sparseOf(s.histogram);
  const columns = ["offsets", "lengths", "maxes", "counts", "maxColumn", "p50"].map((c) => Array.from((t as unknown as Record<string, Float64Array>)[c]!.subarray(0, t.n)));
  return { views, timelines, windows, heatmaps, compares, histogram, columns, payloads: t.allPayloads(), hgrm: store.exportHgrm(id, range, "ms") };
}

/** Reads a log into a store, in one piece or in two cut at character `split` (as a big log is shared out to a helper). */
async function load(store: Store, name: string, text: string, split: number | null): Promise<void> {
  if (split === null) {
    await store.load(name, [text]);
    return;
  }
  const part = ingestHlogPart(name, [text.slice(split)], undefined, new TextEncoder().encode(text.slice(split)));
  store.add(await ingestHlogInParts(name, [text.slice(0, split)], [part]));
}

/**
 * Loads `text` whole into one store, and its first `k` intervals into another that then takes
 * the rest in `steps`, asking between appends; both read in the same pieces (`split`).
 */
async function grownAndWhole(text: string, k: number, steps: number[], other: string, split: number | null = null) {
  const whole = new Store();
  await load(whole, "run.hlog", text, split);
  await whole.load("other.hlog", [other]);
  const { head, rest } = cut(text, k);
  const grown = new Store();
  await load(grown, "run.hlog", head, split);
  await grown.load("other.hlog", [other]);
  const g = grown.series.find((s) => s.source === "run.hlog")!;
  // The follower places rows as the load placed the first ones: its raw starts shifted alike.
  const firstRaw = Number(
    INTERVAL.exec(
      head
        .split("\n")
        .find((l) => INTERVAL.test(l.trim()))!
        .trim(),
    )![2],
  );
  const shift = g.intervals!.offsets[0]! - firstRaw;
  const rows: AppendedRow[] = rest.map((r) => ({ offset: r.raw + shift, length: r.length, maxColumn: r.maxColumn, payload: r.payload }));
  let at = 0;
  for (const step of steps) {
    grown.append(g.id, rows.slice(at, at + step));
    at += step;
    // Asked between appends, so that whatever a query keeps must follow the growth.
    await answers(grown, g.id, grown.series.find((s) => s.source === "other.hlog")!.id);
  }
  grown.append(g.id, rows.slice(at));
  const idOf = (s: Store, src: string) => s.series.find((x) => x.source === src)!.id;
  return {
    grown: await answers(grown, idOf(grown, "run.hlog"), idOf(grown, "other.hlog")),
    whole: await answers(whole, idOf(whole, "run.hlog"), idOf(whole, "other.hlog")),
    grownSeries: g,
    wholeSeries: whole.series.find((s) => s.source === "run.hlog")!,
    grownStore: grown,
  };
}

describe("a loaded series that grows by appended intervals", () => {
  it("answers as a load of the whole log, through blocks of both levels, with counts kept from the load", async () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const text = generatedLog(2300, 11);
    // 100 loaded (a block and a part of the next), then rows in steps across block ends and past 2048.
    const r = await grownAndWhole(text, 100, [1, 27, 64, 5, 1900], generatedLog(900, 12));
    expect(r.grownSeries.intervals!.n).toBe(2300);
    expect(r.grownSeries.blocks).toBeTruthy();
    expect(r.grown).toEqual(r.whole);
  }, 120_000);

  it("answers as a load of the whole log on a producer's own log (jHiccup), with nothing kept", async () => {
    const path = resolve(import.meta.dirname, "../../../../shared/samples/hdrhistogram/jHiccup-2.0.7S.logV2.hlog");
    if (!existsSync(path)) return;
    const text = readFileSync(path, "utf8");
    const n = cut(text, 0).rest.length;
    const r = await grownAndWhole(text, Math.floor(n / 3), [1, 2, 30], generatedLog(300, 5));
    expect(r.grownSeries.intervals!.n).toBe(n);
    expect(r.grown).toEqual(r.whole);
  }, 120_000);

  it("answers as a load of the whole log when the loaded log was read in two parts", async () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const text = generatedLog(1500, 21);
    // The cut falls after the header and 130 intervals, neither at a block's end.
    const lines = text.split("\n");
    const first = lines.findIndex((l) => INTERVAL.test(l.trim()));
    const split = lines.slice(0, first + 130).join("\n").length + 1;
    const r = await grownAndWhole(text, 300, [10, 54, 700], generatedLog(400, 22), split);
    expect(r.grownSeries.intervals!.n).toBe(1500);
    expect(r.grown).toEqual(r.whole);
  }, 120_000);

  it("refuses a row it cannot read, naming it, and leaves the series as it was", async () => {
    const text = generatedLog(70, 3);
    const store = new Store();
    await store.load("run.hlog", [text]);
    const s = store.series[0]!;
    const before = sparseOf(s.histogram);
    const good = cut(text, 69).rest[0]!;
    expect(() =>
      store.append(s.id, [
        { offset: 80, length: 1, maxColumn: 1, payload: good.payload },
        { offset: 81, length: 1, maxColumn: 1, payload: "not base64!" },
      ]),
    ).toThrow(/appended row 2: histogram payload/);
    expect(s.intervals!.n).toBe(70);
    expect(sparseOf(s.histogram)).toEqual(before);
  });

  it("a comparison's inputs taken before its series went still read their intervals", async () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const store = new Store();
    await store.load("a.hlog", [generatedLog(400, 8)]);
    await store.load("b.hlog", [generatedLog(400, 9)]);
    const [a, b] = store.series.map((s) => s.id);
    const req = { baseline: a!, candidate: b!, range: { start: 100.5, end: 1300 }, resamples: 100, seed: 3, repeats: false };
    const before = await compareQuery(store, req);
    const { compareInputs } = await import("../compare-query");
    const inputs = compareInputs(store, req);
    store.clear();
    const run = inputs.base.runs[0]!;
    if (run.data.kind !== "blocks") throw new Error("expected block sums");
    const pieces: number[] = [];
    run.data.subBlocks.eachPiece!(0, (p) => pieces.push(p.indices.length));
    expect(pieces.length).toBeGreaterThan(0);
    expect(before.baseIds).toEqual([a]);
  });

  it("lets its kept counts go with its series", async () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const store = new Store();
    const held = keptBytesHeld();
    await store.load("run.hlog", [generatedLog(200, 4)]);
    expect(keptBytesHeld()).toBeGreaterThan(held);
    store.remove(store.series[0]!.id);
    expect(keptBytesHeld()).toBe(held);
  });
});
