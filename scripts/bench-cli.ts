// The command line's speed and memory beside HdrHistogram Java's HistogramLogProcessor on the
// same log in the same minutes (the baseline; scripts/bench/java.ts). Spawns the built
// executable (npm run build:cli) with node as a user would (node's start-up included): wall
// time, CPU and peak RSS of the whole process (GNU time), medians of --runs; each ratio to the
// baseline is of wall times, with the ratio of CPU times beside it.
//
//   npx tsx scripts/bench-cli.ts [--runs 3] [--files 5000] [--only 1,2,3]
//
// 1. the 24-hour log (86,400 one-second intervals, tests/support/day-log.ts): `report --json`
//    and `check` (goal ≥ 20× faster than HistogramLogProcessor, ≤ 300 MB), one thread beside;
// 2. two ~157 MB 24-hour logs compared, `report --json --compare` (goal ≤ 3 s, ≤ 600 MB);
// 3. 5,000 one-minute logs merged into one series per configuration (`report --merge --json`,
//    goal ≤ 10 s and ≤ 500 MB RSS).
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { writeDayLog, dayLogName } from "../tests/support/day-log";
import { bigDayLog } from "./bench/big-logs";
import { HLP_NAME, hlpMissing, hlpRun, timeCommand, type Timed } from "./bench/java";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "dist-cli/hdr-spectrum.mjs");
const cache = path.join(root, ".bench");
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const RUNS = Math.max(1, Number(arg("--runs", "3")) || 3);
const FILES = Number(arg("--files", "5000"));
const ONLY = new Set(arg("--only", "1,2,3").split(",").map(Number));
const hlpSkip = hlpMissing();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Summary {
  seconds: number;
  all: number[];
  rssMB: number | null;
  cpu: number | null;
}

function summary(ms: Timed[]): Summary {
  const rss = ms.map((m) => m.rssMB).filter((x): x is number => x !== null);
  const cpu = ms.map((m) => m.cpu).filter((x): x is number => x !== null);
  return { seconds: median(ms.map((m) => m.seconds)), all: ms.map((m) => m.seconds), rssMB: rss.length ? Math.max(...rss) : null, cpu: cpu.length ? median(cpu) : null };
}

// CPU time beside the wall time: on a loaded machine the wall time says more about the load.
const fmt = (r: Summary) =>
  `${r.seconds.toFixed(3)} s (runs ${r.all.map((s) => s.toFixed(2)).join(", ")})${r.cpu !== null ? `, CPU ${r.cpu.toFixed(2)} s` : ""}${r.rssMB !== null ? `, peak RSS ${r.rssMB.toFixed(0)} MB` : ""}`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

