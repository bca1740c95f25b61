// A big log read in pieces by every worker must give what reading it in one piece gives,
// whichever worker reads which piece; a failed piece makes the whole read fail (the caller then
// reads the log in one piece).
import { describe, expect, it } from "vitest";
import { bucketsOf } from "../core/histogram";
import type { Sparse } from "../core/blocks";
import { decodeHistogramPayload } from "../formats/hlog-encoding";
import { hlogFixture } from "../../tests/fuzz/generators";
import { ingest, type HlogPart, type IngestResult } from "./ingest";
import { cutsAt, equalPieceTargets, logPiecePlan, piecesAt, readInPieces, stretchStarts, type Pieces } from "./load-pieces";
import type { HelperWorkers } from "./load-files";
import { readPartHere } from "../../tests/support/part-here";

/** Helpers in this thread; `delay(k)` ms before each of helper k's reads. */
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
    return structuredClone(await readPartHere(blob, name, onProgress, signal, before)); // what postMessage would deliver
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
  it("one stretch per worker, a helper's shorter by what counting its start costs, in two pieces", () => {
    for (const [size, workers] of [
      [42_600_000, 2],
      [42_600_000, 3],
      [502_000_000, 2],
      [502_000_000, 5],
    ] as const) {
      const cost = 0.15;
      const starts = stretchStarts(size, workers, 256 * 1024, cost)!;
      expect(starts[0]).toBe(0);
      const bounds = [...starts, size];
      // Every worker reads for as long: its stretch plus what counting the bytes before it costs.
      const times = starts.map((s, w) => bounds[w + 1]! - s + cost * s);
      for (const t of times) expect(Math.abs(t - times[0]!) / times[0]!).toBeLessThan(1e-6);
      for (let w = 1; w < workers; w++) expect(bounds[w + 1]! - starts[w]!).toBeLessThan(starts[1]!);
      const plan = logPiecePlan(size, 256 * 1024, workers, cost);
      // Piece 0 here; then each helper's two pieces, in file order, the first 80 % of its stretch.
      expect(plan.owners).toEqual([0, ...Array.from({ length: workers - 1 }, (_, h) => [h + 1, h + 1]).flat()]);
      expect(plan.targets.filter((_, k) => k % 2 === 0)).toEqual(starts.slice(1));
      for (let h = 1; h < workers; h++) {
        const second = plan.targets[2 * h - 1]!;
        expect((second - starts[h]!) / (bounds[h + 1]! - starts[h]!)).toBeCloseTo(0.8, 3);
      }
    }
    // The 24-hour log on two workers: this one reads a little more than half, the helper the rest.
    const day = stretchStarts(42_600_000, 2, 256 * 1024, 0.15)!;
    expect(day[1]! / 42_600_000).toBeCloseTo(1 / 1.85, 3);
    // A helper's start costs it as much as reading `startCost` bytes: its stretch is that much
    // shorter again, and the times still match, for every helper.
    const start = 4 * 1024 * 1024;
    for (const workers of [2, 3, 5]) {
      const s = stretchStarts(502_000_000, workers, 256 * 1024, 0.15, start)!;
      const b = [...s, 502_000_000];
      const t = s.map((x, w) => b[w + 1]! - x + 0.15 * x + (w > 0 ? start : 0));
      for (const x of t) expect(Math.abs(x - t[0]!)).toBeLessThan(2);
      expect(s[1]!).toBeGreaterThan(stretchStarts(502_000_000, workers, 256 * 1024, 0.15)![1]!);
    }
    expect((stretchStarts(42_600_000, 2, 256 * 1024, 0.15, start)![1]! - day[1]!) / start).toBeCloseTo(1 / 1.85, 3);
    // A log whose helper would be left less than the minimum piece is read whole.
    expect(stretchStarts(4_500_000, 2, 256 * 1024, 0.075, start)).toBeNull();
    // None for one worker, or when a stretch would be below the minimum piece.
    expect(logPiecePlan(42_600_000, 256 * 1024, 1)).toEqual({ targets: [], owners: [0] });
    expect(logPiecePlan(500_000, 256 * 1024, 2)).toEqual({ targets: [], owners: [0] });
    // A stretch too short to halve is one piece.
    expect(logPiecePlan(1_200_000, 256 * 1024, 2, 0).owners).toEqual([0, 1]);
    // One equal piece per worker (the command line's logs read on demand).
    expect(equalPieceTargets(1000, 2, 10)).toEqual([500]);
    expect(equalPieceTargets(1000, 3, 10)).toEqual([333, 666]);
    expect(equalPieceTargets(1000, 1, 10)).toEqual([]);
    expect(equalPieceTargets(100, 2, 256 * 1024)).toEqual([]);
  });

  it("a cut with no line break within reach joins its piece to the one before, read by that one's reader", async () => {
    const text = "ab\ncdef\n\ngh\n";
    const file = new Blob([text]);
    expect(await piecesAt(file, { targets: [1, 3, 4, 11, 12], owners: [0, 1, 1, 2, 2, 3] })).toEqual({ cuts: [3, 8], owners: [0, 1, 1] });
  });

  it("cuts just after a line break at or past each target", async () => {
    const text = "ab\ncdef\n\ngh\n";
    const file = new Blob([text]);
    expect(await cutsAt(file, [0, 1, 3, 4, 8, 9, 11])).toEqual([3, 8, 9]);
  });
});

