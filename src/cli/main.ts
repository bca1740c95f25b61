// The command line: the page's engine without the page. `report` prints the Markdown the page's
// "Copy Markdown" gives (or the JSON), `check` turns the verdicts into an exit code, `hgrm` is
// HistogramLogProcessor. Output is written only once everything was read and judged, so a
// failure never leaves half a report on stdout.
import { parseRequirement, type Requirement } from "../core/requirements";
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UNITS, type Unit } from "../core/types";
import type { LoadProblem } from "../core/types";
import { fileChunks } from "../engine/file-chunks";
import { CLI_KEPT_BUDGET, createEngineContext, type EngineContext } from "../engine/context";
import type { TimeRange } from "../engine/store";
import { compareCheckLines, compareRuns, headlinesOf, type ComparedPair } from "./compare";
import { gateOf } from "../core/compare/gate";
import { CliError } from "./errors";
import { hgrmOf } from "./hgrm";
import { CHECK_HELP, HGRM_HELP, MAIN_HELP, REPORT_HELP, SERVE_HELP, WATCH_HELP } from "./help";
import { HISTORY_HELP } from "./history-help";
import { expandPaths, loadAll, loadMerged } from "./load";
import type { Worker } from "node:worker_threads";
import { helperThreadCount, nodeHelperPool, type HelperPool } from "./node-pool";
import { allowPartial } from "./partial";
import { PathFile } from "./path-file";
import { loadPrometheus, prometheusAuthOf, prometheusRequestOf } from "./prometheus";
import { checkText, jsonOf, markdownOf, rowsOf, shareUrl, type Row } from "./report";
import { logAxisOf, writeOut } from "./out";
import type { WatchSettings } from "./watch";
import type { ServeOptions } from "./serve";

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress goes to stderr only when it is a terminal. */
  stderrIsTTY: boolean;
}

export interface MainOptions {
  /** The script helper threads run (the bundled command line); null reads on this thread only. */
  helperScript: URL | null;
  /** Helper threads already started on helperScript (the executable starts one before it loads the rest); used first. */
  started?: Worker[];
  /** `watch`'s clock and polling (tests drive them). */
  watch?: WatchSettings;
  /** `serve`'s page folder, look interval and quiet time (tests set them). */
  serve?: Pick<ServeOptions, "pageDir" | "pollMs" | "quietMs" | "stop">;
  /** The fetch `--prometheus` asks with (tests give a fake one). */
  fetch?: typeof fetch;
}

interface Parsed {
  command: string;
  files: string[];
  flags: Map<string, string | true>;
}

/**
 * Every option, and whether it takes a value ("--start 5", "--start=5") or none. The one list:
 * each command's list below names these, so an option cannot be allowed and then neither read
 * as a value nor as a switch.
 */
const OPTIONS = {
  "--require": "value",
  "--compare": "value",
  "--start": "value",
  "--end": "value",
  "--unit": "value",
  "--out": "value",
  "--log-axis": "value",
  "--link-base": "value",
  "--tag": "value",
  "--ratio": "value",
  "--history": "value",
  "--until": "value",
  "--every": "value",
  "--port": "value",
  "--host": "value",
  "--workers": "value",
  "--prometheus": "value",
  "--query": "value",
  "--step": "value",
  "--bearer-token-file": "value",
  "--strict": "switch",
  "--json": "switch",
  "--merge": "switch",
  "--no-workers": "switch",
  "--help": "switch",
  "--allow-partial": "switch",
} as const satisfies Record<string, "value" | "switch">;
type Option = keyof typeof OPTIONS;
// What report and check both take (check adds --strict and --history).
const REPORT_FLAGS: readonly Option[] = [
  "--require",
  "--compare",
  "--start",
  "--end",
  "--unit",
  "--out",
  "--log-axis",
  "--link-base",
  "--json",
  "--merge",
  "--workers",
  "--no-workers",
  "--help",
  "--allow-partial",
  "--prometheus",
  "--query",
  "--step",
  "--bearer-token-file",
];
const ALLOWED: Record<string, readonly Option[]> = {
  report: REPORT_FLAGS,
  check: [...REPORT_FLAGS, "--strict", "--history"],
  hgrm: ["--tag", "--start", "--end", "--ratio", "--help"],
  history: ["--require", "--unit", "--json", "--workers", "--no-workers", "--help", "--out", "--link-base"],
  watch: ["--require", "--until", "--every", "--unit", "--help"],
  serve: ["--port", "--host", "--help"],
};
const HELP: Record<string, string> = { report: REPORT_HELP, check: CHECK_HELP, hgrm: HGRM_HELP, history: HISTORY_HELP, watch: WATCH_HELP, serve: SERVE_HELP };

