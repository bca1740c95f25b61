// Hostile and broken fragments: every one gives ok:false with a reason, never a throw, and
// nothing is allocated beyond the stated limits.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { newHistogram } from "../core/histogram";
import { ByteWriter, base64urlEncode, zlibDeflate } from "./bytes";
import { buildPayload, wrapPayload } from "./codec";
import { decodeShare, encodeShare, MAX_FRAGMENT_CHARS, SHARE_VERSION } from "./index";
import { MAX_SERIES } from "./schema";
import { synthSweep } from "../../tests/support/sweep-fixture";
import { budgetMs } from "../../tests/support/budget";
import { seriesMeta, viewMeta } from "../../tests/support/share-meta";

function rejects(fragment: string, reason?: RegExp): string {
  let r: ReturnType<typeof decodeShare> | undefined;
  expect(() => (r = decodeShare(fragment))).not.toThrow();
  if (r!.ok) throw new Error(`accepted: ${fragment.slice(0, 80)}`);
  expect(r!.reason.length).toBeGreaterThan(10);
  if (reason) expect(r!.reason).toMatch(reason);
  return r!.reason;
}

const view = viewMeta({ yLog: true, timeline: { percentiles: [50] } });
function series(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return seriesMeta({ source: "a.hlog", throughput: 1000, kind: "response", hist: { sig: 3, ldv: 1 }, ...extra });
}
/** One histogram: n pairs declared, then the given index and count varints as written. */
function histData(pairs: [number, number][], declared = pairs.length): ByteWriter {
  const w = new ByteWriter();
  w.varint(declared);
  pairs.forEach(([index], k) => w.varint(k === 0 ? index : 0));
  let prev = 0;
  for (const [, c] of pairs) {
    w.svarint(c - prev);
    prev = c;
  }
  return w;
}
function link(meta: unknown, data: Uint8Array | ByteWriter = new Uint8Array(0), version = SHARE_VERSION): string {
  return wrapPayload(buildPayload(meta, data instanceof ByteWriter ? data.finish() : data), version);
}
const okMeta = (s: Record<string, unknown>[] = [series()]) => ({ lossy: false, view, series: s });

