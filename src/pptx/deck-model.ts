// What the PowerPoint deck says, as plain numbers and words: built from the engine's own
// results (spectra, max over time, heatmap cells, verdicts, headline) by the page and by the
// command line alike, so both write the same deck from the same data. Pure: no DOM, no
// pptxgenjs (build.ts turns the model into a file).
import { valueAtFromBuckets, type BucketView } from "../core/bucket-lookup";
import { headlineLine, type Headline } from "../core/compare/headline";
import { formatValue } from "../core/format";
import { noLineLegend, noValuesText } from "../core/judge";
import { contextLine, durationText } from "../core/deck-context";
import { percentileLabel, requirementPhrase, type Requirement, type Sustainable, type Verdict } from "../core/requirements";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../core/types";
import { heatmapLanes, worstOf } from "../core/worst-of";
import type { HeatmapSeries } from "../engine/query-types";
import type { TimelineResult } from "../engine/protocol";
import { heatmapImage, type DeckImage } from "./heatmap-png";
import { heatmapAxisNs, sharedAxisNs } from "../charts/heatmap/layout";

/** A series as the deck needs it (the page's SeriesRow and the command line's Row both fit). */
export interface DeckRow {
  view: { id: string; name: string; throughput: number | null; recordedUnit: Unit; spectrum: BucketView; wholeCount?: number; failures?: number };
  verdict: Verdict | null;
  color: string;
  /** The line's dash as the page draws it (an SVG dash array; "" solid). */
  dash?: string;
}

export interface DeckSource {
  headline: Headline | null;
  /** The compared series' names (baseline, candidate), when a comparison is the subject. */
  pair: [string, string] | null;
  rows: DeckRow[];
  requirement: Requirement | null;
  /** The verdict sentence (core/judge.ts). */
  sentence: string | null;
  sustainable: Sustainable[];
  unit: Unit;
  /** The latency axis as the charts draw it. */
  yLog: boolean;
  timeline: TimelineResult | null;
  heatmap: { lanes: { name: string; data: HeatmapSeries }[]; domain: [number, number] } | null;
  /** The comparison's method figures, when there is one. */
  compare: { sentence: string; level: number; resamples: number; margin: number } | null;
  /** Further sentences the page shows (the requirement per window, the tail). */
  notes: string[];
}

export interface DeckLine {
  name: string;
  /** "#rrggbb". */
  color: string;
  values: (number | null)[];
  /** PowerPoint's preset dash of the line ("solid" when absent). */
  dash?: PptxDash;
}

export type PptxDash = "solid" | "dash" | "dashDot" | "lgDash" | "lgDashDot" | "lgDashDotDot" | "sysDash" | "sysDot";

// The page's dash arrays (core/palette/colors.ts) as PowerPoint's presets: two throughputs of one
// configuration differ by dash more than by shade, so a deck without them could not tell them apart.
const PPTX_DASH: Record<string, PptxDash> = {
  "": "solid",
  "6 3": "dash",
  "2 3": "sysDash",
  "8 3 2 3": "lgDashDot",
  "12 4": "lgDash",
  "4 2 1 2": "dashDot",
  "1 3": "sysDot",
  "10 3": "lgDash",
  "3 2": "sysDash",
  "10 2 2 2": "lgDashDotDot",
  "1 2": "sysDot",
};

/** The preset nearest the page's dash array; an unknown pattern is still dashed, never solid. */
export function pptxDash(svg: string | undefined): PptxDash {
  const key = (svg ?? "").trim().replace(/[\s,]+/g, " ");
  return PPTX_DASH[key] ?? "dash";
}

export type DeckChart =
  | { kind: "line"; title: string; subtitle: string; categories: string[]; labelEvery: number; lines: DeckLine[]; yLog: boolean; yTitle: string; xTitle: string; notes: string }
  | { kind: "bar"; title: string; subtitle: string; categories: string[]; values: number[]; yTitle: string; notes: string }
  | {
      kind: "heatmap";
      title: string;
      subtitle: string;
      lanes: DeckImage[];
      /** Under the lanes when some series are left out: how many are shown, by which rule, and which are not; "" when all are. */
      more: string;
      yTitle: string;
      notes: string;
    };

