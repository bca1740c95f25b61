// Share links carry the time panel's options and what it found (window verdicts, tail
// summaries) as numbers: they come back exactly, cost few characters, and v2 links (without
// them) still open.
import { describe, expect, it } from "vitest";
import { newHistogram } from "../core/histogram";
import { ByteWriter } from "./bytes";
import { buildPayload, wrapPayload } from "./codec";
import { packExact, writePacked } from "./histogram-pack";
import { decodeShare, encodeShare, SHARE_VERSION, type ShareState, type SharedSeriesTime } from "./index";
import { upgradeV2toV3 } from "./upgrade";
import { seriesMeta, viewMeta } from "../../tests/support/share-meta";

function hist() {
  const h = newHistogram(3);
  for (let v = 1000; v < 5e8; v = Math.ceil(v * 1.3)) h.recordValueWithCount(v, 1 + (v % 7));
  return h;
}

const view = viewMeta({ requirement: "p99<=5ms, max<=100ms", timeline: { percentiles: [99] } });

const stallTime: SharedSeriesTime = {
  windows: {
    windows: 12,
    passing: 11,
    worst: { start: 60, end: 70, percentile: 99, valueNs: 1_417_674_751, limitNs: 5e6 },
    drop: { start: 110, end: 120, throughput: 1987.3, median: 2000.1, drop: 0.0064 },
  },
  tail: {
    above: 3001,
    intervalsWithAny: 2,
    named: 2,
    share: 1,
    top: [
      { start: 63, end: 64, above: 1400 },
      { start: 64, end: 65, above: 1601 },
    ],
  },
};

function state(time: boolean): ShareState {
  const series = [
    {
      name: "stall_2k",
      source: "stall_2k.hlog",
      tag: "",
      config: "stall",
      throughput: 2000,
      kind: "" as const,
      unit: "ns" as const,
      visible: true,
      startTime: 1.7e9,
      histogram: hist(),
      ...(time ? { time: stallTime } : {}),
    },
    // A series judged in windows whose worst window had no values, with no tail found.
    {
      name: "gap",
      source: "gap.hlog",
      tag: "",
      config: "gap",
      throughput: null,
      kind: "" as const,
      unit: "us" as const,
      visible: true,
      startTime: null,
      histogram: hist(),
      ...(time ? { time: { windows: { windows: 3, passing: 0, worst: { start: 0, end: 5, percentile: 100, valueNs: null, limitNs: 1e8 }, drop: null } } } : {}),
    },
  ];
  return { view: time ? { ...view, time: { window: 10, wallClock: true, tailNs: 100e6 } } : view, series };
}

describe("share links: time options and summaries (v3)", () => {
  it("come back exactly, and a link without them has none", () => {
    expect(SHARE_VERSION).toBeGreaterThanOrEqual(3);
    for (const full of [false, true]) {
      const r = decodeShare(encodeShare(state(true), { fullPrecision: full }).fragment);
      if (!r.ok) throw new Error(r.reason);
      expect(r.upgradedFrom).toBeNull();
      expect(r.state.view.time).toEqual({ window: 10, wallClock: true, tailNs: 100e6 });
      expect(r.state.series[0]!.time).toEqual(stallTime);
      expect(r.state.series[1]!.time).toEqual({ windows: { windows: 3, passing: 0, worst: { start: 0, end: 5, percentile: 100, valueNs: null, limitNs: 1e8 }, drop: null } });
      const plain = decodeShare(encodeShare(state(false), { fullPrecision: full }).fragment);
      if (!plain.ok) throw new Error(plain.reason);
      expect("time" in plain.state.view).toBe(false);
      expect(plain.state.series.every((s) => !("time" in s))).toBe(true);
    }
  });

  it("cost few characters: numbers, not sentences", () => {
    const a = encodeShare(state(false)).length;
    const b = encodeShare(state(true)).length;
    expect(b - a).toBeLessThan(260);
  });

  it("malformed summaries are refused with the field named", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ w: { n: 2, pass: 3, worst: null, drop: null } }, /w.pass is more than/],
      [{ w: { n: 2, pass: 1, worst: [1, 2, 99], drop: null } }, /w.worst is not a list of 5 numbers/],
      [{ w: { n: 2, pass: 1, worst: [1, 2, 101, 3, 4], drop: null } }, /percentile\) is outside/],
      [{ t: { above: 1, any: 1, named: 1, share: 2, top: [0, 1, 1] } }, /t.share is outside/],
      [{ t: { above: 1, any: 1, named: 1, share: 1, top: [0, 1] } }, /t.top is not a list of \(start, end, count\) triples/],
      [{ t: { above: 1, any: 1, named: 2, share: 1, top: [0, 1, 1] } }, /t.named is not an integer/],
      [{ t: { above: -1, any: 1, named: 1, share: 1, top: [0, 1, 1] } }, /t.above is not an integer/],
    ];
    for (const [time, reason] of bad) {
      const data = new ByteWriter();
      const h = hist();
      const p = packExact(h);
      writePacked(data, p, false);
      const meta = {
        lossy: false,
        view,
        series: [seriesMeta({ hist: { sig: p.sig, ldv: p.ldv }, time })],
      };
      const r = decodeShare(wrapPayload(buildPayload(meta, data.finish())));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });
});

describe("v2 → v3", () => {
  function v2Link(extraView: Record<string, unknown> = {}, extraSeries: Record<string, unknown> = {}): string {
    const data = new ByteWriter();
    const p = packExact(hist());
    writePacked(data, p, false);
    const meta = {
      lossy: false,
      view: { ...view, ...extraView },
      series: [seriesMeta({ source: "a.hlog", hist: { sig: p.sig, ldv: p.ldv }, ...extraSeries })],
    };
    return wrapPayload(buildPayload(meta, data.finish()), 2);
  }

  it("a hand-built v2 link opens, without time options or summaries", () => {
    const r = decodeShare(v2Link());
    if (!r.ok) throw new Error(r.reason);
    expect(r.upgradedFrom).toBe(2);
    expect(r.state.view).toEqual(view);
    expect("time" in r.state.series[0]!).toBe(false);
  });

  it("a v2 link claiming v3 fields is refused, not silently read", () => {
    for (const [v, s, reason] of [
      [{ time: { window: 10, wallClock: false, tailNs: null } }, {}, /view.time is not part of a v2 link/],
      [{}, { time: { w: { n: 1, pass: 1, worst: null, drop: null } } }, /series\[0\].time is not part of a v2 link/],
    ] as const) {
      const r = decodeShare(v2Link(v, s));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });

  it("upgradeV2toV3 on its own leaves the document as it is", () => {
    const doc = { meta: { lossy: true, view, series: [] }, data: new Uint8Array([1]) };
    expect(upgradeV2toV3(doc)).toBe(doc);
  });
});
