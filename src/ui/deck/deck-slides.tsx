// The slides of the presentation (Presentation.tsx runs them): the headline first, for a
// manager; the spectra against the requirement; the max over time on one scale; where the
// values lie; the sustainable throughput when there is a sweep; details and method last.
import type { ReactNode } from "react";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../../charts/percentile-plot/PercentilePlot";
import { Timeline, type TimelineLine } from "../../charts/timeline/Timeline";
import { Heatmap, type HeatmapLane } from "../../charts/heatmap/Heatmap";
import { RatioChart } from "../../charts/ratio/RatioChart";
import type { Headline } from "../../core/compare/headline";
import { valueText } from "../../core/compare/headline";
import { neededText } from "../../core/compare/details";
import type { CompareResult } from "../../core/compare/types";
import { formatCount } from "../../core/format";
import { formatThroughput } from "../../core/naming";
import { requirementPhrase, type Requirement, type Verdict } from "../../core/requirements";
import type { Unit } from "../../core/types";
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

/** "60 s", "15 min", "2.5 h". */
function durationText(s: number): string {
  if (!(s > 0)) return "";
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Number((s / 3600).toPrecision(2))} h`;
}

/** A side's verdict against the requirement, in words. */
function sideVerdict(v: Verdict | null, unit: Unit): { pass: boolean | null; text: string } {
  if (!v) return { pass: null, text: "no requirement" };
  if (v.pass) return { pass: true, text: "meets the requirement" };
  const first = v.violations.find((x) => x.percentile === v.firstViolation) ?? v.violations[0];
  const at = first ? `${first.percentile >= 100 ? "max" : `p${first.percentile}`} is ${valueText(first.valueNs, unit)}, limit ${valueText(first.limitNs, unit)}` : "";
  return { pass: false, text: `misses it${at ? `: ${at}` : ""}` };
}

function Side({ row, unit }: { row: SeriesRow | undefined; unit: Unit }) {
  if (!row) return null;
  const v = sideVerdict(row.verdict, unit);
  return (
    <li className={v.pass === null ? "" : v.pass ? "pass" : "fail"} data-testid="deck-side" data-series={row.view.name} data-pass={v.pass === null ? "" : String(v.pass)}>
      <span className="mark" aria-hidden="true">
        {v.pass === null ? "·" : v.pass ? "✓" : "✗"}
      </span>{" "}
      <strong>{row.view.name}</strong> {v.text}
    </li>
  );
}

/** One line of context: throughput, how long, how many values. */
function contextLine(rows: (SeriesRow | undefined)[], timeline: TimelineResult | null): string {
  const rs = rows.filter((r): r is SeriesRow => r !== undefined);
  const tps = [...new Set(rs.map((r) => r.view.throughput))];
  const parts: string[] = [];
  if (tps.length === 1 && tps[0] !== null) parts.push(`at ${formatThroughput(tps[0]!)}`);
  else if (tps.some((t) => t !== null))
    parts.push(rs.map((r) => `${r.view.name} at ${r.view.throughput === null ? "unknown throughput" : formatThroughput(r.view.throughput)}`).join(", "));
  const durations = rs.map((r) => {
    const d = timeline?.series.find((s) => s.id === r.view.id);
    return d && d.t0.length ? d.t1[d.t1.length - 1]! - d.t0[0]! : 0;
  });
  const ds = [...new Set(durations.map(durationText).filter((x) => x))];
  if (ds.length === 1) parts.push(`${ds[0]} each`);
  else if (ds.length > 1) parts.push(`runs of ${ds.join(" and ")}`);
  parts.push(`${rs.map((r) => formatCount(r.view.spectrum.totalCount)).join(" and ")} values counted`);
  return parts.join(" · ");
}

export function HeadlineSlide({ d }: { d: DeckData }) {
  const byName = (n: string) => d.rows.find((r) => r.view.name === n);
  if (d.pair) {
    const sides = [byName(d.pair[0]), byName(d.pair[1])];
    return (
      <>
        {d.headline ? (
          <HeadlineView h={d.headline} className="deck-headline" />
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
          {contextLine(sides, d.timeline)}
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

export function SpectraSlide({ d, size }: { d: DeckData; size: Size }) {
  return (
    <>
      {title(
        `Latency at every percentile${d.steps.length ? ", against the requirement" : ""}`,
        "Lower is better. Right is rarer: 99 % of requests, 99.9 %, … up to the slowest one.",
      )}
      <PercentilePlot series={d.plotSeries} requirement={d.steps} unit={d.unit} yLog={d.yLog} width={size.w} height={size.h - 40} fixedHeight />
    </>
  );
}

export function TimelineSlide({ d, size }: { d: DeckData; size: Size }) {
  if (!d.timeline) return null;
  return (
    <>
      {title("The slowest request over time", "One lane per series, all on one scale: the same height means the same latency.")}
      <Timeline
        lines={d.timelineLines}
        unit={d.unit}
        percentiles={[]}
        perLane
        sharedScale
        wallClock={false}
        yLog={false}
        domain={d.timeline.domain}
        range={{ start: null, end: null }}
        width={size.w}
        height={size.h - 40}
        onBrush={() => undefined}
        onZoom={() => undefined}
      />
    </>
  );
}

export function HeatmapSlide({ d, size }: { d: DeckData; size: Size }) {
  if (!d.heatmap) return null;
  const names = d.heatmap.lanes.map((l) => l.name);
  return (
    <div data-testid="present-heatmap">
      {title(
        `Where the values lie over time${d.heatmap.lanes.some((l) => l.windows) ? ", and which windows fail" : ""}`,
        `${names.length === 1 ? "Series" : "One lane per series, top to bottom"}: ${names.join(", ")}. Darker: more values.`,
      )}
      <Heatmap
        lanes={d.heatmap.lanes}
        unit={d.unit}
        domain={d.heatmap.domain}
        range={{ start: null, end: null }}
        width={size.w}
        laneHeight={Math.max(80, Math.floor((size.h - 80) / d.heatmap.lanes.length) - 14)}
        onBrush={() => undefined}
        onZoom={() => undefined}
      />
    </div>
  );
}

export function SustainableSlide({ d, size }: { d: DeckData; size: Size }) {
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
      <Judgement part="chart" rows={d.rows} requirement={d.requirement} unit={d.unit} width={size.w} chartHeight={Math.max(280, size.h - 170)} />
    </>
  );
}

export function DetailsSlide({ d, size }: { d: DeckData; size: Size }) {
  const c = d.compare;
  const lvl = c ? `${Math.round(c.level * 100)} %` : "";
  return (
    <div className="deck-details" data-testid="present-compare">
      {title("Details and method")}
      {c ? (
        <>
          <p className="present-sentence">{d.headline?.sentence ?? c.sentence}</p>
          <RatioChart
            curve={c.curve}
            maxRatio={c.max.ratio}
            margin={c.margin}
            width={size.w}
            height={Math.max(220, Math.round(size.h * 0.5))}
            baseLabel={c.base.label}
            candLabel={c.cand.label}
            title={`${c.cand.label} ÷ ${c.base.label} at every percentile: below 1, ${c.cand.label} is faster`}
          />
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
