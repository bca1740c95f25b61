// The requirement in every window: a run cut into consecutive windows of one length, each
// window judged on its own (its intervals' histograms merged, never averaged). Pure: the
// engine computes each window's values (src/engine/time-queries.ts), this cuts and judges.
import type { Requirement } from "./requirements";

const LENGTH_UNITS: Record<string, number> = { ms: 1e-3, s: 1, m: 60, min: 60, h: 3600, d: 86400 };

/**
 * A window length as people type it: `10s`, `500ms`, `10m` (minutes), `1h`, `1d`, or a plain
 * number of seconds. Seconds; null for empty text; NaN for anything else (or ≤ 0).
 */
export function parseWindowLength(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|min|h|d)?$/i.exec(t);
  if (!m) return Number.NaN;
  const v = Number(m[1]) * LENGTH_UNITS[(m[2] ?? "s").toLowerCase()]!;
  return v > 0 && Number.isFinite(v) ? v : Number.NaN;
}

/** 10 → "10s", 600 → "10m", 3600 → "1h", 0.5 → "500ms". */
export function formatWindowLength(sec: number): string {
  if (sec >= 3600 && sec % 3600 === 0) return `${sec / 3600}h`;
  if (sec >= 60 && sec % 60 === 0) return `${sec / 60}m`;
  if (sec < 1) return `${Number((sec * 1000).toPrecision(6))}ms`;
  return `${Number(sec.toPrecision(6))}s`;
}

/** One window: [start, end) in seconds since StartTime, and its intervals [first, last] in time order. */
export interface WindowSpan {
  start: number;
  end: number;
  first: number;
  last: number;
}

/**
 * Where window boundaries lie, as an offset (s since StartTime) of one boundary: 0 (windows
 * from StartTime), or, aligned to the wall clock, the offset at which wall-clock time is a
 * multiple of the length (so 1-minute windows start on whole UTC minutes).
 */
export function windowOrigin(length: number, startTime: number | null, wallClock: boolean): number {
  if (!wallClock || startTime === null) return 0;
  const r = ((startTime % length) + length) % length;
  return r === 0 ? 0 : length - r;
}

/**
 * Cuts intervals (starts in ascending order) into consecutive windows of `length` seconds from
 * `origin`, each half-open [start, end): an interval belongs to the window its start lies in.
 * Windows run from the one holding the first interval to the one holding the last, empty ones
 * included (first > last), so a gap in the log is a window without values.
 */
export function cutWindows(starts: ArrayLike<number>, n: number, length: number, origin = 0): WindowSpan[] {
  if (n === 0 || !(length > 0)) return [];
  const k0 = Math.floor((starts[0]! - origin) / length);
  const k1 = Math.floor((starts[n - 1]! - origin) / length);
  const out: WindowSpan[] = [];
  let i = 0;
  for (let k = k0; k <= k1; k++) {
    const start = origin + k * length;
    const end = origin + (k + 1) * length;
    const first = i;
    // The index of the window is computed the same way for every interval, so no float noise
    // in `end` can put an interval in two windows or none.
    while (i < n && Math.floor((starts[i]! - origin) / length) <= k) i++;
    out.push({ start, end, first, last: i - 1 });
  }
  return out;
}

/** What the engine measured in one window. */
export interface WindowStats {
  start: number;
  end: number;
  /** Values recorded in the window. */
  count: number;
  /** Seconds of the window the run covers (the first and last windows may be partial). */
  covered: number;
  /** Per requirement entry (same order): the window's value at its percentile in ns; NaN without values. */
  valuesNs: number[];
}

export interface WindowWorst {
  start: number;
  end: number;
  percentile: number;
  valueNs: number;
  limitNs: number;
  /** valueNs ÷ limitNs; Infinity for a window without values. */
  ratio: number;
}

export interface WindowDrop {
  start: number;
  end: number;
  /** Values per second in that window. */
  throughput: number;
  /** The run's median window throughput. */
  median: number;
  /** 1 − throughput ÷ median (0 when no window is below the median). */
  drop: number;
}

export interface WindowJudgement {
  windows: number;
  passing: number;
  /** Per window: passes every entry. */
  pass: boolean[];
  /** Per window: values per second over the part of the window the run covers. */
  throughput: number[];
  worst: WindowWorst | null;
  drop: WindowDrop | null;
}

/** Float noise is not a violation (as requirements.ts's verdictOf). */
const NOISE = 1e-13;

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Judges each window against the requirement: a window passes when its value at every entry's
 * percentile is at or below the limit; a window without values fails (it cannot show that it
 * meets the requirement). The worst window has the highest value ÷ limit over the entries (a
 * window without values counts only when no window has values). Throughput per window is its
 * count ÷ the seconds of it the run covers; the largest drop is against the median of those.
 */
export function judgeWindows(stats: readonly WindowStats[], r: Requirement): WindowJudgement {
  const pass: boolean[] = [];
  const throughput: number[] = [];
  let worst: WindowWorst | null = null;
  let passing = 0;
  for (const w of stats) {
    let ok = w.count > 0;
    r.entries.forEach((e, k) => {
      const v = w.valuesNs[k]!;
      const ratio = w.count > 0 ? v / e.limitNs : Infinity;
      if (!(v <= e.limitNs * (1 + NOISE))) ok = false;
      // A window without values (ratio Infinity) is the worst only when no window has values.
      const cur = worst as WindowWorst | null;
      const replace = cur === null || (ratio !== Infinity && (cur.ratio === Infinity || ratio > cur.ratio));
      if (replace) worst = { start: w.start, end: w.end, percentile: e.percentile, valueNs: w.count > 0 ? v : Number.NaN, limitNs: e.limitNs, ratio };
    });
    if (ok) passing++;
    pass.push(ok);
    throughput.push(w.covered > 0 ? w.count / w.covered : 0);
  }
  let drop: WindowDrop | null = null;
  if (stats.length > 0) {
    const med = median(throughput);
    let k = 0;
    for (let i = 1; i < throughput.length; i++) if (throughput[i]! < throughput[k]!) k = i;
    drop = { start: stats[k]!.start, end: stats[k]!.end, throughput: throughput[k]!, median: med, drop: med > 0 ? Math.max(0, 1 - throughput[k]! / med) : 0 };
  }
  return { windows: stats.length, passing, pass, throughput, worst, drop };
}
