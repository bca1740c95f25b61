// Number formatting for people: values keep their precision (HdrHistogram's 3 significant
// digits are real), no exponent notation, unit always stated.
import type { Unit } from "./types";

export const UNIT_LABEL: Record<Unit, string> = { ns: "ns", us: "µs", ms: "ms", s: "s" };

/** Powers of ten below one, as the literals parse (the same in every engine). */
const TENTHS = [0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6];

/**
 * Decimals for 0 < a < 1: 3 − floor(log10(a)), at most 9. Compared with literals rather than
 * through Math.log10, which engines round differently in the last bit: at a power of ten the
 * page and the command line could print another number of decimals.
 */
function decimalsBelowOne(a: number): number {
  for (let k = 0; k < TENTHS.length; k++) if (a >= TENTHS[k]!) return 4 + k;
  return 9;
}

/** A latency in a unit, with about 4 significant digits and no trailing noise. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  const decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : decimalsBelowOne(a);
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

/**
 * A count with thousands separators, as en-US writes it ("1,234,567"). Grouped by hand: the
 * first Intl.NumberFormat a page builds loads the locale's data on the main thread while a
 * load's workers need both cores (the progress line is the first count a load writes). Intl is
 * kept for what String() does not write as plain digits (exponents from 10^21, non-finite).
 */
let countFormat: Intl.NumberFormat | null = null;

export function formatCount(n: number): string {
  const r = Math.round(n);
  const abs = Math.abs(r);
  if (!(abs < 1e21)) {
    countFormat ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    return countFormat.format(r);
  }
  const digits = String(abs);
  let at = digits.length % 3 || 3;
  let out = digits.slice(0, at);
  for (; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return r < 0 || Object.is(r, -0) ? `-${out}` : out;
}

/** A count and its noun, singular for exactly one: "1 value", "2,048 values". */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? noun : plural}`;
}

/** A name cut in the middle to `max` characters: its start and its end, which tell series apart, stay. */
export function middleEllipsis(name: string, max: number): string {
  if (name.length <= max) return name;
  if (max <= 1) return "…";
  const head = Math.ceil((max - 1) / 2);
  return `${name.slice(0, head)}…${name.slice(name.length - (max - 1 - head))}`;
}

/** A series name cut to `max` characters in the middle (kept for callers naming one series). */
export function shortSeriesName(name: string, max: number): string {
  return middleEllipsis(name, max);
}

/** Names cut into words at separators, each word keeping the separators after it. */
function words(name: string): string[] {
  return name.match(/[^\s_\-./\\[\]()]+[\s_\-./\\[\]()]*|[\s_\-./\\[\]()]+/g) ?? [name];
}

/**
 * The names as a legend shows them, side by side: the words every name starts with and ends
 * with are dropped (the file all of a Gatling run's requests come from, ".response" on every
 * log), then each is cut in the middle to `max` characters. A lone name is only cut. The full
 * name goes in a title (hover).
 */
export function shortNames(names: readonly string[], max: number): string[] {
  const out: string[] = [];
  if (names.length < 2) {
    for (const n of names) out.push(middleEllipsis(n, max));
    return out;
  }
  const ws = names.map(words);
  let minLen = Infinity;
  for (const w of ws) minLen = Math.min(minLen, w.length);
  // Keep at least one word of every name.
  let pre = 0;
  while (pre < minLen - 1 && allSameAt(ws, pre, false)) pre++;
  let suf = 0;
  while (suf < minLen - 1 - pre && allSameAt(ws, suf, true)) suf++;
  for (const w of ws) out.push(shortened(w, pre, suf, max));
  return out;
}

// Loops and module-level functions, not closures made per call: V8 drops the optimised code of
// short-lived closures at every major collection, and legends are laid out on every redraw.
function wordAt(w: readonly string[], k: number, fromEnd: boolean): string | undefined {
  return fromEnd ? w[w.length - 1 - k] : w[k];
}

/** Whether every name has the same word at `k` (counted from the end when `fromEnd`). */
function allSameAt(ws: readonly (readonly string[])[], k: number, fromEnd: boolean): boolean {
  for (const w of ws) if (wordAt(w, k, fromEnd) !== wordAt(ws[0]!, k, fromEnd)) return false;
  return true;
}

/** A name's words without the `pre` first and `suf` last, tidied and cut to `max` characters. */
function shortened(w: string[], pre: number, suf: number, max: number): string {
  let kept = w.slice(pre, w.length - suf).join("");
  if (pre > 0) kept = kept.replace(/^[\s_\-./\\]+/, "");
  if (suf > 0) kept = kept.replace(/[\s_\-./\\]+$/, "");
  // A bracket whose partner was dropped with the common words goes too.
  if (!kept.includes("[")) kept = kept.replace(/\]\s*$/, "");
  if (!kept.includes("(")) kept = kept.replace(/\)\s*$/, "");
  if (!kept.includes("]")) kept = kept.replace(/\s*\[\s*$/, "").replace(/^\[\s*/, "");
  if (!kept.includes(")")) kept = kept.replace(/\s*\(\s*$/, "").replace(/^\(\s*/, "");
  const core = kept.trim() || w.join("");
  return middleEllipsis(core, max);
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
