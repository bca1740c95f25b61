// What a reading of a log gives that later queries read, as plain values for tests that compare
// two ways of reading the same log (text and bytes, whole and in parts): the lines and problems,
// and per series its totals, every column of its interval table, its payloads, its stored
// first-level blocks and the counts kept for time windows.
import { BLOCK_SIZES } from "../../src/core/blocks";
import { CHUNK_BITS, OFFSET_MASK } from "../../src/engine/intervals/kept";
import { keptOf } from "../../src/engine/intervals";
import type { IngestResult } from "../../src/engine/series-make";
import { HlogIngest } from "../../src/engine/hlog-ingest";

export function readingOutcome(r: IngestResult) {
  return {
    lines: r.lines,
    problems: r.problems.map((p) => [p.line, p.reason]),
    series: r.series.map((s) => {
      const t = s.intervals!;
      const col = (a: Float64Array) => Array.from(a.subarray(0, t.n));
      const blocks: number[][] = [];
      for (let start = 0; start + BLOCK_SIZES[0] <= t.n; start += BLOCK_SIZES[0]) {
        const b = s.blocks?.storedBlock(start);
        blocks.push(b ? [...b.indices, -1, ...b.counts] : []);
      }
      const k = keptOf(t, s.histogram.numberOfSignificantValueDigits, 1);
      const kept = k
        ? Array.from({ length: t.n }, (_, i) => {
            const at = k.at[i]!;
            const off = at & OFFSET_MASK;
            return at < 0 ? null : [k.last[i]!, ...k.chunks[at >>> CHUNK_BITS]!.subarray(off, off + k.length[i]!)];
          })
        : null;
      return {
        name: s.name,
        total: s.histogram.totalCount,
        max: s.histogram.maxValue,
        offsets: col(t.offsets),
        lengths: col(t.lengths),
        maxes: col(t.maxes),
        counts: col(t.counts),
        maxColumn: col(t.maxColumn),
        p50: col(t.p50),
        payloads: t.allPayloads(),
        blocks,
        kept,
      };
    }),
  };
}

/** A seeded generator of integers in [0, n). */
export function seededInts(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s % n;
  };
}

/**
 * `base` with 1 to `most` edits at positions from `from` on: a byte replaced by one of `pool`,
 * one of `pool` inserted, or 1–3 bytes removed.
 */
export function damaged(base: Uint8Array, rnd: (n: number) => number, pool: readonly number[], most: number, from = 0): Uint8Array<ArrayBuffer> {
  const bytes = Array.from(base);
  for (let k = 1 + rnd(most); k > 0; k--) {
    const at = from + rnd(bytes.length - from);
    const op = rnd(3);
    if (op === 0) bytes[at] = pool[rnd(pool.length)]!;
    else if (op === 1) bytes.splice(at, 0, pool[rnd(pool.length)]!);
    else bytes.splice(at, 1 + rnd(3));
  }
  return new Uint8Array(bytes);
}

/** The outcome of `text` pushed as text to an interval-log reader named `name` (`keepBlocks`: see ReadOptions). */
export function readAsText(name: string, text: string, keepBlocks = true) {
  const ing = new HlogIngest(name, true, null, keepBlocks);
  ing.push(text);
  return readingOutcome(ing.finish());
}

/** The outcome of `bytes` (the text's UTF-8 by default) pushed in chunks of `size` to a reader that keeps them. */
export function readAsBytes(name: string, text: string, size: number, bytes: Uint8Array = new TextEncoder().encode(text), keepBlocks = true) {
  const ing = new HlogIngest(name, true, bytes, keepBlocks);
  for (let at = 0; at < bytes.length; at += size) ing.pushBytes(bytes.subarray(at, at + size));
  return readingOutcome(ing.finish());
}
