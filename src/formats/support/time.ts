// Timestamps: epoch numbers in s, ms, µs or ns read exactly, RFC 3339 / ISO 8601 date-times,
// and the distance between two instants.
import { clip, scaleDecimalDigits } from "./decimals";

/** A point in time: whole seconds and nanoseconds (exact for 19-digit epoch nanoseconds). */
export interface Instant {
  sec: number;
  ns: number;
}

export type TimeUnit = "s" | "ms" | "us" | "ns";
const TIME_DIGITS: Record<TimeUnit, number> = { s: 9, ms: 6, us: 3, ns: 0 };

export type TimeResult = { ok: true; at: Instant } | { ok: false; reason: string };

const PER_SECOND: Record<TimeUnit, number> = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 };
const PLAIN_INTEGER = /^\d{1,15}$/;

/** A numeric timestamp in `unit` since the epoch (or since some start), exactly. */
export function parseNumericTime(text: string, unit: TimeUnit): TimeResult {
  if (PLAIN_INTEGER.test(text)) {
    // the common case, exact in floating point: whole s, ms or µs (ns epochs have 19 digits)
    const v = Number(text);
    const per = PER_SECOND[unit];
    const sec = Math.floor(v / per);
    return { ok: true, at: { sec, ns: (v - sec * per) * (1e9 / per) } };
  }
  const s = scaleDecimalDigits(text.trim(), TIME_DIGITS[unit]);
  if (!s) return { ok: false, reason: `timestamp ${JSON.stringify(clip(text.trim()))} is not a number` };
  if (s.negative) return { ok: false, reason: `timestamp ${clip(text.trim())} is negative` };
  if (s.digits.length > 21) return { ok: false, reason: `timestamp ${clip(text.trim())} is too large` };
  const d = s.digits;
  const sec = d.length > 9 ? Number(d.slice(0, d.length - 9)) : 0;
  const ns = Number(d.length > 9 ? d.slice(d.length - 9) : d);
  return { ok: true, at: { sec, ns } };
}

/** Unit of an epoch timestamp guessed from its magnitude (up to year 5000 in each unit). */
export function guessEpochUnit(text: string): TimeUnit {
  const v = Math.abs(Number(text.trim()));
  if (!(v < 1e11)) {
    if (v < 1e14) return "ms";
    if (v < 1e17) return "us";
    return "ns";
  }
  return "s";
}

const DATE_TIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

let lastDateKey = "";
let lastDateSec = 0;

/** RFC 3339 / ISO 8601 date-times ("2026-01-02T03:04:05.123456789+02:00"); no zone means UTC. */
export function parseDateTime(text: string): TimeResult {
  // Consecutive lines mostly share the second: reuse it when only the fraction differs.
  const t = text.trim();
  const dot = t.length > 20 && t.charCodeAt(19) === 46 ? 19 : -1;
  if (dot > 0) {
    let end = dot + 1;
    while (end < t.length && t.charCodeAt(end) >= 48 && t.charCodeAt(end) <= 57) end++;
    const key = t.slice(0, dot) + t.slice(end);
    if (key === lastDateKey && end > dot + 1) return { ok: true, at: { sec: lastDateSec, ns: Number((t.slice(dot + 1, end) + "000000000").slice(0, 9)) } };
  }
  const r = parseDateTimeUncached(t);
  if (r.ok && dot > 0) {
    let end = dot + 1;
    while (end < t.length && t.charCodeAt(end) >= 48 && t.charCodeAt(end) <= 57) end++;
    lastDateKey = t.slice(0, dot) + t.slice(end);
    lastDateSec = r.at.sec;
  }
  return r;
}

function parseDateTimeUncached(text: string): TimeResult {
  const m = DATE_TIME.exec(text);
  if (!m) return { ok: false, reason: `timestamp ${JSON.stringify(clip(text.trim()))} is not a date-time` };
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return { ok: false, reason: `timestamp ${clip(text.trim())} is not a valid date-time` };
  }
  let offsetSec = 0;
  if (zone && zone !== "Z" && zone !== "z" && zone !== "UTC") {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    offsetSec = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 3600 + Number(z[3] ?? 0) * 60);
  }
  const ms = Date.UTC(Number(y), month - 1, day, hour, minute, second);
  if (!Number.isFinite(ms)) return { ok: false, reason: `timestamp ${clip(text.trim())} is not a valid date-time` };
  const sec = ms / 1000 - offsetSec;
  if (sec < 0) return { ok: false, reason: `timestamp ${clip(text.trim())} is before 1970` };
  const ns = frac ? Number((frac + "000000000").slice(0, 9)) : 0;
  return { ok: true, at: { sec, ns } };
}

/** Seconds from `a` to `b`. */
export function secondsBetween(a: Instant, b: Instant): number {
  return b.sec - a.sec + (b.ns - a.ns) / 1e9;
}

/** Epoch seconds of an instant, or null when it is not plausibly an epoch (before 1973). */
export function epochSeconds(at: Instant): number | null {
  return at.sec >= 1e8 ? at.sec + at.ns / 1e9 : null;
}
