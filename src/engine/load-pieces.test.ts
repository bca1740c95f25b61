// A big log read in pieces by every worker, handed out as they free up, must give what reading
// it in one piece gives, whichever worker reads which piece; a failed piece makes the whole read
// fail (the caller then reads the log in one piece).
import { describe, expect, it } from "vitest";
import { bucketsOf } from "../core/histogram";
import type { Sparse } from "../core/blocks";
import { decodeHistogramPayload } from "../formats/hlog-encoding";
import { hlogFixture } from "../../tests/fuzz/generators";
import { fileChunks } from "./file-chunks";
import { ingest, ingestHlogPart, type HlogPart, type IngestResult } from "./ingest";
import { cutsAt, logPieceTargets, pieceTargets, readInPieces } from "./load-pieces";
import type { HelperWorkers } from "./load-files";
import { intervalsBefore } from "./piece-origins";

/** Helpers in this thread; `delay(k)` ms before each of helper k's reads, so the engine takes some pieces itself. */
class Helpers implements HelperWorkers {
  readonly pieces: number[][];
  constructor(
    readonly count: number,
    private readonly delay: (helper: number) => number = () => 0,
    private readonly failOnRead = -1,
  ) {
    this.pieces = Array.from({ length: count }, () => []);
  }
  private reads = 0;
  async read(helper: number, blob: Blob, name: string, onProgress: (b: number, n: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart> {
    this.pieces[helper]!.push(blob.size);
    await new Promise((r) => setTimeout(r, this.delay(helper)));
    if (this.reads++ === this.failOnRead) throw new Error("helper crashed");
    const source = new Uint8Array(blob.size);
    let bytes = 0;
    const part = await ingestHlogPart(
      name,
      fileChunks(blob, (b) => (bytes = b), signal, source),
      (p) => onProgress(bytes, p.intervals),
      source,
      { origins: before ? await intervalsBefore(before) : undefined },
    );
    return structuredClone(part); // what postMessage would deliver
  }
}

const sums = (s: Sparse) => Array.from(s.indices, (i, k) => `${i}:${s.counts[k]}`).join(",");

function expectSame(a: IngestResult, b: IngestResult): void {
  expect(b.problems).toEqual(a.problems);
  expect(b.lines).toBe(a.lines);
  expect(b.series.map((s) => s.name)).toEqual(a.series.map((s) => s.name));
  a.series.forEach((x, k) => {
    const y = b.series[k]!;
    expect(Array.from(bucketsOf(y.histogram).values)).toEqual(Array.from(bucketsOf(x.histogram).values));
    const tx = x.intervals!;
    const ty = y.intervals!;
    expect(ty.n).toBe(tx.n);
    for (const col of ["offsets", "maxes", "counts", "p50"] as const) expect(Array.from(ty[col].subarray(0, ty.n))).toEqual(Array.from(tx[col].subarray(0, tx.n)));
    expect(ty.allPayloads()).toEqual(tx.allPayloads());
    const decodeAt = (i: number) => {
      const d = decodeHistogramPayload(tx.payload(i));
      return d.ok ? d.value : null;
    };
    const n = tx.n;
    for (const [i0, i1] of [
      [0, n - 1],
      [1, n - 2],
      [Math.floor(n / 5), Math.floor((4 * n) / 5)],
      [63, 700],
    ] as const) {
      if (i1 >= n || i0 > i1) continue;
      expect(sums(y.blocks!.sumRange(i0, i1, decodeAt).sum)).toEqual(sums(x.blocks!.sumRange(i0, i1, decodeAt).sum));
    }
  });
}

describe("cutting a big log into pieces", () => {
  it("large pieces first, one per worker, then smaller ones; none below the minimum; cuts ascend inside the file", () => {
    for (const [size, workers, min] of [
      [42_600_000, 2, 256 * 1024],
      [42_600_000, 4, 256 * 1024],
      [3_000_000, 2, 256 * 1024],
      [600_000, 2, 256 * 1024],
      [100, 2, 256 * 1024],
    ] as const) {
      const t = pieceTargets(size, workers, min);
      const bounds = [0, ...t, size];
      const pieces = bounds.slice(1).map((b, k) => b - bounds[k]!);
      for (const p of pieces) expect(p).toBeGreaterThanOrEqual(Math.min(size, min / 2));
      for (let k = 1; k < t.length; k++) expect(t[k]!).toBeGreaterThan(t[k - 1]!);
      // Never a piece larger than the first one.
      for (const p of pieces) expect(p).toBeLessThanOrEqual(pieces[0]! * 1.5);
    }
    // The 24-hour log on two workers: 2 pieces of 40 %, then 2 of 10 %.
    const day = pieceTargets(42_600_000, 2, 256 * 1024);
    expect(day).toHaveLength(3);
    expect(day[0]! / 42_600_000).toBeCloseTo(0.4, 2);
    expect((42_600_000 - day[2]!) / 42_600_000).toBeCloseTo(0.1, 2);
    expect(pieceTargets(100, 2, 256 * 1024)).toEqual([]);
    // One round of the whole file: one equal part per worker (the command line's way).
    expect(pieceTargets(1000, 2, 10, [1])).toEqual([500]);
    expect(pieceTargets(1000, 3, 10, [1])).toEqual([333, 666]);
    // Cut for the workers there are; one worker reads a log in one piece.
    expect(logPieceTargets(42_600_000, 256 * 1024, 2)).toEqual(day);
    expect(logPieceTargets(42_600_000, 256 * 1024, 5)).toEqual(pieceTargets(42_600_000, 5, 256 * 1024));
    expect(logPieceTargets(42_600_000, 256 * 1024, 1)).toEqual([]);
  });

  it("cuts just after a line break at or past each target", async () => {
    const text = "ab\ncdef\n\ngh\n";
    const file = new Blob([text]);
    expect(await cutsAt(file, [0, 1, 3, 4, 8, 9, 11])).toEqual([3, 8, 9]);
  });
});

describe("reading a big log in pieces", () => {
  const MANY = [0.5, 0.2, 0.1, 0.05];
  const f = hlogFixture(31, { tags: ["", "b"], seconds: 900, rate: 20 });
  const lines = f.text.split("\n");
  lines.splice(500, 0, "1.0,oops,2.0,HISTnotbase64");
  const text = lines.join("\n");
  const file = new Blob([text]);

  it("equals reading it whole, whoever reads which piece", async () => {
    const whole = await ingest("p.hlog", [text]);
    expect(whole.problems.length).toBeGreaterThan(0);
    // Many pieces, so that every worker takes several (whatever cuts are given, the result is the log's).
    const cuts = await cutsAt(file, pieceTargets(file.size, 2, 8 * 1024, MANY));
    expect(cuts.length).toBeGreaterThan(4);
    for (const helpers of [new Helpers(1), new Helpers(1, () => 30), new Helpers(3, (h) => h * 10)]) {
      const r = await readInPieces(file, "p.hlog", cuts, helpers, () => undefined);
      expectSame(whole, r);
      // Every piece was read once, by a helper or here.
      expect(helpers.pieces.flat().length).toBeLessThanOrEqual(cuts.length);
    }
    // A slow helper leaves more pieces to this worker.
    const slow = new Helpers(1, () => 40);
    await readInPieces(file, "p.hlog", cuts, slow, () => undefined);
    expect(slow.pieces[0]!.length).toBeLessThan(cuts.length);
  });

  it("lays every part's blocks on the log's grid, from the parts read before it or the bytes counted", async () => {
    const clean = hlogFixture(32, { tags: ["", "b"], seconds: 900, rate: 20 }).text;
    const log = new Blob([clean]);
    const cuts = await cutsAt(log, pieceTargets(log.size, 2, 8 * 1024));
    expect(cuts.length).toBe(3);
    for (const helpers of [new Helpers(1), new Helpers(1, () => 30)]) {
      const r = await readInPieces(log, "p.hlog", cuts, helpers, () => undefined);
      for (const s of r.series) {
        const blocks = s.blocks!;
        const starts = (blocks as unknown as { partStarts?: number[] }).partStarts ?? [0];
        const ends = [...starts.slice(1), blocks.intervalCount];
        let whole = 0;
        for (let start = 0; start + 64 <= blocks.intervalCount; start += 64) {
          const k = starts.findIndex((from, j) => start >= from && start + 64 <= ends[j]!);
          if (k < 0) continue; // a grid block cut by a part's edge: its intervals are decoded
          expect(blocks.storedBlock(start), `${s.name}: the grid block at ${start}`).not.toBeNull();
          whole++;
        }
        expect(starts.length).toBeGreaterThan(1);
        expect(whole).toBeGreaterThan(starts.length);
      }
    }
  });

  it("a piece that fails makes the read fail", async () => {
    const cuts = await cutsAt(file, pieceTargets(file.size, 2, 8 * 1024, MANY));
    await expect(readInPieces(file, "p.hlog", cuts, new Helpers(1, () => 0, 0), () => undefined)).rejects.toThrow(/helper crashed/);
  });
});
