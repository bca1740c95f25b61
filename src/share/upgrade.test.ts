// Links of older versions: hand-built v1 payloads (the v1 layout written out here, not by the
// current encoder) decode into the current ShareState.
import { describe, expect, it } from "vitest";
import { bucketsOf, newHistogram, valueAtPercentile } from "../core/histogram";
import { ByteWriter } from "./bytes";
import { buildPayload, wrapPayload } from "./codec";
import { packExact, packLossy, writePacked, writeTimeline } from "./histogram-pack";
import { decodeShare, SHARE_VERSION } from "./index";
import { UPGRADERS, formatEntryV1, upgradeV1toV2 } from "./upgrade";
import { viewMeta } from "../../tests/support/share-meta";

const v1View = {
  displayUnit: "ms",
  yLog: true,
  requirement: [
    { percentile: 99, max: 5, unit: "ms" },
    { percentile: 50, max: 1, unit: "ms" },
    { percentile: 100, max: 0.25, unit: "s" },
    { percentile: 99.99, max: 20, unit: "ms" },
  ],
  range: { start: 10, end: 70.5 },
  timeline: { percentiles: [50, 99], perLane: true, wallClock: false, log: true },
};

function v1Series(extra: Record<string, unknown> = {}) {
  return {
    name: "run-a",
    source: "a.hlog",
    tag: "t",
    config: "A",
    throughput: 5000,
    kind: "service",
    unit: "us",
    color: "#abc",
    visible: true,
    startTime: 1.7e9,
    hist: { sig: 3, ldv: 1 },
    ...extra,
  };
}

function sample() {
  const h = newHistogram(3);
  for (let v = 1; v < 100_000; v = Math.ceil(v * 1.07)) h.recordValueWithCount(v, 1 + (v % 13));
  return h;
}

function v1Link(view: Record<string, unknown>, lossy: boolean): string {
  const h = sample();
  const data = new ByteWriter();
  writePacked(data, lossy ? packLossy(h) : packExact(h), lossy, true);
  writeTimeline(data, [1, 2, NaN, 4], lossy);
  return wrapPayload(buildPayload({ lossy, view, series: [v1Series({ timeline: { t0: 0, t1: 4 } })] }, data.finish()), 1);
}

describe("v1 → v2", () => {
  it("a registered upgrader for every version below the current one", () => {
    for (let v = 1; v < SHARE_VERSION; v++) expect(typeof UPGRADERS[v]).toBe("function");
  });

  for (const lossy of [false, true]) {
    it(`a hand-built v1 link (${lossy ? "lossy" : "full precision"}) decodes into the current state`, () => {
      const r = decodeShare(v1Link(v1View, lossy));
      if (!r.ok) throw new Error(r.reason);
      expect(r.upgradedFrom).toBe(1);
      expect(r.lossy).toBe(lossy);
      expect(r.state.view).toEqual(
        viewMeta({
          yLog: true,
          requirement: "p50<=1ms, p99<=5ms, p99.99<=20ms, max<=0.25s",
          range: { start: 10, end: 70.5 },
          timeline: { percentiles: [50, 99], perLane: true, log: true },
        }),
      );
      const s = r.state.series[0]!;
      const { histogram, timeline, ...meta } = s;
      // Every field of the v1 series but its histogram layout is carried over as it was.
      const { hist: _hist, ...fields } = v1Series();
      expect(meta).toEqual(fields);
      const orig = sample();
      expect(histogram.totalCount).toBe(orig.totalCount);
      if (!lossy) expect(bucketsOf(histogram)).toEqual(bucketsOf(orig));
      for (const p of [1, 50, 99, 100]) expect(Math.abs(valueAtPercentile(histogram, p) / valueAtPercentile(orig, p) - 1)).toBeLessThanOrEqual(0.01);
      expect(timeline!.t1).toBe(4);
      expect(timeline!.max[2]).toBeNaN();
    });
  }

  it("empty or null v1 requirement becomes null", () => {
    for (const requirement of [[], null]) {
      const r = decodeShare(v1Link({ ...v1View, requirement }, true));
      if (!r.ok) throw new Error(r.reason);
      expect(r.state.view.requirement).toBeNull();
      expect(r.state.view.sideBySide).toBe(false);
    }
  });

  it("malformed v1 documents are refused with the field named", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...v1View, requirement: "p99<=5ms" }, /requirement \(v1\) is not a list/],
      [{ ...v1View, requirement: [{ percentile: 0, max: 1, unit: "ms" }] }, /requirement\[0\] \(v1\).percentile is outside/],
      [{ ...v1View, requirement: [{ percentile: 50, max: -1, unit: "ms" }] }, /max is negative/],
      [{ ...v1View, requirement: [{ percentile: 50, max: 1, unit: "h" }] }, /unit is not a unit/],
      [{ ...v1View, requirement: [{ percentile: "50", max: 1, unit: "ms" }] }, /percentile is not a finite number/],
      [{ ...v1View, requirement: new Array(65).fill({ percentile: 50, max: 1, unit: "ms" }) }, /more than 64 entries/],
      [{ ...v1View, sideBySide: true }, /sideBySide is not part of a v1 link/],
    ];
    for (const [view, reason] of bad) {
      const r = decodeShare(v1Link(view, true));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });

  it("a v1 link with the v2 text requirement is refused (not silently accepted)", () => {
    const r = decodeShare(v1Link({ ...v1View, requirement: "p99<=5ms" }, false));
    expect(r.ok).toBe(false);
  });

  it("upgradeV1toV2 on its own: reshapes only the view", () => {
    const data = new Uint8Array([1, 2, 3]);
    const out = upgradeV1toV2({ meta: { lossy: true, view: v1View, series: [] }, data });
    expect(out.data).toBe(data);
    expect(out.meta).toEqual({ lossy: true, view: { ...v1View, sideBySide: false, requirement: "p50<=1ms, p99<=5ms, p99.99<=20ms, max<=0.25s" }, series: [] });
    expect(formatEntryV1({ percentile: 99.9, max: 10, unit: "us" })).toBe("p99.9<=10us");
  });
});

