// `watch`: follows interval logs while they are written and prints the running verdict. The
// first complete lines are loaded as any log is; later complete lines are read by the same
// reader, given the log's header first (engine/live.ts readLaterLines), and reach the series
// through Store.append, so every answer equals a load of what was written so far. A file that
// shrinks or is replaced starts a new run, never mixed with the old.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { formatNumber, UNIT_LABEL } from "../core/format";
import { percentileLabel, type Requirement, type Verdict } from "../core/requirements";
import type { LoadProblem } from "../core/types";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import { AppendedRowError } from "../engine/intervals";
import { headerOf, readLaterLines } from "../engine/live";
import { Store } from "../engine/store";
import { CliError } from "./errors";
import { checkText, rowsOf } from "./report";

export interface WatchClock {
  /** Milliseconds, any origin. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface WatchSettings {
  clock?: WatchClock;
  /** How often the files are looked at (ms). */
  pollMs?: number;
  /** With --until end: how long the files must stay unchanged to count as finished (ms). */
  quietMs?: number;
}

export interface WatchArgs {
  files: string[];
  requirement: Requirement;
  unit: Unit;
  /** Wall-clock ms to run, "end" (until the files stop growing), or null (until stopped). */
  until: number | "end" | null;
  /** Print every N seconds instead of once per interval. */
  everySeconds: number | null;
  stdout(text: string): void;
  stderr(text: string): void;
}

const REAL_CLOCK: WatchClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** `30s`, `5m`, `1h`, `250ms` or plain seconds, in ms. */
export function durationMs(text: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new CliError(2, `--until ${text}: a duration (30s, 5m, 1h) or "end"`);
  const k = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "s") as "s"];
  return Number(m[1]) * k;
}

interface Followed {
  path: string;
  name: string;
  ino: number;
  /** Bytes read, always up to the end of a complete line. */
  consumed: number;
  /** Lines read (for line numbers of problems in later lines). */
  lines: number;
  /** Text read before the series could be loaded (a header without intervals yet). */
  head: string;
  /** The log's leading header lines, given to the reader with every later piece. */
  header: string;
  ids: string[];
  /** When the file last grew (clock ms). */
  grewAt: number;
  /** Last written before watch began, longer ago than the quiet time: a finished log, read at once. */
  finished: boolean;
  /** Said to be deleted (or unreadable) and not back yet. */
  gone: boolean;
}

