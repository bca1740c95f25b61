// Latency requirements: a step function from percentile to the highest acceptable latency,
// typed as text ("p50<=1ms, p99<=5ms, max<=100ms") or read from HdrHistogram's gnuplot SLA
// file, and the verdicts drawn from them: pass/fail per run, the highest throughput each
// configuration sustains, and the sentence that says so.
import { plainNumber, UNIT_LABEL } from "./format";
import { formatThroughput } from "./naming";
import { NANOS_PER_UNIT, unitOfWord, type Unit } from "./types";

export interface RequirementEntry {
  /** 0 < p < 100, or 100 for max. */
  percentile: number;
  limitNs: number;
  /** As the user wrote the unit, for formatting back. */
  unit: Unit;
}

/** Entries sorted by percentile ascending, percentiles unique. */
export interface Requirement {
  entries: RequirementEntry[];
}

/** null = empty text = no requirement. */
export type ParseResult = { ok: true; value: Requirement | null } | { ok: false; errors: string[] };

const UNIT_LIST = "ns, us, µs, ms, s";

/** Float noise (1.1 ms recorded in ms is 1100000.0000000002 ns) is not a latency. */
function cleanNumber(v: number): number {
  return Number(v.toPrecision(15));
}

/** "p99.9", "max". */
export function percentileLabel(p: number): string {
  return p >= 100 ? "max" : `p${plainNumber(p)}`;
}

