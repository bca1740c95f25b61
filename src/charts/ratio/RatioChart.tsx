// Draws the ratio curve (candidate ÷ baseline at every percentile) with its interval as a band,
// the margin of practical equivalence around 1, repeated runs' spread, and the max as a point.
// Only maps the layout (layout.ts) to SVG.
import { memo, useMemo } from "react";
import { labelledTicks, MARGIN } from "../percentile-plot/layout";
import { ratioLayout, type RatioCurvePoint } from "./layout";

interface Props {
  curve: readonly RatioCurvePoint[];
  maxRatio: number;
  margin: number;
  width: number;
  height: number;
  baseLabel: string;
  candLabel: string;
  title?: string;
}

export const RatioChart = memo(function RatioChart(p: Props) {
  const size = { width: p.width, height: p.height };
  const l = useMemo(() => ratioLayout({ curve: p.curve, maxRatio: p.maxRatio, margin: p.margin, size }), [p.curve, p.maxRatio, p.margin, p.width, p.height]); // eslint-disable-line react-hooks/exhaustive-deps
  const left = MARGIN.left;
  const right = p.width - MARGIN.right;
  const top = MARGIN.top;
  const bottom = p.height - MARGIN.bottom;
  // Deep labels are long ("99.999%"): on a narrow chart (a phone's slide) only every few fit.
  const xLabelled = labelledTicks(
    l.xTicks.map((t) => t.label),
    l.xTicks.length > 1 ? l.x(l.xTicks[1]!.value) - l.x(l.xTicks[0]!.value) : right - left,
    9,
  );
  const one = l.y(1);
  return (
    <svg
      data-testid="ratio-chart"
      className="plot ratio-chart"
      width={p.width}
      height={p.height}
      viewBox={`0 0 ${p.width} ${p.height}`}
      role="img"
      aria-label={`${p.candLabel} ÷ ${p.baseLabel} at every percentile`}
    >
      {p.title ? (
        <text x={left} y={12} className="plot-title">
          {p.title}
        </text>
      ) : null}
      <g className="grid">
        {l.xTicks.map((t) => (
          <line key={`gx${t.value}`} x1={l.x(t.value)} x2={l.x(t.value)} y1={top} y2={bottom} />
        ))}
        {l.yTicks.map((t) => (
          <line key={`gy${t.value}`} x1={left} x2={right} y1={l.y(t.value)} y2={l.y(t.value)} />
        ))}
      </g>
      <rect className="ratio-margin" x={left} width={right - left} y={l.marginTop} height={Math.max(0, l.marginBottom - l.marginTop)}>
        <title>{`within ±${Number((p.margin * 100).toPrecision(3))} %: no practical difference`}</title>
      </rect>
      <line className="ratio-one" x1={left} x2={right} y1={one} y2={one} />
      {l.baseSpreadPath ? <path className="ratio-spread base" d={l.baseSpreadPath} /> : null}
      {l.candSpreadPath ? <path className="ratio-spread cand" d={l.candSpreadPath} /> : null}
      <path className="ratio-band" d={l.bandPath} />
      <path className="ratio-line" d={l.ratioPath} />
      {l.dots.map((d) => (
        <circle key={d.percentile} className="ratio-dot" cx={d.cx} cy={d.cy} r={2} />
      ))}
      {l.stopX !== null ? (
        <g className="ratio-stop">
          <line x1={l.stopX} x2={l.stopX} y1={top} y2={bottom} />
          <text x={l.stopX + 4} y={top + 12}>
            too few values beyond
          </text>
        </g>
      ) : null}
      {l.maxPoint ? (
        <g className="ratio-max">
          <circle cx={l.maxPoint.cx} cy={l.maxPoint.cy} r={4} />
          <text x={l.maxPoint.cx + 7} y={l.maxPoint.cy} dy="0.32em">
            max {Number(p.maxRatio.toPrecision(3))}×
          </text>
        </g>
      ) : null}
      <g className="axis x-axis">
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
        {l.xTicks.map((t, i) =>
          xLabelled[i] ? (
            <text key={`tx${t.value}`} x={l.x(t.value)} y={bottom + 16} textAnchor="middle">
              {t.label}
            </text>
          ) : null,
        )}
        <text x={(left + right) / 2} y={p.height - 6} textAnchor="middle" className="axis-label">
          Percentile
        </text>
      </g>
      <g className="axis y-axis">
        <line x1={left} x2={left} y1={top} y2={bottom} />
        {l.yTicks.map((t) => (
          <text key={`ty${t.value}`} x={left - 6} y={l.y(t.value)} dy="0.32em" textAnchor="end">
            {t.label}
          </text>
        ))}
        <text transform={`translate(14 ${(top + bottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          B ÷ A: faster ↓ · slower ↑
        </text>
      </g>
    </svg>
  );
});
