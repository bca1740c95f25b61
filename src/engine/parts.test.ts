// Reading an interval log in parts (one per worker) and joining them must give exactly what
// reading it in one piece gives: series, histograms, interval tables, problems with their
// line numbers, and the pre-merged blocks' answers for any range.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { bucketsOf } from "../core/histogram";
import type { Sparse } from "../core/blocks";
import { decodeHistogramPayload } from "../formats/hlog-encoding";
import { hlogFixture } from "../../tests/fuzz/generators";
import { ingest, ingestHlogInParts, ingestHlogPart, PartsNotJoinable, type IngestResult } from "./ingest";

const HDR = resolve(__dirname, "../../../shared/samples/hdrhistogram");

/** Splits text after the line breaks that end lines `cuts` (1-based line counts). */
function splitAtLines(text: string, cuts: number[]): string[] {
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) ends.push(i + 1);
  const out: string[] = [];
  let from = 0;
  for (const c of cuts) {
    const at = ends[Math.min(c, ends.length) - 1] ?? 0;
    out.push(text.slice(from, at));
    from = at;
  }
  out.push(text.slice(from));
  return out;
}

async function inParts(name: string, pieces: string[]): Promise<IngestResult> {
  // structuredClone stands for postMessage: what crosses to the joining worker is a copy.
  // As a helper does: the part's bytes, decoded chunk by chunk, sent with the part.
  const rest = pieces.slice(1).map(async (p) => {
    const bytes = new TextEncoder().encode(p);
    const decoder = new TextDecoder("utf-8");
    const chunks: string[] = [];
    for (let i = 0; i < bytes.length; i += 501) chunks.push(decoder.decode(bytes.subarray(i, i + 501), { stream: true }));
    chunks.push(decoder.decode());
    return structuredClone(await ingestHlogPart(name, chunks, undefined, bytes));
  });
  return ingestHlogInParts(name, chunked(pieces[0]!), rest);
}

function chunked(text: string, size = 777): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sumOf(s: Sparse): Map<number, number> {
  const m = new Map<number, number>();
  for (let k = 0; k < s.indices.length; k++) m.set(s.indices[k]!, s.counts[k]!);
  return m;
}

function expectSame(a: IngestResult, b: IngestResult): void {
  expect(b.problems).toEqual(a.problems);
  expect(b.lines).toBe(a.lines);
  expect(b.series.map((s) => [s.name, s.tag, s.recordedUnit, s.unitSource, s.startTime])).toEqual(a.series.map((s) => [s.name, s.tag, s.recordedUnit, s.unitSource, s.startTime]));
  for (let k = 0; k < a.series.length; k++) {
    const x = a.series[k]!;
    const y = b.series[k]!;
    expect(y.histogram.totalCount).toBe(x.histogram.totalCount);
    const bx = bucketsOf(x.histogram);
    const by = bucketsOf(y.histogram);
    expect(Array.from(by.values)).toEqual(Array.from(bx.values));
    expect(Array.from(by.cumulative)).toEqual(Array.from(bx.cumulative));
    expect(y.histogram.minNonZeroValue).toBe(x.histogram.minNonZeroValue);
    const tx = x.intervals!;
    const ty = y.intervals!;
    expect(ty.n).toBe(tx.n);
    for (const col of ["offsets", "lengths", "maxes", "counts", "maxColumn", "p50"] as const) {
      expect(Array.from(ty[col].subarray(0, ty.n))).toEqual(Array.from(tx[col].subarray(0, tx.n)));
    }
    expect(ty.allPayloads()).toEqual(tx.allPayloads());
    expect(y.blocks == null).toBe(x.blocks == null);
    if (x.blocks && y.blocks) {
      const decodeAt = (i: number) => {
        const d = decodeHistogramPayload(tx.payload(i));
        return d.ok ? d.value : null;
      };
      const n = tx.n;
      const ranges: [number, number][] = [
        [0, n - 1],
        [0, 0],
        [n - 1, n - 1],
        [1, n - 2],
        [Math.floor(n / 3), Math.floor((2 * n) / 3)],
        [63, 64],
        [60, 200],
        [n - 70, n - 1],
      ];
      for (const [i0, i1] of ranges) {
        if (i0 < 0 || i1 >= n || i0 > i1) continue;
        expect(sumOf(y.blocks.sumRange(i0, i1, decodeAt).sum)).toEqual(sumOf(x.blocks.sumRange(i0, i1, decodeAt).sum));
      }
    }
  }
}

