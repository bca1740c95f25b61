// Loading with helper workers must give what loading in one thread gives, file by file and in
// file order, and fall back to reading here when a helper fails.
import { describe, expect, it } from "vitest";
import { BLOCK_SIZES, JoinedBlocks } from "../core/blocks";
import { bucketsOf } from "../core/histogram";
import { generatedFixture, hlogFixture } from "../../tests/fuzz/generators";
import type { HlogPart } from "./ingest";
import { loadFiles, type HelperWorkers } from "./load-files";
import { Store } from "./store";
import { intervalsOf } from "./intervals";
import type { FileOutcome } from "./protocol";
import { readPartHere } from "../../tests/support/part-here";

/** Helpers run in this thread; what they return crosses a structuredClone as it would postMessage. */
class InThreadHelpers implements HelperWorkers {
  readonly calls: { helper: number; name: string; bytes: number }[] = [];
  running = 0;
  maxRunning = 0;
  constructor(
    readonly count: number,
    private readonly fail = false,
  ) {}
  async read(helper: number, blob: Blob, name: string, onProgress: (b: number, n: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart> {
    this.calls.push({ helper, name, bytes: blob.size });
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      await new Promise((r) => setTimeout(r, 1)); // let the other helpers start
      if (this.fail) throw new Error("helper crashed");
      return structuredClone(await readPartHere(blob, name, onProgress, signal, before));
    } finally {
      this.running--;
    }
  }
}

function files(): File[] {
  const big = hlogFixture(21, { tags: ["", "x"], seconds: 400, rate: 30 });
  const out = [
    new File([hlogFixture(22).text], "small-a.hlog"),
    new File([generatedFixture("jmeter-csv", 5).text], "results.jtl"),
    new File([big.text], "big.hlog"),
    new File([hlogFixture(23, { tags: ["p", "q"] }).text], "small-b.hlog"),
    new File([generatedFixture("hgrm", 6).text], "dist.hgrm"),
    new File([hlogFixture(24).text + "garbage line\n"], "small-c.hlog"),
    new File(["\u0000\u0001binary"], "junk.bin"),
  ];
  return out;
}

/** Per series, how many first-level blocks were not stored beyond one per part boundary (which cuts a block through). */
const notStored: number[] = [];

/** Each first-level block's counts, stored or (where a part boundary cuts it) summed. */
function storedBlocks(s: Store["series"][number]): string[] {
  const out: string[] = [];
  const n = s.intervals?.n ?? 0;
  let missing = 0;
  for (let start = 0; s.blocks && start + BLOCK_SIZES[0] <= n; start += BLOCK_SIZES[0]) {
    const stored = s.blocks.storedBlock(start);
    if (!stored) missing++;
    const b = stored ?? intervalsOf(s).sum(start, start + BLOCK_SIZES[0] - 1);
    out.push(Array.from(b.indices, (i, k) => `${i}:${b.counts[k]}`).join(","));
  }
  const boundaries = s.blocks instanceof JoinedBlocks ? s.blocks.partStarts.length - 1 : 0;
  notStored.push(missing - boundaries);
  return out;
}

function summary(store: Store, outcomes: FileOutcome[]) {
  return {
    outcomes: outcomes.map((o) => ({ file: o.file, added: o.added.length, problems: o.problems })),
    series: store.series.map((s) => ({
      name: s.name,
      total: s.histogram.totalCount,
      values: Array.from(bucketsOf(s.histogram).values),
      n: s.intervals?.n ?? 0,
      offsets: s.intervals ? Array.from(s.intervals.offsets.subarray(0, s.intervals.n)) : [],
      blocks: s.blocks == null,
      // The stored first-level blocks, at multiples of 64 from the log's first interval
      // whoever read which part: queries sum them whole (none is missing where a part starts).
      stored: storedBlocks(s),
    })),
  };
}

async function run(helpers: HelperWorkers | null, signal?: AbortSignal) {
  const store = new Store();
  const outcomes = await loadFiles(store, files(), () => undefined, signal, undefined, helpers, { splitBytes: 64 * 1024 });
  return summary(store, outcomes);
}

describe("loading files with helper workers", () => {
  it("gives what one thread gives, in file order, with the big log cut in parts and small logs shared out", async () => {
    const alone = await run(null);
    expect(alone.series.length).toBeGreaterThan(5);
    expect(alone.series.some((s) => s.stored.length > 2)).toBe(true);
    // Read in one piece, every block is stored.
    expect(notStored.every((m) => m <= 0)).toBe(true);
    for (const count of [1, 2, 4]) {
      const helpers = new InThreadHelpers(count);
      notStored.length = 0;
      expect(await run(helpers)).toEqual(alone);
      // In parts, every block is stored but the one a part boundary cuts through (when the part
      // knew where it starts, its blocks lie where a read in one piece lays them).
      expect(Math.max(...notStored)).toBeLessThanOrEqual(0);
      // The big log went in parts (a slice smaller than the file), the small logs whole.
      expect(helpers.calls.some((c) => c.name === "big.hlog" && c.bytes < files()[2]!.size)).toBe(true);
      expect(helpers.calls.length).toBeGreaterThanOrEqual(count + 1);
      expect(helpers.maxRunning).toBeGreaterThan(count > 1 ? 1 : 0);
    }
  });

  it("an interval log above the size cap is refused before reading, with a message; the other files load", async () => {
    for (const helpers of [null, new InThreadHelpers(1)]) {
      const store = new Store();
      const fs = files();
      const big = fs[2]!; // big.hlog
      const out = await loadFiles(store, fs, () => undefined, undefined, undefined, helpers, { splitBytes: 64 * 1024, maxLogBytes: big.size - 1 });
      expect(out[2]!.added).toEqual([]);
      expect(out[2]!.problems).toHaveLength(1);
      expect(out[2]!.problems[0]!.reason).toMatch(/^this interval log is .* MB; the app reads logs up to .* MB/);
      expect(out.filter((o) => o.file.endsWith(".hlog") && o.file !== "big.hlog").every((o) => o.added.length > 0)).toBe(true);
    }
  });

  it("reads here what a failing helper could not", async () => {
    expect(await run(new InThreadHelpers(2, true))).toEqual(await run(null));
  });

  it("a cancelled load adds nothing and says so for every file", async () => {
    const control = new AbortController();
    control.abort();
    const r = await run(new InThreadHelpers(1), control.signal);
    expect(r.series).toEqual([]);
    for (const o of r.outcomes.filter((o) => o.file.endsWith(".hlog"))) expect(o.problems[0]?.reason).toMatch(/cancelled/);
  });

  it("keeps no blocks when the load options say so (whole, in pieces, on helpers), the series' values the same", async () => {
    // summary()'s `blocks` is true for a series without blocks.
    const withBlocks = await run(null);
    expect(withBlocks.series.filter((s) => !s.blocks).length).toBeGreaterThan(3);
    for (const helpers of [null, new InThreadHelpers(2)]) {
      const store = new Store();
      const outcomes = await loadFiles(store, files(), () => undefined, undefined, undefined, helpers, { splitBytes: 64 * 1024, keepBlocks: false });
      const bare = summary(store, outcomes);
      expect(bare.series.every((s) => s.blocks)).toBe(true);
      const values = (r: typeof bare) => ({ outcomes: r.outcomes, series: r.series.map(({ name, total, values, n, offsets }) => ({ name, total, values, n, offsets })) });
      expect(values(bare)).toEqual(values(withBlocks));
    }
  });
});
