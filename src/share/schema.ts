// The shared state (what a link reopens) and the limits a link must keep. The metadata travels
// as JSON (names, view settings); the histograms and timelines as packed binary next to it.
import type { Histogram } from "hdr-histogram-js";
import { UNITS, type Unit } from "../core/types";
import { ShareFormatError } from "./bytes";

/** The schema version links are written in. Older versions are upgraded on decode (upgrade.ts). */
export const SHARE_VERSION = 3;

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
export const MAX_TIMELINE_BUCKETS = 200;
export const MAX_VIEW_PERCENTILES = 32;
/** Largest value a histogram in a link may hold (hdr-histogram-js's limit). */
export const MAX_VALUE = Number.MAX_SAFE_INTEGER;
/**
 * Counts slots all rebuilt histograms may need together (8 bytes each: 64 MB). A 3-digit
 * histogram up to 1e11 needs about 38 000 (200 of them fit); a 5-digit one up to 2^53, 4.8 million.
 */
export const MAX_TOTAL_CELLS = 1 << 23;

export type SeriesKind = "response" | "service" | "";

export interface SharedSeries {
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
  /** The spectrum: a histogram (hdr-histogram-js, 64-bit counts) rebuilt from the link. */
  histogram: Histogram;
  /** Optional coarse timeline: max per bucket (recorded unit) over [t0,t1] seconds, equal-width buckets. NaN: no data. */
  timeline?: SharedTimeline | null;
  startTime: number | null;
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
  /** The A vs B comparison on screen (v3; absent when none). */
  compare?: SharedCompare;
}

/** A comparison: baseline and candidate by series name, the margin (0.05 = ±5 %), whether repeats are pooled. */
export interface SharedCompare {
  baseline: string;
  candidate: string;
  margin: number;
  repeats: boolean;
}

/** Largest margin a link may set (±100 %). */
export const MAX_COMPARE_MARGIN = 1;

export function validateCompare(x: unknown): SharedCompare {
  const c = obj(x, "view.compare");
  const margin = num(field(c, "margin"), "view.compare.margin");
  if (margin < 0 || margin > MAX_COMPARE_MARGIN) fail(`view.compare.margin is outside [0, ${MAX_COMPARE_MARGIN}]`);
  return {
    baseline: str(field(c, "baseline"), "view.compare.baseline", MAX_NAME_CHARS),
    candidate: str(field(c, "candidate"), "view.compare.candidate", MAX_NAME_CHARS),
    margin,
    repeats: bool(field(c, "repeats"), "view.compare.repeats"),
  };
}

export interface ShareState {
  view: ShareView;
  series: SharedSeries[];
}

// ---------------------------------------------------------------------------------------------
// The metadata document of the current version (what JSON carries).

/** Per-series metadata: SharedSeries without the data, plus how the data is packed. */
export interface SeriesMeta {
  name: string;
  source: string;
  tag: string;
  config: string;
  throughput: number | null;
  kind: SeriesKind;
  unit: Unit;
  color?: string;
  visible: boolean;
  startTime: number | null;
  /** Histogram layout: significant digits and lowest discernible value of the index space. */
  hist: { sig: number; ldv: number };
  /** Absent: the series had no timeline field; null: it was null; else its span (values are binary). */
  timeline?: { t0: number; t1: number } | null;
}

export interface MetaDoc {
  lossy: boolean;
  view: ShareView;
  series: SeriesMeta[];
}

// ---------------------------------------------------------------------------------------------
// Validation: every field's type and bound, with a message naming the field.

type Obj = Record<string, unknown>;

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
  if (has(v, "compare")) out.compare = validateCompare(field(v, "compare"));
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
  return {
    lossy: bool(field(m, "lossy"), "lossy"),
    view: validateView(field(m, "view")),
    series: series.map(validateSeriesMeta),
  };
}
