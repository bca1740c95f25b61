// The slides of the presentation (Presentation.tsx runs them): the headline first, for a
// manager; the spectra against the requirement; the max over time on one scale; where the
// values lie; the sustainable throughput when there is a sweep; details and method last.
import { useCallback, useState, type ReactNode } from "react";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../../charts/percentile-plot/PercentilePlot";
import { Timeline, type TimelineLine } from "../../charts/timeline/Timeline";
import { Heatmap, type HeatmapLane } from "../../charts/heatmap/Heatmap";
import { RatioChart } from "../../charts/ratio/RatioChart";
import type { Headline } from "../../core/compare/headline";
import { headlineLine, valueText } from "../../core/compare/headline";
import { neededText } from "../../core/compare/details";
import type { CompareResult } from "../../core/compare/types";
import { noValuesText } from "../../core/judge";
import { contextLine } from "../../core/deck-context";
import { requirementPhrase, type Requirement, type Verdict } from "../../core/requirements";
import { heatmapLanes, worstOf, type MaxRow } from "../../core/worst-of";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import type { TimelineResult } from "../../engine/store";
import { HeadlineView } from "../panels/Headline";
import { Judgement } from "../panels/Judgement";
import type { SeriesRow } from "../panels/SeriesList";

export interface DeckData {
  headline: Headline | null;
  /** The compared series (names), when a comparison is on screen. */
  pair: [string, string] | null;
  rows: SeriesRow[];
  requirement: Requirement | null;
  sentence: string | null;
  sustainable: { config: string; text: string }[];
  /** Some configuration was tested at two throughputs or more (a sweep). */
  sweep: boolean;
  plotSeries: PlotSeries[];
  steps: PlotStep[];
  unit: Unit;
  yLog: boolean;
  /** The max over time's axis as the page draws it. */
  timelineLog: boolean;
  timeline: TimelineResult | null;
  timelineLines: TimelineLine[];
  compare: CompareResult | null;
  notes: string[];
  heatmap?: { lanes: HeatmapLane[]; domain: [number, number] };
}

export type SlideKind = "headline" | "spectra" | "timeline" | "heatmap" | "sustainable" | "details";

export function slideKinds(d: DeckData): SlideKind[] {
  return [
    "headline",
    "spectra",
    ...(d.timeline && d.timelineLines.length ? (["timeline"] as const) : []),
    ...(d.heatmap && d.heatmap.lanes.length ? (["heatmap"] as const) : []),
    ...(d.sweep && d.requirement ? (["sustainable"] as const) : []),
    "details",
  ];
}

/** How long the headline's one line is, which sets its type size on the slide. */
function headlineLength(h: Headline | null | undefined): number {
  return h ? headlineLine(h).length : 0;
}

/** A side's verdict against the requirement, in words; `noValues` says why a side without values has none. */
function sideVerdict(v: Verdict | null, unit: Unit, noValues: string | null): { pass: boolean | null; text: string } {
  // Every request failed: it misses the requirement (core/judge.ts verdictFor), said in words.
  if (noValues && v && !v.pass) return { pass: false, text: `misses it: ${noValues}` };
  if (noValues) return { pass: null, text: `not judged: ${noValues}` };
  if (!v) return { pass: null, text: "no requirement" };
  if (v.pass) return { pass: true, text: "meets the requirement" };
  const first = v.violations.find((x) => x.percentile === v.firstViolation) ?? v.violations[0];
  const at = first ? `${first.percentile >= 100 ? "max" : `p${first.percentile}`} is ${valueText(first.valueNs, unit)}, limit ${valueText(first.limitNs, unit)}` : "";
  return { pass: false, text: `misses it${at ? `: ${at}` : ""}` };
}

function Side({ row, unit }: { row: SeriesRow | undefined; unit: Unit }) {
  if (!row) return null;
  const v = sideVerdict(row.verdict, unit, noValuesText(row.view));
  return (
    <li className={v.pass === null ? "" : v.pass ? "pass" : "fail"} data-testid="deck-side" data-series={row.view.name} data-pass={v.pass === null ? "" : String(v.pass)}>
      <span className="mark" aria-hidden="true">
        {v.pass === null ? "·" : v.pass ? "✓" : "✗"}
      </span>{" "}
      <strong>{row.view.name}</strong> {v.text}
    </li>
  );
}