export interface DeckModel {
  /** Slide 1's headline, one line of plain text. */
  title: string;
  /** "Against the requirement p99 ≤ 10 ms:", or null without one. */
  requirement: string | null;
  sides: { name: string; pass: boolean | null; text: string }[];
  context: string;
  charts: DeckChart[];
  /** The method, in the speaker notes of slide 1. */
  method: string;
}

/** The spectrum's horizontal axis: steps of 1/20 of a "nine" (90 %, 99 %, 99.9 % …), as the page's plot spaces them. */
const STEPS_PER_NINE = 20;
/** Columns of the max-over-time chart. */
const TIME_COLUMNS = 240;
/** Series in one chart; past that, the first ones and "and K more". */
const MAX_LINES = 12;
/** Lanes of the heatmap slide (each an image that needs its height to be read). */
const HEATMAP_LANES = 4;

function timeLabel(s: number, span: number): string {
  if (span < 120) return `${Math.round(s)} s`;
  if (span < 7200) return `${Number((s / 60).toFixed(1))} min`;
  return `${Number((s / 3600).toFixed(2))} h`;
}

/** A side's verdict against the requirement, in words; `noValues` says why a side without values has none. */
export function sideText(v: Verdict | null, unit: Unit, noValues: string | null = null): { pass: boolean | null; text: string } {
  // Every request failed: it misses the requirement (core/judge.ts verdictFor), said in words.
  if (noValues && v && !v.pass) return { pass: false, text: `misses it: ${noValues}` };
  if (noValues) return { pass: null, text: `not judged: ${noValues}` };
  if (!v) return { pass: null, text: "no requirement" };
  if (v.pass) return { pass: true, text: "meets the requirement" };
  const first = v.violations.find((x) => x.percentile === v.firstViolation) ?? v.violations[0];
  const f = NANOS_PER_UNIT[unit];
  const at = first ? `${percentileLabel(first.percentile)} is ${formatValue(first.valueNs / f, unit)}, limit ${formatValue(first.limitNs / f, unit)}` : "";
  return { pass: false, text: `misses it${at ? `: ${at}` : ""}` };
}

/** What a chart says of the series it leaves out (worstOf's `more`, worst first), as the page's presentation says it. */
function moreText(more: readonly string[]): string {
  if (more.length === 0) return "";
  const listed = more.slice(0, 6).join(", ") + (more.length > 6 ? ", …" : "");
  return ` (the ${MAX_LINES} with the worst max; ${more.length} more with a lower max: ${listed})`;
}

function spectraChart(s: DeckSource): DeckChart {
  // The page's presentation's rule (core/worst-of.ts): worst max first, the compared pair among them.
  const { shown: rows, more } = worstOf(
    s.rows,
    (r) => r.view.spectrum.max * NANOS_PER_UNIT[r.view.recordedUnit],
    (r) => r.view.name,
    MAX_LINES,
    s.pair ?? [],
  );
  const most = Math.max(1, ...rows.map((r) => r.view.spectrum.totalCount));
  // Far enough right to reach each series' max (a series of N values has no percentile above 1 − 1/N).
  const nines = Math.min(6, Math.max(2, Math.ceil(Math.log10(most))));
  const grid: number[] = [];
  for (let k = 0; k <= nines * STEPS_PER_NINE; k++) grid.push(100 * (1 - 10 ** (-k / STEPS_PER_NINE)));
  const categories = grid.map((_, k) => (k % STEPS_PER_NINE === 0 ? `${Number((100 - 100 * 10 ** (-k / STEPS_PER_NINE)).toFixed(6))} %` : ""));
  const positive = (v: number) => (s.yLog && !(v > 0) ? null : v);
  const lines: DeckLine[] = rows.map((r) => {
    const f = unitFactor(r.view.recordedUnit, s.unit);
    const sp = r.view.spectrum;
    // A series without values draws no line: its legend entry says why.
    const empty = noValuesText(r.view);
    return {
      name: empty ? noLineLegend(r.view.name, empty) : r.view.name,
      color: r.color,
      dash: pptxDash(r.dash),
      values: grid.map((p, k) => (sp.totalCount > 0 ? positive(valueAtFromBuckets(sp, k === 0 ? 1e-9 : k === grid.length - 1 ? 100 : p) * f) : null)),
    };
  });
  if (s.requirement && s.requirement.entries.length) {
    const entries = s.requirement.entries;
    const last = entries[entries.length - 1]!;
    lines.push({
      name: `requirement: ${requirementPhrase(s.requirement)}`,
      color: "#c62828",
      dash: "lgDash",
      values: grid.map((p) => {
        const e = entries.find((x) => x.percentile >= p) ?? (last.percentile >= 100 ? last : null);
        return e ? e.limitNs / NANOS_PER_UNIT[s.unit] : null;
      }),
    });
  }
  return {
    kind: "line",
    title: `Latency at every percentile${s.requirement ? ", against the requirement" : ""}`,
    subtitle: `Lower is better. Right is rarer: 90 %, 99 %, 99.9 % of requests … up to the slowest one.${moreText(more)}`,
    categories,
    labelEvery: STEPS_PER_NINE,
    lines,
    yLog: s.yLog,
    yTitle: `latency (${s.unit === "us" ? "µs" : s.unit})${s.yLog ? ", log scale" : ""}`,
    xTitle: "percentile",
    notes: "Each curve is one series' merged HdrHistogram read at every percentile (never an average of percentiles); its right end is the largest value recorded.",
  };
}

