// What the author's page computed, carried in the link (v5) so that the opened page shows the
// same numbers instead of computing them again from the link's rounded histograms, which have
// no intervals:
// - per series (`shown`): the value at every percentile the page read (the table's and the
//   requirement's), the details (min, mean, standard deviation), the whole series' count and
//   the data warnings;
// - the A vs B answer on screen (`results.compare`), carried whole as JSON (packJson), so that
//   fields the comparison gains later travel without a new schema version.
// Everything is validated on decode: a hostile link gets ok:false, never a crash.
import type { CompareResult } from "../core/compare/types";
import type { SeriesWarning } from "../core/warnings";
import { UNITS } from "../core/types";
import { fail, field, has, int, isObj, num, obj, str, type Obj } from "./schema";

/** What the author's page showed for one series. */
export interface SharedShown {
  /** Percentile as text ("50", "99.9"; "100" is the max) → the value read there, recorded unit. */
  at: Record<string, number>;
  min: number;
  mean: number;
  stdDeviation: number;
  /** The whole series' count, whatever the time window (the link's histogram is the window's). */
  count: number;
  /** The data's own warnings (saturation, coordinated omission) as the author's page gave them. */
  warnings: SeriesWarning[];
  /** The same for the series' CO-corrected copy, when the view sets a CO interval. */
  corrected?: SharedShown;
  /**
   * The window's count, where it is not the link's histogram's: a corrected copy's (the
   * correction of a rounded histogram adds other counts).
   */
  total?: number;
}

/** What the author's page computed beyond each series. */
export interface ShareResults {
  /** The A vs B answer for the view's comparison (view.compare), as computed from the full data. */
  compare?: CompareResult;
}

export const MAX_SHOWN_PERCENTILES = 64;
export const MAX_SHOWN_WARNINGS = 16;
export const MAX_RESULT_TEXT = 20_000;
export const MAX_RESULT_LIST = 4096;
const MAX_DEPTH = 24;

/** "50", "99.9", "100": what String(p) gives for a percentile in (0, 100]. */
const PERCENTILE_KEY = /^(?:100|[0-9]{1,2}(?:\.[0-9]{1,12})?)$/;

export function validateShown(x: unknown, where: string, nested = false): SharedShown {
  const o = obj(x, where);
  const atObj = obj(field(o, "at"), `${where}.at`);
  const keys = Object.keys(atObj);
  if (keys.length > MAX_SHOWN_PERCENTILES) fail(`${where}.at has more than ${MAX_SHOWN_PERCENTILES} percentiles`);
  const at: Record<string, number> = {};
  for (const k of keys) {
    if (!PERCENTILE_KEY.test(k) || !(Number(k) > 0) || String(Number(k)) !== k) fail(`${where}.at has a key that is not a percentile in (0, 100]`);
    const v = num(field(atObj, k), `${where}.at["${k}"]`);
    if (v < 0) fail(`${where}.at["${k}"] is negative`);
    at[k] = v;
  }
  const ws = field(o, "warnings");
  if (!Array.isArray(ws)) fail(`${where}.warnings is not a list`);
  if (ws.length > MAX_SHOWN_WARNINGS) fail(`${where}.warnings has more than ${MAX_SHOWN_WARNINGS} entries`);
  const out: SharedShown = {
    at,
    // An empty series' mean and deviation are not finite numbers: packed as JSON markers.
    min: anyNumber(unpackJson(field(o, "min"), `${where}.min`), `${where}.min`),
    mean: anyNumber(unpackJson(field(o, "mean"), `${where}.mean`), `${where}.mean`),
    stdDeviation: anyNumber(unpackJson(field(o, "stdDeviation"), `${where}.stdDeviation`), `${where}.stdDeviation`),
    count: int(field(o, "count"), `${where}.count`, 0, Number.MAX_SAFE_INTEGER),
    warnings: ws.map((w, i) => validateWarning(w, `${where}.warnings[${i}]`)),
  };
  if (has(o, "total")) out.total = int(field(o, "total"), `${where}.total`, 0, Number.MAX_SAFE_INTEGER);
  if (has(o, "corrected")) {
    if (nested) fail(`${where}.corrected is nested`);
    out.corrected = validateShown(field(o, "corrected"), `${where}.corrected`, true);
  }
  return out;
}

