// The page's charts as standalone SVG files: the percentile plot is the page's own component
// rendered to a string (it draws plain SVG from its props); the max over time, which the page
// draws on a canvas, is written here as SVG over the timeline's own layout (lanes, scales,
// tick labels). Both carry the page's chart styles, as the page's "SVG" export does.
import { renderToStaticMarkup } from "react-dom/server";
import { RatioChart } from "../charts/ratio/RatioChart";
import type { CompareResult } from "../core/compare/types";
import type { Headline } from "../core/compare/headline";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../charts/percentile-plot/PercentilePlot";
import { formatSeconds, lanes, TL_MARGIN, xScaleFor, yScaleFor } from "../charts/timeline/layout";
import { timeTicks } from "../core/time-format";
import { UNIT_LABEL } from "../core/format";
import { requirementSteps, type Requirement } from "../core/requirements";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import { spectrumSpanNs, wantsLogAxis, type LogAxis } from "../core/log-axis";
import type { SeriesView, TimelineResult } from "../engine/store";
import pageCss from "../styles.css?raw";

export interface ChartSeries {
  view: SeriesView;
  color: string;
  dash: string;
}

/** The chart rules of the page's style sheet and its light theme's colours (what chart-export.ts inlines). */
export function chartCss(css: string = pageCss): string {
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
  const vars = ["--fg", "--muted", "--bg", "--line", "--accent", "--danger"]
    .map((v) => {
      const m = new RegExp(`${v}\\s*:\\s*([^;]+);`).exec(root);
      return m ? `${v}: ${m[1]!.trim()};` : "";
    })
    .join(" ");
  const rules: string[] = [];
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selector = m[1]!.trim();
    // Presentation mode's larger type is not the exported look.
    if (/\.(plot|timeline-overlay|ratio-chart)\b/.test(selector) && !/\.presentation\b/.test(selector) && !/\[data-theme/.test(selector))
      rules.push(`${selector} { ${m[2]!.trim()} }`);
  }
  return `svg { ${vars} font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; } ${rules.join("\n")}`;
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Adds the namespace, the styles and a background to an <svg …> string. */
function standalone(svg: string): string {
  const open = svg.indexOf(">");
  const head = svg.slice(0, open).replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}><style>${escapeXml(chartCss())}</style><rect width="100%" height="100%" fill="#ffffff"/>${svg.slice(open + 1)}\n`;
}

export type { LogAxis } from "../core/log-axis";
export { LOG_AXIS_DECADES, wantsLogAxis } from "../core/log-axis";

/** The smallest and largest values of the series' spectra, in ns. */
export function spectrumSpan(series: readonly ChartSeries[]): [number, number] {
  return spectrumSpanNs(series.map(({ view: v }) => ({ values: v.spectrum.values, max: v.spectrum.max, nanos: NANOS_PER_UNIT[v.recordedUnit] })));
}

/** The percentile plot of these series, as the page draws it; latency on a log axis where `logAxis` says (auto: more than two decades). */
export function percentilePlotSvg(series: readonly ChartSeries[], requirement: Requirement | null, unit: Unit, width = 960, height = 480, logAxis: LogAxis = "auto"): string {
  const plot: PlotSeries[] = series.map(({ view: v, color, dash }) => ({
    id: v.id,
    name: v.name,
    color,
    dash,
    recordedUnit: v.recordedUnit,
    values: v.spectrum.values,
    cumulative: v.spectrum.cumulative,
    totalCount: v.spectrum.totalCount,
    max: v.spectrum.max,
    min: v.spectrum.min,
  }));
  // The same labels as the page's (App.tsx plotSteps).
  const steps: PlotStep[] = requirement
    ? requirementSteps(requirement).map((st) => ({
        ...st,
        label: `${st.to >= 100 ? "max" : `p${st.to}`} ≤ ${Number((st.limitNs / NANOS_PER_UNIT[unit]).toPrecision(4))} ${UNIT_LABEL[unit]}`,
      }))
    : [];
  const yLog = wantsLogAxis(logAxis, ...spectrumSpan(series));
  // The plot's own legend sits under the chart, clear of the curves.
  return standalone(renderToStaticMarkup(<PercentilePlot series={plot} requirement={steps} unit={unit} yLog={yLog} width={width} height={height} />));
}

/** Columns the engine is asked for: one per pixel of the plot area, as the page asks. */
export function timelineColumns(width: number): number {
  return Math.max(100, width - TL_MARGIN.left - TL_MARGIN.right);
}

/** Legend rows above a chart: names in columns across the width, never over the data. */
function legendRows(n: number, width: number): { cols: number; rows: number; colWidth: number } {
  const colWidth = 300;
  const cols = Math.max(1, Math.floor((width - TL_MARGIN.left - TL_MARGIN.right) / colWidth));
  return { cols, rows: Math.ceil(Math.min(n, 24) / cols) + (n > 24 ? 1 : 0), colWidth };
}

/**
 * The max over time: each series' max per bucket as the page's canvas draws it (a flat run
 * over each bucket, joined by vertical steps), all series in one lane on one scale (a log
 * scale where `logAxis` says: auto when the maxes span more than two decades), with the
 * timeline's axes, ticks and labels, and a legend above the plot, clear of the data.
 */
export function timelineSvg(tl: TimelineResult, series: readonly ChartSeries[], unit: Unit, width = 960, height = 300, logAxis: LogAxis = "auto"): string {
  const byId = new Map(tl.series.map((s) => [s.id, s]));
  const lines = series.flatMap((s) => {
    const d = byId.get(s.view.id);
    return d ? [{ ...s, d }] : [];
  });
  const leg = legendRows(lines.length, width);
  const legendH = leg.rows * 18 + 8;
  const total = height + legendH;
  const lane0 = lanes(1, height, false)[0]!;
  const lane = { top: lane0.top + legendH, bottom: lane0.bottom + legendH };
  let hi = 0;
  let lo = Infinity;
  for (const { d } of lines) {
    const f = NANOS_PER_UNIT[d.recordedUnit];
    for (let i = 0; i < d.max.length; i++) {
      hi = Math.max(hi, d.max[i]! * f);
      if (d.max[i]! > 0) lo = Math.min(lo, d.max[i]! * f);
    }
  }
  const yLog = wantsLogAxis(logAxis, lo, hi);
  const y = yScaleFor(hi, Number.isFinite(lo) ? lo : 0, yLog, lane);
  const floor = y.domain()[0]!;
  const x = xScaleFor(tl.domain[0], tl.domain[1], width, null).scale;
  const r = (v: number) => Math.round(v * 100) / 100;
  const out: string[] = [];
  out.push(
    `<svg width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" class="timeline-overlay" role="img" aria-label="Max latency per interval over time for ${lines.length} series">`,
  );
  out.push(
    `<defs><clipPath id="plot-area"><rect x="${TL_MARGIN.left}" y="${lane.top}" width="${width - TL_MARGIN.left - TL_MARGIN.right}" height="${lane.bottom - lane.top}"/></clipPath></defs>`,
  );
  out.push(`<g class="curves" clip-path="url(#plot-area)">`);
  for (const { d, color, dash, view } of lines) {
    const f = NANOS_PER_UNIT[d.recordedUnit];
    let path = "";
    for (let i = 0; i < d.max.length; i++) {
      const x0 = x(d.t0[i]!);
      const x1 = Math.max(x(d.t1[i]!), x0 + 0.5);
      const py = y(Math.max(d.max[i]! * f, yLog ? floor : 0));
      path += `${i === 0 ? "M" : "L"}${r(x0)},${r(py)}L${r(x1)},${r(py)}`;
    }
    out.push(`<path d="${path}" fill="none" stroke="${color}" stroke-width="1.6"${dash ? ` stroke-dasharray="${dash}"` : ""}><title>${escapeXml(view.name)}</title></path>`);
  }
  out.push("</g>");
  out.push(`<g class="axis y-axis"><line x1="${TL_MARGIN.left}" x2="${TL_MARGIN.left}" y1="${lane.top}" y2="${lane.bottom}"/>`);
  const ticks = yLog ? logTicks(y.domain() as [number, number]) : y.ticks(Math.max(2, Math.floor((lane.bottom - lane.top) / 36)));
  for (const t of ticks) {
    out.push(`<text x="${TL_MARGIN.left - 6}" y="${r(y(t))}" dy="0.32em" text-anchor="end">${Number((t / NANOS_PER_UNIT[unit]).toPrecision(4))}</text>`);
  }
  const midY = (lane.top + lane.bottom) / 2;
  out.push(`<text transform="translate(14 ${midY}) rotate(-90)" text-anchor="middle" class="axis-label">Max per interval (${UNIT_LABEL[unit]}${yLog ? ", log" : ""})</text></g>`);
  const bottom = total - TL_MARGIN.bottom;
  out.push(`<g class="axis x-axis"><line x1="${TL_MARGIN.left}" x2="${width - TL_MARGIN.right}" y1="${bottom}" y2="${bottom}"/>`);
  // Whole minutes and hours, as the page's timeline ticks (a day is not ticked at 2:46:40).
  for (const t of timeTicks(tl.domain[0], tl.domain[1], Math.max(2, Math.floor(width / 110)))) {
    out.push(`<text x="${r(x(t))}" y="${bottom + 16}" text-anchor="middle">${escapeXml(formatSeconds(t))}</text>`);
  }
  out.push(`<text x="${(TL_MARGIN.left + width - TL_MARGIN.right) / 2}" y="${total - 4}" text-anchor="middle" class="axis-label">Time since each log's StartTime</text></g>`);
  // The legend in rows above the plot (the page's timeline shares the page's legend).
  out.push(`<g class="legend" transform="translate(${TL_MARGIN.left} 12)">`);
  lines.slice(0, 24).forEach(({ color, dash, view }, i) => {
    const cx = (i % leg.cols) * leg.colWidth;
    const cy = Math.floor(i / leg.cols) * 18;
    out.push(
      `<g transform="translate(${cx} ${cy})"><line x1="0" x2="22" y1="0" y2="0" stroke="${color}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ""}/><text x="28" y="0" dy="0.32em" class="lane-label" fill="${color}">${escapeXml(view.name.length > 38 ? `${view.name.slice(0, 37)}…` : view.name)}</text></g>`,
    );
  });
  if (lines.length > 24) out.push(`<text x="28" y="${Math.floor(24 / leg.cols) * 18}" dy="0.32em">+${lines.length - 24} more</text>`);
  out.push("</g>");
  if (lines.length === 0) out.push(`<text x="${width / 2}" y="${midY}" text-anchor="middle" class="axis-label">No series has intervals over time</text>`);
  out.push("</svg>");
  return standalone(out.join(""));
}

