// The comparison's one headline: both values at one percentile, the change in plain words with
// its interval, and the verdict. The percentile follows one rule (the requirement's highest
// percentile below the max that the data supports, else p99) unless the user chose one, so the
// headline does not wander from one pull request to the next. The panel, the slides, the
// Markdown and the command line all build it here.
import { valueAtFromBuckets, type BucketView } from "../bucket-lookup";
import { UNIT_LABEL } from "../format";
import { NANOS_PER_UNIT, TABLE_PERCENTILES, type Unit } from "../types";
import { pLabel } from "./format";
import { compareSentence } from "./sentence";
import type { CompareResult, RatioPoint, Verdict } from "./types";

/** Where the headline is stated without a requirement. */
export const DEFAULT_HEADLINE_PERCENTILE = 99;

export interface Headline {
  /** Where it is stated (0 < p < 100). */
  percentile: number;
  /** How that percentile was picked. */
  rule: "requirement" | "default" | "chosen";
  baseLabel: string;
  candLabel: string;
  /** The two values in each side's recorded unit (as the table's data-raw); NaN where a side is empty. */
  baseline: number;
  candidate: number;
  baseUnit: Unit;
  candUnit: Unit;
  /** candidate ÷ baseline and its interval (null where the data cannot support the percentile). */
  ratio: number;
  low: number | null;
  high: number | null;
  /** `unknown` also where the point is not judged (see `reason`). */
  verdict: Verdict;
  judged: boolean;
  /** Why the verdict is unknown or the point not judged; null otherwise. */
  reason: string | null;
  /**
   * The headline as one line of plain text, the same everywhere (the panel's and the first
   * slide's data-text, the Markdown's first line, report --json's headlineText): "sysB is 805×
   * faster than sysA at p99: 269 ms → 0.33 ms (95 % range 640–990×)".
   */
  text: string;
  /** "269 ms → 0.33 ms". */
  values: string;
  /** "805× faster", "7 % slower". */
  change: string;
  /** "better, beyond the ±5 % margin", "not judged: …". */
  verdictText: string;
  /** What the verdict rests on (the point's basis); null when no rule decided. */
  basis: "values" | "events" | "runs" | null;
  /** The comparison's one sentence, led by the headline's percentile. */
  sentence: string;
}

/** What the JSON (`comparison.pairs[].headline`) carries. */
export interface HeadlineJson {
  percentile: number;
  baseline: number | null;
  candidate: number | null;
  ratio: number | null;
  low: number | null;
  high: number | null;
  verdict: Verdict;
  /** What the verdict rests on: "values", "events", "runs", or null when no rule decided. */
  basis?: "values" | "events" | "runs" | null;
}

/**
 * The rule, in one sentence: with a requirement, its highest percentile below the max that the
 * data supports (both sides hold enough values above it); otherwise, or when none is supported,
 * p99. A percentile the user chose wins.
 */
export function headlinePercentile(
  requirementPercentiles: readonly number[] | null,
  supportedTo: number,
  chosen: number | null = null,
): { percentile: number; rule: Headline["rule"] } {
  if (chosen !== null && chosen > 0 && chosen < 100) return { percentile: chosen, rule: "chosen" };
  const ok = (requirementPercentiles ?? []).filter((p) => p > 0 && p < 100 && p <= supportedTo + 1e-9);
  if (ok.length > 0) return { percentile: Math.max(...ok), rule: "requirement" };
  return { percentile: DEFAULT_HEADLINE_PERCENTILE, rule: "default" };
}

/** The percentiles a comparison must report beyond its own so that the headline can use them: the requirement's below the max. */
export function headlineExtras(requirementPercentiles: readonly number[] | null, reported: readonly number[] = TABLE_PERCENTILES): number[] {
  const have = new Set(reported);
  return [...new Set((requirementPercentiles ?? []).filter((p) => p > 0 && p < 100 && !have.has(p)))].sort((a, b) => a - b);
}

/** A value in the display unit to three significant digits: "56.1 ms", "0.129 ms", "1234 ms". */
export function valueText(ns: number, unit: Unit): string {
  if (!Number.isFinite(ns)) return "–";
  const v = ns / NANOS_PER_UNIT[unit];
  const a = Math.abs(v);
  const s = a === 0 ? "0" : a >= 100 ? String(Math.round(v)) : String(Number(v.toPrecision(3)));
  return `${s} ${UNIT_LABEL[unit]}`;
}

/** A percentage to three significant digits, never rounded up to 100 (or down to 0) when it is not. */
function pct(x: number): string {
  const a = Math.abs(x);
  if (a === 0) return "0";
  for (let d = 3; d <= 7; d++) {
    const s = Number(x.toPrecision(d));
    if ((a < 100 && Math.abs(s) >= 100) || Math.abs(s) === 0) continue;
    return String(s);
  }
  return String(x);
}