function validateWarning(x: unknown, where: string): SeriesWarning {
  const o = unpackJson(x, where) as Obj;
  if (!isObj(o)) fail(`${where} is not an object`);
  const kind = field(o, "kind");
  str(field(o, "series"), `${where}.series`, MAX_RESULT_TEXT);
  if (kind === "saturation") {
    num(field(o, "rise"), `${where}.rise`);
    return o as unknown as SeriesWarning;
  }
  if (kind === "bucketed") {
    num(field(o, "lowNs"), `${where}.lowNs`);
    anyNumber(field(o, "highNs"), `${where}.highNs`);
    str(field(o, "detail"), `${where}.detail`, MAX_RESULT_TEXT);
    return o as unknown as SeriesWarning;
  }
  if (kind !== "coordinated-omission") fail(`${where}.kind is not "saturation", "bucketed" or "coordinated-omission"`);
  const u = field(o, "unit");
  if (typeof u !== "string" || !(UNITS as readonly string[]).includes(u)) fail(`${where}.unit is not a unit`);
  const c = obj(field(o, "cliff"), `${where}.cliff`);
  for (const end of ["from", "to"]) {
    const e = obj(field(c, end), `${where}.cliff.${end}`);
    num(field(e, "percentile"), `${where}.cliff.${end}.percentile`);
    num(field(e, "value"), `${where}.cliff.${end}.value`);
  }
  for (const k of ["jump", "tailFraction"]) if (has(c, k)) anyNumber(field(c, k), `${where}.cliff.${k}`);
  if (has(c, "stall")) {
    const s = obj(field(c, "stall"), `${where}.cliff.stall`);
    for (const k of ["rate", "stall", "expected", "observed", "intervalStart", "missing"]) num(field(s, k), `${where}.cliff.stall.${k}`);
  }
  return o as unknown as SeriesWarning;
}

// ---------------------------------------------------------------------------------------------
// Any JSON value, numbers as written (JSON round-trips float64 exactly), plus what JSON lacks:
// NaN, ±Infinity and -0 become {"$n": "NaN" | "Inf" | "-Inf" | "-0"}; a list of two or more objects with
// the same keys in the same order becomes {"$c": keys, "$r": [values per object]} (the keys
// once: a comparison's curve is such a list, and this makes its link ~7 % shorter).

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Inf: Infinity, "-Inf": -Infinity, "-0": -0 };

/** A value as the link writes it. Throws a RangeError on a key starting with "$" (reserved here). */
export function packJson(x: unknown): unknown {
  if (typeof x === "number") {
    if (Object.is(x, -0)) return { $n: "-0" }; // JSON would write 0
    return Number.isFinite(x) ? x : { $n: Number.isNaN(x) ? "NaN" : x > 0 ? "Inf" : "-Inf" };
  }
  if (x === null || typeof x === "string" || typeof x === "boolean") return x;
  if (Array.isArray(x)) {
    const keys = x.length >= 2 && x.every(isObj) ? Object.keys(x[0] as Obj) : null;
    const sameKeys = keys !== null && x.every((o) => sameOrder(Object.keys(o as Obj), keys));
    if (keys && sameKeys) return { $c: keys.map(checkKey), $r: x.map((o) => keys.map((k) => packJson((o as Obj)[k]))) };
    return x.map(packJson);
  }
  if (isObj(x)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(x)) if (v !== undefined) put(out, checkKey(k), packJson(v));
    return out;
  }
  throw new RangeError(`cannot carry a ${typeof x} in a link`);
}

function checkKey(k: string): string {
  if (k.startsWith("$")) throw new RangeError(`cannot carry the field "${k}" in a link ("$" starts the link's own markers)`);
  return k;
}

