// Calibration of the history's change points and of `check --history`, on simulated histories
// of 30–100 runs (tests/support/history-sim.ts: an open-loop queue with GC-like pauses and the
// queue each leaves, slow drift within a run, a little speed difference from run to run).
//
//   npm run calibrate:history [-- --seeds N --from S] [-- --only steady,step,tail,gate,otava]
//
// Prints a Markdown table (the README's "History of runs" quotes it). `otava` runs Apache Otava
// (pip package apache-otava, installed into a venv under /tmp) on the runs' p50 and p99.9 series
// of the same kinds of histories, for comparison; it is not among the defaults.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { compareSides, type RunInput } from "../src/core/compare";
import { detectChanges, judgeNewRun, runToRunSd, stableStretch, type Change } from "../src/core/history";
import { HISTORY_MIN_ABOVE } from "../src/core/history/summary";
import { historyRun, historySummaries } from "../tests/support/history-sim";

const args = process.argv.slice(2);
const arg = (name: string): string | null => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? null) : null;
};
const SEEDS = Number(arg("--seeds") ?? 100);
/** First seed (to split the seeds over several processes; their counts add up). */
const FROM = Number(arg("--from") ?? 1);
const ONLY = new Set((arg("--only") ?? "steady,step,tail,gate").split(","));
const RUNS = [30, 50, 100];
const STEP = 1.15;
const PAUSES = 1.6;
const KEEP = 20;

const runsOf = (seed: number) => RUNS[seed % RUNS.length]!;
/** The change starts at a run chosen by the seed, at least 5 runs from either end. */
const changeAt = (seed: number, n: number) => 5 + ((seed * 7919) % (n - 10));

interface Row {
  scenario: string;
  what: string;
  count: number;
  of: number;
  target: string;
}
const rows: Row[] = [];
const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(0)} %`;
const t0 = Date.now();
const log = (s: string) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0)} s] ${s}\n`);

function near(c: Change, at: number): boolean {
  return Math.abs(c.index - at) <= 1;
}

if (ONLY.has("steady") || ONLY.has("gate")) {
  let quiet = 0;
  let gateFalse = 0;
  let gateCaught = 0;
  let singleFalse = 0;
  let gateN = 0;
  for (let seed = FROM; seed < FROM + SEEDS; seed++) {
    const n = runsOf(seed);
    const h = historySummaries({ seed, runs: n, keep: ONLY.has("gate") ? KEEP : 0, scale: STEP });
    const changes = detectChanges(h.summaries);
    if (changes.length === 0) quiet++;
    if (ONLY.has("gate")) {
      gateN++;
      const stretch = stableStretch(h.summaries, changes, "svc", KEEP);
      const inputs = stretch.map((i) => h.kept[i - (n - KEEP)]).filter((x): x is RunInput => x !== undefined);
      const spread = (p: number) => runToRunSd(h.summaries, "svc", p, stretch);
      // The new run's own summary says which percentiles it supports (as check --history reads it).
      const judged = (run: ReturnType<typeof h.run>) => (p: number) => run.count * (1 - p / 100) >= HISTORY_MIN_ABOVE;
      const base = { label: "history", runs: inputs };
      const sameRun = h.run(n, false);
      const slowerRun = h.run(n, true);
      const same = sameRun.input;
      if (judgeNewRun(base, { label: "new", runs: [same] }, spread, { judged: judged(sameRun) }).worse.length > 0) gateFalse++;
      if (judgeNewRun(base, { label: "new", runs: [slowerRun.input] }, spread, { judged: judged(slowerRun) }).worse.length > 0) gateCaught++;
      // What comparing with one previous run (check --compare) says of the same new run.
      const one = compareSides({ label: "previous", runs: [inputs[inputs.length - 1]!] }, { label: "new", runs: [same] }, { percentiles: [50, 90, 99, 99.9, 99.99], perDecade: 0 });
      if (one.points.some((p) => p.supported && p.verdict === "worse")) singleFalse++;
    }
    if (seed % 5 === 0) log(`steady ${seed}: quiet ${quiet}, gate false alarms ${gateFalse}, caught ${gateCaught}, single-run false alarms ${singleFalse}`);
  }
  if (ONLY.has("steady")) rows.push({ scenario: "steady (30–100 runs)", what: "no change called at any percentile", count: quiet, of: SEEDS, target: "≥ 95 %" });
  if (ONLY.has("gate")) {
    rows.push({ scenario: "gate: new run like the others", what: "`check --history` fails it (false alarm)", count: gateFalse, of: gateN, target: "≤ 5 %" });
    rows.push({
      scenario: "gate: new run like the others",
      what: "`check --compare` with the previous run alone fails it",
      count: singleFalse,
      of: gateN,
      target: "(for contrast)",
    });
    rows.push({ scenario: `gate: new run ×${STEP}`, what: "`check --history` fails it", count: gateCaught, of: gateN, target: "(power)" });
  }
}

if (ONLY.has("step")) {
  let found = 0;
  let extra = 0;
  const byP = new Map<number, number>();
  for (let seed = FROM; seed < FROM + SEEDS; seed++) {
    const n = runsOf(seed);
    const at = changeAt(seed, n);
    const h = historySummaries({ seed: 1000 + seed, runs: n, changeAt: at, scale: STEP });
    const changes = detectChanges(h.summaries);
    const right = changes.filter((c) => near(c, at) && c.direction === "worse");
    if (right.length > 0) found++;
    for (const p of new Set(right.map((c) => c.percentile))) byP.set(p, (byP.get(p) ?? 0) + 1);
    if (changes.some((c) => !near(c, at))) extra++;
    if (seed % 5 === 0) log(`step ${seed}: found ${found}, extra ${extra}`);
  }
  rows.push({ scenario: `step ×${STEP} in every value`, what: "found at the right run (±1)", count: found, of: SEEDS, target: "≥ 90 %" });
  for (const p of [50, 90, 99, 99.9, 99.99]) rows.push({ scenario: `step ×${STEP} in every value`, what: `… at p${p}`, count: byP.get(p) ?? 0, of: SEEDS, target: "" });
  rows.push({ scenario: `step ×${STEP} in every value`, what: "a change called at another run too", count: extra, of: SEEDS, target: "" });
}

