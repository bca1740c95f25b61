// Interval lines read by the kernel in runs (hlog/bytes.ts kernelLines, assembly/kernel.ts
// readLines): a log read from its bytes gives what its text gives, down to each interval's row,
// the pre-merged blocks and the counts kept for time windows, wherever the runs stop (a block's
// end, a line cut by a chunk's or the kernel area's end, a higher value, a wider counts array,
// a line of another shape), and the runs really are read in the kernel.
import { build } from "hdr-histogram-js";
import { afterEach, describe, expect, it } from "vitest";
import { writeHlog } from "../../tests/support/hlog-fixture";
import { damaged as damagedBytes, readAsBytes, readAsText, readingOutcome, seededInts } from "../../tests/support/reading-outcome";
import type { SimInterval } from "../../tests/support/queue-sim";
import { BLOCK_SIZES } from "../core/blocks";
import { HlogIngest } from "./hlog-ingest";
import { setKeptBudget, WORKER_KEPT_BUDGET } from "./intervals/kept";
import { kernelStats } from "../wasm/kernel";

afterEach(() => {
  setKeptBudget(0);
});

/**
 * `n` one-second intervals of 40 values each; from interval `jumpAt` on, values 1000 times
 * higher (beyond the checked top and the accumulators' room), and every `emptyEvery`-th interval
 * empty.
 */
function intervals(n: number, o: { jumpAt?: number; emptyEvery?: number; seed?: number } = {}): SimInterval[] {
  let seed = o.seed ?? 1;
  const rnd = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  return Array.from({ length: n }, (_, i) => {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    if (!(o.emptyEvery && i % o.emptyEvery === o.emptyEvery - 1)) {
      const scale = o.jumpAt !== undefined && i >= o.jumpAt ? 1000 : 1;
      for (let k = 0; k < 40; k++) h.recordValue(Math.round(scale * 1000 * Math.exp(3 * rnd())));
    }
    return { start: i, length: 1, histogram: h };
  });
}

const utf8 = new TextEncoder();

const outcome = readingOutcome;

const asText = (text: string, keepBlocks = true) => readAsText("runs.hlog", text, keepBlocks);
const asBytes = (text: string, size: number, bytes?: Uint8Array, keepBlocks = true) => readAsBytes("runs.hlog", text, size, bytes, keepBlocks);

/** Reads `text` as bytes in chunks of each size; returns the lines the kernel read in the last reading. */
function expectSame(text: string, sizes: number[], keepBlocks = true): number {
  const want = asText(text, keepBlocks);
  expect(want.series.length).toBeGreaterThan(0);
  let lines = 0;
  for (const size of sizes) {
    const before = kernelStats.lines;
    expect(asBytes(text, size, undefined, keepBlocks), `chunks of ${size}`).toEqual(want);
    lines = kernelStats.lines - before;
  }
  return lines;
}

describe("interval lines read by the kernel in runs", () => {
  it("read as the text does, with blocks and kept counts, however the bytes are cut; most lines in the kernel", () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    // 6,000 lines: past the kernel area's 1 MiB, past a block of the second level.
    const text = writeHlog(intervals(6000, { emptyEvery: 97 }));
    expect(text.length).toBeGreaterThan(1 << 20);
    const lines = expectSame(text, [997, 64 * 1024, 1 << 20, 4 << 20]);
    // Read in one chunk: the series' first line, and the few that reach a new high, take the
    // long path; every other line the kernel.
    expect(lines).toBeGreaterThan(5980);
    const r = asText(text).series[0]!;
    expect(r.kept!.every((k) => k !== null)).toBe(true);
    expect(r.blocks.length).toBe(Math.floor(6000 / BLOCK_SIZES[0]));
  });

  it("stop at a higher value, a wider counts array, another shape of line, and go on after them", () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const lines = writeHlog(intervals(700, { jumpAt: 300, seed: 3 })).split("\n");
    const data = lines.findIndex((l) => /^\d/.test(l));
    const tagged = writeHlog(intervals(5, { seed: 9 }), { tag: "db" })
      .split("\n")
      .filter((l) => l.startsWith("Tag="));
    const at = data + 500;
    const mixed = [
      ...lines.slice(0, at),
      "# a comment between runs",
      ...tagged,
      lines[at]!.replace(/^[\d.]+/, "1e3"), // not a plain decimal: the general way
      `${lines[at + 1]!}\r`, // a line ended by \r\n
      ...lines.slice(at + 2),
    ].join("\n");
    const kernel = expectSame(mixed, [333, 1 << 20]);
    expect(kernel).toBeGreaterThan(650);
  });

  it("add up only the total when blocks are not kept (the command line's report)", () => {
    const text = writeHlog(intervals(1000, { jumpAt: 600, seed: 5 }));
    // The jump to higher values takes the long path (and grows the accumulator), as a new high does.
    expect(expectSame(text, [4096, 1 << 20], false)).toBeGreaterThan(980);
  });

  it("stop when the kept counts' staging is full (wide intervals, kilobytes of counts each) and go on", () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    // Thousands of distinct values an interval, the same ones every interval (no new high to
    // end a run): each interval's counts take kilobytes, so a run stops for room in the staging
    // area long before a block's 64 lines (the staging's check left out, this test fails).
    const wide: SimInterval[] = Array.from({ length: 150 }, (_, i) => {
      const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
      for (let v = 1; v <= 6000; v++) h.recordValueWithCount(1000 + v * 7, 100 + ((v * 31 + i) % 900));
      return { start: i, length: 1, histogram: h };
    });
    const text = writeHlog(wide);
    const before = kernelStats.lines;
    expectSame(text, [1 << 20]);
    const want = asText(text).series[0]!;
    expect(want.kept!.every((k) => k !== null && k.length > 6000)).toBe(true);
    expect(kernelStats.lines - before).toBeGreaterThan(140);
  });

  it("read a damaged log as its text does: bytes changed, inserted or removed inside runs (seeded)", () => {
    setKeptBudget(WORKER_KEPT_BUDGET);
    const base = utf8.encode(writeHlog(intervals(300, { seed: 11, emptyEvery: 41 })));
    const rnd = seededInts(777);
    // What the kernel checks: line breaks, commas, points, digits, white space, a byte beyond
    // ASCII, base64 letters and padding, a lone "H".
    const pool = [10, 13, 44, 46, 48, 53, 57, 32, 9, 0xc3, 0xa9, 72, 73, 83, 84, 61, 43, 47, 65, 0];
    for (let round = 0; round < 60; round++) {
      // Past the header and the first lines, where the runs are.
      const damaged = damagedBytes(base, rnd, pool, 3, 2000);
      const text = new TextDecoder("utf-8").decode(damaged);
      const want = asText(text);
      for (const size of [4096, 1 << 20]) {
        const ing = new HlogIngest("runs.hlog", true, damaged);
        for (let at = 0; at < damaged.length; at += size) ing.pushBytes(damaged.subarray(at, at + size));
        expect(outcome(ing.finish()), `round ${round}, chunks of ${size}`).toEqual(want);
      }
    }
  });

  it("read a log written on Windows (\\r\\n) in the kernel too", () => {
    const text = writeHlog(intervals(300, { seed: 7 })).replace(/\n/g, "\r\n");
    expect(expectSame(text, [1 << 20])).toBeGreaterThan(290);
  });
});
