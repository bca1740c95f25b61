// A window's spectrum made from its counts kept dense and moved (a run followed live asking for
// its last minute every second) equals the spectrum of the window's histogram summed afresh, and
// that of the window's intervals added one by one from the log's own payloads, through appends,
// windows that move forwards, jump back, alternate and share the kept slots.
import { describe, expect, it } from "vitest";
import { build, decodeFromCompressedBase64 } from "hdr-histogram-js";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { mulberry32 } from "../../tests/support/queue-sim";
import { Store } from "./store";
import { windowHistogram, windowSpectrum } from "./window-query";
import { spectrumOf, spectrumOfDense } from "../core/spectrum";
import { indexRange } from "../core/blocks";
import { intervalsOf } from "./intervals";
import { maxOf, newHistogram } from "../core/histogram";
import type { TimeRange } from "./protocol";

/** One-second intervals of a queue with GC-like pauses and the backlog they leave; now and then a value of 0. */
function intervals(n: number, seed: number) {
  const rnd = mulberry32(seed);
  const out = [];
  let backlog = 0;
  for (let i = 0; i < n; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3, lowestDiscernibleValue: 1, highestTrackableValue: 2 ** 40, autoResize: true });
    if (rnd() < 0.03) backlog = 2e8 * rnd();
    for (let k = 0; k < 60; k++) {
      h.recordValue(rnd() < 0.01 ? 0 : Math.round(1e5 + 2e6 * rnd() ** 5 + backlog * rnd()));
      backlog *= 0.97;
    }
    out.push({ start: 100 + i, length: 1, histogram: h });
  }
  return out;
}

const INTERVAL = /^(Tag=[^,]*,)?([0-9.]+),([0-9.]+),([0-9.]+),(\S+)$/;

describe("a window's spectrum from its counts kept and moved", () => {
  it("equals the window's histogram summed afresh, and its intervals added one by one, as rows are appended", async () => {
    const ivs = intervals(400, 3);
    const text = writeHlog(ivs);
    const lines = text.split("\n");
    const firstRow = lines.findIndex((l) => INTERVAL.test(l.trim()));
    // 150 intervals loaded (blocks made), the rest appended one at a time as a follower does.
    const store = new Store();
    await store.load("run.hlog", [lines.slice(0, firstRow + 150).join("\n") + "\n"]);
    const s = store.series[0]!;
    expect(s.blocks).toBeTruthy();
    const shift = s.intervals!.offsets[0]! - 100;
    const payloads = lines
      .slice(firstRow)
      .filter((l) => INTERVAL.test(l.trim()))
      .map((l) => INTERVAL.exec(l.trim())!);

    const byHand = (range: TimeRange) => {
      const h = newHistogram(3, 1, 2);
      for (const m of payloads) {
        const o = Number(m[2]) + shift;
        if (o > s.intervals!.offsets[s.intervals!.n - 1]!) break;
        if (o >= (range.start ?? -Infinity) && o <= (range.end ?? Infinity)) h.add(decodeFromCompressedBase64(m[5]!));
      }
      return h;
    };
    const check = (range: TimeRange, handToo: boolean) => {
      const fresh = spectrumOf(windowHistogram(s, range));
      const kept = windowSpectrum(s, range);
      expect(kept).toEqual(fresh);
      // The window's kept counts themselves, not a fallback to a histogram summed afresh.
      const t = s.intervals!;
      const [i0, i1] = indexRange(t.offsets, t.n, range.start ?? -Infinity, range.end ?? Infinity);
      if (i0 <= i1) {
        const w = intervalsOf(s).windowCounts(i0, i1);
        expect(spectrumOfDense(w.counts, w.total, 1, 3, w.lo, w.hi)).toEqual(fresh);
      }
      if (handToo) {
        const h = byHand(range);
        expect(kept.totalCount).toBe(h.totalCount);
        for (const p of [50, 90, 99, 99.9]) expect(kept.percentiles[String(p)]).toBe(h.getValueAtPercentile(p));
        expect(kept.max).toBe(maxOf(h));
      }
    };

    let checked = 0;
    for (let i = 150; i < 400; i++) {
      const m = payloads[i]!;
      store.append(s.id, [{ offset: Number(m[2]) + shift, length: Number(m[3]), maxColumn: Number(m[4]), payload: m[5]! }]);
      const end = s.intervals!.offsets[s.intervals!.n - 1]!;
      // The live panel's last minute and the page's last 5 minutes, asked together every second.
      check({ start: end - 60, end: null }, i % 50 === 0);
      check({ start: Math.max(shift + 100, end - 300), end: null }, false);
      // Now and then a window that jumps back, one far away, and one of a single interval.
      if (i % 37 === 0) check({ start: end - 200, end: end - 120 }, true);
      if (i % 41 === 0) check({ start: shift + 100, end: shift + 101 }, false);
      checked++;
    }
    expect(checked).toBe(250);
    // A window with no interval in it, and one past the end.
    expect(windowSpectrum(s, { start: 0, end: 1 }).totalCount).toBe(0);
    expect(windowSpectrum(s, { start: 1e9, end: null })).toEqual(spectrumOf(windowHistogram(s, { start: 1e9, end: null })));
  }, 60_000);

  it("starts again when an appended row in a coarser layout changes the series' counts", async () => {
    const ivs = intervals(120, 5);
    const store = new Store();
    await store.load("run.hlog", [writeHlog(ivs)]);
    const s = store.series[0]!;
    const end0 = s.intervals!.offsets[s.intervals!.n - 1]!;
    windowSpectrum(s, { start: end0 - 60, end: null });
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 2, lowestDiscernibleValue: 1, highestTrackableValue: 2 ** 40, autoResize: true });
    h.recordValue(5_000_000);
    const text = writeHlog([{ start: 100 + 120, length: 1, histogram: h }]);
    const m = text
      .split("\n")
      .map((l) => INTERVAL.exec(l.trim()))
      .find((x) => x !== null)!;
    store.append(s.id, [{ offset: end0 + 1, length: 1, maxColumn: Number(m[4]), payload: m[5]! }]);
    const range = { start: end0 + 1 - 60, end: null };
    expect(s.histogram.numberOfSignificantValueDigits).toBe(2);
    expect(windowSpectrum(s, range)).toEqual(spectrumOf(windowHistogram(s, range)));
  });
});
