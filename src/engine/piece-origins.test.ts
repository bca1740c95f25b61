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

  it("counts a big log's bytes in slices read at once as it counts them in one stream", async () => {
    const f = hlogFixture(11, { tags: ["", "b", "a-long-tag"], seconds: 300, rate: 5 });
    const lines = f.text.split("\n");
    const header = lines.filter((l) => l.startsWith("#") || l.startsWith('"'));
    const body = lines.filter((l) => l.length > 0 && !l.startsWith("#") && !l.startsWith('"'));
    // Over 4 MiB, so that it is read in slices; comments and empty lines among the intervals.
    const out = [...header];
    for (let k = 0; out.join("\n").length < 4.5 * 1024 * 1024 && k < 1e6; k++) {
      out.push(...body);
      out.push("#[a comment]", "");
      if (out.length > 200000) break;
    }
    const bytes = new TextEncoder().encode(out.join("\n") + "\n");
    expect(bytes.length).toBeGreaterThan(4 * 1024 * 1024);
    const lineEnds: number[] = [];
    bytes.forEach((b, i) => b === 10 && lineEnds.push(i + 1));
    for (const at of [lineEnds[Math.floor(lineEnds.length * 0.9)]!, bytes.length]) {
      const serial = await countIntervalLines([bytes.subarray(0, at)]);
      const sliced = await intervalsBefore(new Blob([bytes.subarray(0, at)]));
      expect(Object.fromEntries(sliced)).toEqual(Object.fromEntries(serial));
      expect(sliced.get("a-long-tag")).toBeGreaterThan(0);
    }
    // A stretch counted from inside a line: only the lines that start in it.
    const from = lineEnds[10]! + 3;
    const until = lineEnds[500]! - 1;
    const got = await countIntervalLines([bytes.subarray(from - 1, until + 100)], { midLine: true, until: until - (from - 1) });
    const want = await countIntervalLines([bytes.subarray(lineEnds[11]!, lineEnds[500]!)]);
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(want));
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
