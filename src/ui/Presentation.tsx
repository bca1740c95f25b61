// Presentation mode: full screen, large type, one idea per view, stepped with the arrow keys;
// Escape leaves. For "System A vs System B" in front of people who will not read a table.
import { useEffect, useState } from "react";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../charts/percentile-plot/PercentilePlot";
import { Timeline, type TimelineLine } from "../charts/timeline/Timeline";
import type { Unit } from "../core/types";
import type { TimelineResult } from "../engine/store";
import { Heatmap, type HeatmapLane } from "../charts/heatmap/Heatmap";
import type { CompareResult } from "../core/compare/types";
import { RatioChart } from "../charts/ratio/RatioChart";

interface Props {
  sentence: string | null;
  sustainable: { config: string; text: string }[];
  plotSeries: PlotSeries[];
  steps: PlotStep[];
  unit: Unit;
  yLog: boolean;
  timeline: TimelineResult | null;
  timelineLines: TimelineLine[];
  /** The A vs B comparison on screen, if any: a slide of its own. */
  compare?: CompareResult | null;
  onExit: () => void;
  /** The requirement in every window and the tail, one sentence per series (time-state.ts). */
  notes?: string[];
  /** The heatmap as the page draws it (series with intervals only), with its window bands and tail marks. */
  heatmap?: { lanes: HeatmapLane[]; domain: [number, number] };
}

export function Presentation(p: Props) {
  const [slide, setSlide] = useState(0);
  const [size, setSize] = useState({ w: window.innerWidth, h: window.innerHeight });
  const slides = [
    "verdict",
    "spectra",
    ...(p.compare ? ["compare"] : []),
    ...(p.timeline && p.timelineLines.length ? ["timeline"] : []),
    ...(p.heatmap && p.heatmap.lanes.length ? ["heatmap"] : []),
  ] as const;
  const n = slides.length;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") p.onExit();
      else if (e.key === "ArrowRight" || e.key === "PageDown" || e.key === " ") setSlide((s) => Math.min(n - 1, s + 1));
      else if (e.key === "ArrowLeft" || e.key === "PageUp") setSlide((s) => Math.max(0, s - 1));
      else return;
      e.preventDefault();
    };
    const onResize = () => setSize({ w: window.innerWidth, h: window.innerHeight });
    window.addEventListener("keydown", onKey);
    window.addEventListener("resize", onResize);
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("resize", onResize);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [n, p]);

  const current = slides[Math.min(slide, n - 1)];
  const chartW = Math.max(400, size.w - 96);
  const chartH = Math.max(300, size.h - 190);
  return (
    <div className="presentation" data-testid="presentation" data-slide={String(slide)} role="dialog" aria-modal="true" aria-label="Presentation">
      {current === "verdict" ? (
        <div className="slide verdict-slide">
          <h1 data-testid="present-title">{p.sentence ?? "The whole latency spectrum, max included"}</h1>
          <ul>
            {p.sustainable.map((s) => (
              <li key={s.config}>
                <strong>{s.config}</strong>: {s.text}
              </li>
            ))}
          </ul>
          {p.notes && p.notes.length > 0 ? (
            <ul className="present-notes" data-testid="present-notes">
              {p.notes.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {current === "spectra" ? (
        <div className="slide">
          <h2>Latency by percentile{p.steps.length ? ", against the requirement" : ""}</h2>
          <PercentilePlot series={p.plotSeries} requirement={p.steps} unit={p.unit} yLog={p.yLog} width={chartW} height={chartH} fixedHeight />
        </div>
      ) : null}
      {current === "compare" && p.compare ? (
        <div className="slide" data-testid="present-compare">
          <h2>
            B vs A: {p.compare.cand.label} ÷ {p.compare.base.label}
          </h2>
          <p className="present-sentence">{p.compare.sentence}</p>
          <RatioChart
            curve={p.compare.curve}
            maxRatio={p.compare.max.ratio}
            margin={p.compare.margin}
            width={chartW}
            height={Math.max(260, chartH - 60)}
            baseLabel={p.compare.base.label}
            candLabel={p.compare.cand.label}
          />
        </div>
      ) : null}
      {current === "timeline" && p.timeline ? (
        <div className="slide">
          <h2>Max latency over time: this is each system under its load</h2>
          <Timeline
            lines={p.timelineLines}
            unit={p.unit}
            percentiles={[]}
            perLane
            wallClock={false}
            yLog={false}
            domain={p.timeline.domain}
            range={{ start: null, end: null }}
            width={chartW}
            height={chartH}
            onBrush={() => undefined}
            onZoom={() => undefined}
          />
        </div>
      ) : null}
      {current === "heatmap" && p.heatmap ? (
        <div className="slide" data-testid="present-heatmap">
          <h2>Where the values lie over time{p.heatmap.lanes.some((l) => l.windows) ? ", and which windows fail" : ""}</h2>
          <Heatmap
            lanes={p.heatmap.lanes}
            unit={p.unit}
            domain={p.heatmap.domain}
            range={{ start: null, end: null }}
            width={chartW}
            laneHeight={Math.max(80, Math.floor((chartH - 60) / p.heatmap.lanes.length) - 14)}
            onBrush={() => undefined}
            onZoom={() => undefined}
          />
        </div>
      ) : null}
      <footer className="presentation-footer">
        <span>
          {slide + 1} / {n}
        </span>
        <span>← → to step, Esc to leave</span>
        <button type="button" onClick={p.onExit} data-testid="present-exit">
          Leave
        </button>
      </footer>
    </div>
  );
}
