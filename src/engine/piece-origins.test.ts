// The intervals ahead of a piece, counted from its bytes, are what the reader keeps of them, per
// tag: a part's blocks then lie where a read of the whole log lays them.
import { describe, expect, it } from "vitest";
import { hlogFixture } from "../../tests/fuzz/generators";
import { ingest } from "./ingest";
import { OriginLedger, countIntervalLines, intervalsBefore } from "./piece-origins";

describe("intervalsBefore", () => {
  it("counts each tag's interval lines before any line boundary, as the reader keeps them", async () => {
    const f = hlogFixture(7, { tags: ["", "b", "a-long-tag"], seconds: 120, rate: 5 });
    const lines = f.text.split("\n");
    for (const at of [0, 3, Math.floor(lines.length / 3), lines.length - 2]) {
      const head = lines.slice(0, at).join("\n") + (at > 0 ? "\n" : "");
      const read = await ingest("p.hlog", [head]);
      const want = new Map<string, number>();
      for (const s of read.series) want.set(s.tag ?? "", s.intervals?.n ?? 0);
      const got = await intervalsBefore(new Blob([head]));
      for (const [tag, n] of want) expect(got.get(tag) ?? 0, `tag "${tag}" before line ${at}`).toBe(n);
      expect([...got.values()].reduce((a, b) => a + b, 0)).toBe([...want.values()].reduce((a, b) => a + b, 0));
    }
  });

  it("reads a tag cut by a chunk's end, and skips comments, the legend and empty lines", async () => {
    // Bytes handed over in pieces that cut lines anywhere, as a file's chunks do.
    const text =
      '#[StartTime: 1.0]\n"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n\n0.1,1.0,2.0,HIST\nTag=alpha,1.1,1.0,2.0,HIST\nTag=alpha,2.1,1.0,2.0,HIST\n#comment\n3.1,1.0,2.0,HIST\n';
    const bytes = new TextEncoder().encode(text);
    for (const step of [1, 3, 7, 64]) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += step) parts.push(bytes.slice(i, i + step));
      const got = await countIntervalLines(parts);
      expect(Object.fromEntries(got)).toEqual({ "": 2, alpha: 2 });
    }
  });

  it("counts from the nearest offset known, only the bytes between", async () => {
    const f = hlogFixture(9, { tags: ["", "b"], seconds: 60, rate: 5 });
    const bytes = new TextEncoder().encode(f.text);
    const lineEnds: number[] = [];
    bytes.forEach((b, i) => b === 10 && lineEnds.push(i + 1));
    const [a, b] = [lineEnds[Math.floor(lineEnds.length / 3)]!, lineEnds[Math.floor((2 * lineEnds.length) / 3)]!];
    const whole = (at: number) => intervalsBefore(new Blob([bytes.subarray(0, at)]));
    const asked: [number, number][] = [];
    const slice = (from: number, to: number) => (asked.push([from, to]), new Blob([bytes.subarray(from, to)]));
    const ledger = new OriginLedger();
    ledger.record(a, await whole(a));
    expect(Object.fromEntries(await ledger.before(b, slice))).toEqual(Object.fromEntries(await whole(b)));
    expect(asked).toEqual([[a, b]]);
    // Known now: asked again, nothing is counted.
    expect(Object.fromEntries(await ledger.before(b, slice))).toEqual(Object.fromEntries(await whole(b)));
    expect(asked.length).toBe(1);
  });
});