/** `cuts` with owners going round the workers (0 here, h + 1 helper h), the first piece here. */
function roundRobin(cuts: number[], workers: number): Pieces {
  return { cuts, owners: [0, ...cuts.map((_, k) => (k + 1) % workers)] };
}

describe("reading a big log in pieces", () => {
  const MANY = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9];
  const f = hlogFixture(31, { tags: ["", "b"], seconds: 900, rate: 20 });
  const lines = f.text.split("\n");
  lines.splice(500, 0, "1.0,oops,2.0,HISTnotbase64");
  const text = lines.join("\n");
  const file = new Blob([text]);
  const manyCuts = () =>
    cutsAt(
      file,
      MANY.map((x) => Math.floor(x * file.size)),
    );

  it("equals reading it whole, whoever reads which piece", async () => {
    const whole = await ingest("p.hlog", [text]);
    expect(whole.problems.length).toBeGreaterThan(0);
    // Many pieces, every worker several, this one's among them (whatever cuts are given, the result is the log's).
    const cuts = await manyCuts();
    expect(cuts.length).toBeGreaterThan(8);
    for (const [helpers, pieces] of [
      [new Helpers(1), roundRobin(cuts, 2)],
      [new Helpers(1, () => 30), roundRobin(cuts, 2)],
      [new Helpers(3, (h) => h * 10), roundRobin(cuts, 4)],
      [new Helpers(2), { cuts, owners: [0, ...cuts.map((_, k) => (k < 5 ? 1 : 2))] }],
      [new Helpers(1), { cuts, owners: cuts.map(() => 0).concat(0) }],
    ] as const) {
      const r = await readInPieces(file, "p.hlog", pieces, helpers, () => undefined);
      expectSame(whole, r);
      // Each helper read its own pieces, once.
      helpers.pieces.forEach((got, h) => expect(got.length).toBe(pieces.owners.filter((o) => o === h + 1).length));
    }
  });

  it("as the plan cuts it: this worker's stretch, then each helper's in two pieces", async () => {
    const whole = await ingest("p.hlog", [text]);
    for (const workers of [2, 3]) {
      const pieces = await piecesAt(file, logPiecePlan(file.size, 8 * 1024, workers));
      expect(pieces.cuts.length).toBe(2 * (workers - 1));
      const helpers = new Helpers(workers - 1);
      expectSame(whole, await readInPieces(file, "p.hlog", pieces, helpers, () => undefined));
      for (const got of helpers.pieces) expect(got.length).toBe(2);
    }
  });

  it("lays every part's blocks on the log's grid, from the parts read before it or the bytes counted", async () => {
    const clean = hlogFixture(32, { tags: ["", "b"], seconds: 900, rate: 20 }).text;
    const log = new Blob([clean]);
    const cuts = await cutsAt(
      log,
      [0.3, 0.5, 0.8].map((x) => Math.floor(x * log.size)),
    );
    expect(cuts.length).toBe(3);
    for (const [helpers, pieces] of [
      [new Helpers(1), { cuts, owners: [0, 1, 1, 0] }],
      [new Helpers(1, () => 30), { cuts, owners: [0, 1, 0, 1] }],
    ] as const) {
      const r = await readInPieces(log, "p.hlog", pieces, helpers, () => undefined);
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
    const cuts = await manyCuts();
    await expect(readInPieces(file, "p.hlog", roundRobin(cuts, 2), new Helpers(1, () => 0, 0), () => undefined)).rejects.toThrow(/helper crashed/);
  });
});
