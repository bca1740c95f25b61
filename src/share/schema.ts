// The shared state (what a link reopens) and the limits a link must keep. The metadata travels
// as JSON (names, view settings); the histograms and timelines as packed binary next to it.
import type { Histogram } from "hdr-histogram-js";
import { UNITS, type Unit } from "../core/types";
import { ShareFormatError } from "./bytes";
import { validateResults, validateShown, type ShareResults, type SharedShown } from "./results";

/** The schema version links are written in. Older versions are upgraded on decode (upgrade.ts). */
export const SHARE_VERSION = 5;

/** Longer fragments are refused before any work. */
export const MAX_FRAGMENT_CHARS = 2_000_000;
/** Inflated payload cap: a deflate bomb stops here. */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;
/** Metadata JSON cap (200 series of 500-character names fit in 2.5 MB): bounds what JSON.parse builds. */
export const MAX_META_BYTES = 4 * 1024 * 1024;
export const MAX_SERIES = 200;
export const MAX_NAME_CHARS = 500;
export const MAX_REQUIREMENT_CHARS = 2000;
export const MAX_COLOR_CHARS = 100;
export const MAX_CO_INTERVAL_CHARS = 100;
export const MAX_TIMELINE_BUCKETS = 200;
export const MAX_VIEW_PERCENTILES = 32;
/** Top intervals a series' tail summary may carry. */
export const MAX_TAIL_TOP = 20;
/** Largest value a histogram in a link may hold (hdr-histogram-js's limit). */
export const MAX_VALUE = Number.MAX_SAFE_INTEGER;
/**
 * Counts slots all rebuilt histograms may need together (8 bytes each: 64 MB). A 3-digit
 * histogram up to 1e11 needs about 38 000 (200 of them fit); a 5-digit one up to 2^53, 4.8 million.
 */
export const MAX_TOTAL_CELLS = 1 << 23;

export type SeriesKind = "response" | "service" | "";

/** What a link says of a series besides its data: the same in the shared state and in the metadata JSON. */
export interface SeriesFields {
  name: string;
  source: string;
  tag: string;
  config: string;
  throughput: number | null;
  kind: SeriesKind;
  /** Recorded unit of the histogram values. */
  unit: Unit;
  color?: string;
  visible: boolean;
  startTime: number | null;
  /**
   * What the time panel found where the intervals were (a link carries no intervals, so the
   * opened page cannot compute it again): absent when it found nothing for this series.
   */
  time?: SharedSeriesTime;
  /**
   * What the author's page showed for it (v5): the values at the table's and the requirement's
   * percentiles, the details and the warnings, so that the opened page shows the same numbers.
   */
  shown?: SharedShown;
  /** Where a series asked from a server came from (address, range, step; never credentials). */
  origin?: string;
}

/** A series' identity as a link carries it (in this order: the metadata is JSON). */
export function identityFields(
  s: Pick<SeriesFields, "name" | "source" | "tag" | "config" | "throughput" | "kind">,
): Pick<SeriesFields, "name" | "source" | "tag" | "config" | "throughput" | "kind"> {
  return { name: s.name, source: s.source, tag: s.tag, config: s.config, throughput: s.throughput, kind: s.kind };
}

/** A series' window verdict and tail summary, as numbers (the page words them). */
export interface SharedSeriesTime {
  windows?: SharedWindows;
  tail?: SharedTail;
}

/** The requirement in every window (core/windows.ts WindowJudgement, without the per-window arrays). */
export interface SharedWindows {
  windows: number;
  passing: number;
  /** valueNs null: the worst window had no values. */
  worst: { start: number; end: number; percentile: number; valueNs: number | null; limitNs: number } | null;
  drop: { start: number; end: number; throughput: number; median: number; drop: number } | null;
}

/** Tail attribution (core/tail.ts TailSummary): values above the threshold and where they came from. */
export interface SharedTail {
  above: number;
  intervalsWithAny: number;
  named: number;
  share: number;
  /** Highest counts first; start and end in s since StartTime. */
  top: { start: number; end: number; above: number }[];
}