function timelineChart(s: DeckSource, tl: TimelineResult): DeckChart | null {
  const [d0, d1] = tl.domain;
  const span = d1 - d0;
  if (!(span > 0)) return null;
  const byId = new Map(tl.series.map((x) => [x.id, x]));
  const rows = s.rows.filter((r) => byId.get(r.view.id)?.t0.length);
  if (rows.length === 0) return null;
  const { shown, more } = worstOf(
    rows,
    (r) => {
      const d = byId.get(r.view.id)!;
      let m = 0;
      for (let i = 0; i < d.max.length; i++) if (d.max[i]! > m) m = d.max[i]!;
      return m * NANOS_PER_UNIT[d.recordedUnit];
    },
    (r) => r.view.name,
    MAX_LINES,
    s.pair ?? [],
  );
  // No more columns than intervals: each column then holds at least one interval's max.
  const columns = Math.max(2, Math.min(TIME_COLUMNS, Math.max(...rows.map((r) => byId.get(r.view.id)!.t0.length))));
  const lines: DeckLine[] = shown.map((r) => {
    const d = byId.get(r.view.id)!;
    const f = unitFactor(d.recordedUnit, s.unit);
    const col: (number | null)[] = new Array<number | null>(columns).fill(null);
    for (let i = 0; i < d.t0.length; i++) {
      const v = d.max[i]! * f;
      if (s.yLog && !(v > 0)) continue;
      // Every column the interval covers holds its max (the page's flat run over the interval).
      const k0 = Math.min(columns - 1, Math.max(0, Math.floor(((d.t0[i]! - d0) / span) * columns)));
      const k1 = Math.min(columns - 1, Math.max(k0, Math.ceil(((d.t1[i]! - d0) / span) * columns) - 1));
      for (let k = k0; k <= k1; k++) if (col[k] === null || v > col[k]!) col[k] = v;
    }
    return { name: r.view.name, color: r.color, dash: pptxDash(r.dash), values: col };
  });
  // Labels at eight places only (some renderers label every category they can fit).
  const every = Math.max(1, Math.round(columns / 8));
  const categories = Array.from({ length: columns }, (_, k) => (k % every === 0 ? timeLabel(d0 + (k / columns) * span, span) : ""));
  return {
    kind: "line",
    title: "The slowest request over time",
    subtitle: `All series on one scale: the same height means the same latency.${moreText(more)}`,
    categories,
    labelEvery: every,
    lines,
    yLog: s.yLog,
    yTitle: `max latency (${s.unit === "us" ? "µs" : s.unit})${s.yLog ? ", log scale" : ""}`,
    xTitle: "time since the log's start",
    notes: `Each point is the largest value recorded in 1/${columns} of the time shown (${durationText(span)} in all): a stall shows as a spike however short it was.`,
  };
}

/** The lanes' one latency axis (charts/heatmap/layout.ts: the page draws its lanes on it too). */
export { sharedAxisNs };

