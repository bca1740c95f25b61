// Draws the percentile spectrum. Only maps already-laid-out values to SVG; the math is in
// layout.ts.
import { useMemo, useRef, useState } from "react";
import { line } from "d3";
import { formatCount, formatNumber, formatValue, UNIT_LABEL } from "../../core/format";
import type { Unit } from "../../core/types";
import { bucketAt, inverseTail, labelledMaxes, makeXScale, readableTicks, makeYScale, MARGIN, stepPoints, xDomainEnd, xTicks, type CurveInput } from "./layout";

export interface PlotSeries extends CurveInput {
  id: string;
  name: string;
  color: string;
  dash: string;
  /** Max in the display unit. */
  max: number;
  min: number;
}

/** A requirement step in the display unit: limit over percentiles (from, to]. */
export interface PlotStep {
  from: number;
  to: number;
  limit: number;
  label: string;
}

interface Props {
  series: PlotSeries[];
  requirement?: PlotStep[];
  unit: Unit;
  yLog: boolean;
  width: number;
  height: number;
  title?: string;
  /** Shared value range, so side-by-side plots compare on one scale. */
  yExtent?: { max: number; min: number };
}

export function PercentilePlot({ series, requirement = [], unit, yLog, width, height, title, yExtent }: Props) {
  const size = { width, height };
  const [hoverX, setHoverX] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);

  const layout = useMemo(() => {
    const xEnd = xDomainEnd(series);
    const x = makeXScale(xEnd, size);
    let maxV = 0;
    let minV = Infinity;
    for (const s of series) {
      maxV = Math.max(maxV, s.max);
      if (s.min > 0) minV = Math.min(minV, s.min);
    }
    if (yExtent) {
      maxV = Math.max(maxV, yExtent.max);
      if (yExtent.min > 0) minV = Math.min(minV, yExtent.min);
    }
    // Show the requirement even above the data, but not so far that the data flattens.
    for (const r of requirement) {
      if (r.limit <= Math.max(maxV * 4, 0)) maxV = Math.max(maxV, r.limit);
      if (yLog) minV = Math.min(minV, r.limit);
    }
    const y = makeYScale(maxV, Number.isFinite(minV) ? minV : 0, yLog, size);
    const gen = line();
    const paths = series.map((s) => ({ s, d: gen(stepPoints(s, x, y, xEnd)) ?? "" }));
    // The requirement as a step line: flat over each entry's percentile range.
    const reqPts: [number, number][] = [];
    for (const r of requirement) {
      const x0 = x(inverseTail(r.from / 100, xEnd));
      const x1 = x(r.to >= 100 ? xEnd : inverseTail(r.to / 100, xEnd));
      const yy = Math.max(y.range()[1]!, y(r.limit));
      reqPts.push([x0, yy], [x1, yy]);
    }
    const reqPath = reqPts.length ? (gen(reqPts) ?? "") : "";
    return { xEnd, x, y, paths, reqPath, ticks: xTicks(xEnd), yTicks: readableTicks(y.ticks(yLog ? 6 : 8), yLog) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, requirement, yLog, width, height, yExtent?.max, yExtent?.min]);

  const { x, y, paths, reqPath, ticks, yTicks, xEnd } = layout;
  const plotLeft = MARGIN.left;
  const plotRight = width - MARGIN.right;
  const plotTop = MARGIN.top;
  const plotBottom = height - MARGIN.bottom;

  const hover = hoverX === null ? null : x.invert(hoverX);
  const hoverRows = hover === null ? [] : series.map((s) => ({ s, b: bucketAt(s, hover) })).filter((r) => r.b);

  const yFormat = (v: number) => formatNumber(v);
  const showLabel = labelledMaxes(series.map((s) => y(s.max)));

  return (
    <svg
      ref={svgRef}
      data-testid="percentile-plot"
      role="img"
      aria-label={`Percentile distribution of ${series.length} series, latency in ${UNIT_LABEL[unit]}; the table below lists the values`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="plot"
      onMouseMove={(e) => {
        const r = svgRef.current?.getBoundingClientRect();
        if (!r) return;
        const px = e.clientX - r.left;
        setHoverX(px >= plotLeft && px <= plotRight ? px : null);
      }}
      onMouseLeave={() => setHoverX(null)}
    >
      {title ? (
        <text x={plotLeft} y={12} className="plot-title">
          {title}
        </text>
      ) : null}
      <g className="grid">
        {ticks.map((t) => (
          <line key={`gx${t.value}`} x1={x(t.value)} x2={x(t.value)} y1={plotTop} y2={plotBottom} />
        ))}
        {yTicks.map((t) => (
          <line key={`gy${t}`} x1={plotLeft} x2={plotRight} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="axis x-axis">
        <line x1={plotLeft} x2={plotRight} y1={plotBottom} y2={plotBottom} />
        {ticks.map((t, i) =>
          // Labels need about 64 px; on a narrow plot label every other decade.
          (plotRight - plotLeft) / Math.max(1, ticks.length - 1) >= 64 || i % 2 === 0 || i === ticks.length - 1 ? (
            <text key={`tx${t.value}`} x={x(t.value)} y={plotBottom + 16} textAnchor="middle">
              {t.label}
            </text>
          ) : null,
        )}
        <text x={(plotLeft + plotRight) / 2} y={height - 6} textAnchor="middle" className="axis-label">
          Percentile (log scale of 1/(1−p))
        </text>
      </g>
      <g className="axis y-axis">
        <line x1={plotLeft} x2={plotLeft} y1={plotTop} y2={plotBottom} />
        {yTicks.map((t) => (
          <text key={`ty${t}`} x={plotLeft - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {yFormat(t)}
          </text>
        ))}
        <text transform={`translate(14 ${(plotTop + plotBottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          Latency ({UNIT_LABEL[unit]}){yLog ? ", log" : ""}
        </text>
      </g>
      {reqPath ? (
        <g className="requirement-line" data-testid="requirement-line">
          <path d={reqPath} fill="none" />
          {requirement.map((r) => {
            const xr = x(r.to >= 100 ? xEnd : inverseTail(r.to / 100, xEnd));
            const yy = Math.max(y.range()[1]! + 10, y(r.limit) - 5);
            return (
              <text key={`${r.from}-${r.to}`} x={xr - 4} y={yy} textAnchor="end">
                {r.label}
              </text>
            );
          })}
        </g>
      ) : null}
      <g className="curves">
        {paths.map(({ s, d }) => (
          <path key={s.id} d={d} fill="none" stroke={s.color} strokeWidth={2} strokeDasharray={s.dash || undefined} data-series={s.name}>
            <title>{s.name}</title>
          </path>
        ))}
      </g>
      <g className="max-markers">
        {series.map((s, i) =>
          s.totalCount > 0 ? (
            <g key={s.id} data-testid="max-marker" data-series={s.name}>
              <circle cx={x(xEnd)} cy={y(s.max)} r={4} fill={s.color} />
              {showLabel[i] ? (
                <text x={x(xEnd) + 7} y={y(s.max)} dy="0.32em" className="max-label" fill={s.color}>
                  max {formatNumber(s.max)}
                </text>
              ) : null}
            </g>
          ) : null,
        )}
      </g>
      <g className="legend" data-testid="plot-legend" transform={`translate(${plotLeft + 10} ${plotTop + 8})`}>
        {series.slice(0, 12).map((s, i) => (
          <g key={s.id} transform={`translate(0 ${i * 16})`}>
            <line x1={0} x2={22} y1={0} y2={0} stroke={s.color} strokeWidth={2.5} strokeDasharray={s.dash || undefined} />
            <text x={28} y={0} dy="0.32em">
              {truncate(s.name, 34)}
            </text>
          </g>
        ))}
        {series.length > 12 ? (
          <text x={28} y={12 * 16} dy="0.32em">
            {`+${series.length - 12} more`}
          </text>
        ) : null}
      </g>
      {hoverX !== null && hoverRows.length > 0 ? (
        <g className="hover" pointerEvents="none">
          <line x1={hoverX} x2={hoverX} y1={plotTop} y2={plotBottom} />
          {hoverRows.map(({ s, b }) => (
            <circle key={s.id} cx={hoverX} cy={y(b!.value)} r={3} fill={s.color} />
          ))}
          <HoverBox x={hoverX} right={plotRight} top={plotTop} rows={hoverRows.map(({ s, b }) => ({ s, b: b! }))} unit={unit} />
        </g>
      ) : null}
    </svg>
  );
}

function HoverBox({ x, right, top, rows, unit }: { x: number; right: number; top: number; rows: { s: PlotSeries; b: NonNullable<ReturnType<typeof bucketAt>> }[]; unit: Unit }) {
  const w = 250;
  const lineH = 16;
  const h = 22 + rows.length * lineH;
  const left = x + 12 + w > right ? x - 12 - w : x + 12;
  const p = rows[0]!.b.percentile;
  return (
    <g transform={`translate(${left} ${top + 8})`} data-testid="plot-hover">
      <rect width={w} height={h} rx={4} className="hover-box" />
      <text x={8} y={15} className="hover-title">
        {`p = ${p >= 99 ? p.toPrecision(Math.min(12, Math.max(4, Math.ceil(-Math.log10(Math.max(1e-12, 100 - p))) + 3))) : p.toFixed(2)}%`}
      </text>
      {rows.map(({ s, b }, i) => (
        <text key={s.id} x={8} y={15 + (i + 1) * lineH} fill={s.color}>
          {`${truncate(s.name, 18)}: ${formatValue(b.value, unit)} (${formatCount(b.countAtOrBelow)} ≤)`}
        </text>
      ))}
    </g>
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