export interface SharedSeries extends SeriesFields {
  /** The spectrum: a histogram (hdr-histogram-js, 64-bit counts) rebuilt from the link. */
  histogram: Histogram;
  /** Optional coarse timeline: max per bucket (recorded unit) over [t0,t1] seconds, equal-width buckets. NaN: no data. */
  timeline?: SharedTimeline | null;
}

export interface SharedTimeline {
  t0: number;
  t1: number;
  max: number[];
}

export interface ShareView {
  displayUnit: Unit;
  yLog: boolean;
  sideBySide: boolean;
  /** Requirement text, e.g. "p50<=1ms, p99<=5ms". */
  requirement: string | null;
  range: { start: number | null; end: number | null };
  timeline: { percentiles: number[]; perLane: boolean; wallClock: boolean; log: boolean };
  /** The time panel's options (v3; absent: none set). */
  time?: ShareTimeOptions;
  /** The A vs B comparison on screen (v4; absent when none). */
  compare?: SharedCompare;
  /** The CO correction's expected interval as typed ("10ms", "100/s"; v5; absent: none). */
  coInterval?: string;
}

/**
 * A comparison: baseline and candidate by series name, the margin (0.05 = ±5 %), whether repeats
 * are pooled; and any further setting of the comparison (v5: a plain value each, kept as it is,
 * so a new setting travels without a new schema version).
 */
export interface SharedCompare {
  baseline: string;
  candidate: string;
  margin: number;
  repeats: boolean;
  /** The percentile the headline is stated at, as chosen (absent: by the rule, see core/compare/headline.ts). */
  headline?: number;
  [setting: string]: string | number | boolean | null | undefined;
}

/** Further comparison settings a link may carry. */
export const MAX_COMPARE_SETTINGS = 16;

/** Largest margin a link may set (±100 %). */
export const MAX_COMPARE_MARGIN = 1;

export function validateCompare(x: unknown): SharedCompare {
  const c = obj(x, "view.compare");
  const margin = num(field(c, "margin"), "view.compare.margin");
  if (margin < 0 || margin > MAX_COMPARE_MARGIN) fail(`view.compare.margin is outside [0, ${MAX_COMPARE_MARGIN}]`);
  const out: SharedCompare = {
    baseline: str(field(c, "baseline"), "view.compare.baseline", MAX_NAME_CHARS),
    candidate: str(field(c, "candidate"), "view.compare.candidate", MAX_NAME_CHARS),
    margin,
    repeats: bool(field(c, "repeats"), "view.compare.repeats"),
    ...(has(c, "headline") ? { headline: headlineAt(num(field(c, "headline"), "view.compare.headline")) } : {}),
  };
  const extra = Object.keys(c).filter((k) => !has(out, k));
  if (extra.length > MAX_COMPARE_SETTINGS) fail(`view.compare has more than ${MAX_COMPARE_SETTINGS} further settings`);
  for (const k of extra) {
    const v = field(c, k);
    const w = `view.compare.${k.slice(0, 40)}`;
    if (k.length > 100 || k === "__proto__") fail(`${w}… is not a setting name`);
    if (typeof v === "string") out[k] = str(v, w, MAX_NAME_CHARS);
    else if (typeof v === "number") out[k] = num(v, w);
    else if (typeof v === "boolean" || v === null) out[k] = v;
    else fail(`${w} is not a plain value (text, number, true/false or null)`);
  }
  return out;
}

function headlineAt(p: number): number {
  if (!(p > 0 && p < 100)) fail("view.compare.headline is outside (0, 100)");
  return p;
}

/** Window length (s) and tail threshold (ns) as numbers; null: off. */
export interface ShareTimeOptions {
  window: number | null;
  wallClock: boolean;
  tailNs: number | null;
}

export interface ShareState {
  view: ShareView;
  series: SharedSeries[];
  /** What the author's page computed beyond each series (v5; absent: nothing carried). */
  results?: ShareResults;
}

// ---------------------------------------------------------------------------------------------
// The metadata document of the current version (what JSON carries).

/**
 * A series' time summaries in the metadata JSON, compact: `w` = { n: windows, pass: passing,
 * worst: [start, end, percentile, valueNs | null, limitNs] | null, drop: [start, end,
 * throughput, median, drop] | null }; `t` = { above, any: intervals with any, named, share,
 * top: [start, end, above, start, end, above, …] }.
 */