export function HeadlineSlide({ d }: { d: DeckData }) {
  const byName = (n: string) => d.rows.find((r) => r.view.name === n);
  if (d.pair) {
    const sides = [byName(d.pair[0]), byName(d.pair[1])];
    return (
      <>
        {d.headline ? (
          <HeadlineView h={d.headline} className={`deck-headline${headlineLength(d.headline) > 90 ? " very-long" : headlineLength(d.headline) > 55 ? " long" : ""}`} />
        ) : (
          <h1 data-testid="present-title">
            Comparing {d.pair[1]} with {d.pair[0]}…
          </h1>
        )}
        {d.requirement ? (
          <>
            <p className="deck-requirement">Against the requirement {requirementPhrase(d.requirement)}:</p>
            <ul className="deck-sides">
              {sides.map((r, i) => (
                <Side key={i} row={r} unit={d.unit} />
              ))}
            </ul>
          </>
        ) : null}
        <p className="deck-context" data-testid="deck-context">
          {contextLine(
            sides.filter((r): r is SeriesRow => r !== undefined),
            d.timeline,
          )}
        </p>
      </>
    );
  }
  return (
    <>
      <h1 data-testid="present-title">{d.sentence ?? "The whole latency spectrum, max included"}</h1>
      {d.requirement ? (
        <ul className="deck-sides">
          {d.rows.slice(0, 8).map((r) => (
            <Side key={r.view.id} row={r} unit={d.unit} />
          ))}
        </ul>
      ) : null}
      <p className="deck-context" data-testid="deck-context">
        {contextLine(d.rows.slice(0, 4), d.timeline)}
      </p>
    </>
  );
}

interface Size {
  w: number;
  h: number;
}

function title(t: string, sub?: ReactNode) {
  return (
    <>
      <h2>{t}</h2>
      {sub ? <p className="deck-sub">{sub}</p> : null}
    </>
  );
}

/**
 * The room left on the slide under its words, measured: a chart drawn to it never overflows
 * the slide, whatever the screen (a phone held upright included).
 */
function Fill({ children, min = 120 }: { children: (s: Size) => ReactNode; min?: number }) {
  const [size, setSize] = useState<Size | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const update = () => {
      const r = el.getBoundingClientRect();
      const next = { w: Math.floor(r.width), h: Math.floor(r.height) };
      setSize((s) => (s && s.w === next.w && s.h === next.h ? s : next));
    };
    update();
    new ResizeObserver(update).observe(el);
  }, []);
  return (
    <div className="deck-fill" ref={ref} style={{ minHeight: min }}>
      {size && size.w > 0 && size.h > 0 ? children(size) : null}
    </div>
  );
}

/** The most lanes a slide of this height shows (each needs `pitch` px to keep its ticks apart). */
export function readableLanes(height: number, pitch: number, most = 10): number {
  return Math.max(1, Math.min(most, Math.floor(height / pitch)));
}

/** Heatmap lanes that fit a slide `height` px tall, by the deck's rule (core/worst-of.ts), and those left out. */
export function presentedHeatmapLanes<L extends { name: string }>(
  lanes: readonly L[],
  rows: readonly MaxRow[],
  pair: readonly string[] | null,
  height: number,
): { shown: L[]; more: string[] } {
  const fits = readableLanes(height - 42, HEATMAP_LANE, 8);
  return heatmapLanes(lanes, rows, lanes.length > fits ? readableLanes(height - 42 - 30, HEATMAP_LANE, 8) : fits, pair);
}

function More({ names, what }: { names: string[]; what: string }) {
  if (names.length === 0) return null;
  const listed = names.slice(0, 6).join(", ");
  return (
    <p className="deck-more" data-testid="deck-more" data-more={names.length} title={names.join(", ")}>
      and {names.length} more {what} with a lower max: {listed}
      {names.length > 6 ? ", …" : ""}
    </p>
  );
}

/** A chart on a slide stands still: the whole run, no brushing or zooming. */
const STILL = { range: { start: null, end: null }, onBrush: () => undefined, onZoom: () => undefined };

function maxOfValues(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m;
}

export function SpectraSlide({ d }: { d: DeckData }) {
  const { shown, more } = worstOf(
    d.plotSeries,
    (p) => p.max * NANOS_PER_UNIT[p.recordedUnit],
    (p) => p.name,
    12,
    d.pair ?? [],
  );
  return (
    <>
      {title(
        `Latency at every percentile${d.steps.length ? ", against the requirement" : ""}`,
        "Lower is better. Right is rarer: 99 % of requests, 99.9 %, … up to the slowest one.",
      )}
      <Fill min={200}>{(s) => <PercentilePlot series={shown} requirement={d.steps} unit={d.unit} yLog={d.yLog} width={s.w} height={s.h} fixedHeight />}</Fill>
      <More names={more} what="series" />
    </>
  );
}