/** Ticks at 1, 10, 100 … (and 2, 5 between them over fewer than three decades). */
function logTicks([lo, hi]: [number, number]): number[] {
  const out: number[] = [];
  const few = hi / lo < 1000;
  for (let e = Math.floor(Math.log10(lo)); 10 ** e <= hi; e++) {
    for (const m of few ? [1, 2, 5] : [1]) {
      const t = m * 10 ** e;
      if (t >= lo && t <= hi) out.push(t);
    }
  }
  return out;
}

/** The ratio chart of one comparison, its headline above it (core/compare/headline.ts). */
export function ratioSvg(r: CompareResult, headline: Headline | null, width = 960, height = 420): string {
  const head = headline ? 52 : 28;
  const chart = renderToStaticMarkup(
    <RatioChart curve={r.curve} maxRatio={r.max.ratio} margin={r.margin} width={width} height={height} baseLabel={r.base.label} candLabel={r.cand.label} />,
  );
  // The chart moved down under its headline and what the band and the shading mean.
  const inner = chart.replace(/^<svg/, `<svg y="${head}"`);
  const pair = `${r.cand.label} vs ${r.base.label}: B ÷ A at every percentile (band: the ${Math.round(r.level * 100)} % range; shaded: within ±${Number((r.margin * 100).toPrecision(3))} %)`;
  const line = headline ? headline.text : "";
  const outer =
    `<svg width="${width}" height="${height + head}" viewBox="0 0 ${width} ${height + head}" class="plot ratio-chart" role="img" aria-label="${escapeXml(line || pair)}">` +
    `<text x="${TL_MARGIN.left}" y="16" class="axis-label">${escapeXml(pair)}</text>` +
    (line ? `<text x="${TL_MARGIN.left}" y="40" class="plot-title" font-size="16" font-weight="600">${escapeXml(line)}</text>` : "") +
    `${inner}</svg>`;
  return standalone(outer);
}