function sameOrder(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** An own, enumerable, writable property even for the key "__proto__" (a plain assignment would set the prototype). */
function put(o: Obj, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** packJson's inverse, for parsed JSON from a link: bounded depth; malformed markers fail. */
export function unpackJson(x: unknown, where: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) fail(`${where} is nested more than ${MAX_DEPTH} deep`);
  if (x === null || typeof x === "number" || typeof x === "string" || typeof x === "boolean") return x;
  if (Array.isArray(x)) return x.map((y, i) => unpackJson(y, `${where}[${i}]`, depth + 1));
  const o = obj(x, where);
  if (has(o, "$n")) {
    const t = field(o, "$n");
    if (Object.keys(o).length !== 1 || typeof t !== "string" || !has(NON_FINITE, t)) fail(`${where} is a malformed number`);
    return NON_FINITE[t];
  }
  if (has(o, "$c")) {
    const keys = field(o, "$c");
    const rows = field(o, "$r");
    if (Object.keys(o).length !== 2 || !Array.isArray(keys) || !Array.isArray(rows) || keys.some((k) => typeof k !== "string")) fail(`${where} is a malformed list`);
    return rows.map((row, i) => {
      if (!Array.isArray(row) || row.length !== keys.length) fail(`${where}[${i}] does not have one value per field`);
      const out: Obj = {};
      (keys as string[]).forEach((k, j) => put(out, k, unpackJson(row[j], `${where}[${i}].${k}`, depth + 1)));
      return out;
    });
  }
  const out: Obj = {};
  for (const k of Object.keys(o)) {
    if (k.startsWith("$")) fail(`${where} has an unknown marker "${k.slice(0, 20)}"`);
    put(out, k, unpackJson(o[k], `${where}.${k}`, depth + 1));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The comparison's answer: the fields the page reads are checked; any others pass as they are.

function anyNumber(x: unknown, where: string): number {
  if (typeof x !== "number") fail(`${where} is not a number`);
  return x;
}

function numOrNullAny(x: unknown, where: string): number | null {
  return x === null ? null : anyNumber(x, where);
}

function list(x: unknown, where: string, max = MAX_RESULT_LIST): unknown[] {
  if (!Array.isArray(x)) fail(`${where} is not a list`);
  if (x.length > max) fail(`${where} has more than ${max} entries`);
  return x;
}

const VERDICTS = new Set(["better", "worse", "same", "unknown"]);

function validatePoint(x: unknown, where: string): void {
  const p = obj(x, where);
  const pc = num(field(p, "percentile"), `${where}.percentile`);
  if (!(pc >= 0 && pc <= 100)) fail(`${where}.percentile is outside [0, 100]`);
  if (typeof field(p, "supported") !== "boolean") fail(`${where}.supported is not true or false`);
  if (typeof field(p, "gapWithinSpread") !== "boolean") fail(`${where}.gapWithinSpread is not true or false`);
  for (const k of ["base", "cand", "ratio", "resolution", "band"]) anyNumber(field(p, k), `${where}.${k}`);
  for (const k of ["low", "high"]) numOrNullAny(field(p, k), `${where}.${k}`);
  if (!VERDICTS.has(field(p, "verdict") as string)) fail(`${where}.verdict is not better, worse, same or unknown`);
  for (const k of ["baseSpread", "candSpread"]) {
    const s = field(p, k);
    if (s !== null && (!Array.isArray(s) || s.length !== 2 || s.some((v) => typeof v !== "number"))) fail(`${where}.${k} is not a pair of numbers or null`);
  }
}

function validateSide(x: unknown, where: string): void {
  const s = obj(x, where);
  str(field(s, "label"), `${where}.label`, MAX_RESULT_TEXT);
  anyNumber(field(s, "totalCount"), `${where}.totalCount`);
  for (const k of ["runs", "method"]) list(field(s, k), `${where}.${k}`).forEach((v, i) => str(v, `${where}.${k}[${i}]`, MAX_RESULT_TEXT));
}

/** A comparison's answer from a link (after unpackJson). */
export function validateCompareResult(x: unknown, where = "results.compare"): CompareResult {
  const r = obj(x, where);
  validateSide(field(r, "base"), `${where}.base`);
  validateSide(field(r, "cand"), `${where}.cand`);
  list(field(r, "points"), `${where}.points`, 64).forEach((p, i) => validatePoint(p, `${where}.points[${i}]`));
  list(field(r, "curve"), `${where}.curve`).forEach((p, i) => validatePoint(p, `${where}.curve[${i}]`));
  const m = obj(field(r, "max"), `${where}.max`);
  for (const k of ["base", "cand", "ratio"]) anyNumber(field(m, k), `${where}.max.${k}`);
  for (const k of ["supportedTo", "margin", "level", "resamples", "seed"]) anyNumber(field(r, k), `${where}.${k}`);
  str(field(r, "sentence"), `${where}.sentence`, MAX_RESULT_TEXT);
  list(field(r, "warnings"), `${where}.warnings`, 64).forEach((w, i) => {
    const o = obj(w, `${where}.warnings[${i}]`);
    str(field(o, "kind"), `${where}.warnings[${i}].kind`, 100);
    str(field(o, "message"), `${where}.warnings[${i}].message`, MAX_RESULT_TEXT);
  });
  return r as unknown as CompareResult;
}

/** The results block of the metadata (packed JSON) → ShareResults. */
export function validateResults(x: unknown): ShareResults {
  const o = obj(x, "results");
  const out: ShareResults = {};
  if (has(o, "compare")) out.compare = validateCompareResult(unpackJson(field(o, "compare"), "results.compare"));
  return out;
}

/** ShareResults → the metadata's results block. */
export function packResults(r: ShareResults): Obj {
  const out: Obj = {};
  if (r.compare) out.compare = packJson(r.compare);
  return out;
}

/** SharedShown → its metadata form (warnings as packed JSON: they may hold non-finite numbers). */
export function packShown(s: SharedShown): Obj {
  const out: Obj = { at: { ...s.at }, min: packJson(s.min), mean: packJson(s.mean), stdDeviation: packJson(s.stdDeviation), count: s.count, warnings: s.warnings.map(packJson) };
  if (s.total !== undefined) out.total = s.total;
  if (s.corrected) out.corrected = packShown(s.corrected);
  return out;
}
