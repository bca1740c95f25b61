// The carried results (v5): what the author's page computed comes back from a link exactly
// (every float64, NaN and infinities included), fields unknown to this version travel as they
// are, malformed ones are refused with a message, and the sweep links stay within the budget.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { lowestDiscernibleValueOf, sparseOf } from "../core/histogram";
import { spectrumOf } from "../core/spectrum";
import { compareSides } from "../core/compare";
import type { CompareResult, RunInput } from "../core/compare/types";
import type { Histogram } from "hdr-histogram-js";
import { shownOf } from "../engine/share-query";
import { buildPayload, wrapPayload } from "./codec";
import { decodeShare, encodeShare, type ShareState } from "./index";
import { packJson, unpackJson } from "./results";
import { simSweep, synthSweep } from "../../tests/support/sweep-fixture";
import { seriesMeta, viewMeta } from "../../tests/support/share-meta";
import { ByteWriter } from "./bytes";

const BUDGET = 20 * 1024;

function run(name: string, h: Histogram): RunInput {
  return { name, unitNs: 1, layout: { digits: h.numberOfSignificantValueDigits, lowest: lowestDiscernibleValueOf(h) }, data: { kind: "counts", counts: sparseOf(h) } };
}

/** A comparison of two series of a sweep, as the page would carry it (counts resampled: the same shape as any answer). */
function answerOf(state: ShareState, a: number, b: number): CompareResult {
  const sa = state.series[a]!;
  const sb = state.series[b]!;
  return compareSides({ label: sa.name, runs: [run(sa.name, sa.histogram)] }, { label: sb.name, runs: [run(sb.name, sb.histogram)] }, { resamples: 200 });
}

/** The state with what its author's page showed (the table's and the requirement's percentiles) and a comparison. */
function withResults(state: ShareState, compare: CompareResult | null): ShareState {
  const series = state.series.map((s) => ({ ...s, shown: shownOf(spectrumOf(s.histogram), s.histogram.totalCount, [], [50, 99, 99.9, 100]) }));
  const view = compare ? { ...state.view, compare: { baseline: state.series[3]!.name, candidate: state.series[7]!.name, margin: 0.05, repeats: true } } : state.view;
  return { view, series, ...(compare ? { results: { compare } } : {}) };
}

describe("packJson", () => {
  it("round-trips any JSON-like value through JSON text: float64 exactly, NaN, ±Infinity and -0 included", () => {
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, fc.double(), fc.string(), fc.boolean(), fc.constant(null), tie("list"), tie("rec"), tie("table")),
      list: fc.array(tie("v"), { maxLength: 4 }),
      rec: fc.dictionary(
        fc.string().filter((k) => !k.startsWith("$")),
        tie("v"),
        { maxKeys: 4 },
      ),
      // Lists of objects with the same keys (what is written as columns).
      table: fc.array(fc.record({ a: fc.double(), b: fc.oneof(fc.double(), fc.constant(null)), c: fc.string() }), { minLength: 2, maxLength: 5 }),
    }));
    fc.assert(
      fc.property(value.v, (x) => {
        // structuredClone: the value without the symbol-keyed helpers fast-check puts on what it generates.
        expect(unpackJson(JSON.parse(JSON.stringify(packJson(x))), "x")).toStrictEqual(structuredClone(x));
      }),
      { numRuns: 300 },
    );
    expect(Object.is(unpackJson(JSON.parse(JSON.stringify(packJson(-0))), "x"), -0)).toBe(true);
  });

  it("a key named __proto__ stays data", () => {
    const x = JSON.parse('{"__proto__": {"polluted": 1}, "a": [{"__proto__": 2, "b": 1}, {"__proto__": 3, "b": 2}]}');
    const y = unpackJson(JSON.parse(JSON.stringify(packJson(x))), "x") as Record<string, unknown>;
    expect(Object.getPrototypeOf(y)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(y, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses to write a field starting with $ (its markers)", () => {
    expect(() => packJson({ $n: "NaN" })).toThrow(RangeError);
  });
});