function parseArgs(argv: readonly string[]): Parsed {
  const [command = "", ...rest] = argv;
  // A command that does not exist is named as such, before any of its options is looked at.
  if (!ALLOWED[command] && !["", "help", "--help", "-h", "--version", "-v"].includes(command)) {
    throw new CliError(2, `unknown command ${JSON.stringify(command)}\n\n${MAIN_HELP}`);
  }
  const files: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    let a = rest[i]!;
    if (a === "-h") a = "--help";
    if (a === "--") {
      files.push(...rest.slice(i + 1));
      break;
    }
    if (!a.startsWith("--") || a === "-") {
      files.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!(ALLOWED[command] ?? []).includes(name as Option)) throw new CliError(2, `${command}: unknown option ${name} (see hdr-spectrum ${command} --help)`);
    if (OPTIONS[name as Option] === "switch") {
      if (eq > 0) throw new CliError(2, `${name} takes no value`);
      flags.set(name, true);
    } else {
      const v = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (v === undefined) throw new CliError(2, `${name} needs a value`);
      flags.set(name, v);
    }
  }
  return { command, files, flags };
}

function numberFlag(p: Parsed, name: string): number | null {
  const v = p.flags.get(name);
  if (v === undefined || v === true) return null;
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n)) throw new CliError(2, `${name} ${v}: not a number`);
  return n;
}

function stringFlag(p: Parsed, name: string): string | null {
  const v = p.flags.get(name);
  return typeof v === "string" ? v : null;
}

function requirementOf(p: Parsed): Requirement | null {
  const text = stringFlag(p, "--require");
  if (text === null) return null;
  const r = parseRequirement(text);
  if (!r.ok) throw new CliError(2, `--require ${JSON.stringify(text)}: ${r.errors.join("; ")}`);
  return r.value;
}

function unitOf(p: Parsed): Unit {
  const u = stringFlag(p, "--unit") ?? "ms";
  const unit = (u === "µs" ? "us" : u) as Unit;
  if (!UNITS.includes(unit)) throw new CliError(2, `--unit ${u}: one of ns, us, ms, s`);
  return unit;
}

function rangeOf(p: Parsed): TimeRange {
  const start = numberFlag(p, "--start");
  const end = numberFlag(p, "--end");
  if (start !== null && end !== null && end < start) throw new CliError(2, `--end ${end} is before --start ${start}`);
  return { start, end };
}

/**
 * The files to read: `--compare FILE` names a file that is read too when it is not among them
 * (a series name, or a file already given, adds nothing).
 */
function withBaseline(paths: string[], baseline: string | null): string[] {
  if (baseline === null || !existsSync(baseline) || !statSync(baseline).isFile()) return paths;
  const full = resolve(baseline);
  return paths.some((x) => resolve(x) === full) ? paths : [baseline, ...paths];
}

function problemText(p: LoadProblem): string {
  return `${p.file}${p.line !== null ? `:${p.line}` : ""}: ${p.reason}`;
}