describe("v2 and v3 → v4: the comparison", () => {
  const v2View = viewMeta({ displayUnit: "us", sideBySide: true, requirement: "p99<=5ms" });
  const v2Link = (view: object) => {
    const data = new ByteWriter();
    writePacked(data, packExact(sample()), false);
    return wrapPayload(buildPayload({ lossy: false, view, series: [v1Series()] }, data.finish()), 2);
  };

  it("a hand-built v2 link opens without a comparison", () => {
    const r = decodeShare(v2Link(v2View));
    if (!r.ok) throw new Error(r.reason);
    expect(r.upgradedFrom).toBe(2);
    expect(r.state.view).toEqual(v2View);
    expect("compare" in r.state.view).toBe(false);
  });

  it("a v2 link claiming a comparison is refused", () => {
    const r = decodeShare(v2Link({ ...v2View, compare: { baseline: "a", candidate: "b", margin: 0.05, repeats: true } }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/compare/);
  });

  it("a v3 link claiming a comparison is refused", () => {
    const data = new ByteWriter();
    writePacked(data, packExact(sample()), false);
    const r = decodeShare(
      wrapPayload(
        buildPayload({ lossy: false, view: { ...v2View, compare: { baseline: "a", candidate: "b", margin: 0.05, repeats: true } }, series: [v1Series()] }, data.finish()),
        3,
      ),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/compare/);
  });

  it("a v4 link carries the comparison, and a bad one is refused with the field named", () => {
    const compare = { baseline: "sysA_8k", candidate: "sysB_8k", margin: 0.1, repeats: false };
    const link = (c: unknown) => {
      const data = new ByteWriter();
      writePacked(data, packExact(sample()), false);
      return wrapPayload(buildPayload({ lossy: false, view: { ...v2View, compare: c }, series: [v1Series()] }, data.finish()), 4);
    };
    const r = decodeShare(link(compare));
    if (!r.ok) throw new Error(r.reason);
    expect(r.upgradedFrom).toBe(4);
    expect(r.state.view.compare).toEqual(compare);
    const bad = decodeShare(link({ ...compare, margin: -1 }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.reason).toMatch(/view\.compare\.margin/);
    const noName = decodeShare(link({ ...compare, baseline: 5 }));
    expect(noName.ok).toBe(false);
  });
});

describe("v4 → v5", () => {
  const v2View = viewMeta({ displayUnit: "us", requirement: "p99<=5ms" });
  const v4 = (meta: Record<string, unknown>) => {
    const data = new ByteWriter();
    writePacked(data, packExact(sample()), false);
    return wrapPayload(buildPayload({ lossy: false, view: v2View, series: [v1Series()], ...meta }, data.finish()), 4);
  };

  it("a v4 link opens without carried results: nothing shown, nothing computed, its histogram as it was", () => {
    const r = decodeShare(v4({}));
    if (!r.ok) throw new Error(r.reason);
    expect(r.upgradedFrom).toBe(4);
    expect(r.state.results).toBeUndefined();
    expect(r.state.series[0]!.shown).toBeUndefined();
    expect(r.state.series[0]!.histogram.totalCount).toBe(sample().totalCount);
  });

  it("a v4 link claiming v5's fields is refused", () => {
    const shown = { at: { "50": 1 }, min: 1, mean: 1, stdDeviation: 0, count: 1, warnings: [] };
    for (const [meta, what] of [
      [{ results: {} }, /results/],
      [{ series: [v1Series({ shown })] }, /shown/],
      [{ view: { ...v2View, compare: { baseline: "a", candidate: "b", margin: 0.05, repeats: true, pooling: "runs" } } }, /compare/],
    ] as const) {
      const r = decodeShare(v4(meta));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(what);
    }
  });
});

describe("the comparison round trip", () => {
  it("encodeShare writes it and decodeShare reads it back", async () => {
    const { encodeShare } = await import("./index");
    const view = viewMeta({ compare: { baseline: "a", candidate: "b", margin: 0.05, repeats: true } });
    const series = [
      { name: "a", source: "a.hlog", tag: "", config: "a", throughput: null, kind: "" as const, unit: "ns" as const, visible: true, histogram: sample(), startTime: null },
    ];
    const r = decodeShare(encodeShare({ view, series }, { fullPrecision: true }).fragment);
    if (!r.ok) throw new Error(r.reason);
    expect(r.state.view.compare).toEqual(view.compare);
  });
});
