import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Histogram } from "hdr-histogram-js";
import { bisectLeft } from "d3";
import { bucketsOf, lowestDiscernibleValueOf, maxOf, newHistogram, valueAtPercentile } from "../core/histogram";
import { UNITS } from "../core/types";
import { decodeShare, encodeShare, SHARE_VERSION, type ShareState, type SharedSeries, type ShareView } from "./index";
import { simSweep, synthSweep } from "../../tests/support/sweep-fixture";

const PERCENTILES = [0.1, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100];
const BUDGET = 20 * 1024;

function relErr(got: number, want: number): number {
  return got === want ? 0 : Math.abs(got - want) / Math.abs(want);
}

/** Value at a count rank (1-based) as getValueAtPercentile finds it: the first bucket reaching it. */
function valueAtRank(values: Float64Array, cumulative: Float64Array, rank: number): number {
  return values[Math.min(bisectLeft(cumulative, rank), values.length - 1)]!;
}

/**
 * Worst relative error of the rebuilt histogram against the original: at the listed
 * percentiles (valueAtPercentile on both) and at every bucket boundary of the original (the
 * ranks where the original's value changes, and one past each).
 */
function worstError(orig: Histogram, rebuilt: Histogram): number {
  let worst = 0;
  for (const p of PERCENTILES) worst = Math.max(worst, relErr(valueAtPercentile(rebuilt, p), valueAtPercentile(orig, p)));
  const a = bucketsOf(orig);
  const b = bucketsOf(rebuilt);
  for (let k = 0; k < a.values.length; k++) {
    for (const rank of [a.cumulative[k]!, a.cumulative[k]! + 1]) {
      if (rank > a.totalCount) continue;
      worst = Math.max(worst, relErr(valueAtRank(b.values, b.cumulative, rank), valueAtRank(a.values, a.cumulative, rank)));
    }
  }
  return worst;
}

/** The state without histograms and timeline values: what must come back exactly. */
function metadata(s: ShareState) {
  return {
    view: s.view,
    series: s.series.map(({ histogram: _h, timeline, ...rest }) => ({
      ...rest,
      ...(timeline === undefined ? {} : { timeline: timeline === null ? null : { t0: timeline.t0, t1: timeline.t1, n: timeline.max.length } }),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Generators

const noNegZero = (x: number) => (Object.is(x, -0) ? 0 : x);
/** Uniform in [0, 1] (fc.double is uniform over the doubles' bit patterns: mostly tiny values). */
const unit01 = fc.integer({ min: 0, max: 1_000_000 }).map((x) => x / 1_000_000);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }).map(noNegZero);
const nasty = fc.constantFrom("<script>alert(1)</script>", "\"'&amp;#s=2.AAAA", "日本語 ✓ 😀", "\u0000\u001f", "\ud800 lone", "a".repeat(500), "");
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), nasty);

const histogramArb = fc
  .record({
    sig: fc.constantFrom(2, 3, 3, 3, 4),
    ldv: fc.constantFrom(1, 1, 1, 1000),
    // Values 10^(from + span·u): spans of any width anywhere in 1 ns..1e12, some zeros.
    from: unit01.map((u) => 12 * u),
    span: unit01,
    entries: fc.array(
      fc.tuple(fc.oneof({ weight: 20, arbitrary: unit01 }, { weight: 1, arbitrary: fc.constant(-1) }), fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 3 }))),
      { minLength: 0, maxLength: 300 },
    ),
  })
  .map(({ sig, ldv, from, span, entries }) => {
    const h = newHistogram(sig, ldv);
    for (const [u, c] of entries) h.recordValueWithCount(u < 0 ? 0 : Math.round(10 ** (from + span * (12 - from) * u)), c);
    return h;
  });

const timelineArb = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc
    .record({
      t0: finite,
      dur: fc.double({ min: 0, max: 1e7, noNaN: true }),
      max: fc.array(
        fc.oneof(
          unit01.map((u) => 10 ** (24 * u - 6)),
          fc.double({ min: 0, max: 1e15, noNaN: true }),
          fc.constant(0),
          fc.constant(NaN),
        ),
        { maxLength: 200 },
      ),
    })
    .map(({ t0, dur, max }) => ({ t0, t1: t0 + dur, max })),
);