async function reportOrCheck(p: Parsed, io: Io, opts: MainOptions, context: EngineContext): Promise<number> {
  const check = p.command === "check";
  const requirement = requirementOf(p);
  const promFlags = {
    prometheus: stringFlag(p, "--prometheus"),
    query: stringFlag(p, "--query"),
    start: stringFlag(p, "--start"),
    end: stringFlag(p, "--end"),
    step: stringFlag(p, "--step"),
    bearerTokenFile: stringFlag(p, "--bearer-token-file"),
  };
  const prom = prometheusRequestOf(promFlags);
  const promAuth = prom ? prometheusAuthOf(promFlags) : {};
  if (prom && p.flags.has("--merge")) throw new CliError(2, "--merge reads files only: a query merges its series itself (sum by (…))");
  // With --prometheus, --start and --end are the query's range: every series is shown whole.
  const range = prom ? { start: null, end: null } : rangeOf(p);
  const unit = unitOf(p);
  const baseline = stringFlag(p, "--compare");
  const strict = p.flags.has("--strict");
  if (check && !requirement && baseline === null) throw new CliError(2, "check needs --require or --compare (see hdr-spectrum check --help)");
  const linkBase = stringFlag(p, "--link-base");
  const out = stringFlag(p, "--out");
  const logAxis = logAxisOf(stringFlag(p, "--log-axis"));
  if (p.files.length === 0 && !prom) throw new CliError(2, `${p.command}: no input files (see hdr-spectrum ${p.command} --help)`);
  const paths = withBaseline(p.files.length > 0 ? expandPaths(p.files) : [], baseline);

  const helperCount = helpersOf(p, opts);
  // Blocks serve time windows, comparisons, links and charts: a report of whole logs needs none.
  const blocks = range.start !== null || range.end !== null || baseline !== null || linkBase !== null || out !== null || p.flags.has("--merge");
  const pool = helperCount > 0 ? nodeHelperPool(helperCount, opts.helperScript!, opts.started, blocks) : null;
  pool?.start();
  let loaded;
  let closing: Promise<void> | undefined;
  try {
    loaded = p.flags.has("--merge") ? await loadMerged(paths, range, pool, io.stderrIsTTY, pool) : await loadAll(paths, pool, io.stderrIsTTY, blocks, context);
  } finally {
    // The helpers end while this thread judges and prints (it needs them no more).
    closing = pool?.close().catch(() => undefined);
  }
  const { store } = loaded;
  // The query's series after the files', into the same Store.
  if (prom) loaded.problems.push(...store.add(await loadPrometheus(prom, promAuth, opts.fetch)).problems);
  const problems = p.flags.has("--allow-partial") ? allowPartial(loaded.problems, paths) : loaded.problems;
  io.stderr(problems.map((x) => `${problemText(x)}\n`).join(""));
  const skipped = problems.filter((x) => !x.note).length;
  if (skipped > 0) {
    io.stderr(`hdr-spectrum: ${skipped} problem${skipped === 1 ? "" : "s"} reading the input; nothing was judged\n`);
    return 2;
  }
  // A merged series holds its window's histogram already.
  const views = store.views(p.flags.has("--merge") ? { start: null, end: null } : range);
  if (views.length === 0) throw new CliError(2, "no series in the input");
  const rows: Row[] = rowsOf(views, requirement);

  const requirementPercentiles = requirement ? requirement.entries.map((e) => e.percentile) : null;
  const compared = baseline !== null ? await compareRuns({ store, baseline, range, unit, requirementPercentiles, views }) : null;
  // A link opens one comparison: the first pair's (the only one with a single candidate).
  const firstPair = compared?.pairs[0];
  const linked = compared && firstPair ? { baseline: compared.baseName, candidate: firstPair.candidate, answer: firstPair.result } : null;
  const url = linkBase !== null ? await shareUrl(store, rows, requirement, range, unit, linkBase, linked) : null;
  // Each form is made only when it is printed or written (the Markdown's number formatting is
  // a visible share of a 24-hour log's `report --json`).
  const json = p.flags.has("--json");
  const markdown =
    out !== null || (!json && !check)
      ? markdownOf(rows, requirement, range, unit, url, compared ? headlinesOf(compared.pairs) : null) + (compared ? `\n${compared.markdown}` : "")
      : "";
  const jsonText =
    out !== null || json ? `${JSON.stringify({ ...(jsonOf(rows, requirement, range, url) as object), ...(compared ? { comparison: compared.json } : {}) }, null, 2)}\n` : "";

  if (out !== null) {
    const hgrmRange = p.flags.has("--merge") ? { start: null, end: null } : range;
    await writeOut(out, { store, rows, requirement, unit, hgrmRange, baseline: compared?.baseName ?? null, pairs: compared?.pairs ?? [], logAxis, markdown, jsonText });
  }

  if (json) io.stdout(jsonText);
  else if (check) io.stdout((requirement ? checkText(rows, requirement, unit) : "") + (compared ? compareCheckText(compared.pairs, strict) : ""));
  else io.stdout(markdown);
  await closing;

  if (!check) return 0;
  let pass = true;
  if (requirement) {
    const judged = rows.filter((r) => r.verdict);
    if (judged.length === 0) throw new CliError(2, "no series has values to judge");
    pass = judged.every((r) => r.verdict!.pass);
  }
  // With --compare, a candidate worse than the baseline at any judged percentile fails (with
  // --strict, one the data cannot judge fails too): core/compare/gate.ts.
  if (compared && compared.pairs.some((x) => !gateOf(x.result, { strict }).pass)) pass = false;
  return pass ? 0 : 1;
}

