// `history DIR…`: the runs of a history, ordered, each series' change points across them;
// `check --history DIR FILES…`: a new run against the latest stable stretch of the history.
import { detectChanges, judgedPercentiles, judgeNewRun, orderRuns, runToRunSd, seriesNames, seriesSentence, stableStretch, type Change, type RunSummary } from "../core/history";
import { changeText, pName } from "../core/history";
import { formatNumber, UNIT_LABEL } from "../core/format";
import { verdictOf, type Requirement } from "../core/requirements";
import { NANOS_PER_UNIT, type LoadProblem, type Unit } from "../core/types";
import type { HelperWorkers } from "../engine/load-files";
import { CliError } from "./errors";
import { readRun, runDirsOf, runInputsOf, summarizeStore, type RunDir } from "./history-runs";
import { expandPaths, loadAll } from "./load";
import { JSON_VERSION } from "./report";

export interface HistoryArgs {
  dirs: string[];
  json: boolean;
  requirement: Requirement | null;
  unit: Unit;
  margin?: number;
  /** Write history.md and a chart per series there. */
  out?: string | null;
  linkBase?: string | null;
  helpers: HelperWorkers | null;
  progress: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs of a requirement on a summary: only at the percentiles a summary keeps. */
function runVerdict(values: Record<string, number>, unit: string, requirement: Requirement | null): string | null {
  if (!requirement) return null;
  const ns = NANOS_PER_UNIT[unit as Unit] ?? 1;
  return verdictOf(requirement, (p) => (values[String(p)] ?? Number.NaN) * ns).pass ? "pass" : "fail";
}

function checkRequirement(requirement: Requirement | null): void {
  const kept = ["50", "90", "99", "99.9", "99.99", "99.999", "100"];
  const odd = requirement?.entries.filter((e) => !kept.includes(String(e.percentile))) ?? [];
  if (odd.length > 0)
    throw new CliError(
      2,
      `--require: a history keeps p50, p90, p99, p99.9, p99.99, p99.999 and max of each run; ${odd.map((e) => pName(e.percentile)).join(", ")} cannot be judged`,
    );
}

function problemLines(problems: LoadProblem[]): string {
  return problems.map((p) => `${p.file}${p.line !== null ? `:${p.line}` : ""}: ${p.reason}\n`).join("");
}

/** Every run's summary (cached where fresh), in history order. */
export async function readHistory(dirs: readonly string[], a: Pick<HistoryArgs, "helpers" | "progress" | "stderr">): Promise<{ runs: RunSummary[]; dirs: Map<string, RunDir> }> {
  const runDirs = runDirsOf(dirs);
  if (runDirs.length === 0) throw new CliError(2, `${dirs.join(", ")}: no run directories with files`);
  const summaries: RunSummary[] = [];
  const problems: LoadProblem[] = [];
  for (const r of runDirs) {
    const read = await readRun(r, a.helpers, a.progress);
    problems.push(...read.problems);
    summaries.push(read.summary);
  }
  if (problems.length > 0) {
    a.stderr(problemLines(problems));
    throw new CliError(2, `${problems.length} problem${problems.length === 1 ? "" : "s"} reading the history; nothing was judged`);
  }
  return { runs: orderRuns(summaries), dirs: new Map(runDirs.map((r) => [r.id, r])) };
}

export function historyJson(runs: RunSummary[], changes: Change[], requirement: Requirement | null): unknown {
  return {
    version: JSON_VERSION,
    runs: runs.map((r) => ({
      id: r.id,
      start: r.start,
      series: r.series.map((s) => ({ name: s.name, unit: s.unit, count: s.count, percentiles: s.percentiles, verdict: runVerdict(s.percentiles, s.unit, requirement) })),
    })),
    changes: changes.map((c) => ({
      series: c.series,
      run: c.run,
      index: c.index,
      percentile: c.percentile,
      before: c.before,
      after: c.after,
      ratio: c.ratio,
      low: c.low,
      high: c.high,
      direction: c.direction,
    })),
  };
}

function historyText(runs: RunSummary[], changes: Change[], requirement: Requirement | null, unit: Unit): string {
  const lines = [`${runs.length} runs, ${runs[0]!.id} … ${runs[runs.length - 1]!.id}`, ""];
  const u = UNIT_LABEL[unit];
  for (const name of seriesNames(runs)) {
    lines.push(`${name}: ${seriesSentence(name, changes, judgedPercentiles(runs, name))}`);
    for (const c of changes.filter((x) => x.series === name)) {
      const unitNs = NANOS_PER_UNIT[(runs[c.index]!.series.find((s) => s.name === name)?.unit ?? "ns") as Unit];
      const f = (v: number) => `${formatNumber((v * unitNs) / NANOS_PER_UNIT[unit])} ${u}`;
      lines.push(
        `  ${c.direction === "worse" ? "WORSE" : "better"} ${changeText(c)}: ${f(c.before)} → ${f(c.after)} (runs ${runs[c.beforeRuns[0]]!.id}…${runs[c.afterRuns[1] - 1]!.id})`,
      );
    }
    if (requirement) {
      const failing = runs.filter((r) => {
        const s = r.series.find((x) => x.name === name);
        return s && runVerdict(s.percentiles, s.unit, requirement) === "fail";
      });
      lines.push(`  requirement: ${failing.length === 0 ? "every run passes" : `fails in ${failing.length} of ${runs.length} runs (last: ${failing[failing.length - 1]!.id})`}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export async function historyCommand(a: HistoryArgs): Promise<number> {
  if (a.dirs.length === 0) throw new CliError(2, "history: no history directory (see hdr-spectrum history --help)");
  checkRequirement(a.requirement);
  const { runs } = await readHistory(a.dirs, a);
  const changes = detectChanges(runs, { margin: a.margin });
  // The charts' code (React) is loaded only when charts are written.
  if (a.out) (await import("./history-out")).writeHistoryOut(a.out, runs, changes, a.unit, a.linkBase ?? null);
  if (a.json) a.stdout(`${JSON.stringify(historyJson(runs, changes, a.requirement), null, 2)}\n`);
  else a.stdout(historyText(runs, changes, a.requirement, a.unit));
  return 0;
}

/** Runs of the latest stable stretch read again for the comparison: at most this many. */
export const GATE_RUNS = 20;

export interface CheckHistoryArgs extends HistoryArgs {
  history: string;
  files: string[];
}

/** The new run against the latest stable stretch of each of its series: 1 when one is worse. */
export async function checkHistory(a: CheckHistoryArgs): Promise<number> {
  checkRequirement(a.requirement);
  if (a.files.length === 0) throw new CliError(2, "check --history: no files of the new run (see hdr-spectrum check --help)");
  // A history not started yet (the first CI run): nothing to judge against, which is no failure.
  if (runDirsOf([a.history]).length === 0) {
    a.stderr(`hdr-spectrum: ${a.history} holds no runs yet; nothing to compare with\n`);
    return 0;
  }
  const { runs, dirs } = await readHistory([a.history], a);
  const changes = detectChanges(runs, { margin: a.margin });
  const { store, problems } = await loadAll(expandPaths(a.files), a.helpers, a.progress);
  if (problems.length > 0) {
    a.stderr(problemLines(problems));
    a.stderr(`hdr-spectrum: ${problems.length} problem${problems.length === 1 ? "" : "s"} reading the input; nothing was judged\n`);
    return 2;
  }
  const fresh = summarizeStore(store);
  store.clear();
  const lines: string[] = [];
  const json: unknown[] = [];
  let fail = false;
  for (const s of fresh.series) {
    const stretch = stableStretch(runs, changes, s.name, GATE_RUNS);
    const verdict = runVerdict(s.percentiles, s.unit, a.requirement);
    if (verdict === "fail") fail = true;
    if (stretch.length === 0) {
      lines.push(`new ${s.name}: no run of the history has this series; nothing to compare${verdict ? ` (requirement: ${verdict})` : ""}`);
      json.push({ series: s.name, runs: [], worse: [], points: [], verdict });
      continue;
    }
    const base = [];
    for (const i of stretch) base.push(...(await runInputsOf(dirs.get(runs[i]!.id)!, s.name, a.helpers)));
    const gate = judgeNewRun({ label: "history", runs: base }, { label: "new run", runs: fresh.inputs.get(s.name)! }, (p) => runToRunSd(runs, s.name, p, stretch), {
      margin: a.margin,
      judged: (p) => s.se[String(p)] !== null,
    });
    const ids = stretch.map((i) => runs[i]!.id);
    const shown = gate.points.filter((p) => p.supported);
    const pts = shown.map((p) => `${pName(p.percentile)} ×${p.ratio.toFixed(3)} (${p.low!.toFixed(3)}–${p.high!.toFixed(3)})`).join(", ");
    const against = `against ${ids.length} run${ids.length === 1 ? "" : "s"} (${ids[0]}…${ids[ids.length - 1]})`;
    if (gate.worse.length > 0) fail = true;
    lines.push(
      `${gate.worse.length > 0 ? `WORSE ${s.name} at ${gate.worse.map(pName).join(", ")}` : `not worse ${s.name}`} ${against}: ${pts || "no percentile supported"}${verdict ? `; requirement: ${verdict}` : ""}`,
    );
    json.push({
      series: s.name,
      runs: ids,
      worse: gate.worse,
      verdict,
      points: gate.points.map((p) => ({ percentile: p.percentile, ratio: p.ratio, low: p.low, high: p.high, verdict: p.verdict })),
    });
  }
  if (a.json) a.stdout(`${JSON.stringify({ version: JSON_VERSION, history: a.history, series: json }, null, 2)}\n`);
  else a.stdout(`${lines.join("\n")}\n`);
  return fail ? 1 : 0;
}