console.log(`load average at the start: ${load()}`);
if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build:cli first`);
if (hlpSkip) console.log(hlpSkip);
const rows: string[][] = [];
const node = (...args: string[]) => timeCommand(process.execPath, [bin, ...args]);

// 1. The 24-hour log: each command's runs interleaved with the processor's, so every ratio is of
// runs taken in the same minutes.
if (ONLY.has(1)) {
  const day = writeDayLog(path.join(cache, dayLogName()));
  console.log(`24-hour log: ${(day.bytes / 1e6).toFixed(1)} MB, ${day.intervals} intervals${day.generated ? ` (generated in ${(day.ms / 1000).toFixed(1)} s)` : ""}`);
  const req = "p50<=1ms, p99<=10ms, p99.9<=50ms, max<=1s";
  const runs: Record<string, Timed[]> = { report: [], check: [], one: [], hlp: [], hgrm: [] };
  for (let k = 0; k < RUNS; k++) {
    runs.report!.push(node("report", "--json", day.path));
    runs.check!.push(node("check", "--require", req, day.path));
    runs.one!.push(node("report", "--json", "--no-workers", day.path));
    if (!hlpSkip) {
      runs.hlp!.push(hlpRun(day.path));
      runs.hgrm!.push(node("hgrm", day.path));
    }
  }
  const ratioTo = (xs: Timed[]) => (runs.hlp!.length ? median(xs.map((x, i) => runs.hlp![i]!.seconds / x.seconds)) : Number.NaN);
  // The processor's CPU over ours, per run: what the wall-clock ratio tends to when both cores
  // are free, and steadier than it on a loaded machine.
  const cpuRatioTo = (xs: Timed[]) => {
    const r = xs.map((x, i) => (runs.hlp![i]?.cpu ?? Number.NaN) / (x.cpu ?? Number.NaN)).filter(Number.isFinite);
    return r.length ? median(r) : Number.NaN;
  };
  const verdict = (xs: Timed[]) => {
    const r = ratioTo(xs);
    const c = cpuRatioTo(xs);
    const rss = summary(xs).rssMB;
    return `${Number.isFinite(r) ? `${r.toFixed(1)}× faster than the baseline (${r >= 20 ? "ok" : "MISS"})${Number.isFinite(c) ? `, CPU ratio ${c.toFixed(1)}×` : ""}` : "no baseline"}; ${rss !== null ? `${rss.toFixed(0)} MB (${rss <= 300 ? "ok" : "MISS"})` : ""}`;
  };
  rows.push(["24-hour log, report --json (both cores)", fmt(summary(runs.report!)), "≥ 20× baseline, ≤ 300 MB", verdict(runs.report!)]);
  rows.push(["24-hour log, check --require (both cores)", fmt(summary(runs.check!)), "≥ 20× baseline, ≤ 300 MB", verdict(runs.check!)]);
  rows.push(["24-hour log, report --json --no-workers", fmt(summary(runs.one!)), "(comparison)", verdict(runs.one!)]);
  if (!hlpSkip) {
    rows.push([`24-hour log, baseline: ${HLP_NAME} -i FILE`, fmt(summary(runs.hlp!)), "", ""]);
    rows.push(["24-hour log, hdr-spectrum hgrm (the same output)", fmt(summary(runs.hgrm!)), "", verdict(runs.hgrm!)]);
  }
}

// 2. Two large 24-hour logs compared.
if (ONLY.has(2)) {
  const t0 = performance.now();
  const a = bigDayLog(cache, 1);
  const b = bigDayLog(cache, 2);
  console.log(`two large 24-hour logs: ${(a.bytes / 1e6).toFixed(0)} and ${(b.bytes / 1e6).toFixed(0)} MB (ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const ms: Timed[] = [];
  const plain: Timed[] = [];
  for (let k = 0; k < RUNS; k++) {
    ms.push(node("report", "--json", "--compare", a.path, a.path, b.path));
    plain.push(node("report", "--json", a.path, b.path));
  }
  const s = summary(ms);
  const p = summary(plain);
  // Time and memory judged apart: one can be met without the other.
  const ok = (x: boolean) => (x ? "ok" : "MISS");
  rows.push([
    `two ${(a.bytes / 1e6).toFixed(0)} MB 24-hour logs, report --json --compare`,
    fmt(s),
    "≤ 3 s, ≤ 600 MB",
    `time ${ok(s.seconds <= 3)}, memory ${ok((s.rssMB ?? 0) <= 600)}`,
  ]);
  const more = s.cpu !== null && p.cpu !== null ? `; the comparison: +${(s.seconds - p.seconds).toFixed(2)} s, +${(s.cpu - p.cpu).toFixed(2)} s CPU` : "";
  rows.push(["  same without --compare", fmt(p) + more, "(comparison)", ""]);
}

// 3. Thousands of one-minute logs.
if (ONLY.has(3)) {
  const dir = path.join(cache, `minute-logs-${FILES}`);
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const configs = ["sysA_4k", "sysB_4k"];
  for (let i = 0; i < FILES; i++) {
    const sub = path.join(dir, String(i).padStart(5, "0"));
    const name = `${configs[i % configs.length]}.hlog`;
    if (existsSync(path.join(sub, name)) && existsSync(path.join(sub, `${name}.json`))) continue;
    writeDayLog(path.join(sub, name), { intervals: 60, seed: 1000 + i, startMs: Date.UTC(2026, 10, 1) + i * 60_000, distinctPerInterval: 120 });
  }
  const files = readdirSync(dir).flatMap((d) =>
    readdirSync(path.join(dir, d))
      .filter((f) => f.endsWith(".hlog"))
      .map((f) => path.join(dir, d, f)),
  );
  console.log(`${files.length} one-minute logs ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const merged: Timed[] = [];
  const one: Timed[] = [];
  for (let k = 0; k < RUNS; k++) {
    merged.push(node("report", "--merge", "--json", ...files));
    // The processor reads one log per run: its time for one file, times the number of files.
    if (!hlpSkip) one.push(hlpRun(files[0]!));
  }
  const s = summary(merged);
  rows.push([
    `${files.length} one-minute logs, report --merge (one series per configuration)`,
    fmt(s),
    "≤ 10 s, ≤ 500 MB",
    s.seconds <= 10 && (s.rssMB ?? 0) <= 500 ? "ok" : "MISS",
  ]);
  if (one.length) {
    const o = summary(one);
    rows.push([`  baseline: ${HLP_NAME}, one of them (it reads one log per run; × ${files.length} ≈ ${(o.seconds * files.length).toFixed(0)} s)`, fmt(o), "", ""]);
  }
}

console.log(`load average at the end: ${load()}`);
console.log("");
console.log("| what | figure | goal | status |");
console.log("|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