function times(x: number): string {
  return x < 9.95 ? x.toFixed(x < 1.995 ? 2 : 1) : String(Math.round(x));
}

/** Ratios at least this far from 1 (either way) are said as "N× faster/slower", closer ones in per cent. */
const TIMES_FROM = 2;

/** One end of a change in words: "805× faster", "7 % slower", "no change". */
function oneEnd(r: number, asTimes: boolean): { n: string; dir: "faster" | "slower" | "" } {
  if (r === 1) return { n: "0 %", dir: "" };
  if (r < 1) return { n: asTimes ? `${times(1 / r)}×` : `${pct((1 - r) * 100)} %`, dir: "faster" };
  return { n: asTimes ? `${times(r)}×` : `${pct((r - 1) * 100)} %`, dir: "slower" };
}

/** The change from baseline to candidate in words: "805× faster", "7 % slower". */
export function changeWords(ratio: number): string {
  if (!Number.isFinite(ratio)) return "no ratio (a side has no values)";
  if (ratio === 1) return "no change";
  const e = oneEnd(ratio, ratio >= TIMES_FROM || ratio <= 1 / TIMES_FROM);
  return `${e.n} ${e.dir}`;
}

/** The range in the change's own words: "95 % range 640–990×", "95 % range 3 % faster to 2 % slower"; null without one. */
export function rangeWords(ratio: number, low: number | null, high: number | null, level: number): string | null {
  if (low === null || high === null || !Number.isFinite(low) || !Number.isFinite(high) || !(low > 0)) return null;
  const lvl = `${Math.round(level * 100)} % range`;
  const asTimes = Number.isFinite(ratio) && (ratio >= TIMES_FROM || ratio <= 1 / TIMES_FROM);
  if (high < 1 || low > 1) {
    // Both ends one way: "640–990×" or "5–9 %", nearer end first.
    const [a, b] = high < 1 ? [oneEnd(high, asTimes), oneEnd(low, asTimes)] : [oneEnd(low, asTimes), oneEnd(high, asTimes)];
    const sameWay = high < 1 ? ratio < 1 : ratio > 1;
    return `${lvl} ${a.n.replace(/ ?[×%]$/, "")}–${b.n}${sameWay ? "" : ` ${b.dir}`}`;
  }
  const f = oneEnd(low, asTimes && low <= 1 / TIMES_FROM);
  const sl = oneEnd(high, asTimes && high >= TIMES_FROM);
  return `${lvl} ${f.n} ${f.dir || "faster"} to ${sl.n} ${sl.dir || "slower"}`;
}

/** The change and its range: "805× faster (95 % range 640–990×)". */
export function changeText(ratio: number, low: number | null, high: number | null, level: number): string {
  const main = changeWords(ratio);
  const range = Number.isFinite(ratio) ? rangeWords(ratio, low, high, level) : null;
  return range ? `${main} (${range})` : main;
}

function marginText(band: number): string {
  return `±${Number((band * 100).toPrecision(3))} %`;
}

/** Why a point has no verdict: the point's own reason when it carries one. */
function reasonOf(p: RatioPoint): string | null {
  if (p.reason) return p.reason;
  if (!p.supported) return `fewer than 10 values above ${pLabel(p.percentile)} on one side`;
  if (p.verdict === "unknown") return `the range reaches across the ${marginText(p.band)} margin; longer or repeated runs would decide`;
  return null;
}

/** The comparison judged this point (older results carry no `judged`: judged where supported). */
function isJudged(p: RatioPoint): boolean {
  return p.supported && (p.judged ?? true);
}

function verdictWords(p: RatioPoint, reason: string | null): string {
  if (!isJudged(p)) return `not judged: ${reason ?? "the data cannot support it"}`;
  switch (p.verdict) {
    case "better":
      return `better, beyond the ${marginText(p.band)} margin`;
    case "worse":
      return `worse, beyond the ${marginText(p.band)} margin`;
    case "same":
      return `the same within ${marginText(p.band)}`;
    default:
      return `no clear difference: ${reason}`;
  }
}

/** The point the comparison reports at p: among its points, else on its curve. */
function pointAt(r: CompareResult, p: number): RatioPoint | null {
  const near = (x: RatioPoint) => Math.abs(x.percentile - p) < 1e-9;
  return r.points.find(near) ?? r.curve.find(near) ?? null;
}

