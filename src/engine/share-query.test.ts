// A link opened in another engine shows what the author's engine gave its page: the same
// table values, details, verdicts (at a requirement percentile outside the table too) and
// the same comparison answer, although the link's histograms are rounded and have no
// intervals; a new question is computed from the link's data and marked as such.
import { describe, expect, it } from "vitest";
import { simulateQueue } from "../../tests/support/queue-sim";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { valueAtFromBuckets } from "../core/bucket-lookup";
import { verdictFor } from "../core/judge";
import { parseRequirement } from "../core/requirements";
import { spectrumOf } from "../core/spectrum";
import { viewMeta } from "../../tests/support/share-meta";
import { compareQuery, type CompareAnswer } from "./compare-query";
import { OPEN_RANGE, Store, type SeriesView } from "./store";
import { openShareIn, shareOf } from "./share-query";

const REQUIREMENT = "p50<=1ms, p99.5<=5ms, max<=400ms";
const req = parseRequirement(REQUIREMENT);
if (!req.ok || !req.value) throw new Error("requirement");
const requirement = req.value;

async function author(): Promise<Store> {
  const store = new Store();
  await store.load("base_3k.hlog", [writeHlog(simulateQueue({ rate: 3000, seconds: 90, medianServiceSec: 250e-6, sigma: 0.5, stalls: [{ at: 41.2, duration: 0.8 }], seed: 11 }))]);
  await store.load("cand_3k.hlog", [writeHlog(simulateQueue({ rate: 3000, seconds: 60, medianServiceSec: 240e-6, sigma: 0.55, stalls: [{ at: 20.5, duration: 0.3 }], seed: 12 }))]);
  return store;
}

const view = viewMeta({ displayUnit: "us", requirement: REQUIREMENT, compare: { baseline: "base_3k", candidate: "cand_3k", margin: 0.1, repeats: true } });

/** What a page shows of a view: its numbers and its verdict. */
function shown(v: SeriesView) {
  const sp = v.spectrum;
  return {
    name: v.name,
    whole: v.wholeCount,
    count: sp.totalCount,
    percentiles: sp.percentiles,
    max: sp.max,
    min: sp.min,
    mean: sp.mean,
    sd: sp.stdDeviation,
    warnings: v.warnings,
    verdict: verdictFor(v, requirement),
  };
}

const byName = (s: Store, n: string) => s.views().find((v) => v.name === n)!.id;
const ask = (s: Store, margin = 0.1) => compareQuery(s, { baseline: byName(s, "base_3k"), candidate: byName(s, "cand_3k"), range: OPEN_RANGE, margin, repeats: true });
const portable = ({ baseIds: _b, candIds: _c, basis: _s, ...rest }: CompareAnswer) => rest;

