// Fuzzing harness: feeding inputs to the parsers, the oracle every outcome must satisfy, and
// the bookkeeping of known (reported, not yet fixed) bugs. Pure Node: no Vitest import, so the
// long runner (tests/fuzz/run.ts) and the Vitest suite share it.
import { headOfChunks, ingest, type IngestResult } from "../../src/engine/ingest";
import { detectedFormat } from "../../src/formats/detect";
import { Store } from "../../src/engine/store";
import { bucketsOf, maxOf, type Histogram } from "../../src/core/histogram";
import type { SampleOptions } from "../../src/formats/source";

/** Wall time one case may take (parse + checks). A hang or a quadratic blow-up fails the case. */
export let CASE_BUDGET_MS = 2000;
export function setCaseBudget(ms: number): void {
  CASE_BUDGET_MS = ms;
}

/** At most this many problems for any input, however large (hgrm lists 100 bad rows, then a count). */
export const MAX_PROBLEMS = 128;

/** Declared counts-array memory all series of one file may take together. */
export const MAX_HISTOGRAM_BYTES = 1024 * 1024 * 1024;

export class FuzzFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FuzzFailure";
  }
}

export function fail(message: string): never {
  throw new FuzzFailure(message);
}

// ---------------------------------------------------------------------------------------------
// Known bugs: reported to the lead (see found.test.ts). While one is unfixed the properties
// tolerate exactly its symptom (and count how often they did), so the suite stays green and
// still catches everything else. `--strict` (tests/fuzz/run.ts) or FUZZ_STRICT=1 turns this off.

// None open: add a name here (and its description below) when a find cannot be fixed at once.
export type KnownBug = never;

export const KNOWN_BUGS: Record<KnownBug, string> = {};

let strict = typeof process !== "undefined" && process.env?.FUZZ_STRICT === "1";
export function setStrict(on: boolean): void {
  strict = on;
}

export const knownHits = Object.fromEntries(Object.keys(KNOWN_BUGS).map((k) => [k, 0])) as Record<KnownBug, number>;

/** True (and counted) when a failure is the known bug's symptom and known bugs are tolerated. */
export function tolerate(bug: KnownBug, applies: boolean): boolean {
  if (!applies || strict) return false;
  knownHits[bug]++;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Budget

export function elapsedSince(t0: number): number {
  return performance.now() - t0;
}

export function checkBudget(t0: number, what: string): void {
  const ms = elapsedSince(t0);
  if (ms > CASE_BUDGET_MS) fail(`${what} took ${ms.toFixed(0)} ms (budget ${CASE_BUDGET_MS} ms)`);
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Lines as LineSplitter counts them: \n, \r\n and lone \r end a line; a trailing partial line counts. */
export function countLines(text: string): number {
  let n = 0;
  let i = 0;
  const len = text.length;
  let lineStart = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      n++;
      if (c === 13 && i + 1 < len && text.charCodeAt(i + 1) === 10) i++;
      lineStart = i + 1;
    }
    i++;
  }
  if (lineStart < len) n++;
  return n;
}

/** Cuts `text` into chunks at the given fractions (0..1) of its length; empty chunks kept. */
export function chunkAt(text: string, cuts: readonly number[]): string[] {
  const points = cuts.map((f) => Math.floor(Math.min(1, Math.max(0, f)) * text.length)).sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const p of points) {
    out.push(text.slice(at, p));
    at = p;
  }
  out.push(text.slice(at));
  return out;
}

/** Fixed-size chunks (the last may be shorter). */
export function chunkEvery(text: string, size: number): string[] {
  const out: string[] = [];
  const s = Math.max(1, Math.floor(size));
  for (let i = 0; i < text.length; i += s) out.push(text.slice(i, i + s));
  if (out.length === 0) out.push("");
  return out;
}