/** One line per compared candidate: worse (with where) or not, and the comparison's sentence; then what was not judged. */
function compareCheckText(pairs: ComparedPair[], strict: boolean): string {
  return `${pairs.map((x) => compareCheckLines(x, strict)).join("\n")}\n`;
}

/** `history`, or `check --history`: history.ts (loaded only for these), with the options parsed here. */
async function historyOrCheck(p: Parsed, io: Io, helpers: HelperPool | null): Promise<number> {
  const { checkHistory, historyCommand } = await import("./history");
  const a = {
    dirs: p.files,
    json: p.flags.has("--json"),
    requirement: requirementOf(p),
    unit: unitOf(p),
    out: stringFlag(p, "--out"),
    linkBase: stringFlag(p, "--link-base"),
    helpers,
    progress: io.stderrIsTTY,
    stdout: io.stdout,
    stderr: io.stderr,
  };
  return p.command === "history" ? historyCommand(a) : checkHistory({ ...a, out: null, history: stringFlag(p, "--history")!, files: p.files });
}

/** Threads the loader may use at most: more cost memory and a start each, and no file reads faster on them. */
const MAX_WORKERS = 64;

/**
 * Helper threads beside this one: `--workers N` threads in all (N − 1 helpers), `--no-workers`
 * none, else what the machine has (helperThreadCount). Only a speed setting: every answer is
 * the same for any N. None without a script for helpers to run (main() called in-process).
 */
function helpersOf(p: Parsed, opts: MainOptions): number {
  const workers = p.flags.get("--workers");
  if (workers !== undefined && p.flags.has("--no-workers")) throw new CliError(2, "--workers and --no-workers together: give one");
  let count = p.flags.has("--no-workers") ? 0 : helperThreadCount();
  if (typeof workers === "string") {
    const n = Number(workers);
    if (!/^\s*\d+\s*$/.test(workers) || !Number.isInteger(n) || n < 1 || n > MAX_WORKERS)
      throw new CliError(2, `--workers ${workers}: a whole number of threads from 1 to ${MAX_WORKERS}`);
    count = n - 1;
  }
  return opts.helperScript ? count : 0;
}

/** Runs `task` with the helper threads the options allow, closing them after. */
async function withHelpers<T>(p: Parsed, opts: MainOptions, task: (helpers: HelperPool | null) => Promise<T>): Promise<T> {
  const helperCount = helpersOf(p, opts);
  const pool = helperCount > 0 ? nodeHelperPool(helperCount, opts.helperScript!, opts.started) : null;
  pool?.start();
  try {
    return await task(pool);
  } finally {
    await pool?.close();
  }
}

