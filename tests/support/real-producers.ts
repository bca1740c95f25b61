// The outputs real producers wrote (fixtures/producers/<tool>/, made by scripts/producers/run.sh)
// and what the tests read of them: each file as the app reads it (detection included), and the
// numbers the producer printed itself, parsed from its own text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingest } from "../../src/engine/ingest";
import { valueAtPercentile } from "../../src/core/histogram";
import type { IngestResult } from "../../src/engine/series-make";

const ROOT = fileURLToPath(new URL("../../fixtures/producers", import.meta.url));

/** A fixture's text. */
export function producerText(tool: string, file: string): string {
  return readFileSync(join(ROOT, tool, file), "utf8");
}

/** A fixture read as the app reads a dropped file (its name as the file name). */
export function readProducer(tool: string, file: string): Promise<IngestResult> {
  return ingest(file, [producerText(tool, file)]);
}

/** One series' numbers in its recorded unit: count, min, max, percentiles, failures. */
export function factsOf(r: IngestResult, i = 0) {
  const s = r.series[i]!;
  const h = s.histogram;
  return {
    name: s.name,
    unit: s.recordedUnit,
    count: h.totalCount,
    min: h.minNonZeroValue,
    max: h.maxValue,
    mean: h.mean,
    p: (q: number) => valueAtPercentile(h, q),
    failures: s.failures,
    intervals: s.intervals?.n ?? 0,
  };
}

/** The number after `label` in `text` (its first match). */
export function numberAfter(text: string, label: RegExp): number {
  const m = new RegExp(label.source + String.raw`(-?\d+(?:\.\d+)?)`, label.flags).exec(text);
  if (!m) throw new Error(`no number after ${label}`);
  return Number(m[1]);
}

/** Relative closeness: |a − b| ≤ tol·|b|. */
export function near(a: number, b: number, tol: number): boolean {
  return Math.abs(a - b) <= tol * Math.abs(b);
}