/** Short, safe description of a value for failure messages (long strings clipped). */
export function preview(v: unknown, max = 300): string {
  const seen = new WeakSet<object>();
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === "string") return x.length > 120 ? `${x.slice(0, 100)}…(${x.length} chars)` : x;
    if (typeof x === "number" || typeof x === "boolean" || x === null || x === undefined) return x;
    if (typeof x === "bigint") return `${x}n`;
    if (x instanceof Uint8Array) return `Uint8Array(${x.length})[${Array.from(x.subarray(0, 24)).join(",")}${x.length > 24 ? ",…" : ""}]`;
    if (typeof x === "object") {
      if (seen.has(x as object) || depth > 4) return "…";
      seen.add(x as object);
      if (Array.isArray(x))
        return x
          .slice(0, 12)
          .map((y) => walk(y, depth + 1))
          .concat(x.length > 12 ? [`…(${x.length})`] : []);
      const o: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x as Record<string, unknown>).slice(0, 16)) o[k] = walk(y, depth + 1);
      return o;
    }
    return String(x);
  };
  let s: string;
  try {
    s = JSON.stringify(walk(v, 0));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

// ---------------------------------------------------------------------------------------------
// The oracle

export interface IngestContext {
  name: string;
  text: string;
  /** Only the checks that hold for any input (false: also those for valid files). */
  hostile?: boolean;
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/** Values beyond what hdr-histogram-js holds exactly (the known 2^53 bug's trigger). */
export function beyondSafeValues(h: Histogram): boolean {
  return h.maxValue > Number.MAX_SAFE_INTEGER || h.highestTrackableValue > Number.MAX_SAFE_INTEGER;
}

function histogramFacts(h: Histogram, where: string): void {
  const total = h.totalCount;
  if (!isFiniteNumber(total) || total < 0 || !Number.isInteger(total)) fail(`${where}: totalCount ${total} is not a non-negative integer`);
  const b = bucketsOf(h);
  const sum = b.totalCount === 0 ? 0 : b.cumulative[b.cumulative.length - 1]!;
  if (sum !== total) fail(`${where}: bucket counts add up to ${sum}, totalCount says ${total}`);
  for (let i = 0; i < b.values.length; i++) if (!isFiniteNumber(b.values[i])) fail(`${where}: bucket value ${b.values[i]} is not finite`);
  const max = maxOf(h);
  if (!isFiniteNumber(max) || max < 0) fail(`${where}: max ${max} is not a finite non-negative number`);
}

/**
 * What every ingest outcome must satisfy: a parsed result or problems (never neither), problems
 * naming the file, a line within the file (or null) and a non-empty reason, a bounded number of
 * problems, no "internal error" (a reader caught its own exception), and sane series.
 */
export function checkIngestResult(r: IngestResult, ctx: IngestContext): void {
  const lineCount = countLines(ctx.text);
  if (!r || !Array.isArray(r.series) || !Array.isArray(r.problems)) fail("ingest returned no series/problems arrays");
  if (r.series.length === 0 && r.problems.length === 0) fail("no series and no problem: the file was silently ignored");
  if (r.problems.length > MAX_PROBLEMS) fail(`${r.problems.length} problems listed (limit ${MAX_PROBLEMS}) for a ${lineCount}-line file`);
  if (!Number.isInteger(r.lines) || r.lines < 0 || r.lines > lineCount + 1) fail(`lines = ${r.lines} for a ${lineCount}-line file`);
  for (const p of r.problems) {
    if (p.file !== ctx.name) fail(`problem names file ${JSON.stringify(p.file)}, not ${JSON.stringify(ctx.name)}: ${preview(p)}`);
    if (p.line !== null && (!Number.isInteger(p.line) || p.line < 1 || p.line > lineCount)) fail(`problem line ${p.line} outside 1..${lineCount}: ${preview(p)}`);
    if (typeof p.reason !== "string" || p.reason.trim() === "") fail(`problem without a reason: ${preview(p)}`);
    if (/internal error/i.test(p.reason)) fail(`a parser caught its own exception: ${preview(p)}`);
  }
  let declaredBytes = 0;
  for (const s of r.series) {
    const where = `series ${JSON.stringify(s.name)}`;
    if (typeof s.name !== "string" || s.name === "") fail(`series without a name: ${preview({ tag: s.tag, format: s.format })}`);
    histogramFacts(s.histogram, where);
    declaredBytes += ((s.histogram as unknown as { countsArrayLength: number }).countsArrayLength ?? 0) * 8;
    // (An interval log may hold only empty intervals: that series is real, if empty.)
    if (s.histogram.totalCount === 0 && s.failures === 0 && s.format !== "hlog") fail(`${where}: empty series (no count, no failure) listed`);
    if (!Number.isInteger(s.failures) || s.failures < 0) fail(`${where}: failures ${s.failures}`);
    const badStart = s.startTime !== null && !isFiniteNumber(s.startTime);
    const t = s.intervals;
    let badOffsets = false;
    if (t) {
      let sum = 0;
      for (let i = 0; i < t.n; i++) {
        if (!isFiniteNumber(t.offsets[i]) || !isFiniteNumber(t.lengths[i])) badOffsets = true;
        if (!(t.counts[i]! >= 0) || !isFiniteNumber(t.maxes[i]) || t.maxes[i]! < 0) fail(`${where}: interval ${i} has count ${t.counts[i]}, max ${t.maxes[i]}`);
        sum += t.counts[i]!;
      }
      for (let i = 0; i < t.n; i++) if (!t.payload(i).startsWith("HIST")) fail(`${where}: interval ${i}'s payload does not start with HIST`);
      if (s.format === "hlog" && sum !== s.histogram.totalCount) fail(`${where}: intervals add up to ${sum}, the histogram holds ${s.histogram.totalCount}`);
      if (sum > s.histogram.totalCount) fail(`${where}: intervals add up to ${sum}, more than the histogram's ${s.histogram.totalCount}`);
    }
    if (badStart || badOffsets) fail(`${where}: startTime ${s.startTime}${badOffsets ? " and non-finite interval offsets/lengths" : ""}`);
  }
  if (declaredBytes > MAX_HISTOGRAM_BYTES) {
    fail(`series declare ${(declaredBytes / 2 ** 20).toFixed(0)} MiB of counts arrays for a ${ctx.text.length}-char file`);
  }
}

/** Feeds the chunks through ingest inside the budget and checks the outcome. */
export async function ingestChecked(name: string, chunks: readonly string[], text: string, options?: SampleOptions, slowOk?: KnownBug): Promise<IngestResult> {
  const t0 = performance.now();
  let r: IngestResult;
  try {
    r = await ingest(name, chunks, undefined, options);
  } catch (e) {
    fail(`ingest threw: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  const ms = elapsedSince(t0);
  if (ms > CASE_BUDGET_MS) {
    const known = knownSlowPattern(name, text) ?? slowOk ?? null;
    if (!(known && tolerate(known, true))) fail(`ingest of ${text.length} chars took ${ms.toFixed(0)} ms (budget ${CASE_BUDGET_MS} ms)`);
  }
  checkIngestResult(r, { name, text });
  return r;
}

// ---------------------------------------------------------------------------------------------
// Comparing outcomes (chunking must not change anything)

function histogramDigest(h: Histogram): string {
  const b = bucketsOf(h);
  return `${h.totalCount}|${h.numberOfSignificantValueDigits}|${Array.from(b.values).join(",")}|${Array.from(b.cumulative).join(",")}`;
}

export function digest(r: IngestResult): string {
  const series = r.series.map((s) => {
    const t = s.intervals;
    return {
      name: s.name,
      tag: s.tag,
      format: s.format,
      unit: s.recordedUnit,
      unitSource: s.unitSource,
      startTime: s.startTime,
      failures: s.failures,
      h: histogramDigest(s.histogram),
      intervals: t
        ? {
            n: t.n,
            offsets: Array.from(t.offsets.subarray(0, t.n)),
            lengths: Array.from(t.lengths.subarray(0, t.n)),
            counts: Array.from(t.counts.subarray(0, t.n)),
            maxes: Array.from(t.maxes.subarray(0, t.n)),
            payloads: t.allPayloads(),
          }
        : null,
      blocks: s.blocks ? s.blocks.intervalCount : null,
    };
  });
  return JSON.stringify({ series, problems: r.problems, lines: r.lines });
}

/** Equal outcomes for two chunkings, except for the known head-size detection bug. */
export async function checkChunkingInvariance(name: string, text: string, chunks: readonly string[]): Promise<"same"> {
  const whole = await ingestChecked(name, [text], text);
  const parts = await ingestChecked(name, chunks, text);
  const a = digest(whole);
  const b = digest(parts);
  if (a === b) return "same";
  const kindWhole = detectedFormat(name, headOfChunks([text]));
  const kindParts = detectedFormat(name, headOfChunks(chunks));
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  fail(
    `chunked outcome differs from one-chunk outcome (detected ${kindWhole} vs ${kindParts}; chunk sizes ${preview(chunks.map((c) => c.length))}); ` +
      `first difference at ${at}: whole …${a.slice(Math.max(0, at - 80), at + 120)}… chunked …${b.slice(Math.max(0, at - 80), at + 120)}…`,
  );
}

// ---------------------------------------------------------------------------------------------
// Store: load must never throw and must report its own failures as problems.

export async function storeLoadChecked(name: string, chunks: readonly string[], text: string): Promise<Store> {
  const store = new Store();
  const t0 = performance.now();
  let out: Awaited<ReturnType<Store["load"]>>;
  try {
    out = await store.load(name, chunks);
  } catch (e) {
    fail(`Store.load threw: ${String(e)}`);
  }
  checkBudget(t0, `Store.load of ${text.length} chars`);
  if (!Array.isArray(out.added) || !Array.isArray(out.problems)) fail("Store.load returned no added/problems arrays");
  for (const p of out.problems) if (/^could not be read:/.test(p.reason)) fail(`ingest threw inside Store.load: ${p.reason}`);
  if (out.added.length === 0 && out.problems.length === 0) fail("Store.load added nothing and reported nothing");
  return store;
}

/**
 * Which known quadratic/slow parser path this file would take, if any (by the reader its name
 * and first 4096 characters select): the properties skip such inputs (counted) instead of
 * spending minutes on a known bug, unless strict. None is open at the moment: a new slow find
 * gets its pattern here (and its KnownBug entry) until it is fixed.
 */
export function knownSlowPattern(name: string, text: string): KnownBug | null {
  void name;
  void text;
  return null;
}

/** True (counted) when the properties should skip this input: it only re-finds a known slow bug. */
export function skipKnownSlow(name: string, text: string): boolean {
  const k = knownSlowPattern(name, text);
  return k !== null && tolerate(k, true);
}
