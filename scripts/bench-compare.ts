// Benchmark of A vs B (src/core/compare through the engine's adapter, in Node): two generated
// jHiccup-like logs of 1 hour (3,600 intervals each) and 24 hours (86,400 each), compared with
// 1,000 bootstrap resamples, against the goals (≤ 300 ms and ≤ 1 s). Beside it, the baseline:
// the plain way with hdr-histogram-js, the same block resampling but each resample merging the
// intervals it drew (decodeFromCompressedBase64 + add) into a Histogram and asking it for the
// same percentiles; a few resamples are timed and the figure scaled to 1,000 per side.
//
//   npx tsx scripts/bench-compare.ts [--runs 5] [--only 1h|24h]
// Logs are generated with tests/support/day-log.ts the first time (cached in .bench/).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { build, decodeFromCompressedBase64, type Histogram } from "hdr-histogram-js";
import { dayLogName, writeDayLog } from "../tests/support/day-log";
import { Store } from "../src/engine/store";
import { compareQuery } from "../src/engine/compare-query";
import { planBlocks } from "../src/core/compare/plan";
import { curveGrid, supportLimit } from "../src/core/compare/verdict";
import { COMPARE_PERCENTILES, DEFAULT_RESAMPLES } from "../src/core/compare/compare";
import { makeRng } from "../src/core/compare/rng";

const ROOT = resolve(import.meta.dirname, "..");
const BENCH_DIR = join(ROOT, ".bench");
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg("runs") ?? 5);
const ONLY = arg("only");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);

/** The plain way, for `count` resamples of one side: the same moving blocks, every drawn interval decoded and added. */
function baselineSide(payloads: string[], grid: number[], count: number, seed: number): number {
  const plan = planBlocks(payloads.length, 1);
  const starts = Math.ceil(payloads.length / plan.stride);
  const draws = Math.ceil(starts / plan.span);
  const rng = makeRng(seed, 7);
  const t0 = performance.now();
  for (let b = 0; b < count; b++) {
    const h: Histogram = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let d = 0; d < draws; d++) {
      const s = rng.int(starts) * plan.stride;
      for (let i = 0; i < plan.length; i++) {
        const k = (s + i) % payloads.length;
        const one = decodeFromCompressedBase64(payloads[k]!, 64, false);
        h.add(one);
        one.destroy();
      }
    }
    for (const p of grid) h.getValueAtPercentile(p);
    h.destroy();
  }
  return (performance.now() - t0) / count;
}

async function bench(label: string, intervals: number, goalMs: number, baselineResamples: number): Promise<string> {
  const paths = [1, 2].map((seed) => writeDayLog(join(BENCH_DIR, dayLogName({ intervals, seed })), { intervals, seed }).path);
  const store = new Store();
  for (const p of paths) await store.load(p.split("/").pop()!, [readFileSync(p, "utf8")]);
  const [a, b] = store.series;
  const req = { baseline: a!.id, candidate: b!.id, range: { start: null, end: null } };
  const times: number[] = [];
  let first = 0;
  let sentence = "";
  for (let r = 0; r <= RUNS; r++) {
    const t0 = performance.now();
    const res = await compareQuery(store, req);
    const t = performance.now() - t0;
    if (r === 0) first = t;
    else times.push(t);
    sentence = res.sentence;
  }
  const limit = supportLimit(a!.histogram.totalCount, b!.histogram.totalCount);
  const grid = [...new Set([...curveGrid(limit, 8), ...COMPARE_PERCENTILES.filter((p) => p <= limit)])];
  if (process.env.NO_BASELINE) return `${label}: median ${ms(median(times))}`;
  const perResample = [a!, b!].map((s, i) => baselineSide(s.intervals!.allPayloads(), grid, baselineResamples, i + 1));
  const base = (perResample[0]! + perResample[1]!) * DEFAULT_RESAMPLES;
  const m = median(times);
  return [
    `${label}: two logs of ${intervals.toLocaleString("en-US")} intervals, ${DEFAULT_RESAMPLES} resamples, ${grid.length} percentiles`,
    `  compare (blocks → bootstrap → verdicts): median ${ms(m)} of ${times.length} (runs ${ms(Math.min(...times))}–${ms(Math.max(...times))}; first, cold: ${ms(first)})  goal ≤ ${ms(goalMs)}  ${m <= goalMs ? "met" : "MISSED"}`,
    `  baseline (hdr-histogram-js: decode and add every drawn interval per resample): ${ms(base)} (${ms(perResample[0]!)} per resample, timed over ${baselineResamples} per side)  → ${(base / m).toFixed(0)}× slower`,
    `  ${sentence}`,
  ].join("\n");
}

console.log(
  `bench-compare: Node ${process.version}, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
if (ONLY !== "24h") console.log(await bench("1 hour", 3600, 300, 10));
if (ONLY !== "1h") console.log(await bench("24 hours", 86_400, 1000, 2));
console.log(
  `load average at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