function heatmapChart(s: DeckSource): DeckChart | null {
  const h = s.heatmap;
  if (!h || h.lanes.length === 0) return null;
  // The page's presentation's rule: worst max first, the compared pair always among them.
  const { shown, more: left } = heatmapLanes(h.lanes, s.rows, HEATMAP_LANES, s.pair);
  // The page's axis and colour scale (charts/heatmap/layout.ts): one axis when the ranges
  // overlap, one colour scale always, so the slide shows what the page showed.
  const axis = heatmapAxisNs(shown.map((l) => l.data));
  const maxCell = Math.max(1, ...shown.map((l) => l.data.maxCell));
  const lanes = shown.map((l) => heatmapImage(l.name, l.data, h.domain, s.unit, shown.length, axis, maxCell));
  const more = left.length ? `${shown.length} of ${h.lanes.length} series, by worst max${s.pair ? ", the compared pair among them" : ""}; not shown: ${left.join(", ")}.` : "";
  const scale =
    shown.length < 2
      ? ""
      : `${axis ? " All lanes on one latency axis: the same height means the same latency." : " Each lane has its own latency axis: their ranges do not overlap."} A colour is the same count in every lane.`;
  return {
    kind: "heatmap",
    title: "Where the values lie over time",
    subtitle: `Each cell counts the values in one latency band over one stretch of time: dark blue few, yellow many; empty, none.${scale}`,
    lanes,
    more,
    yTitle: `latency (${s.unit === "us" ? "µs" : s.unit}), log scale`,
    notes: axis
      ? "Latency bands on a log scale shared by the lanes, from the smallest to the largest value of the series shown; time runs left to right over the whole run."
      : "Latency bands on a log scale, from each series' smallest to its largest value; time runs left to right over the whole run.",
  };
}

function sustainableChart(s: DeckSource): DeckChart | null {
  if (!s.requirement || !s.sustainable.some((x) => x.points.length >= 2)) return null;
  const tested = s.sustainable.filter((x) => x.points.length > 0);
  return {
    kind: "bar",
    title: "Which throughput each system sustains",
    subtitle: s.sentence ?? "",
    categories: tested.map((x) => x.config || "(unnamed)"),
    values: tested.map((x) => x.maxThroughput ?? 0),
    yTitle: "highest passing throughput (ops/s)",
    notes: `A configuration sustains the highest throughput at which its run meets ${requirementPhrase(s.requirement)}; 0 where no tested throughput passes.`,
  };
}

function methodText(s: DeckSource): string {
  const out: string[] = [];
  if (s.compare) {
    const c = s.compare;
    out.push(c.sentence);
    out.push(
      `Ratios of the two runs' percentiles, with ${Math.round(c.level * 100)} % ranges from ${c.resamples.toLocaleString("en-US")} bootstrap resamples of whole stretches of each run; differences within ±${Number((c.margin * 100).toPrecision(3))} % count as none.`,
    );
  }
  out.push("Percentiles of merged HdrHistograms (never averaged); the max is the largest value recorded.");
  if (s.requirement) out.push(`Requirement: ${requirementPhrase(s.requirement)}.${s.sentence ? ` ${s.sentence}` : ""}`);
  out.push(...s.notes);
  return out.join("\n");
}

export function deckModel(s: DeckSource): DeckModel {
  const byName = (n: string) => s.rows.find((r) => r.view.name === n);
  const subject = s.pair ? [byName(s.pair[0]), byName(s.pair[1])].filter((r): r is DeckRow => r !== undefined) : s.rows.slice(0, 8);
  const title = s.headline ? headlineLine(s.headline) : s.pair ? `Comparing ${s.pair[1]} with ${s.pair[0]}` : (s.sentence ?? "The whole latency spectrum, max included");
  const charts = [spectraChart(s), s.timeline ? timelineChart(s, s.timeline) : null, heatmapChart(s), sustainableChart(s)].filter((c): c is DeckChart => c !== null);
  return {
    title,
    requirement: s.requirement ? `Against the requirement ${requirementPhrase(s.requirement)}:` : null,
    sides: s.requirement ? subject.map((r) => ({ name: r.view.name, ...sideText(r.verdict, s.unit, noValuesText(r.view)) })) : [],
    // Without a pair, the context names the first few series only (as the page's slide does).
    context: contextLine(s.pair ? subject : subject.slice(0, 4), s.timeline),
    charts,
    method: methodText(s),
  };
}