const seriesArb: fc.Arbitrary<SharedSeries> = fc
  .record(
    {
      name: text,
      source: text,
      tag: text,
      config: text,
      throughput: fc.option(finite),
      kind: fc.constantFrom("response" as const, "service" as const, "" as const),
      unit: fc.constantFrom(...UNITS),
      color: fc.oneof(fc.constantFrom("#1f77b4", "hsl(200 50% 40%)", "<script>"), fc.string({ maxLength: 100 })),
      visible: fc.boolean(),
      histogram: histogramArb,
      timeline: timelineArb,
      startTime: fc.option(finite),
    },
    { requiredKeys: ["name", "source", "tag", "config", "throughput", "kind", "unit", "visible", "histogram", "startTime"] },
  )
  .map((s) => {
    const out = { ...s } as SharedSeries;
    if (s.timeline === undefined) delete out.timeline;
    return out;
  });

const viewArb: fc.Arbitrary<ShareView> = fc.record({
  displayUnit: fc.constantFrom(...UNITS),
  yLog: fc.boolean(),
  sideBySide: fc.boolean(),
  requirement: fc.option(fc.oneof(fc.constant("p50<=1ms, p99<=5ms"), text)),
  range: fc.record({ start: fc.option(finite), end: fc.option(finite) }),
  timeline: fc.record({
    percentiles: fc.array(fc.double({ min: 0, max: 100, noNaN: true }).map(noNegZero), { maxLength: 8 }),
    perLane: fc.boolean(),
    wallClock: fc.boolean(),
    log: fc.boolean(),
  }),
});

const stateArb: fc.Arbitrary<ShareState> = fc.record({ view: viewArb, series: fc.array(seriesArb, { minLength: 1, maxLength: 10 }) });

// ---------------------------------------------------------------------------------------------

describe("round trip", () => {
  it("lossy (default): metadata equal, totals exact, every percentile and bucket boundary within 1 %", () => {
    let worstSeen = 0;
    fc.assert(
      fc.property(stateArb, (state) => {
        const enc = encodeShare(state);
        expect(enc.lossy).toBe(true);
        expect(enc.fragment.startsWith(`s=${SHARE_VERSION}.`)).toBe(true);
        expect(enc.length).toBe(enc.fragment.length);
        const dec = decodeShare(`#${enc.fragment}`);
        if (!dec.ok) throw new Error(dec.reason);
        const viaAddress = decodeShare(`https://example.org/spectrum/?x=1#${enc.fragment}`);
        if (!viaAddress.ok) throw new Error(viaAddress.reason);
        expect(metadata(viaAddress.state)).toEqual(metadata(dec.state));
        expect(dec.lossy).toBe(true);
        expect(dec.upgradedFrom).toBeNull();
        expect(metadata(dec.state)).toEqual(metadata(state));
        state.series.forEach((s, i) => {
          const r = dec.state.series[i]!;
          expect(r.histogram.totalCount).toBe(s.histogram.totalCount);
          const err = worstError(s.histogram, r.histogram);
          worstSeen = Math.max(worstSeen, err);
          expect(err).toBeLessThanOrEqual(0.01);
          expect(relErr(maxOf(r.histogram), maxOf(s.histogram))).toBeLessThanOrEqual(0.01);
          // The min and percentile 0 (lowest equivalent values) too: originals here have ≥ 2 digits.
          expect(relErr(valueAtPercentile(r.histogram, 0), valueAtPercentile(s.histogram, 0))).toBeLessThanOrEqual(0.01);
          if (s.histogram.totalCount > 0) expect(relErr(r.histogram.minNonZeroValue, s.histogram.minNonZeroValue)).toBeLessThanOrEqual(0.01);
          if (s.timeline) {
            s.timeline.max.forEach((v, k) => {
              const got = r.timeline!.max[k]!;
              if (Number.isNaN(v)) expect(got).toBeNaN();
              else expect(relErr(got, v)).toBeLessThanOrEqual(0.01);
            });
          }
        });
      }),
      { numRuns: 60 },
    );
    console.log(`round trip (lossy): worst relative error ${(worstSeen * 100).toFixed(4)} %`);
  });

  it("full precision: everything exact, bucket for bucket", () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        const enc = encodeShare(state, { fullPrecision: true });
        expect(enc.lossy).toBe(false);
        const dec = decodeShare(enc.fragment);
        if (!dec.ok) throw new Error(dec.reason);
        expect(dec.lossy).toBe(false);
        expect(metadata(dec.state)).toEqual(metadata(state));
        state.series.forEach((s, i) => {
          const r = dec.state.series[i]!;
          expect(r.timeline).toEqual(s.timeline);
          expect(r.histogram.numberOfSignificantValueDigits).toBe(s.histogram.numberOfSignificantValueDigits);
          expect(lowestDiscernibleValueOf(r.histogram)).toBe(lowestDiscernibleValueOf(s.histogram));
          expect(bucketsOf(r.histogram)).toEqual(bucketsOf(s.histogram));
          for (const p of PERCENTILES) expect(valueAtPercentile(r.histogram, p)).toBe(valueAtPercentile(s.histogram, p));
        });
      }),
      { numRuns: 40 },
    );
  });

  it("an empty view and a series with an empty histogram round-trip", () => {
    const view: ShareView = {
      displayUnit: "us",
      yLog: false,
      sideBySide: true,
      requirement: null,
      range: { start: 1.5, end: null },
      timeline: { percentiles: [], perLane: true, wallClock: true, log: false },
    };
    for (const fullPrecision of [false, true]) {
      const empty = decodeShare(encodeShare({ view, series: [] }, { fullPrecision }).fragment);
      expect(empty).toEqual({ ok: true, state: { view, series: [] }, lossy: !fullPrecision, upgradedFrom: null });
      const h = newHistogram();
      const one: SharedSeries = { name: "x", source: "", tag: "", config: "", throughput: null, kind: "", unit: "ns", visible: false, histogram: h, startTime: null };
      const dec = decodeShare(encodeShare({ view, series: [one] }, { fullPrecision }).fragment);
      if (!dec.ok) throw new Error(dec.reason);
      expect(dec.state.series[0]!.histogram.totalCount).toBe(0);
      expect("timeline" in dec.state.series[0]!).toBe(false);
      expect("color" in dec.state.series[0]!).toBe(false);
    }
  });

  it("refuses to encode what could not be decoded, naming the field", () => {
    const base = synthSweep().series[0]!;
    const view = synthSweep().view;
    expect(() => encodeShare({ view, series: [{ ...base, name: "n".repeat(501) }] })).toThrow(/series\[0\]\.name/);
    expect(() => encodeShare({ view, series: [{ ...base, throughput: NaN }] })).toThrow(/throughput/);
    expect(() => encodeShare({ view, series: [{ ...base, timeline: { t0: 0, t1: 1, max: [-1] } }] })).toThrow(/timeline value/);
    expect(() => encodeShare({ view, series: [{ ...base, timeline: { t0: 0, t1: 1, max: new Array(201).fill(1) } }] })).toThrow(/201 buckets/);
    expect(() => encodeShare({ view: { ...view, displayUnit: "min" as never }, series: [] })).toThrow(/displayUnit/);
  });
});