async function hgrm(p: Parsed, io: Io): Promise<number> {
  if (p.files.length !== 1) throw new CliError(2, "hgrm takes one log file (see hdr-spectrum hgrm --help)");
  const file = p.files[0]!;
  let f: PathFile;
  try {
    f = new PathFile(file);
  } catch {
    throw new CliError(2, `${file}: no such file`);
  }
  const ratio = numberFlag(p, "--ratio") ?? 1e6;
  if (!(ratio > 0)) throw new CliError(2, `--ratio ${ratio}: must be above 0`);
  const text = await hgrmOf(
    f.name,
    fileChunks(f as unknown as Blob, () => undefined),
    { tag: stringFlag(p, "--tag"), start: numberFlag(p, "--start"), end: numberFlag(p, "--end"), ratio },
  );
  io.stdout(text);
  return 0;
}

async function watchCommand(p: Parsed, io: Io, settings: WatchSettings | undefined): Promise<number> {
  const requirement = requirementOf(p);
  if (!requirement) throw new CliError(2, "watch needs --require (see hdr-spectrum watch --help)");
  if (p.files.length === 0) throw new CliError(2, "watch: no input files (see hdr-spectrum watch --help)");
  const untilText = stringFlag(p, "--until");
  const every = numberFlag(p, "--every");
  if (every !== null && !(every > 0)) throw new CliError(2, `--every ${every}: must be above 0`);
  const { watch, durationMs } = await import("./watch");
  const until = untilText === null ? null : untilText === "end" ? "end" : durationMs(untilText);
  return watch({ files: expandPaths(p.files), requirement, unit: unitOf(p), until, everySeconds: every, stdout: io.stdout, stderr: io.stderr }, settings);
}

async function serveCommand(p: Parsed, io: Io, settings: MainOptions["serve"]): Promise<number> {
  const port = numberFlag(p, "--port") ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(2, `--port ${port}: a port number, 0 to 65535`);
  const host = stringFlag(p, "--host") ?? "127.0.0.1";
  const { serve } = await import("./serve");
  return serve({ paths: p.files, host, port, ...settings }, io);
}

/** Runs one command; returns the exit code. Never throws. */
export async function main(argv: readonly string[], io: Io, opts: MainOptions = { helperScript: null }): Promise<number> {
  try {
    const p = parseArgs(argv);
    if (p.command === "" || p.command === "--help" || p.command === "-h" || p.command === "help") {
      io.stdout(MAIN_HELP);
      return p.command === "" ? 2 : 0;
    }
    if (p.command === "--version" || p.command === "-v") {
      io.stdout(`hdr-spectrum ${VERSION}\n`);
      return 0;
    }
    if (!HELP[p.command]) throw new CliError(2, `unknown command ${JSON.stringify(p.command)}\n\n${MAIN_HELP}`);
    if (p.flags.has("--help")) {
      io.stdout(HELP[p.command]!);
      return 0;
    }
    if (p.command === "hgrm") return await hgrm(p, io);
    if (p.command === "watch") return await watchCommand(p, io, opts.watch);
    if (p.command === "serve") return await serveCommand(p, io, opts.serve);
    if (p.command === "history" || p.flags.has("--history")) return await withHelpers(p, opts, (helpers) => historyOrCheck(p, io, helpers));
    // This thread's engine context: the command line keeps no intervals' counts for time windows.
    return await reportOrCheck(p, io, opts, createEngineContext({ keptBudget: CLI_KEPT_BUDGET }));
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr(`hdr-spectrum: ${e.message}\n`);
      return e.code;
    }
    io.stderr(`hdr-spectrum: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

declare const __HDR_SPECTRUM_VERSION__: string | undefined;
const VERSION = typeof __HDR_SPECTRUM_VERSION__ === "string" ? __HDR_SPECTRUM_VERSION__ : "dev";
