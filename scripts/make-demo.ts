// Writes the demo data the app opens with: "System A", which stalls for hundreds of ms every
// so often, and "System B", which does not, each at several throughputs. Interval logs in
// HdrHistogram's format, written with hdr-histogram-js's log writer (values in ns, the
// Interval_Max column in ms as jHiccup writes it). Run: npm run demo
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { PRODUCER_HEADERS, writeHlog } from "../tests/support/hlog-fixture";
import { simulateQueue, type SimConfig, type Stall } from "../tests/support/queue-sim";

const OUT = resolve(import.meta.dirname, "../public/demo");
const START_MS = Date.UTC(2026, 10, 1, 9, 0, 0);
const SECONDS = 60;

function stallsA(seed: number): Stall[] {
  // A pause of 40–160 ms every ~9 s, like an old-generation collection.
  const out: Stall[] = [];
  for (let t = 3 + (seed % 5); t < SECONDS; t += 9) out.push({ at: t + 0.37, duration: 0.04 + ((t * 7 + seed) % 5) * 0.03 });
  return out;
}

function hiccupsB(seed: number): Stall[] {
  // B is not perfect either: a 2–6 ms hiccup every ~5 s.
  const out: Stall[] = [];
  for (let t = 2 + (seed % 3); t < SECONDS; t += 5) out.push({ at: t + 0.61, duration: 0.002 + ((t * 3 + seed) % 5) * 0.001 });
  return out;
}

function writeLog(name: string, c: SimConfig): void {
  // Column in ms for ns values: ratio 1e6, as jHiccup and cassandra-stress write it.
  // The first comment names the producer, whose unit the readers know (formats/hlog.ts
  // PRODUCERS): the demo's rows state their unit instead of guessing it from Interval_Max.
  const text = writeHlog(simulateQueue(c), { startMs: START_MS, maxRatio: 1e6, comment: `${PRODUCER_HEADERS.demo.comment}: ${name}` });
  writeFileSync(resolve(OUT, name), text);
}

mkdirSync(OUT, { recursive: true });
const files: string[] = [];
const rates = [2000, 4000, 8000];
rates.forEach((rate, i) => {
  const a = `sysA_${rate / 1000}k.response.hlog`;
  writeLog(a, { rate, seconds: SECONDS, medianServiceSec: 80e-6, sigma: 0.5, stalls: stallsA(i), seed: 11 + i });
  const b = `sysB_${rate / 1000}k.response.hlog`;
  writeLog(b, { rate, seconds: SECONDS, medianServiceSec: 40e-6, sigma: 0.5, stalls: hiccupsB(i), seed: 101 + i });
  files.push(a, b);
});
// The requirement the demo opens with: System A's stalls break p99 above 2k/s; B holds 8k/s.
const requirement = "p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms";
writeFileSync(resolve(OUT, "manifest.json"), `${JSON.stringify({ files, requirement }, null, 2)}\n`);
console.log(`wrote ${files.length} logs to ${OUT}`);