describe("carried results round trip", () => {
  it("a comparison's answer and every series' shown values come back from the link exactly, unknown fields included", () => {
    const sweep = synthSweep();
    const answer = answerOf(sweep, 3, 7);
    // A field this version does not know (a later comparison's) travels as it is.
    const later = { ...answer, points: answer.points.map((p, i) => ({ ...p, reason: i % 2 ? null : "too few values" })), note: { by: ["x", 1] } } as CompareResult;
    const state = withResults(sweep, later);
    const r = decodeShare(encodeShare(state).fragment);
    if (!r.ok) throw new Error(r.reason);
    expect(r.state.results!.compare).toStrictEqual(later);
    r.state.series.forEach((s, i) => expect(s.shown).toStrictEqual(state.series[i]!.shown));
    expect(r.state.view.compare).toEqual(state.view.compare);
    // The values carried are the original's, not the rounded histogram's.
    const rebuilt = spectrumOf(r.state.series[7]!.histogram).percentiles["99.9"]!;
    const orig = spectrumOf(sweep.series[7]!.histogram).percentiles["99.9"]!;
    expect(r.state.series[7]!.shown!.at["99.9"]).toBe(orig);
    expect(rebuilt).toBeGreaterThanOrEqual(orig);
  });

  it("a further comparison setting travels in view.compare", () => {
    const state = withResults(synthSweep(), null);
    const view = { ...state.view, compare: { baseline: "a", candidate: "b", margin: 0.1, repeats: false, headlinePercentile: 99.9 } };
    const r = decodeShare(encodeShare({ ...state, view }).fragment);
    if (!r.ok) throw new Error(r.reason);
    expect(r.state.view.compare).toEqual(view.compare);
  });

  const cases: [string, () => ShareState][] = [
    ["synthetic", () => synthSweep()],
    ["queue simulator", () => simSweep()],
  ];
  for (const [label, make] of cases) {
    it(`size: the 8-series sweep (${label}) with its shown values stays within ${BUDGET} characters; a comparison adds at most 6 KB`, () => {
      const sweep = make();
      const bare = encodeShare(sweep).length;
      const shown = encodeShare(withResults(sweep, null)).length;
      const compared = encodeShare(withResults(sweep, answerOf(sweep, 3, 7))).length;
      console.log(`${label}: ${bare} characters without results, ${shown} with each series' shown values, ${compared} with a comparison too`);
      expect(shown).toBeLessThanOrEqual(BUDGET);
      // A comparison's curve (about 40 points of 13 numbers, every float64 as written) adds 4–5 KB.
      expect(compared - shown).toBeLessThanOrEqual(6 * 1024);
    });
  }
});

describe("hostile results", () => {
  const link = (meta: Record<string, unknown>) => {
    const w = new ByteWriter();
    w.varint(1);
    w.varint(1000);
    w.svarint(5);
    return wrapPayload(buildPayload({ lossy: false, view: viewMeta(), series: [seriesMeta({ hist: { sig: 3, ldv: 1 }, ...meta })] }, w.finish()));
  };
  const withResultsMeta = (results: unknown) => {
    const w = new ByteWriter();
    w.varint(1);
    w.varint(1000);
    w.svarint(5);
    return wrapPayload(buildPayload({ lossy: false, view: viewMeta(), series: [seriesMeta({ hist: { sig: 3, ldv: 1 } })], results }, w.finish()));
  };
  const shown = { at: { "50": 1000, "100": 1000 }, min: 1000, mean: 1000, stdDeviation: 0, count: 5, warnings: [] };
  const answer = packJson(answerOf(synthSweep(), 0, 4)) as Record<string, unknown>;

  it("the baselines are accepted", () => {
    expect(decodeShare(link({ shown })).ok).toBe(true);
    expect(decodeShare(withResultsMeta({ compare: answer })).ok).toBe(true);
  });

  it("malformed shown values and answers are refused with the field named, never thrown", () => {
    const bad: [string, unknown][] = [
      ["shown", { ...shown, at: { "101": 1 } }],
      ["shown", { ...shown, at: JSON.parse('{"__proto__": 1}') }],
      ["shown", { ...shown, at: { "50": "1" } }],
      ["shown", { ...shown, at: { "050": 1 } }],
      ["shown", { ...shown, warnings: [{ kind: "saturation", series: "a" }] }],
      ["shown", { ...shown, warnings: [{ kind: "other", series: "a" }] }],
      ["shown", { ...shown, mean: { $n: "nope" } }],
      ["shown", { ...shown, count: -1 }],
      ["shown", "x"],
    ];
    for (const [k, v] of bad) {
      let r: ReturnType<typeof decodeShare> | undefined;
      expect(() => (r = decodeShare(link({ [k]: v })))).not.toThrow();
      expect(r!.ok, JSON.stringify(v)).toBe(false);
    }
    const deep: unknown = JSON.parse("[".repeat(100) + "]".repeat(100));
    const answers: unknown[] = [
      { ...answer, points: { $c: ["percentile"], $r: [[1, 2]] } },
      { ...answer, points: { $c: ["percentile"], $r: [[1]], $x: 1 } },
      { ...answer, sentence: 5 },
      { ...answer, note: deep },
      { ...answer, max: { $n: "Inf", x: 1 } },
      { ...answer, warnings: [{ kind: "units" }] },
      { ...answer, base: { ...(answer.base as object), runs: [1] } },
      { ...answer, $evil: 1 },
      "x",
    ];
    for (const a of answers) {
      let r: ReturnType<typeof decodeShare> | undefined;
      expect(() => (r = decodeShare(withResultsMeta({ compare: a })))).not.toThrow();
      expect(r!.ok).toBe(false);
      if (!r!.ok) expect(r!.reason).toMatch(/results\.compare/);
    }
  });

  it("a point with a verdict the page does not know is refused", () => {
    const unpacked = unpackJson(answer, "a") as CompareResult;
    const r = decodeShare(withResultsMeta({ compare: packJson({ ...unpacked, points: unpacked.points.map((p) => ({ ...p, verdict: "<script>" })) }) }));
    expect(r.ok).toBe(false);
  });
});