/** Px a lane of the max over time needs for its ticks and name. */
const TIMELINE_LANE = 64;

export function TimelineSlide({ d }: { d: DeckData }) {
  if (!d.timeline) return null;
  return (
    <>
      {title("The slowest request over time", "One lane per series, all on one scale: the same height means the same latency.")}
      <Fill min={160}>
        {(s) => {
          const { shown, more } = worstOf(
            d.timelineLines,
            (l) => maxOfValues(l.data.max) * NANOS_PER_UNIT[l.data.recordedUnit],
            (l) => l.name,
            readableLanes(s.h - (d.timelineLines.length > readableLanes(s.h - 40, TIMELINE_LANE) ? 30 : 0) - 40, TIMELINE_LANE),
            d.pair ?? [],
          );
          const h = s.h - (more.length ? 30 : 0);
          return (
            <>
              <Timeline
                lines={shown}
                unit={d.unit}
                percentiles={[]}
                perLane
                sharedScale
                wallClock={false}
                yLog={d.timelineLog}
                domain={d.timeline!.domain}
                width={s.w}
                height={h}
                {...STILL}
              />
              <More names={more} what="series" />
            </>
          );
        }}
      </Fill>
    </>
  );
}

/** Px a heatmap lane needs: its header, its cells (at least 48 px) and the gap to the next. */
const HEATMAP_LANE = 18 + 48 + 8;

export function HeatmapSlide({ d }: { d: DeckData }) {
  if (!d.heatmap) return null;
  const hm = d.heatmap;
  return (
    <div data-testid="present-heatmap" className="deck-column">
      {title(
        `Where the values lie over time${hm.lanes.some((l) => l.windows) ? ", and which windows fail" : ""}`,
        "Each cell is coloured by how many values it holds: brighter, towards yellow, is more (the scale is on the right); the white line is the slowest of each moment.",
      )}
      <Fill min={160}>
        {(s) => {
          const { shown, more } = presentedHeatmapLanes(hm.lanes, d.rows, d.pair, s.h);
          const room = s.h - (more.length ? 30 : 0) - 42 - 2;
          const header = shown.length > 1 ? 18 : 0;
          const laneHeight = Math.max(30, Math.floor((room + 8) / shown.length) - header - 8);
          return (
            <>
              <Heatmap lanes={shown} unit={d.unit} domain={hm.domain} width={s.w} laneHeight={laneHeight} {...STILL} />
              <More names={more} what="series" />
            </>
          );
        }}
      </Fill>
    </div>
  );
}

export function SustainableSlide({ d }: { d: DeckData }) {
  return (
    <>
      {title("Which throughput each system sustains", d.sentence ?? undefined)}
      <ul className="deck-sustainable">
        {d.sustainable.map((s) => (
          <li key={s.config}>
            <strong>{s.config}</strong>: {s.text}
          </li>
        ))}
      </ul>
      <Fill min={160}>{(s) => <Judgement part="chart" rows={d.rows} requirement={d.requirement} unit={d.unit} width={s.w} chartHeight={Math.max(120, s.h - 60)} />}</Fill>
    </>
  );
}

export function DetailsSlide({ d }: { d: DeckData }) {
  const c = d.compare;
  const lvl = c ? `${Math.round(c.level * 100)} %` : "";
  return (
    <div className="deck-details deck-column" data-testid="present-compare">
      {title("Details and method")}
      {c ? (
        <>
          <p className="present-sentence">{d.headline?.sentence ?? c.sentence}</p>
          <Fill min={140}>
            {(s) => (
              <RatioChart
                curve={c.curve}
                maxRatio={c.max.ratio}
                margin={c.margin}
                width={s.w}
                height={s.h}
                baseLabel={c.base.label}
                candLabel={c.cand.label}
                title={`${c.cand.label} ÷ ${c.base.label} at every percentile: below 1, ${c.cand.label} is faster`}
              />
            )}
          </Fill>
        </>
      ) : null}
      <ul className="deck-method">
        {c ? (
          <li>
            Ratios of the two runs' percentiles, with {lvl} ranges from {c.resamples.toLocaleString("en-US")} bootstrap resamples of whole stretches of each run; differences within
            ±{Number((c.margin * 100).toPrecision(3))} % count as none; a percentile needs 10 values above it on both sides. {neededText(c)}
          </li>
        ) : null}
        <li>Percentiles of merged HdrHistograms (never averaged); the max is the largest value recorded.</li>
        {d.notes.map((t) => (
          <li key={t} data-testid="present-notes">
            {t}
          </li>
        ))}
      </ul>
    </div>
  );
}