describe("size budget: 8 series of a throughput sweep in at most 20 KB", () => {
  const cases: [string, () => ShareState][] = [
    ["synthetic (lognormal body, queueing and stall tails, 1e6–1e8 counts)", () => synthSweep()],
    ["queue simulator (stalls, 2e5–5e5 requests per series)", () => simSweep()],
  ];
  for (const [label, make] of cases) {
    it(label, () => {
      const state = make();
      expect(state.series).toHaveLength(8);
      for (const s of state.series) {
        expect(s.timeline!.max).toHaveLength(200);
        const b = bucketsOf(s.histogram);
        expect(Math.log10(b.values[b.values.length - 1]! / Math.max(1, b.values[0]!))).toBeGreaterThanOrEqual(3);
      }
      const lossy = encodeShare(state);
      const full = encodeShare(state, { fullPrecision: true });
      const counts = state.series.map((s) => s.histogram.totalCount.toExponential(1)).join(", ");
      const dec = decodeShare(lossy.fragment);
      if (!dec.ok) throw new Error(dec.reason);
      let worst = 0;
      state.series.forEach((s, i) => {
        expect(dec.state.series[i]!.histogram.totalCount).toBe(s.histogram.totalCount);
        worst = Math.max(worst, worstError(s.histogram, dec.state.series[i]!.histogram));
        // The rank lookup above is the library's percentile semantics: check it at a sample of boundaries.
        const b = bucketsOf(s.histogram);
        for (let k = 0; k < b.values.length; k += Math.max(1, Math.floor(b.values.length / 50))) {
          const p = (100 * b.cumulative[k]!) / b.totalCount;
          expect(relErr(valueAtPercentile(dec.state.series[i]!.histogram, p), valueAtPercentile(s.histogram, p))).toBeLessThanOrEqual(0.01);
        }
      });
      console.log(
        `${label}\n  counts: ${counts}\n  fragment: lossy ${lossy.length} chars (budget ${BUDGET}), full precision ${full.length} chars; worst relative error ${(worst * 100).toFixed(4)} %`,
      );
      expect(lossy.length).toBeLessThanOrEqual(BUDGET);
      expect(worst).toBeLessThanOrEqual(0.01);
      expect(decodeShare(full.fragment).ok).toBe(true);
    });
  }
});