export interface SeriesTimeMeta {
  w?: { n: number; pass: number; worst: [number, number, number, number | null, number] | null; drop: [number, number, number, number, number] | null };
  t?: { above: number; any: number; named: number; share: number; top: number[] };
}

/** Per-series metadata: SharedSeries without the data, plus how the data is packed. */
export interface SeriesMeta extends Omit<SeriesFields, "time"> {
  time?: SeriesTimeMeta;
  /** Written as results.ts packShown gives it; validated into a SharedShown. */
  /** Histogram layout: significant digits and lowest discernible value of the index space. */
  hist: { sig: number; ldv: number };
  /** Absent: the series had no timeline field; null: it was null; else its span (values are binary). */
  timeline?: { t0: number; t1: number } | null;
}

export interface MetaDoc {
  lossy: boolean;
  view: ShareView;
  series: SeriesMeta[];
  /** Written as results.ts packResults gives it; validated into ShareResults. */
  results?: ShareResults;
}

// ---------------------------------------------------------------------------------------------
// Validation: every field's type and bound, with a message naming the field.

export type Obj = Record<string, unknown>;

export function fail(message: string): never {
  throw new ShareFormatError(message);
}

export function isObj(x: unknown): x is Obj {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** An own property only: a hostile "constructor" or "__proto__" key is just data. */
export function field(o: Obj, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

export function has(o: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

export function obj(x: unknown, where: string): Obj {
  if (!isObj(x)) fail(`${where} is not an object`);
  return x;
}

export function str(x: unknown, where: string, max: number): string {
  if (typeof x !== "string") fail(`${where} is not a string`);
  if (x.length > max) fail(`${where} is longer than ${max} characters`);
  return x;
}

export function bool(x: unknown, where: string): boolean {
  if (typeof x !== "boolean") fail(`${where} is not true or false`);
  return x;
}

export function num(x: unknown, where: string): number {
  if (typeof x !== "number" || !Number.isFinite(x)) fail(`${where} is not a finite number`);
  return x;
}

export function numOrNull(x: unknown, where: string): number | null {
  return x === null ? null : num(x, where);
}

export function int(x: unknown, where: string, min: number, max: number): number {
  const n = num(x, where);
  if (!Number.isInteger(n) || n < min || n > max) fail(`${where} is not an integer in [${min}, ${max}]`);
  return n;
}

export function unit(x: unknown, where: string): Unit {
  if (typeof x !== "string" || !(UNITS as readonly string[]).includes(x)) fail(`${where} is not a unit (${UNITS.join(", ")})`);
  return x as Unit;
}

function kind(x: unknown, where: string): SeriesKind {
  if (x !== "response" && x !== "service" && x !== "") fail(`${where} is not "response", "service" or ""`);
  return x;
}

export function validateView(x: unknown): ShareView {
  const v = obj(x, "view");
  const range = obj(field(v, "range"), "view.range");
  const tl = obj(field(v, "timeline"), "view.timeline");
  const ps = field(tl, "percentiles");
  if (!Array.isArray(ps)) fail("view.timeline.percentiles is not a list");
  if (ps.length > MAX_VIEW_PERCENTILES) fail(`view.timeline.percentiles has more than ${MAX_VIEW_PERCENTILES} entries`);
  const percentiles = ps.map((p, i) => {
    const n = num(p, `view.timeline.percentiles[${i}]`);
    if (n < 0 || n > 100) fail(`view.timeline.percentiles[${i}] is outside 0..100`);
    return n;
  });
  const req = field(v, "requirement");
  const out: ShareView = {
    displayUnit: unit(field(v, "displayUnit"), "view.displayUnit"),
    yLog: bool(field(v, "yLog"), "view.yLog"),
    sideBySide: bool(field(v, "sideBySide"), "view.sideBySide"),
    requirement: req === null ? null : str(req, "view.requirement", MAX_REQUIREMENT_CHARS),
    range: { start: numOrNull(field(range, "start"), "view.range.start"), end: numOrNull(field(range, "end"), "view.range.end") },
    timeline: {
      percentiles,
      perLane: bool(field(tl, "perLane"), "view.timeline.perLane"),
      wallClock: bool(field(tl, "wallClock"), "view.timeline.wallClock"),
      log: bool(field(tl, "log"), "view.timeline.log"),
    },
  };
  if (has(v, "time")) {
    const t = obj(field(v, "time"), "view.time");
    const w = numOrNull(field(t, "window"), "view.time.window");
    if (w !== null && !(w > 0)) fail("view.time.window is not a positive length");
    const tail = numOrNull(field(t, "tailNs"), "view.time.tailNs");
    if (tail !== null && tail < 0) fail("view.time.tailNs is negative");
    out.time = { window: w, wallClock: bool(field(t, "wallClock"), "view.time.wallClock"), tailNs: tail };
  }
  if (has(v, "compare")) out.compare = validateCompare(field(v, "compare"));
  if (has(v, "coInterval")) out.coInterval = str(field(v, "coInterval"), "view.coInterval", MAX_CO_INTERVAL_CHARS);
  return out;
}

function tuple(x: unknown, where: string, n: number): unknown[] {
  if (!Array.isArray(x) || x.length !== n) fail(`${where} is not a list of ${n} numbers`);
  return x;
}

function count(x: unknown, where: string): number {
  return int(x, where, 0, Number.MAX_SAFE_INTEGER);
}

/** Validates a series' compact time summaries (SeriesTimeMeta). */
export function validateSeriesTime(x: unknown, w: string): SeriesTimeMeta {
  const o = obj(x, w);
  const out: SeriesTimeMeta = {};
  if (has(o, "w")) {
    const v = obj(field(o, "w"), `${w}.w`);
    const n = count(field(v, "n"), `${w}.w.n`);
    const pass = count(field(v, "pass"), `${w}.w.pass`);
    if (pass > n) fail(`${w}.w.pass is more than ${w}.w.n`);
    const wo = field(v, "worst");
    let worst: NonNullable<SeriesTimeMeta["w"]>["worst"] = null;
    if (wo !== null) {
      const a = tuple(wo, `${w}.w.worst`, 5);
      worst = [num(a[0], `${w}.w.worst[0]`), num(a[1], `${w}.w.worst[1]`), num(a[2], `${w}.w.worst[2]`), numOrNull(a[3], `${w}.w.worst[3]`), num(a[4], `${w}.w.worst[4]`)];
      if (worst[2] <= 0 || worst[2] > 100) fail(`${w}.w.worst[2] (percentile) is outside (0, 100]`);
      if (!(worst[4] > 0)) fail(`${w}.w.worst[4] (limit) is not positive`);
    }
    const dr = field(v, "drop");
    let drop: NonNullable<SeriesTimeMeta["w"]>["drop"] = null;
    if (dr !== null) {
      const a = tuple(dr, `${w}.w.drop`, 5).map((y, k) => num(y, `${w}.w.drop[${k}]`));
      drop = [a[0]!, a[1]!, a[2]!, a[3]!, a[4]!];
    }
    out.w = { n, pass, worst, drop };
  }
  if (has(o, "t")) {
    const t = obj(field(o, "t"), `${w}.t`);
    const top = field(t, "top");
    if (!Array.isArray(top) || top.length % 3 !== 0) fail(`${w}.t.top is not a list of (start, end, count) triples`);
    if (top.length > 3 * MAX_TAIL_TOP) fail(`${w}.t.top has more than ${MAX_TAIL_TOP} intervals`);
    const share = num(field(t, "share"), `${w}.t.share`);
    if (share < 0 || share > 1) fail(`${w}.t.share is outside 0..1`);
    out.t = {
      above: count(field(t, "above"), `${w}.t.above`),
      any: count(field(t, "any"), `${w}.t.any`),
      named: int(field(t, "named"), `${w}.t.named`, 0, top.length / 3),
      share,
      top: top.map((y, k) => (k % 3 === 2 ? count(y, `${w}.t.top[${k}]`) : num(y, `${w}.t.top[${k}]`))),
    };
  }
  return out;
}

/** SharedSeriesTime → its compact form. */
export function packSeriesTime(t: SharedSeriesTime): SeriesTimeMeta {
  const out: SeriesTimeMeta = {};
  const w = t.windows;
  if (w) {
    out.w = {
      n: w.windows,
      pass: w.passing,
      worst: w.worst ? [w.worst.start, w.worst.end, w.worst.percentile, w.worst.valueNs, w.worst.limitNs] : null,
      drop: w.drop ? [w.drop.start, w.drop.end, w.drop.throughput, w.drop.median, w.drop.drop] : null,
    };
  }
  const tl = t.tail;
  if (tl) out.t = { above: tl.above, any: tl.intervalsWithAny, named: tl.named, share: tl.share, top: tl.top.flatMap((iv) => [iv.start, iv.end, iv.above]) };
  return out;
}

/** The compact form → SharedSeriesTime. */
export function unpackSeriesTime(m: SeriesTimeMeta): SharedSeriesTime {
  const out: SharedSeriesTime = {};
  if (m.w) {
    const { worst, drop } = m.w;
    out.windows = {
      windows: m.w.n,
      passing: m.w.pass,
      worst: worst ? { start: worst[0], end: worst[1], percentile: worst[2], valueNs: worst[3], limitNs: worst[4] } : null,
      drop: drop ? { start: drop[0], end: drop[1], throughput: drop[2], median: drop[3], drop: drop[4] } : null,
    };
  }
  if (m.t) {
    const top: SharedTail["top"] = [];
    for (let k = 0; k + 2 < m.t.top.length; k += 3) top.push({ start: m.t.top[k]!, end: m.t.top[k + 1]!, above: m.t.top[k + 2]! });
    out.tail = { above: m.t.above, intervalsWithAny: m.t.any, named: m.t.named, share: m.t.share, top };
  }
  return out;
}

function validateSeriesMeta(x: unknown, i: number): SeriesMeta {
  const w = `series[${i}]`;
  const s = obj(x, w);
  const h = obj(field(s, "hist"), `${w}.hist`);
  const out: SeriesMeta = {
    name: str(field(s, "name"), `${w}.name`, MAX_NAME_CHARS),
    source: str(field(s, "source"), `${w}.source`, MAX_NAME_CHARS),
    tag: str(field(s, "tag"), `${w}.tag`, MAX_NAME_CHARS),
    config: str(field(s, "config"), `${w}.config`, MAX_NAME_CHARS),
    throughput: numOrNull(field(s, "throughput"), `${w}.throughput`),
    kind: kind(field(s, "kind"), `${w}.kind`),
    unit: unit(field(s, "unit"), `${w}.unit`),
    visible: bool(field(s, "visible"), `${w}.visible`),
    startTime: numOrNull(field(s, "startTime"), `${w}.startTime`),
    hist: { sig: int(field(h, "sig"), `${w}.hist.sig`, 1, 5), ldv: int(field(h, "ldv"), `${w}.hist.ldv`, 1, 2 ** 40) },
  };
  if (has(s, "color")) out.color = str(field(s, "color"), `${w}.color`, MAX_COLOR_CHARS);
  if (has(s, "time")) out.time = validateSeriesTime(field(s, "time"), `${w}.time`);
  if (has(s, "shown")) out.shown = validateShown(field(s, "shown"), `${w}.shown`);
  if (has(s, "origin")) out.origin = str(field(s, "origin"), `${w}.origin`, MAX_NAME_CHARS);
  if (has(s, "timeline")) {
    const t = field(s, "timeline");
    if (t === null) out.timeline = null;
    else {
      const to = obj(t, `${w}.timeline`);
      const t0 = num(field(to, "t0"), `${w}.timeline.t0`);
      const t1 = num(field(to, "t1"), `${w}.timeline.t1`);
      if (t1 < t0) fail(`${w}.timeline ends (t1) before it starts (t0)`);
      out.timeline = { t0, t1 };
    }
  }
  return out;
}

/** Validates a current-version metadata document (after upgrades). */
export function validateMeta(x: unknown): MetaDoc {
  const m = obj(x, "the link's metadata");
  const series = field(m, "series");
  if (!Array.isArray(series)) fail("series is not a list");
  if (series.length > MAX_SERIES) fail(`the link has ${series.length} series; at most ${MAX_SERIES} are accepted`);
  const out: MetaDoc = {
    lossy: bool(field(m, "lossy"), "lossy"),
    view: validateView(field(m, "view")),
    series: series.map(validateSeriesMeta),
  };
  if (has(m, "results")) out.results = validateResults(field(m, "results"));
  return out;
}