describe("hostile fragments", () => {
  it("a hand-built valid link is accepted (the baseline the others break)", () => {
    const r = decodeShare(link(okMeta(), histData([[1000, 5]])));
    if (!r.ok) throw new Error(r.reason);
    expect(r.state.series[0]!.histogram.totalCount).toBe(5);
  });

  it("empty, garbage, no s=, malformed version", () => {
    rejects("", /empty/);
    rejects("#", /empty/);
    rejects("hello", /no s=/);
    rejects("#x=1&y=2", /no s=/);
    rejects("s=", /version/);
    rejects("s=2", /version/);
    rejects("s=abc.AAAA", /version/);
    rejects("s=-1.AAAA", /version/);
    rejects("s=2.", /cut off/);
    rejects("s=2.!!!!", /base64url/);
    rejects("s=2.AAAA", /corrupt/);
    rejects("s=2.😀😀", /base64url/);
    rejects("s=2." + "A".repeat(4001), /impossible length/);
  });

  it("versions: newer asks for an update, 0 never existed", () => {
    const good = link(okMeta(), histData([[1, 1]]));
    rejects(good.replace(`s=${SHARE_VERSION}.`, `s=${SHARE_VERSION + 1}.`), new RegExp(`newer version of the app \\(v${SHARE_VERSION + 1}.*update the app`));
    rejects(good.replace(`s=${SHARE_VERSION}.`, "s=999999999."), /newer version/);
    rejects(good.replace(`s=${SHARE_VERSION}.`, "s=0."), /never existed/);
  });

  it("too long: refused before any work", () => {
    const huge = "s=2." + "A".repeat(MAX_FRAGMENT_CHARS);
    const t = performance.now();
    rejects(huge, /characters long/);
    expect(performance.now() - t).toBeLessThan(budgetMs(50));
  });

  it("truncated at every length and corrupted in the middle", () => {
    const { fragment } = encodeShare(synthSweep(), {});
    for (let n = 0; n < fragment.length; n += 97) rejects(fragment.slice(0, n));
    rejects(fragment.slice(0, -1));
    for (let pos = 10; pos < fragment.length - 4; pos += 211) {
      const c = fragment[pos] === "A" ? "B" : "A";
      rejects(fragment.slice(0, pos) + c + fragment.slice(pos + 1));
    }
    rejects(fragment + "AAAA", /trailing|corrupt/);
  });

  it("deflate bomb: refused at the inflate cap", () => {
    const bomb = new Uint8Array(40 * 1024 * 1024); // zeros: 40 MB from ~40 KB
    const fragment = `s=${SHARE_VERSION}.${base64urlEncode(zlibDeflate(bomb))}`;
    expect(fragment.length).toBeLessThan(MAX_FRAGMENT_CHARS);
    rejects(fragment, /inflates to more than/);
  });

  it("huge declared lengths", () => {
    const meta = new ByteWriter();
    meta.varint(2 ** 50); // metadata length
    rejects(`s=2.${base64urlEncode(zlibDeflate(meta.finish()))}`, /metadata is larger than/);
    const cut = new ByteWriter();
    cut.varint(1000);
    cut.bytes(new TextEncoder().encode('{"lossy":'));
    rejects(`s=2.${base64urlEncode(zlibDeflate(cut.finish()))}`, /metadata is cut off/);
    // A JSON list of 8 million numbers: refused before JSON.parse builds it.
    const list = new TextEncoder().encode("[" + "0,".repeat(8_000_000) + "0]");
    const big = new ByteWriter();
    big.varint(list.length);
    big.bytes(list);
    rejects(`s=2.${base64urlEncode(zlibDeflate(big.finish()))}`, /metadata is larger than/);
    rejects(link(okMeta(), histData([[1, 1]], 2 ** 40)), /declares \d+ histogram buckets; its layout has/);
    rejects(link(okMeta(), histData([[1, 1]], 40_000)), /declares 40000 histogram buckets but the link holds fewer/);
    const tl = histData([[1, 1]]);
    tl.varint(1e9);
    rejects(link(okMeta([series({ timeline: { t0: 0, t1: 1 } })]), tl), /timeline of 1000000000 buckets/);
    const tl2 = histData([[1, 1]]);
    tl2.varint(150);
    rejects(link(okMeta([series({ timeline: { t0: 0, t1: 1 } })]), tl2), /declares 150 timeline buckets/);
    const over = new ByteWriter();
    over.bytes(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]));
    rejects(link(okMeta(), over), /longer than 8 bytes/);
  });

  it("bad counts and indices: zero, negative, above 2^53, beyond the largest value, out of order", () => {
    rejects(link(okMeta(), histData([[1, 0]])), /zero, negative/);
    const neg = new ByteWriter();
    neg.varint(2);
    neg.varint(1);
    neg.varint(0);
    neg.svarint(5);
    neg.svarint(-7); // 5 then -2
    rejects(link(okMeta(), neg), /zero, negative/);
    rejects(
      link(
        okMeta(),
        histData([
          [1, 2 ** 53 - 1],
          [2, 2 ** 53 - 1],
        ]),
      ),
      /zero, negative|above 2\^53/,
    );
    const sum = new ByteWriter();
    sum.varint(2);
    sum.varint(1);
    sum.varint(0);
    sum.svarint(2 ** 52);
    sum.svarint(0); // 2^52 + 2^52 = 2^53 > max
    rejects(link(okMeta(), sum), /total count above 2\^53/);
    rejects(link(okMeta(), histData([[46_000, 1]])), /beyond the largest value/);
    const lossyBack = new ByteWriter();
    lossyBack.varint(2);
    lossyBack.varint(5000);
    lossyBack.svarint(-1000); // far before the previous index
    lossyBack.svarint(1);
    lossyBack.svarint(0);
    rejects(link({ ...okMeta(), lossy: true }, lossyBack), /out of order/);
  });

  it("timeline values: negative or infinite refused, NaN (no data) accepted", () => {
    for (const [v, ok] of [
      [-1, false],
      [Infinity, false],
      [-Infinity, false],
      [NaN, true],
      [0, true],
    ] as const) {
      const w = histData([[1, 1]]);
      w.varint(1);
      w.float64(v);
      const f = link(okMeta([series({ timeline: { t0: 0, t1: 1 } })]), w);
      if (ok) expect(decodeShare(f).ok).toBe(true);
      else rejects(f, /timeline value/);
    }
  });

  it("wrong types and values in the metadata, each named", () => {
    const one = histData([[1, 1]]);
    const cases: [unknown, RegExp][] = [
      [null, /metadata is not an object/],
      [[1, 2], /metadata is not an object/],
      ["x", /metadata is not an object/],
      [{ ...okMeta(), series: "a" }, /series is not a list/],
      [{ ...okMeta(), lossy: 1 }, /lossy is not true or false/],
      [{ ...okMeta(), view: undefined }, /view is not an object/],
      [{ ...okMeta(), view: { ...view, displayUnit: "minutes" } }, /view.displayUnit is not a unit/],
      [{ ...okMeta(), view: { ...view, yLog: "yes" } }, /view.yLog/],
      [{ ...okMeta(), view: { ...view, requirement: 5 } }, /view.requirement is not a string/],
      [{ ...okMeta(), view: { ...view, requirement: "x".repeat(3000) } }, /view.requirement is longer/],
      [{ ...okMeta(), view: { ...view, range: { start: "0", end: null } } }, /view.range.start/],
      [{ ...okMeta(), view: { ...view, timeline: { ...view.timeline, percentiles: [101] } } }, /percentiles\[0\] is outside/],
      [{ ...okMeta(), view: { ...view, timeline: { ...view.timeline, percentiles: new Array(100).fill(1) } } }, /more than 32/],
      [okMeta([series({ name: 5 })]), /series\[0\].name is not a string/],
      [okMeta([series({ name: "n".repeat(501) })]), /series\[0\].name is longer than 500/],
      [okMeta([series({ throughput: "NaN" })]), /series\[0\].throughput is not a finite number/],
      [okMeta([series({ kind: "other" })]), /series\[0\].kind/],
      [okMeta([series({ unit: "m" })]), /series\[0\].unit/],
      [okMeta([series({ visible: 1 })]), /series\[0\].visible/],
      [okMeta([series({ color: ["red"] })]), /series\[0\].color/],
      [okMeta([series({ hist: { sig: 9, ldv: 1 } })]), /hist.sig/],
      [okMeta([series({ hist: { sig: 3, ldv: 0 } })]), /hist.ldv/],
      [okMeta([series({ hist: { sig: 3, ldv: 1.5 } })]), /hist.ldv/],
      [okMeta([series({ hist: null })]), /hist is not an object/],
      [okMeta([series({ timeline: { t0: 5, t1: 1 } })]), /ends \(t1\) before it starts/],
      [okMeta([series({ timeline: [1, 2] })]), /timeline is not an object/],
      [okMeta([series({ startTime: {} })]), /startTime/],
      [okMeta(["x" as unknown as Record<string, unknown>]), /series\[0\] is not an object/],
    ];
    for (const [meta, reason] of cases) rejects(link(meta, one), reason);
  });

  it("prototype keys are plain data", () => {
    const json = `{"lossy":false,"__proto__":{"polluted":1},"view":${JSON.stringify(view)},"series":[]}`;
    const bytes = new TextEncoder().encode(json);
    const w = new ByteWriter();
    w.varint(bytes.length);
    w.bytes(bytes);
    const r = decodeShare(wrapPayload(w.finish()));
    expect(r.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    rejects(link({ view, series: [], constructor: 1 }), /lossy/); // an inherited "lossy" is never read
  });

  it("metadata that is not JSON or not UTF-8; trailing bytes", () => {
    for (const raw of [new TextEncoder().encode("{not json"), new Uint8Array([0xc3, 0x28])]) {
      const w = new ByteWriter();
      w.varint(raw.length);
      w.bytes(raw);
      rejects(wrapPayload(w.finish()), /not valid JSON/);
    }
    const deep = new TextEncoder().encode("[".repeat(200_000) + "]".repeat(200_000));
    const w = new ByteWriter();
    w.varint(deep.length);
    w.bytes(deep);
    rejects(wrapPayload(w.finish()));
    const extra = histData([[1, 1]]);
    extra.varint(7);
    rejects(link(okMeta(), extra), /1 unexplained bytes/);
  });

  it("too many series; too many histogram buckets together", () => {
    const many = Array.from({ length: MAX_SERIES + 1 }, () => series());
    rejects(link(okMeta(many), new Uint8Array(0)), /201 series; at most 200/);
    // Each 5-digit series with a bucket at 2^52 needs about 4.6 million slots: 3 exceed the budget.
    const top = 4_500_000;
    const data = new ByteWriter();
    for (let i = 0; i < 3; i++) data.bytes(histData([[top, 1]]).finish());
    const big = Array.from({ length: 3 }, () => series({ hist: { sig: 5, ldv: 1 } }));
    rejects(link(okMeta(big), data), /need more than \d+ buckets: refused/);
    // Empty histograms still allocate their first bucket (262 144 slots at 5 digits).
    const empties = Array.from({ length: 40 }, () => series({ hist: { sig: 5, ldv: 1 } }));
    const zeros = new ByteWriter();
    for (let i = 0; i < 40; i++) zeros.varint(0);
    rejects(link(okMeta(empties), zeros), /need more than \d+ buckets: refused/);
    // and the encoder refuses what the decoder would
    const wide = newHistogram(5);
    wide.recordValue(1e11);
    const s0 = { ...synthSweep().series[0]!, histogram: wide };
    expect(() => encodeShare({ view: synthSweep().view, series: [s0, s0, s0, s0] }, { fullPrecision: true })).toThrow(/without full precision/);
    expect(decodeShare(encodeShare({ view: synthSweep().view, series: [s0, s0, s0, s0] }).fragment).ok).toBe(true);
  });

  it("property: random text, random payloads and mutated valid payloads never throw", () => {
    const validMeta = okMeta([series({ timeline: { t0: 0, t1: 10 } })]);
    const valid = histData([
      [100, 3],
      [200, 4],
    ]);
    valid.varint(2);
    valid.float64(1);
    valid.float64(2);
    const payload = buildPayload(validMeta, valid.finish());
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        expect(() => decodeShare(s)).not.toThrow();
        expect(() => decodeShare(`s=2.${s}`)).not.toThrow();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const r = decodeShare(wrapPayload(bytes));
        expect(r.ok === false || r.ok === true).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(payload.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (edits) => {
        const p = payload.slice();
        for (const [i, b] of edits) p[i] = b;
        let r: ReturnType<typeof decodeShare> | undefined;
        expect(() => (r = decodeShare(wrapPayload(p)))).not.toThrow();
        if (r && !r.ok) expect(r.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("a link made from a histogram with values up to 2^53 decodes (the layout's edge)", () => {
    const h = newHistogram(3);
    h.recordValueWithCount(Number.MAX_SAFE_INTEGER, 3);
    h.recordValueWithCount(1, 2);
    const state = { view: synthSweep().view, series: [{ ...synthSweep().series[0]!, histogram: h }] };
    for (const fullPrecision of [false, true]) {
      const r = decodeShare(encodeShare(state, { fullPrecision }).fragment);
      if (!r.ok) throw new Error(r.reason);
      expect(r.state.series[0]!.histogram.totalCount).toBe(5);
    }
  });
});