/** A limit in the unit it was written in: "5 ms", "500 µs". */
export function formatLimit(e: RequirementEntry, space = true): string {
  return `${plainNumber(cleanNumber(e.limitNs / NANOS_PER_UNIT[e.unit]))}${space ? " " : ""}${UNIT_LABEL[e.unit]}`;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?/i;

function parseEntry(chunk: string): { entry: RequirementEntry } | { error: string } {
  const where = `entry "${chunk}"`;
  const op = /<=|≤|=</.exec(chunk);
  if (!op) {
    if (/[<>=≥]/.test(chunk)) return { error: `${where}: use "<=" or "≤" between the percentile and the limit` };
    if (/^(?:p\d|max$)/i.test(chunk)) return { error: `${where}: missing "<=" and a limit, e.g. ${chunk}<=5ms` };
    return { error: `unexpected "${chunk}": expected entries like p99<=5ms or max<=100ms` };
  }
  const left = chunk.slice(0, op.index);
  const right = chunk.slice(op.index + op[0].length);

  let percentile: number;
  if (/^max$/i.test(left)) percentile = 100;
  else {
    const m = /^p(\d+(?:\.\d+)?)$/i.exec(left);
    if (!m) {
      if (left === "") return { error: `${where}: missing percentile before "${op[0]}" (write p50, p99.9 or max)` };
      return { error: `${where}: "${left}" is not a percentile (write p50, p99.9 or max)` };
    }
    percentile = Number(m[1]);
    if (percentile > 100) return { error: `${where}: percentile ${m[1]} is above 100 (use max for the maximum)` };
    if (percentile <= 0) return { error: `${where}: percentile must be above 0` };
  }

  if (right === "") return { error: `${where}: missing limit after "${op[0]}", e.g. ${left}${op[0]}5ms` };
  const num = NUMBER.exec(right);
  if (!num) return { error: `${where}: limit "${right}" is not a number` };
  const value = Number(num[0]);
  const unitText = right.slice(num[0].length);
  if (unitText === "") return { error: `${where}: missing unit (${UNIT_LIST})` };
  const unit = unitOfWord(unitText);
  if (!unit) return { error: `${where}: unknown unit "${unitText}" (use ${UNIT_LIST})` };
  if (!Number.isFinite(value)) return { error: `${where}: limit ${num[0]} is not a finite number` };
  if (value <= 0) return { error: `${where}: limit must be above 0` };
  const limitNs = cleanNumber(value * NANOS_PER_UNIT[unit]);
  if (!(limitNs > 0) || !Number.isFinite(limitNs)) return { error: `${where}: limit ${num[0]} ${unitText} is out of range` };
  return { entry: { percentile, limitNs, unit } };
}

/**
 * Entries separated by commas, semicolons or white space; each "pNN[.N…]<=VALUE UNIT" or
 * "max<=VALUE UNIT" (also "≤", spaces around the operator and before the unit, p100 = max).
 * Units: ns, us, µs, ms, s.
 */
export function parseRequirement(text: string): ParseResult {
  // Glue each entry together before splitting at separators: "p99.9 <= 10 ms" → "p99.9<=10ms".
  const glued = text
    // Runs of white space collapse first: `\s*(op)\s*` alone retried from every position of a
    // long run of spaces with no operator after it (quadratic; found by fuzzing).
    .replace(/\s+/g, " ")
    .replace(/ ?(<=|≤|=<|>=|≥|<|>) ?/g, "$1")
    .replace(/(\d|\.)\s+(?=[A-Za-zµμ]+(?:$|[\s,;]))(?!max(?:$|[\s,;<≤=])|p\d)/gi, "$1");
  const chunks = glued.split(/[\s,;]+/).filter((c) => c !== "");
  if (chunks.length === 0) return { ok: true, value: null };

  const errors: string[] = [];
  const seen = new Map<number, string>();
  const entries: RequirementEntry[] = [];
  for (const chunk of chunks) {
    const r = parseEntry(chunk);
    if ("error" in r) {
      errors.push(r.error);
      continue;
    }
    const prior = seen.get(r.entry.percentile);
    if (prior !== undefined) {
      errors.push(`duplicate percentile ${percentileLabel(r.entry.percentile)}: "${prior}" and "${chunk}"`);
      continue;
    }
    seen.set(r.entry.percentile, chunk);
    entries.push(r.entry);
  }
  if (errors.length > 0) return { ok: false, errors };
  entries.sort((a, b) => a.percentile - b.percentile);
  return { ok: true, value: { entries } };
}

/** "p50<=1ms, p99<=5ms, max<=100ms": parseRequirement reads it back to the same requirement. */
export function formatRequirement(r: Requirement): string {
  return r.entries.map((e) => `${percentileLabel(e.percentile)}<=${formatLimit(e, false)}`).join(", ");
}

/**
 * HdrHistogram's gnuplot SLA file (gnuplotExample's SLA_msec.dat): lines "X LATENCY_MS LABEL",
 * X = 1/(1-p). Consecutive points draw a line; each horizontal segment (X grows, latency stays)
 * becomes an entry at its right end's percentile. Vertical segments (same X) are the steps.
 * Blank lines and "#" comments are skipped; the label column is ignored.
 */
export function parseSlaDat(text: string): { value: Requirement | null; problems: { line: number; reason: string }[] } {
  const problems: { line: number; reason: string }[] = [];
  const points: { x: number; ms: number; limitNs: number; line: number }[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const t = raw.trim();
    if (t === "" || t.startsWith("#")) return;
    const cols = t.split(/\s+/);
    const x = Number(cols[0]);
    const ms = Number(cols[1]);
    if (cols.length < 2 || !Number.isFinite(x) || !Number.isFinite(ms)) {
      problems.push({ line, reason: `expected "1/(1-p)  latency_ms  label", got "${t}"` });
      return;
    }
    if (x < 1) {
      problems.push({ line, reason: `1/(1-p) = ${cols[0]} is below 1 (a percentile below 0)` });
      return;
    }
    if (ms <= 0) {
      problems.push({ line, reason: `latency ${cols[1]} ms must be above 0` });
      return;
    }
    // A finite ms value can still overflow in ns (above ~1.8e302 ms): a limit of Infinity would
    // pass every run, so the point is refused here, as parseRequirement refuses such a limit.
    const limitNs = cleanNumber(ms * NANOS_PER_UNIT.ms);
    if (!Number.isFinite(limitNs)) {
      problems.push({ line, reason: `latency ${cols[1]} ms is out of range (too large in ns): point skipped` });
      return;
    }
    const prev = points[points.length - 1];
    if (prev && x < prev.x) {
      problems.push({ line, reason: `1/(1-p) = ${cols[0]} goes back from ${prev.x} (line ${prev.line}): point skipped` });
      return;
    }
    points.push({ x, ms, limitNs, line });
  });

  const entries: RequirementEntry[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (b.x === a.x) continue; // a step
    if (b.ms !== a.ms) {
      problems.push({
        line: b.line,
        reason: `sloped segment from line ${a.line} (latency ${a.ms} → ${b.ms} ms while the percentile changes): read as a step at this point`,
      });
    }
    const percentile = percentileOfX(b.x);
    const limitNs = b.limitNs;
    const last = entries[entries.length - 1];
    // Consecutive segments at one latency are one step: keep the right end.
    if (last && last.limitNs === limitNs) last.percentile = percentile;
    else if (last && last.percentile === percentile) last.limitNs = Math.min(last.limitNs, limitNs);
    else entries.push({ percentile, limitNs, unit: "ms" });
  }
  problems.sort((a, b) => a.line - b.line);
  return { value: entries.length > 0 ? { entries } : null, problems };
}