interface Failure {
  id: string;
  name: string;
  /** Of a run that ended when its file was truncated or replaced. */
  earlier: boolean;
  /** Seconds since the log's StartTime at the end of the interval that made the run fail. */
  at: number;
  verdict: Verdict;
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export async function watch(a: WatchArgs, s: WatchSettings = {}): Promise<number> {
  const clock = s.clock ?? REAL_CLOCK;
  const pollMs = s.pollMs ?? 250;
  const quietMs = s.quietMs ?? 10_000;
  const unit = a.unit;
  const u = UNIT_LABEL[unit];
  const fmt = (ns: number) => `${formatNumber(ns / NANOS_PER_UNIT[unit])} ${u}`;
  const verdictText = (v: Verdict | null) =>
    v === null ? "no values" : v.pass ? "pass" : `FAIL ${v.violations.map((x) => `${percentileLabel(x.percentile)} ${fmt(x.valueNs)} > ${fmt(x.limitNs)}`).join(", ")}`;

  const store = new Store();
  const started = clock.now();
  const followed: Followed[] = [];
  for (const path of a.files) {
    let st;
    try {
      st = statSync(path);
    } catch {
      throw new CliError(2, `${path}: no such file`);
    }
    if (!st.isFile()) throw new CliError(2, `${path}: not a file`);
    const finished = Date.now() - st.mtimeMs >= quietMs;
    followed.push({ path, name: basename(path), ino: st.ino, consumed: 0, lines: 0, head: "", header: "", ids: [], grewAt: started, finished, gone: false });
  }
  const failures: Failure[] = [];
  /** Verdicts of earlier runs of restarted files, at their last interval. */
  const endedRuns: { name: string; pass: boolean }[] = [];
  let lastPrint = started;
  /** Per series: the first table row not yet printed (with --every: not yet in a printed window). */
  const printedTo = new Map<string, number>();

  const fatal = (problems: LoadProblem[], f: Followed, lineBase: number): never => {
    const bad = problems.filter((x) => !x.note);
    const text = bad.map((x) => `${x.file}${x.line !== null ? `:${x.line + lineBase}` : ""}: ${x.reason}`).join("\n");
    throw new CliError(2, `${text || `${f.path}: could not be read`}\nhdr-spectrum: watch stops; nothing more was judged`);
  };

  /** Reads what was written since the last look; false when nothing new. */
  const poll = async (f: Followed): Promise<boolean> => {
    let fd: number;
    try {
      fd = openSync(f.path, "r");
    } catch {
      if (!f.gone) a.stderr(`${f.path}: deleted or unreadable; waiting for it to come back\n`);
      f.gone = true;
      return false;
    }
    // A file back after it was gone is another file, even when it got the old inode number.
    const back = f.gone;
    f.gone = false;
    try {
      const st = fstatSync(fd);
      if (back || st.ino !== f.ino || st.size < f.consumed) {
        a.stderr(`${f.path}: ${back || st.ino !== f.ino ? "replaced" : "truncated"}; a new run starts (the earlier one is judged apart, never mixed)\n`);
        for (const id of f.ids) {
          const v = rowsOf(
            store.views().filter((x) => x.id === id),
            a.requirement,
          )[0]?.verdict;
          if (v) endedRuns.push({ name: store.get(id).name, pass: v.pass });
          for (const x of failures) if (x.id === id) x.earlier = true;
          store.remove(id);
          printedTo.delete(id);
        }
        Object.assign(f, { ino: st.ino, consumed: 0, lines: 0, head: "", header: "", ids: [] });
      }
      if (st.size === f.consumed) return false;
      if (f.consumed > 0) f.finished = false;
      const buf = Buffer.alloc(st.size - f.consumed);
      const got = readSync(fd, buf, 0, buf.length, f.consumed);
      // A partial last line waits for the rest.
      const end = buf.subarray(0, got).lastIndexOf(10) + 1;
      if (end === 0) return false;
      const text = buf.subarray(0, end).toString("utf8");
      f.consumed += end;
      f.grewAt = clock.now();
      const lineBase = f.lines;
      f.lines += lineCount(text);
      if (f.ids.length === 0) {
        f.head += text;
        const r = await store.load(f.name, [f.head]);
        if (r.problems.some((x) => !x.note)) {
          // A header alone is not a log yet: wait for its first interval.
          if (r.added.length === 0 && !/^[0-9T]/m.test(f.head)) return true;
          for (const id of r.added) store.remove(id);
          fatal(r.problems, f, 0);
        }
        const other = r.added.map((id) => store.get(id)).find((x) => x.format !== "hlog" || !x.intervals);
        if (other) throw new CliError(2, `${f.path}: read as ${other.format}; watch follows interval logs (.hlog)`);
        f.ids = r.added;
        f.header = headerOf(f.head);
        // Without a StartTime line the reader starts the log at its first interval: the later
        // pieces are given that start, so that their rows are placed exactly as a whole load places them.
        const start = store.get(f.ids[0]!).startTime;
        if (start !== null && !/^#\[StartTime:/m.test(f.header)) f.header += `#[StartTime: ${start}]\n`;
        f.head = "";
        return true;
      }
      const later = readLaterLines(f.name, f.header, text);
      if (later.problems.length > 0) fatal(later.problems, f, lineBase);
      for (const [tag, { rows, lines }] of later.tags) {
        const main = f.ids.map((id) => store.get(id)).find((m) => m.tag === tag);
        if (!main) {
          a.stderr(`${f.path}: intervals tagged ${JSON.stringify(tag)} appeared after the start; not followed\n`);
          continue;
        }
        const shift = later.start - (main.startTime ?? 0);
        for (const r of rows) r.offset += shift;
        try {
          store.append(main.id, rows);
        } catch (e) {
          if (!(e instanceof AppendedRowError)) throw e;
          fatal([{ file: f.name, line: lines[e.row]!, reason: e.reason }], f, lineBase);
        }
      }
      return true;
    } finally {
      closeSync(fd);
    }
  };

  /** One line per series: the run so far and the rows from `from` to `to` (table order). */
  const line = (id: string, from: number, to: number, elapsed: number): string => {
    const series = store.get(id);
    const t = series.intervals!;
    const t0 = t.offsets[from]!;
    const t1 = t.offsets[to]!;
    const run =
      rowsOf(
        store.views({ start: null, end: t1 }).filter((v) => v.id === id),
        a.requirement,
      )[0]?.verdict ?? null;
    const last =
      rowsOf(
        store.views({ start: t0, end: t1 }).filter((v) => v.id === id),
        a.requirement,
      )[0]?.verdict ?? null;
    const endAt = t1 + t.lengths[to]!;
    if (run && !run.pass && !failures.some((x) => x.id === id)) {
      // The first interval whose run so far fails, when several were printed in one line.
      let i = from;
      let v = run;
      for (; i < to; i++) {
        const w = rowsOf(
          store.views({ start: null, end: t.offsets[i]! }).filter((x) => x.id === id),
          a.requirement,
        )[0]?.verdict;
        if (w && !w.pass) {
          v = w;
          break;
        }
      }
      failures.push({ id, name: series.name, earlier: false, at: t.offsets[i]! + t.lengths[i]!, verdict: v });
    }
    const span = from === to ? `interval ${to + 1} ends ${formatNumber(endAt)} s` : `intervals ${from + 1}–${to + 1} end ${formatNumber(endAt)} s`;
    const elapsedText = elapsed >= 0 ? `+${formatNumber(elapsed / 1000)} s  ` : "";
    return `${elapsedText}${series.name}: ${span}; run so far ${verdictText(run)}; ${from === to ? "this interval" : "these intervals"} ${verdictText(last)}\n`;
  };

  const print = (everyTick: boolean) => {
    const elapsed = clock.now() - started;
    for (const f of followed) {
      for (const id of f.ids) {
        const n = store.get(id).intervals?.n ?? 0;
        const from = printedTo.get(id) ?? 0;
        if (n <= from) {
          if (everyTick) a.stdout(`+${formatNumber(elapsed / 1000)} s  ${store.get(id).name}: no new interval for ${formatNumber((clock.now() - f.grewAt) / 1000)} s\n`);
          continue;
        }
        let out = "";
        if (a.everySeconds === null) for (let i = from; i < n; i++) out += line(id, i, i, elapsed);
        else out = line(id, from, n - 1, elapsed);
        a.stdout(out);
        printedTo.set(id, n);
      }
    }
  };

  for (;;) {
    for (const f of followed) await poll(f);
    const now = clock.now();
    if (a.everySeconds === null) print(false);
    else if (now - lastPrint >= a.everySeconds * 1000) {
      print(true);
      lastPrint = now;
    }
    if (typeof a.until === "number" && now - started >= a.until) break;
    if (a.until === "end" && followed.every((f) => f.finished || now - f.grewAt >= quietMs)) break;
    await clock.sleep(pollMs);
  }
  if (a.everySeconds !== null) print(false);

  const unloaded = followed.filter((f) => f.ids.length === 0);
  for (const f of unloaded) a.stderr(`${f.path}: no interval was written\n`);
  const rows = rowsOf(store.views(), a.requirement);
  const judged = rows.filter((r) => r.verdict);
  if (judged.length === 0) {
    a.stderr("hdr-spectrum: no series has values to judge\n");
    return 2;
  }
  a.stdout(`\n${checkText(rows, a.requirement, unit)}`);
  for (const x of failures)
    a.stdout(
      `first failure: ${x.name}${x.earlier ? " (an earlier run, before the file was truncated or replaced)" : ""}, the run so far at ${formatNumber(x.at)} s (seconds since its StartTime): ${verdictText(x.verdict).replace(/^FAIL /, "")}\n`,
    );
  for (const r of endedRuns) a.stdout(`an earlier run of ${r.name} (before the file was truncated or replaced): ${r.pass ? "pass" : "FAIL"}\n`);
  const pass = judged.every((r) => r.verdict!.pass) && endedRuns.every((r) => r.pass);
  return pass ? 0 : 1;
}
