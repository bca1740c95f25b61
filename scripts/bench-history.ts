// The history at scale: `history --json` on 1,000 runs of one-hour interval logs (jHiccup-like,
// tests/support/day-log.ts), its time and peak memory, read cold (no caches: every run read and
// summarised) on a part of them and warm (every run's cache fresh) on all of them; and the
// page's share of the work for 200 runs (change points and the chart's layout).
//
//   npm run bench:history            (builds the command line first)
//   tsx scripts/bench-history.ts [--runs 1000] [--cold 40]
//
// The 1,000 runs are hard links to ten distinct logs (disk space), so a run's cache is the
// cache of its log's first run, copied with it: exactly what reading the run would write.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { historyLayout } from "../src/charts/history/layout";
import { detectChanges, type RunSummary } from "../src/core/history";
import { writeDayLog } from "../tests/support/day-log";

const args = process.argv.slice(2);
const arg = (name: string, d: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const RUNS = arg("--runs", 1000);
const COLD = arg("--cold", 40);
const DISTINCT = 10;
const root = join(tmpdir(), "hdr-spectrum-bench-history");
const bin = resolve(import.meta.dirname, "../dist-cli/hdr-spectrum.mjs");
if (!existsSync(bin)) throw new Error("build the command line first: npm run build:cli");

const t0 = performance.now();
const sources: string[] = [];
for (let k = 0; k < DISTINCT; k++) {
  const p = join(root, "logs", `hour-${k}.hlog`);
  writeDayLog(p, { intervals: 3600, seed: 100 + k, startMs: Date.UTC(2026, 10, 1, k, 0, 0) });
  sources.push(p);
}
const mb = (n: number) => (n / 1e6).toFixed(1);
console.log(`${DISTINCT} one-hour logs of ${mb(statSync(sources[0]!).size)} MB each ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

function makeHistory(dir: string, n: number): void {
  rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < n; i++) {
    const run = join(dir, `run-${String(i).padStart(4, "0")}`);
    mkdirSync(run, { recursive: true });
    linkSync(sources[i % DISTINCT]!, join(run, "svc.hlog"));
  }
}

/** Wall time (s) and peak resident memory (MB) of the command line on a history, on two threads. */
function timeHistory(dir: string): { seconds: number; peakMb: number; json: { runs: RunSummary[]; changes: unknown[] } } {
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, bin, "history", "--json", dir], { encoding: "utf8", maxBuffer: 1 << 30 });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  const peakKb = Number(r.stderr.trim().split("\n").pop());
  return { seconds, peakMb: peakKb / 1024, json: JSON.parse(r.stdout) };
}

const cold = join(root, "cold");
makeHistory(cold, COLD);
const c = timeHistory(cold);
console.log(
  `cold: ${COLD} runs read and summarised in ${c.seconds.toFixed(1)} s (${((1000 * c.seconds) / COLD).toFixed(0)} ms a run; ${((c.seconds / COLD) * RUNS).toFixed(0)} s for ${RUNS} at that rate), peak ${c.peakMb.toFixed(0)} MB`,
);

const warm = join(root, "warm");
makeHistory(warm, RUNS);
for (let i = 0; i < RUNS; i++) {
  const name = `run-${String(i).padStart(4, "0")}`;
  copyFileSync(join(cold, `run-${String(i % DISTINCT).padStart(4, "0")}`, ".hdr-spectrum-cache.json"), join(warm, name, ".hdr-spectrum-cache.json"));
}
const w = timeHistory(warm);
console.log(`warm: ${RUNS} runs, every cache fresh: ${w.seconds.toFixed(1)} s, peak ${w.peakMb.toFixed(0)} MB, ${w.json.changes.length} changes`);

// The page's work for 200 runs once their summaries are in: change points, then the layout.
const summaries = JSON.parse(readFileSync(join(warm, "run-0000", ".hdr-spectrum-cache.json"), "utf8")) as { series: RunSummary["series"] };
const runs: RunSummary[] = Array.from({ length: 200 }, (_, i) => ({
  id: `run-${i}`,
  start: i,
  series: JSON.parse(readFileSync(join(warm, `run-${String(i % DISTINCT).padStart(4, "0")}`, ".hdr-spectrum-cache.json"), "utf8")).series ?? summaries.series,
}));
const times: number[] = [];
for (let k = 0; k < 7; k++) {
  const t = performance.now();
  const changes = detectChanges(runs);
  historyLayout({ runs, series: runs[0]!.series[0]!.name, changes, width: 1200, scale: 1e-6, margin: 0.05 });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`page, 200 runs: change points and chart layout in ${times[3]!.toFixed(0)} ms (median of 7)`);