/** 1/(1-p) → percentile: 100 → 99, 10000 → 99.99; as written, without float noise. */
function percentileOfX(x: number): number {
  const p = 100 - 100 / x;
  const r = Number(p.toPrecision(12));
  return r >= 100 ? 100 : r;
}

export interface Violation {
  percentile: number;
  limitNs: number;
  valueNs: number;
  /** valueNs / limitNs */
  ratio: number;
}

export interface Verdict {
  pass: boolean;
  /** Lowest failing percentile (100 = max), null if pass. */
  firstViolation: number | null;
  violations: Violation[];
}

/**
 * Relative slack for float noise when comparing a value with its limit: far below 1 ns for any
 * sensible limit (1e-13 of 1000 s is 0.1 ns), so "value at the limit passes, one ns above fails".
 */
const NOISE = 1e-13;

/**
 * valueAtNs(p) gives the series' value at percentile p (0..100; 100 = max) in ns. A series passes
 * when at every entry's percentile its value is at or below the limit. A value that is not a
 * number (no data) fails: a run without data cannot show that it meets the requirement.
 */
export function verdictOf(r: Requirement, valueAtNs: (p: number) => number): Verdict {
  const violations: Violation[] = [];
  for (const e of r.entries) {
    const v = valueAtNs(e.percentile);
    if (v <= e.limitNs * (1 + NOISE)) continue;
    violations.push({ percentile: e.percentile, limitNs: e.limitNs, valueNs: v, ratio: v / e.limitNs });
  }
  violations.sort((a, b) => a.percentile - b.percentile);
  return { pass: violations.length === 0, firstViolation: violations[0]?.percentile ?? null, violations };
}

/** The step line to draw: horizontal over (previous entry's percentile, this entry's percentile], starting at percentile 0. */
export function requirementSteps(r: Requirement): { from: number; to: number; limitNs: number }[] {
  const out: { from: number; to: number; limitNs: number }[] = [];
  let from = 0;
  for (const e of [...r.entries].sort((a, b) => a.percentile - b.percentile)) {
    out.push({ from, to: e.percentile, limitNs: e.limitNs });
    from = e.percentile;
  }
  return out;
}

export interface Run {
  id: string;
  config: string;
  throughput: number | null;
  pass: boolean;
}

export interface Sustainable {
  config: string;
  maxThroughput: number | null;
  /** A lower throughput of the same config fails while a higher one passes: suspicious data. */
  nonMonotonic: boolean;
  /** Throughputs tested, ascending, with pass/fail. */
  points: { throughput: number; pass: boolean }[];
}

/**
 * Per configuration (in first-seen order), the highest throughput whose run passes. Runs without
 * throughput add no point, but their configuration is listed (with no points) so the sentence can
 * say a throughput is missing. Several runs at one throughput: it passes only if all of them pass.
 */
export function sustainableThroughput(runs: Run[]): Sustainable[] {
  const byConfig = new Map<string, Map<number, boolean>>();
  for (const run of runs) {
    let m = byConfig.get(run.config);
    if (!m) byConfig.set(run.config, (m = new Map()));
    if (run.throughput === null || !Number.isFinite(run.throughput)) continue;
    m.set(run.throughput, (m.get(run.throughput) ?? true) && run.pass);
  }
  const out: Sustainable[] = [];
  for (const [config, m] of byConfig) {
    const points = [...m].map(([throughput, pass]) => ({ throughput, pass })).sort((a, b) => a.throughput - b.throughput);
    let maxThroughput: number | null = null;
    for (const p of points) if (p.pass) maxThroughput = p.throughput;
    const firstFail = points.find((p) => !p.pass);
    const nonMonotonic = firstFail !== undefined && maxThroughput !== null && firstFail.throughput < maxThroughput;
    out.push({ config, maxThroughput, nonMonotonic, points });
  }
  return out;
}

function nameOf(config: string): string {
  return config === "" ? "(unnamed)" : config;
}

