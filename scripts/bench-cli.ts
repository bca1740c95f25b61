// The command line's speed and memory, beside HdrHistogram Java's HistogramLogProcessor when
// java and its jar are here (the baseline). Spawns the built executable (npm run build:cli) as
// a user would; wall time and peak RSS of the whole process (GNU time's %M), medians of --runs.
//
//   npx tsx scripts/bench-cli.ts [--runs 3] [--files 5000]
//
// 1. the 24-hour log (86,400 one-second intervals, scripts/lib/day-log.ts) judged by `check`
//    (goal ≤ 1 s, both cores: the log is cut in parts read on helper threads);
// 2. 5,000 one-minute logs merged into one series per configuration (`report --merge --json`,
//    goal ≤ 10 s and ≤ 500 MB RSS).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { homedir, loadavg } from "node:os";
import path from "node:path";
import { writeDayLog, dayLogName } from "./lib/day-log";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "dist-cli/hdr-spectrum.mjs");
const cache = path.join(root, ".bench");
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("--runs", 3);
const FILES = arg("--files", 5000);
const jar = process.env.HDRHISTOGRAM_JAR ?? path.join(homedir(), ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
const haveJava = existsSync(jar) && spawnSync("java", ["-version"]).status === 0;
const haveTime = existsSync("/usr/bin/time");

interface Measured {
  seconds: number;
  rssMB: number | null;
  /** User + system CPU seconds of the process, all its threads (GNU time), null without it. */
  cpu: number | null;
  status: number | null;
}

/** Runs a command once: wall seconds and peak RSS (MB, from GNU time when present). */
function measure(cmd: string, args: string[]): Measured {
  const t0 = performance.now();
  const r = haveTime
    ? spawnSync("/usr/bin/time", ["-f", "%M %U %S", cmd, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })
    : spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = (performance.now() - t0) / 1000;
  const m = haveTime ? /(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr) : null;
  const kb = m ? Number(m[1]) : Number.NaN;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${args.slice(0, 3).join(" ")} …: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  return { seconds, rssMB: Number.isFinite(kb) ? kb / 1024 : null, cpu: m ? Number(m[2]) + Number(m[3]) : null, status: r.status };
}

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

function runs(cmd: string, args: string[]): Summary {
  const ms: Measured[] = [];
  for (let k = 0; k < RUNS; k++) ms.push(measure(cmd, args));
  const rss = ms.map((m) => m.rssMB).filter((x): x is number => x !== null);
  const cpu = ms.map((m) => m.cpu).filter((x): x is number => x !== null);
  return { seconds: median(ms.map((m) => m.seconds)), all: ms.map((m) => m.seconds), rssMB: rss.length ? Math.max(...rss) : null, cpu: cpu.length ? median(cpu) : null };
}

// CPU time beside the wall time: on a loaded machine the wall time says more about the load.
const fmt = (r: Summary) =>
  `${r.seconds.toFixed(3)} s (runs ${r.all.map((s) => s.toFixed(2)).join(", ")})${r.cpu !== null ? `, CPU ${r.cpu.toFixed(2)} s` : ""}${r.rssMB !== null ? `, peak RSS ${r.rssMB.toFixed(0)} MB` : ""}`;

console.log(
  `load average at the start: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build:cli first`);
const rows: string[][] = [];

// 1. The 24-hour log.
const day = writeDayLog(path.join(cache, dayLogName()));
console.log(`24-hour log: ${(day.bytes / 1e6).toFixed(1)} MB, ${day.intervals} intervals${day.generated ? ` (generated in ${(day.ms / 1000).toFixed(1)} s)` : ""}`);
const req = "p50<=1ms, p99<=10ms, p99.9<=50ms, max<=1s";
const dayCheck = runs(process.execPath, [bin, "check", "--require", req, day.path]);
const dayOne = runs(process.execPath, [bin, "check", "--no-workers", "--require", req, day.path]);
rows.push(["24-hour log, check (both cores)", fmt(dayCheck), "≤ 1 s"]);
rows.push(["24-hour log, check on one thread", fmt(dayOne), "(comparison)"]);
if (haveJava) {
  const j = runs("java", ["-cp", jar, "org.HdrHistogram.HistogramLogProcessor", "-i", day.path]);
  rows.push(["24-hour log, HistogramLogProcessor (baseline)", fmt(j), ""]);
  const h = runs(process.execPath, [bin, "hgrm", day.path]);
  rows.push(["24-hour log, hdr-spectrum hgrm (same output)", fmt(h), ""]);
}

// 2. Thousands of one-minute logs.
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
const merged = runs(process.execPath, [bin, "report", "--merge", "--json", ...files]);
rows.push([`${files.length} one-minute logs, report --merge (one series per configuration)`, fmt(merged), "≤ 10 s, ≤ 500 MB"]);
if (haveJava) {
  // The processor reads one log per run: its time for one file, times the number of files.
  const one = runs("java", ["-cp", jar, "org.HdrHistogram.HistogramLogProcessor", "-i", files[0]!]);
  rows.push([`HistogramLogProcessor, one of them (baseline: it reads one log per run; × ${files.length} ≈ ${(one.seconds * files.length).toFixed(0)} s)`, fmt(one), ""]);
}

console.log(
  `load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
console.log("");
console.log("| what | figure | goal |");
console.log("|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