export interface HeadlineOptions {
  /** Recorded units of the two sides (values are given in them). */
  baseUnit: Unit;
  candUnit: Unit;
  /** The unit the text is written in. */
  displayUnit: Unit;
  /** The requirement's percentiles (null without one). */
  requirementPercentiles?: readonly number[] | null;
  /** A percentile the user chose (null: by the rule). */
  chosen?: number | null;
  /**
   * Each side's value at p in its recorded unit as the table shows it (the series' own
   * spectrum), where a side is one series; absent or null: the comparison's value.
   */
  valuesAt?: (p: number) => { base: number | null; cand: number | null };
}

/** A series' value at p as the table shows it (data-raw): its spectrum's own percentile. */
export function spectrumValueAt(s: BucketView & { percentiles?: Record<string, number> }, p: number): number {
  return s.percentiles?.[String(p)] ?? valueAtFromBuckets(s, p);
}

/** The headline of a comparison; null when it reports nothing at the headline's percentile. */
export function buildHeadline(r: CompareResult, o: HeadlineOptions): Headline | null {
  let { percentile, rule } = headlinePercentile(o.requirementPercentiles ?? null, r.supportedTo, o.chosen ?? null);
  let point = pointAt(r, percentile);
  if (!point && rule !== "default") {
    ({ percentile, rule } = headlinePercentile(null, r.supportedTo));
    point = pointAt(r, percentile);
  }
  if (!point) return null;
  const reason = reasonOf(point);
  const judged = isJudged(point) && point.verdict !== "unknown";
  const low = point.supported ? point.low : null;
  const high = point.supported ? point.high : null;
  // The table's values where a side is one series: the comparison's pooled value can sit a
  // bucket apart from it on a coarse layout.
  const own = o.valuesAt?.(percentile) ?? { base: null, cand: null };
  const baseline = own.base ?? point.base / NANOS_PER_UNIT[o.baseUnit];
  const candidate = own.cand ?? point.cand / NANOS_PER_UNIT[o.candUnit];
  const pl = pLabel(percentile);
  const values = `${valueText(baseline * NANOS_PER_UNIT[o.baseUnit], o.displayUnit)} → ${valueText(candidate * NANOS_PER_UNIT[o.candUnit], o.displayUnit)}`;
  const change = changeWords(point.ratio);
  const range = rangeWords(point.ratio, low, high, r.level);
  const basis = judged ? (point.basis ?? (point.verdict === "same" ? null : "values")) : null;
  const [b, c] = [r.base.label, r.cand.label];
  let text: string;
  if (judged && (point.verdict === "better" || point.verdict === "worse")) {
    const why = basis === "events" ? "judged by how often each went above the other's max" : range;
    text = `${c} is ${change} than ${b} at ${pl}: ${values}${why ? ` (${why})` : ""}`;
  } else if (judged && point.verdict === "same") {
    text = `${c} is the same as ${b} at ${pl} within ${marginText(point.band)}: ${values}${range ? ` (${range})` : ""}`;
  } else if (isJudged(point)) {
    text = `${c} vs ${b} at ${pl}: ${values}, ${change}; no clear difference${range ? ` (the ${range} reaches across ${marginText(point.band)})` : ""}`;
  } else {
    text = `${c} vs ${b} at ${pl}: ${values}${Number.isFinite(point.ratio) ? `, ${change}` : ""}; not judged: ${reason ?? "the data cannot support it"}`;
  }
  return {
    percentile,
    rule,
    baseLabel: b,
    candLabel: c,
    baseline,
    candidate,
    baseUnit: o.baseUnit,
    candUnit: o.candUnit,
    ratio: point.ratio,
    low,
    high,
    verdict: isJudged(point) ? point.verdict : "unknown",
    judged,
    reason: judged ? null : reason,
    text,
    values,
    change,
    verdictText: verdictWords(point, reason),
    basis,
    sentence: r.points.some((x) => Math.abs(x.percentile - percentile) < 1e-9) ? compareSentence(b, c, r.points, r.margin, percentile) : r.sentence,
  };
}

/** How the percentile was picked, in words (for the panel and the Markdown's small print). */
export function ruleText(h: Headline): string {
  if (h.rule === "chosen") return `${pLabel(h.percentile)}, as chosen`;
  if (h.rule === "requirement") return `${pLabel(h.percentile)}: the requirement's highest percentile below the max that the data supports`;
  return `${pLabel(h.percentile)}: the default without a requirement the data supports`;
}

const finite = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : x);

export function headlineJson(h: Headline): HeadlineJson {
  return {
    percentile: h.percentile,
    baseline: finite(h.baseline),
    candidate: finite(h.candidate),
    ratio: finite(h.ratio),
    low: finite(h.low),
    high: finite(h.high),
    verdict: h.verdict,
    basis: h.basis,
  };
}

/** The headline as one line of text (its `text`): what data-text, slide 1, the Markdown and headlineText say. */
export function headlineLine(h: Headline): string {
  return h.text;
}