/** "a", "a and b", "a, b and c". */
function list(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "p50 ≤ 1 ms, p99 ≤ 5 ms and max ≤ 100 ms"; past four entries the first and the last. */
export function requirementPhrase(r: Requirement): string {
  const parts = r.entries.map((e) => `${percentileLabel(e.percentile)} ≤ ${formatLimit(e)}`);
  if (parts.length <= 4) return list(parts);
  return `${parts[0]} … ${parts[parts.length - 1]} (${parts.length} limits)`;
}

export function formatRatio(x: number): string {
  return x < 10 ? x.toFixed(1) : x.toFixed(0);
}

/**
 * The verdict sentence shown above the charts, e.g.
 * "At p99 ≤ 5 ms, sysB sustains 40k/s and sysA 10k/s: sysB carries 4.0× the throughput."
 *
 * The "At …" part lists every entry (up to four; more are shortened to the first and last):
 * a run passes only if it meets all of them, and Sustainable does not say which entry failed.
 * Configurations are ranked by sustained throughput, ties named together. The ratio compares
 * the top two ranks; when a configuration passed every throughput it was tested at, its real
 * limit may be higher, so the ratio becomes "at least" (top open) or "at most" (second open) or
 * is left out (both open), and a note says so. Further notes: configurations that fail at every
 * tested throughput, ones with no throughput known, and non-monotonic results.
 * Returns null when there is no requirement, no runs, or no run with a known throughput.
 */
export function verdictSentence(r: Requirement | null, s: Sustainable[]): string | null {
  if (!r || r.entries.length === 0 || s.length === 0) return null;
  const at = `At ${requirementPhrase(r)}`;
  const tested = s.filter((c) => c.points.length > 0);
  const unknown = s.filter((c) => c.points.length === 0);
  // Without any throughput there is no sweep to rank: the caller says pass or fail instead
  // (core/judge.ts passFailSentence).
  if (tested.length === 0) return null;

  const passing = tested.filter((c) => c.maxThroughput !== null);
  const failing = tested.filter((c) => c.maxThroughput === null);
  /** Passed at its highest tested throughput: it may sustain more. */
  const open = (c: Sustainable) => c.maxThroughput === c.points[c.points.length - 1]!.throughput;
  const sentences: string[] = [];

  if (passing.length > 0) {
    // Rank groups of equal throughput, highest first; first-seen order within a group.
    const groups: Sustainable[][] = [];
    for (const c of [...passing].sort((a, b) => b.maxThroughput! - a.maxThroughput!)) {
      const g = groups[groups.length - 1];
      if (g && g[0]!.maxThroughput === c.maxThroughput) g.push(c);
      else groups.push([c]);
    }
    const names = (g: Sustainable[]) => list(g.map((c) => nameOf(c.config)));
    /** "both"/"all" mark a tie: "sysA and sysB both 40k/s". */
    const tie = (g: Sustainable[]) => (g.length === 1 ? "" : g.length === 2 ? "both " : "all ");
    const tput = (g: Sustainable[]) => formatThroughput(g[0]!.maxThroughput!);
    const top = groups[0]!;
    let main = `${names(top)} ${tie(top)}${top.length === 1 ? "sustains" : "sustain"} ${tput(top)}`;
    if (groups.length > 1) {
      const rest = groups.slice(1).map((g) => `${names(g)} ${tie(g)}${tput(g)}`);
      main += rest.length === 1 ? ` and ${rest[0]}` : `, ${list(rest)}`;
      const second = groups[1]!;
      const topOpen = top.some(open);
      const secondOpen = second.some(open);
      if (!(topOpen && secondOpen)) {
        const ratio = formatRatio(top[0]!.maxThroughput! / second[0]!.maxThroughput!);
        const bound = topOpen ? "at least " : secondOpen ? "at most " : "";
        const onlyTwo = passing.length === 2;
        main += `: ${names(top)} ${top.length === 1 ? "carries" : "carry"} ${bound}${ratio}× the throughput${onlyTwo ? "" : ` of ${names(second)}`}`;
      }
    }
    sentences.push(`${at}, ${main}.`);
    const opens = passing.filter(open);
    if (opens.length > 0) {
      sentences.push(
        opens.length === 1
          ? `${nameOf(opens[0]!.config)} passed at every throughput tested, so it may sustain more.`
          : `${list(opens.map((c) => nameOf(c.config)))} passed at every throughput tested, so they may sustain more.`,
      );
    }
  }

  if (failing.length > 0) {
    const lowest = failing.map((c) => formatThroughput(c.points[0]!.throughput));
    const who = list(failing.map((c) => nameOf(c.config)));
    const clause = failing.length === 1 ? `${who} fails at every tested throughput (lowest ${lowest[0]})` : `${who} fail at every tested throughput (lowest ${list(lowest)})`;
    sentences.push(passing.length > 0 ? `${clause}.` : `${at}, ${clause}.`);
  }

  for (const c of tested.filter((x) => x.nonMonotonic)) {
    const fail = c.points.find((p) => !p.pass)!;
    sentences.push(`${nameOf(c.config)} fails at ${formatThroughput(fail.throughput)} yet passes at ${formatThroughput(c.maxThroughput!)}: check these runs.`);
  }

  if (unknown.length > 0) {
    const who = list(unknown.map((c) => nameOf(c.config)));
    sentences.push(`${who} ${unknown.length === 1 ? "has" : "have"} no known throughput.`);
  }
  return sentences.join(" ");
}
