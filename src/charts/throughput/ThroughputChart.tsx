// Where each configuration crosses its requirement: latency at the requirement's percentiles
// against throughput, with each limit drawn. Filled markers pass, hollow ones fail.
import { line } from "d3";
import { formatNumber, middleEllipsis, UNIT_LABEL } from "../../core/format";
import { formatThroughput } from "../../core/naming";
import type { Unit } from "../../core/types";
import { spreadLabels, tpScales, TP_MARGIN, type TpLine } from "./layout";

interface Props {
  lines: TpLine[];
  limits: { percentile: number; limit: number; label: string }[];
  unit: Unit;
  width: number;
  height: number;
}

export function ThroughputChart({ lines, limits, unit, width, height }: Props) {
  const { x, y } = tpScales(
    lines,
    limits.map((l) => l.limit),
    width,
    height,
  );
  // Log ticks: keep 1, 2, 5 × 10^k when there are many.
  const all = y.ticks(6);
  const yTicks = all.length > 8 ? all.filter((t) => [1, 2, 5].includes(Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9)))) : all;
  const gen = line<{ throughput: number; value: number }>()
    .x((p) => x(p.throughput))
    .y((p) => y(Math.max(p.value, y.domain()[0]!)));
  const left = TP_MARGIN.left;
  const right = width - TP_MARGIN.right;
  const bottom = height - TP_MARGIN.bottom;
  // Every label (each line's name at its end, each limit) goes in the column right of the plot,
  // spread so none prints over another; a line's label is tied to its last point by a leader.
  const yOf = (v: number) => y(Math.max(v, y.domain()[0]!));
  const ends = lines.map((l) => (l.points.length ? l.points[l.points.length - 1]! : null));
  const wanted = [...ends.map((p) => (p ? yOf(p.value) : -1)), ...limits.map((l) => y(l.limit))];
  const placed = spreadLabels(wanted, 13, TP_MARGIN.top, bottom);
  const labelX = right + 16;
  return (
    <svg
      data-testid="throughput-chart"
      role="img"
      aria-label="Latency at the requirement's percentiles against throughput, per configuration"
      width={width}
      height={height}
      className="plot throughput"
    >
      <g className="grid">
        {yTicks.map((t) => (
          <line key={`g${t}`} x1={left} x2={right} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="axis">
        <line x1={left} x2={right} y1={bottom} y2={bottom} />
        <line x1={left} x2={left} y1={TP_MARGIN.top} y2={bottom} />
        {x.ticks(6).map((t) => (
          <text key={`x${t}`} x={x(t)} y={bottom + 16} textAnchor="middle">
            {t === 0 ? "0" : formatThroughput(t)}
          </text>
        ))}
        {yTicks.map((t) => (
          <text key={`y${t}`} x={left - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {formatNumber(t)}
          </text>
        ))}
        <text x={(left + right) / 2} y={height - 4} textAnchor="middle" className="axis-label">
          Throughput (ops/s)
        </text>
        <text transform={`translate(14 ${(TP_MARGIN.top + bottom) / 2}) rotate(-90)`} textAnchor="middle" className="axis-label">
          Latency ({UNIT_LABEL[unit]}, log)
        </text>
      </g>
      <g className="requirement-line">
        {limits.map((l, k) => (
          <g key={l.percentile}>
            <line x1={left} x2={right} y1={y(l.limit)} y2={y(l.limit)} />
            <text x={labelX} y={placed[ends.length + k]} dy="0.32em" textAnchor="start" data-testid="tp-label">
              {l.label}
            </text>
          </g>
        ))}
      </g>
      {lines.map((l, li) => (
        <g key={`${l.config}-${l.percentile}`} data-config={l.config} data-percentile={l.percentile}>
          <path d={gen(l.points) ?? ""} fill="none" stroke={l.color} strokeWidth={2} strokeDasharray={l.dash || undefined} />
          {l.points.map((p) => (
            <circle key={p.throughput} cx={x(p.throughput)} cy={y(Math.max(p.value, y.domain()[0]!))} r={4} fill={p.pass ? l.color : "white"} stroke={l.color} strokeWidth={2}>
              <title>{`${l.config} at ${formatThroughput(p.throughput)}: ${l.percentile === 100 ? "max" : `p${l.percentile}`} = ${formatNumber(p.value)} ${UNIT_LABEL[unit]} (${p.pass ? "passes" : "fails"})`}</title>
            </circle>
          ))}
          {ends[li] ? (
            <>
              <polyline
                points={`${x(ends[li]!.throughput) + 5},${yOf(ends[li]!.value)} ${labelX - 3},${placed[li]}`}
                fill="none"
                stroke={l.color}
                strokeWidth={0.8}
                strokeOpacity={0.7}
              />
              <text x={labelX} y={placed[li]} dy="0.32em" fill={l.color} className="max-label" data-testid="tp-label">
                <title>{`${l.config} ${l.percentile === 100 ? "max" : `p${l.percentile}`}`}</title>
                {`${middleEllipsis(l.config, 14)} ${l.percentile === 100 ? "max" : `p${l.percentile}`}`}
              </text>
            </>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