if (ONLY.has("tail")) {
  let found = 0;
  let p50 = 0;
  for (let seed = FROM; seed < FROM + SEEDS; seed++) {
    const n = runsOf(seed);
    const at = changeAt(seed, n);
    const h = historySummaries({ seed: 2000 + seed, runs: n, changeAt: at, pauseScale: PAUSES });
    const changes = detectChanges(h.summaries);
    if (changes.some((c) => c.percentile === 99.9 && near(c, at) && c.direction === "worse")) found++;
    if (changes.some((c) => c.percentile === 50)) p50++;
    if (seed % 5 === 0) log(`tail ${seed}: found ${found}, p50 ${p50}`);
  }
  rows.push({ scenario: `pauses ×${PAUSES} longer (tail only)`, what: "found at p99.9 at the right run (±1)", count: found, of: SEEDS, target: "where supported" });
  rows.push({ scenario: `pauses ×${PAUSES} longer (tail only)`, what: "a change called at p50", count: p50, of: SEEDS, target: "none" });
}

if (ONLY.has("otava")) {
  // Apache Otava (e-divisive means with its own significance test, default settings) on the
  // runs' p50 and p99.9 series of the same kinds of histories: one number per run, no interval.
  const series: { kind: string; at: number | null; p50: number[]; p999: number[] }[] = [];
  for (let seed = FROM; seed < FROM + SEEDS; seed++) {
    const n = runsOf(seed);
    const at = changeAt(seed, n);
    for (const [kind, spec] of [
      ["steady", { seed, runs: n }],
      ["step", { seed: 1000 + seed, runs: n, changeAt: at, scale: STEP }],
      ["tail", { seed: 2000 + seed, runs: n, changeAt: at, pauseScale: PAUSES }],
    ] as const) {
      const runs = Array.from({ length: n }, (_, i) => {
        const changed = "changeAt" in spec && i >= spec.changeAt;
        return historyRun({
          seed: spec.seed * 7919 + i * 104729,
          scale: changed && "scale" in spec ? spec.scale : 1,
          pauseScale: changed && "pauseScale" in spec ? spec.pauseScale : 1,
        }).percentiles;
      });
      series.push({ kind, at: kind === "steady" ? null : at, p50: runs.map((r) => r["50"]!), p999: runs.map((r) => r["99.9"]!) });
    }
    if (seed % 5 === 0) log(`otava series ${seed}`);
  }
  const venv = "/tmp/otava-venv";
  try {
    if (!existsSync(`${venv}/bin/python`)) {
      execFileSync("python3", ["-m", "venv", venv]);
      execFileSync(`${venv}/bin/pip`, ["install", "-q", "apache-otava"], { stdio: "inherit" });
    }
    const dir = "/tmp/otava-series";
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/series.json`, JSON.stringify(series));
    const py = `
import json
from otava.analysis import compute_change_points
out = []
for s in json.load(open("${dir}/series.json")):
    r = {"kind": s["kind"], "at": s["at"]}
    for key in ("p50", "p999"):
        cps, _ = compute_change_points(s[key])
        r[key] = [int(c.index) for c in cps]
    out.append(r)
print(json.dumps(out))
`;
    const res = JSON.parse(execFileSync(`${venv}/bin/python`, ["-c", py], { maxBuffer: 1 << 26 }).toString()) as {
      kind: string;
      at: number | null;
      p50: number[];
      p999: number[];
    }[];
    const count = (kind: string, f: (r: (typeof res)[number]) => boolean) => res.filter((r) => r.kind === kind && f(r)).length;
    const of = (kind: string) => res.filter((r) => r.kind === kind).length;
    const hit = (xs: number[], at: number | null) => xs.some((x) => Math.abs(x - at!) <= 1);
    rows.push({
      scenario: "Apache Otava: steady",
      what: "no change called at p50 or p99.9",
      count: count("steady", (r) => r.p50.length + r.p999.length === 0),
      of: of("steady"),
      target: "(for comparison)",
    });
    rows.push({
      scenario: `Apache Otava: step ×${STEP}`,
      what: "p50: found at the right run (±1)",
      count: count("step", (r) => hit(r.p50, r.at)),
      of: of("step"),
      target: "(for comparison)",
    });
    rows.push({
      scenario: `Apache Otava: pauses ×${PAUSES}`,
      what: "p99.9: found at the right run (±1)",
      count: count("tail", (r) => hit(r.p999, r.at)),
      of: of("tail"),
      target: "(for comparison)",
    });
    rows.push({
      scenario: `Apache Otava: pauses ×${PAUSES}`,
      what: "a change called at p50",
      count: count("tail", (r) => r.p50.length > 0),
      of: of("tail"),
      target: "(for comparison)",
    });
  } catch (e) {
    log(`Otava cross-check skipped: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
  }
}

const lines = ["| scenario | what is counted | seeds | result | target |", "|---|---|---|---|---|"];
for (const r of rows) lines.push(`| ${r.scenario} | ${r.what} | ${r.count} / ${r.of} | ${pct(r.count, r.of)} | ${r.target} |`);
process.stdout.write(`${lines.join("\n")}\n`);
log("done");