describe("an interval log read in parts equals the log read whole", () => {
  it("a generated tagged log with bad lines, cut at many places, in 2 and 3 parts", async () => {
    const f = hlogFixture(11, { tags: ["", "a", "b"], seconds: 150, rate: 40 });
    const lines = f.text.split("\n");
    // Bad lines at known places: their reported line numbers must survive the join.
    lines.splice(40, 0, "1.0,oops,2.0,HISTnotbase64");
    lines.splice(300, 0, "# a comment", "not,a,line");
    const text = lines.join("\n");
    const name = "parts.hlog";
    const whole = await ingest(name, chunked(text));
    expect(whole.series.length).toBe(3);
    expect(whole.problems.length).toBeGreaterThan(0);
    const total = text.split("\n").length;
    for (const cut of [1, 3, 4, 41, 42, 64, 129, 200, 301, 302, Math.floor(total / 2), total - 2]) {
      expectSame(whole, await inParts(name, splitAtLines(text, [cut])));
    }
    expectSame(whole, await inParts(name, splitAtLines(text, [100, 250])));
    expectSame(whole, await inParts(name, splitAtLines(text, [5, 6])));
  });

  it("a part whose bytes are not one character each (UTF-8 beyond ASCII, a stray byte-order mark) keeps its payloads in place", async () => {
    const f = hlogFixture(15, { tags: ["", "ü"], seconds: 60, rate: 30 });
    const lines = f.text.split("\n");
    // Multi-byte characters before and among the intervals of the later parts, and tagged lines
    // whose tag itself is two bytes: character positions there are not byte positions.
    lines.splice(30, 0, "# Messlauf für Zürich — 東京");
    lines.splice(90, 0, "\ufeff# a byte-order mark in the middle of the file");
    const text = lines.join("\n");
    const whole = await ingest("utf8.hlog", chunked(text));
    expect(whole.series.length).toBe(2);
    for (const cuts of [[20], [29], [30], [31], [60], [89], [90], [91], [25, 90]]) expectSame(whole, await inParts("utf8.hlog", splitAtLines(text, cuts)));
  });

  it("a StartTime line in a later part moves every interval, as it does read in order", async () => {
    const f = hlogFixture(12, { seconds: 30 });
    const lines = f.text.split("\n");
    lines.splice(20, 0, "#[StartTime: 1600000000.000 (seconds since epoch)]");
    const text = lines.join("\n");
    const whole = await ingest("late.hlog", [text]);
    expectSame(whole, await inParts("late.hlog", splitAtLines(text, [10])));
  });

  it("a part that changes the histogram layout of a tag is refused (read whole instead)", async () => {
    const a = hlogFixture(13, { seconds: 5 }).text;
    const b = hlogFixture(14, { seconds: 5 }).text;
    // Same tag, a different layout: re-encode b's intervals with 3 digits instead of 2 is not
    // needed — the two simulations share a layout, so check the refusal with a crafted part.
    const part = await ingestHlogPart("x.hlog", [b], undefined, new TextEncoder().encode(b));
    part.tags[0]!.layout = "7/1";
    await expect(ingestHlogInParts("x.hlog", [a], [Promise.resolve(part)])).rejects.toBeInstanceOf(PartsNotJoinable);
  });

  const logs = existsSync(HDR) ? readdirSync(HDR).filter((f) => f.endsWith(".hlog")) : [];
  it.skipIf(logs.length === 0)("HdrHistogram's own logs of every format version, cut in thirds", async () => {
    for (const f of logs) {
      const text = readFileSync(resolve(HDR, f), "latin1");
      const n = text.split("\n").length;
      const whole = await ingest(f, chunked(text, 4096));
      expectSame(whole, await inParts(f, splitAtLines(text, [Math.floor(n / 3), Math.floor((2 * n) / 3)])));
    }
  });
});
