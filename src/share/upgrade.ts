// Links made by older versions of the app: one upgrader per version step, applied in sequence
// to the raw document (parsed metadata JSON plus the binary data after it) until it is in the
// current schema, which schema.ts then validates. An upgrader checks only what it reshapes.
//
// Versions:
//   v1  view.requirement was a list of entries { percentile, max, unit } (percentile 100 = the
//       max) or null; view had no sideBySide. Data section as in v2.
//   v2  view.requirement is the requirement text ("p50<=1ms, p99<=5ms") or null;
//       view.sideBySide added (v1 links open with it off).
//   v3  optional view.time (window length, wall clock, tail threshold) and optional per-series
//       time (window verdicts and tail summaries, see schema.ts SeriesTimeMeta); a v2 link has
//       neither and opens without them.
//   v4  view.compare added, optional ({ baseline, candidate, margin, repeats }: the A vs B
//       comparison on screen). v3 links open without one. Lossy histograms are rounded upward
//       only (a group reports at or above each of its buckets) and their indices are written
//       against histogram-pack.ts's predictNext; older links are read with predictNextV3.
//   v5  what the author's page computed travels with the link: optional per-series `shown`
//       (values at the table's and the requirement's percentiles, min, mean, standard
//       deviation, data warnings) and an optional top-level `results` ({ compare: the A vs B
//       answer as packed JSON }, results.ts); view.compare may hold further plain settings;
//       view.compare.headline, optional, is the percentile the headline is stated at when
//       chosen (absent: by the rule; it may also stand in a v4 link);
//       optional view.coInterval (the CO correction's interval as typed) with each series'
//       corrected copy's shown values in shown.corrected.
//       A v4 link has none of them: it opens as before, its numbers computed from its
//       histograms, and the page says so.
// To add v6: write upgradeV5toV6, register it under 5 in UPGRADERS, bump SHARE_VERSION, and
// add a test that decodes a hand-built v5 link.
import type { Unit } from "../core/types";
import { SHARE_VERSION, fail, field, has, isObj, num, obj, unit } from "./schema";

/** A link's content before validation: metadata as parsed JSON and the packed data after it. */
export interface RawDoc {
  meta: unknown;
  data: Uint8Array;
}

export type Upgrader = (doc: RawDoc) => RawDoc;

// ---------------------------------------------------------------------------------------------
// v1 → v2

/** A v1 requirement entry: "value at `percentile` must be at most `max` `unit`". */
export interface RequirementEntryV1 {
  percentile: number;
  max: number;
  unit: Unit;
}

const MAX_V1_ENTRIES = 64;

/** "p99.9<=5ms", or "max<=100ms" for percentile 100 (the v2 text syntax). */
export function formatEntryV1(e: RequirementEntryV1): string {
  return `${e.percentile >= 100 ? "max" : `p${e.percentile}`}<=${e.max}${e.unit}`;
}

function requirementTextV1(x: unknown): string | null {
  if (x === null) return null;
  if (!Array.isArray(x)) fail("view.requirement (v1) is not a list of entries");
  if (x.length > MAX_V1_ENTRIES) fail(`view.requirement (v1) has more than ${MAX_V1_ENTRIES} entries`);
  if (x.length === 0) return null;
  const entries = x.map((e, i): RequirementEntryV1 => {
    const w = `view.requirement[${i}] (v1)`;
    const o = obj(e, w);
    const percentile = num(field(o, "percentile"), `${w}.percentile`);
    if (percentile <= 0 || percentile > 100) fail(`${w}.percentile is outside (0, 100]`);
    const max = num(field(o, "max"), `${w}.max`);
    if (max < 0) fail(`${w}.max is negative`);
    return { percentile, max, unit: unit(field(o, "unit"), `${w}.unit`) };
  });
  entries.sort((a, b) => a.percentile - b.percentile);
  return entries.map(formatEntryV1).join(", ");
}

export function upgradeV1toV2(doc: RawDoc): RawDoc {
  const meta = obj(doc.meta, "the link's metadata");
  const view = obj(field(meta, "view"), "view");
  if (has(view, "sideBySide")) fail("view.sideBySide is not part of a v1 link");
  const upgradedView = { ...view, sideBySide: false, requirement: requirementTextV1(field(view, "requirement")) };
  return { meta: { ...meta, view: upgradedView }, data: doc.data };
}

// ---------------------------------------------------------------------------------------------
// v2 → v3

/** Nothing to reshape (the new fields are optional); a v2 link claiming them is malformed. */
export function upgradeV2toV3(doc: RawDoc): RawDoc {
  const meta = obj(doc.meta, "the link's metadata");
  const view = obj(field(meta, "view"), "view");
  if (has(view, "time")) fail("view.time is not part of a v2 link");
  const series = field(meta, "series");
  if (Array.isArray(series))
    series.forEach((s, i) => {
      if (isObj(s) && has(s, "time")) fail(`series[${i}].time is not part of a v2 link`);
    });
  return doc;
}

// ---------------------------------------------------------------------------------------------
// v3 → v4

export function upgradeV3toV4(doc: RawDoc): RawDoc {
  const meta = obj(doc.meta, "the link's metadata");
  const view = obj(field(meta, "view"), "view");
  // Nothing to reshape: a v3 view has no comparison, and one claiming to have one is not v3.
  if (has(view, "compare")) fail("view.compare is not part of a v3 link");
  return doc;
}

// ---------------------------------------------------------------------------------------------
// v4 → v5

export function upgradeV4toV5(doc: RawDoc): RawDoc {
  const meta = obj(doc.meta, "the link's metadata");
  // Nothing to reshape: the new fields are optional; a v4 link claiming them is not v4.
  if (has(meta, "results")) fail("results is not part of a v4 link");
  const series = field(meta, "series");
  if (Array.isArray(series))
    series.forEach((s, i) => {
      if (isObj(s) && has(s, "shown")) fail(`series[${i}].shown is not part of a v4 link`);
    });
  const view = field(meta, "view");
  if (isObj(view) && has(view, "coInterval")) fail("view.coInterval is not part of a v4 link");
  const c = isObj(view) ? field(view, "compare") : undefined;
  // v4 links may name the headline's percentile (added within v4); any other setting is v5's.
  if (isObj(c) && Object.keys(c).some((k) => !["baseline", "candidate", "margin", "repeats", "headline"].includes(k))) fail("view.compare has settings a v4 link cannot hold");
  return doc;
}

// ---------------------------------------------------------------------------------------------

/** UPGRADERS[v] turns a version-v document into a version v+1 one. */
export const UPGRADERS: Readonly<Record<number, Upgrader>> = { 1: upgradeV1toV2, 2: upgradeV2toV3, 3: upgradeV3toV4, 4: upgradeV4toV5 };

export const OLDEST_VERSION = 1;

/** Brings a version-`from` document to SHARE_VERSION. */
export function upgradeDoc(doc: RawDoc, from: number): RawDoc {
  if (!isObj(doc.meta)) fail("the link's metadata is not an object");
  let d = doc;
  for (let v = from; v < SHARE_VERSION; v++) {
    const up = UPGRADERS[v];
    if (!up) fail(`links of version ${v} cannot be read any more`);
    d = up(d);
  }
  return d;
}