describe("an opened link shows what its author's engine gave", async () => {
  const a = await author();
  const answer = await ask(a);
  const looks = a.views().map((v) => ({ id: v.id, color: "#000", visible: true }));

  for (const full of [false, true]) {
    it(`table values, details, warnings, verdicts and the comparison are the author's (${full ? "full precision" : "rounded histograms"})`, async () => {
      const link = shareOf(a, view, looks, OPEN_RANGE, full, answer);
      const b = new Store();
      const opened = openShareIn(b, link.fragment);
      if (!opened.ok) throw new Error(opened.reason);
      expect(opened.carried).toBe(true);
      expect(b.views().map(shown)).toEqual(a.views().map(shown));
      // p99.5 is no table percentile: its value was carried because the requirement reads it.
      for (const v of b.views()) {
        const mine = a.views().find((x) => x.name === v.name)!;
        expect(valueAtFromBuckets(v.spectrum, 99.5)).toBe(valueAtFromBuckets(mine.spectrum, 99.5));
      }
      const again = await ask(b);
      expect(again.basis).toBe("link");
      expect(portable(again)).toEqual(portable(answer));
    });
  }

  it("a time window: the window's numbers, the whole series' count and the window's comparison come back", async () => {
    const range = { start: 5, end: 55 };
    const windowed = await compareQuery(a, { baseline: byName(a, "base_3k"), candidate: byName(a, "cand_3k"), range, margin: 0.1, repeats: true });
    const b = new Store();
    openShareIn(b, shareOf(a, { ...view, range }, looks, range, false, windowed).fragment);
    expect(b.views(range).map(shown)).toEqual(a.views(range).map(shown));
    expect(b.views(range).map((v) => v.wholeCount)).toEqual([270000, 180000]);
    const again = await compareQuery(b, { baseline: byName(b, "base_3k"), candidate: byName(b, "cand_3k"), range, margin: 0.1, repeats: true });
    expect(again.basis).toBe("link");
    expect(portable(again)).toEqual(portable(windowed));
  });

  it("the link's histograms alone give other numbers (what the carried values are for)", () => {
    const b = new Store();
    openShareIn(b, shareOf(a, view, looks, OPEN_RANGE, false, answer).fragment);
    const rebuilt = b.views().map((v) => spectrumOf(b.histogramFor(v.id, OPEN_RANGE)).percentiles);
    const differs = rebuilt.flatMap((p, i) => Object.keys(p).filter((k) => p[k] !== a.views()[i]!.spectrum.percentiles[k]));
    expect(differs.length).toBeGreaterThan(0);
  });

  it("a new question is computed from the link's data: marked link-data, no verdicts for single runs without time order", async () => {
    const b = new Store();
    openShareIn(b, shareOf(a, view, looks, OPEN_RANGE, false, answer).fragment);
    const other = await ask(b, 0.05);
    expect(other.basis).toBe("link-data");
    expect(new Set(other.points.map((p) => p.verdict))).toEqual(new Set(["unknown"]));
    expect(other.sentence).not.toMatch(/faster|slower|no difference/);
    // The author's question again: the author's answer again.
    expect(portable(await ask(b))).toEqual(portable(answer));
    // Other percentiles asked for (a requirement edited on the opened page): computed here.
    const more = { baseline: byName(b, "base_3k"), candidate: byName(b, "cand_3k"), range: OPEN_RANGE, margin: 0.1, repeats: true, extraPercentiles: [95] };
    expect((await compareQuery(b, more)).basis).toBe("link-data");
  });

  it("a series whose recorded unit is changed loses its carried values; its comparison is computed again", async () => {
    const b = new Store();
    openShareIn(b, shareOf(a, view, looks, OPEN_RANGE, false, answer).fragment);
    const id = byName(b, "cand_3k");
    b.setRecordedUnit(id, "us");
    expect(b.views().find((v) => v.id === id)!.spectrum.exact).toBeUndefined();
    expect((await ask(b)).basis).toBe("link-data");
  });

  it("a CO correction: the corrected copies show the author's numbers while the interval is the link's", () => {
    const c = new Store();
    c.series.push(...a.series);
    c.setCoInterval(1e6);
    const coLooks = c
      .views()
      .filter((v) => !v.correctedFrom)
      .map((v) => ({ id: v.id, color: "#000", visible: true }));
    const b = new Store();
    openShareIn(b, shareOf(c, { ...view, coInterval: "1ms" }, coLooks, OPEN_RANGE, false, null).fragment);
    b.setCoInterval(1e6);
    expect(b.views().map(shown)).toEqual(c.views().map(shown));
    expect(
      b
        .views()
        .filter((v) => v.correctedFrom)
        .every((v) => v.spectrum.exact),
    ).toBe(true);
    // Another interval: computed from the link's histograms.
    b.setCoInterval(2e6);
    expect(
      b
        .views()
        .filter((v) => v.correctedFrom)
        .some((v) => v.spectrum.exact),
    ).toBe(false);
  });

  it("an answer to another pair than the view's is not carried", async () => {
    const swapped = { ...view, compare: { ...view.compare!, baseline: "cand_3k", candidate: "base_3k" } };
    const b = new Store();
    openShareIn(b, shareOf(a, swapped, looks, OPEN_RANGE, false, answer).fragment);
    expect(b.carried).toBeNull();
  });

  it("a saturation warning, found in the intervals the link does not carry, comes back", async () => {
    const c = new Store();
    await c.load("overloaded_13k.hlog", [writeHlog(simulateQueue({ rate: 13000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 1 }))]);
    const warned = c.views()[0]!.warnings;
    expect(warned.map((w) => w.kind)).toContain("saturation");
    const link = shareOf(c, { ...view, compare: undefined }, [{ id: c.series[0]!.id, color: "#000", visible: true }], OPEN_RANGE, false, null);
    const d = new Store();
    openShareIn(d, link.fragment);
    expect(d.views()[0]!.warnings).toEqual(warned);
    // Without what the link carries, the opened page would find none (it has no intervals).
    d.shown.clear();
    expect(d.views()[0]!.warnings.map((w) => w.kind)).not.toContain("saturation");
  });

  it("the author's page answers as before: nothing pinned, nothing marked", async () => {
    expect(a.views().every((v) => v.spectrum.exact === undefined)).toBe(true);
    expect(answer.basis).toBeUndefined();
  });
});
