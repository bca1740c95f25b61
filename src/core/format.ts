// Number formatting for people: values keep their precision (HdrHistogram's 3 significant
// digits are real), no exponent notation, unit always stated.
import type { Unit } from "./types";

export const UNIT_LABEL: Record<Unit, string> = { ns: "ns", us: "µs", ms: "ms", s: "s" };

/** A latency in a unit, with about 4 significant digits and no trailing noise. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  const decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : Math.min(9, 3 - Math.floor(Math.log10(a)));
  return v
    .toFixed(decimals)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

export function formatValue(v: number, unit: Unit): string {
  return `${formatNumber(v)} ${UNIT_LABEL[unit]}`;
}

/** Percentile as people write it: 50%, 99.9%, 99.999%, max for 100. */
export function formatPercentile(p: number): string {
  if (p >= 100) return "max";
  return `${p}%`;
}

/** One formatter for every count: toLocaleString builds a new one per call. */
const COUNT_FORMAT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return COUNT_FORMAT.format(Math.round(n));
}

/** A count and its noun, singular for exactly one: "1 value", "2,048 values". */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? noun : plural}`;
}

/**
 * A series name cut to `max` characters, keeping what tells series apart: a name "file [label]"
 * (one series per label of a file) keeps its label and shortens the file part, so 56 series of
 * one file do not all read as the file's name.
 */
export function shortSeriesName(name: string, max: number): string {
  if (name.length <= max) return name;
  const m = /^([^]*) \[([^]*)\]$/.exec(name);
  if (m) {
    const file = m[1]!;
    const label = m[2]!;
    const room = max - label.length - 3; // " [" and "]"
    if (room >= 2) return `${file.slice(0, room - 1)}… [${label}]`;
    return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
  }
  return `${name.slice(0, max - 1)}…`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A number without exponent notation. */
export function plainNumber(n: number): string {
  // String() writes the shortest digits that read back to n; only move the point.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(String(n));
  if (!m) return String(n);
  const [, sign, lead, frac = "", exp] = m;
  const digits = lead! + frac;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
