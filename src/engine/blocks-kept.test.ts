// Readers that keep no blocks ({ keepBlocks: false }, the command line's report of whole logs) give
// the same series as readers that do, read whole or in parts; only the blocks are missing, and
// a time window over such a series (which then decodes its intervals) has the same counts.
import { describe, expect, it } from "vitest";
import { bucketsOf } from "../core/histogram";
import type { SeriesModel } from "../core/series";
import { hlogFixture } from "../../tests/fuzz/generators";
import { ingest, ingestHlogInParts, ingestHlogPart, type IngestResult } from "./ingest";
import { windowHistogram } from "./window-query";

function chunked(text: string, size = 777): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The text cut after line `line` (1-based): [before, after]. */
function cutAfter(text: string, line: number): [string, string] {
  let at = 0;
  for (let k = 0; k < line; k++) at = text.indexOf("\n", at) + 1;
  return [text.slice(0, at), text.slice(at)];
}

async function inTwoParts(name: string, [first, second]: [string, string], partBlocks: boolean, joinBlocks: boolean): Promise<IngestResult> {
  const bytes = new TextEncoder().encode(second);
  const part = structuredClone(await ingestHlogPart(name, chunked(second), undefined, bytes, { keepBlocks: partBlocks }));
  return ingestHlogInParts(name, chunked(first), [Promise.resolve(part)], undefined, { keepBlocks: joinBlocks });
}

function valuesOf(s: SeriesModel) {
  const b = bucketsOf(s.histogram);
  const t = s.intervals!;
  return {
    name: s.name,
    unit: s.recordedUnit,
    count: s.histogram.totalCount,
    min: s.histogram.minNonZeroValue,
    values: Array.from(b.values),
    cumulative: Array.from(b.cumulative),
    table: (["offsets", "lengths", "maxes", "counts", "maxColumn", "p50"] as const).map((c) => Array.from(t[c].subarray(0, t.n))),
    payloads: t.allPayloads(),
  };
}

describe("interval logs read without blocks", () => {
  const f = hlogFixture(21, { tags: ["", "a"], seconds: 400, rate: 40 });
  const lines = f.text.split("\n");
  lines.splice(50, 0, "1.0,oops,2.0,HISTnotbase64");
  const text = lines.join("\n");

  it("give the series the blocks' readers give, without blocks, read whole or in two parts", async () => {
    const whole = await ingest("b.hlog", chunked(text));
    expect(whole.series.length).toBe(2);
    expect(whole.series.every((s) => s.blocks)).toBe(true);
    const bare = await ingest("b.hlog", chunked(text), undefined, undefined, { keepBlocks: false });
    expect(bare.problems).toEqual(whole.problems);
    expect(bare.series.map(valuesOf)).toEqual(whole.series.map(valuesOf));
    expect(bare.series.map((s) => s.blocks ?? null)).toEqual([null, null]);
    for (const line of [10, 51, 300, 700]) {
      const joined = await inTwoParts("b.hlog", cutAfter(text, line), false, false);
      expect(joined.problems, `cut after ${line}`).toEqual(whole.problems);
      expect(joined.series.map(valuesOf)).toEqual(whole.series.map(valuesOf));
      expect(joined.series.map((s) => s.blocks ?? null)).toEqual([null, null]);
    }
  });

  it("a part without blocks joined by a reader that keeps them leaves the series without blocks, its values the same", async () => {
    const whole = await ingest("b.hlog", chunked(text));
    for (const [partBlocks, joinBlocks] of [
      [false, true],
      [true, false],
    ]) {
      const joined = await inTwoParts("b.hlog", cutAfter(text, 333), partBlocks!, joinBlocks!);
      expect(joined.series.map(valuesOf)).toEqual(whole.series.map(valuesOf));
      expect(joined.series.map((s) => s.blocks ?? null)).toEqual([null, null]);
    }
  });

  it("a time window over a series without blocks holds the counts the blocks give", async () => {
    const withBlocks = (await ingest("b.hlog", chunked(text))).series[0]!;
    const without = (await ingest("b.hlog", chunked(text), undefined, undefined, { keepBlocks: false })).series[0]!;
    for (const range of [
      { start: 10, end: 200 },
      { start: 0.5, end: 63.5 },
      { start: 333, end: null },
    ]) {
      const a = bucketsOf(windowHistogram(withBlocks, range));
      const b = bucketsOf(windowHistogram(without, range));
      expect(b.totalCount).toBeGreaterThan(0);
      expect([Array.from(b.values), Array.from(b.cumulative)]).toEqual([Array.from(a.values), Array.from(a.cumulative)]);
    }
  });
});
