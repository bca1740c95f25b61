// The history chart: draws historyLayout's values, nothing computed here. A click on a run's
// column reports its index.
import { memo } from "react";
import { formatNumber } from "../../core/format";
import { pName } from "../../core/history/sentence";
import { STRIP_PERCENTILES, type HistoryLayout } from "./layout";

interface Props {
  layout: HistoryLayout;
  unitLabel: string;
  selected: number | null;
  onRun?: (index: number) => void;
}

export const HistoryChart = memo(function HistoryChart({ layout: l, unitLabel, selected, onRun }: Props) {
  return (
    <svg className="history-chart" width={l.width} height={l.height} viewBox={`0 0 ${l.width} ${l.height}`} role="img" aria-label="Percentiles across runs">
      <g className="axis">
        {l.yTicks.map((t) => (
          <g key={t.value}>
            <line x1={l.plot.left} x2={l.plot.right} y1={t.y} y2={t.y} className="grid" />
            <text x={l.plot.left - 6} y={t.y + 4} textAnchor="end">
              {formatNumber(t.value)}
            </text>
          </g>
        ))}
        <text x={12} y={(l.plot.top + l.plot.bottom) / 2} transform={`rotate(-90 12 ${(l.plot.top + l.plot.bottom) / 2})`} textAnchor="middle">
          latency ({unitLabel})
        </text>
        {l.xLabels.map((t) => (
          <text key={t.text} x={t.x} y={l.plot.bottom + 16} textAnchor="middle">
            {t.text}
          </text>
        ))}
      </g>
      {selected !== null && l.xs[selected] !== undefined ? (
        <rect
          className="history-selected"
          x={l.xs[selected]! - l.column / 2}
          y={l.plot.top}
          width={l.column}
          height={l.strip.top + l.strip.rowHeight * STRIP_PERCENTILES.length - l.plot.top}
        />
      ) : null}
      <g className="history-bars">
        {l.bars.map((b, i) => (
          <line key={i} x1={b.x} x2={b.x} y1={b.y1} y2={b.y2} stroke={b.color} strokeOpacity={0.35} strokeWidth={Math.max(1, Math.min(4, l.column / 3))} />
        ))}
      </g>
      <g className="history-lines">
        {l.lines.map((s) => (
          <path key={s.percentile} d={s.d} fill="none" stroke={s.color} strokeWidth={1.6} strokeDasharray={s.dash || undefined} />
        ))}
      </g>
      <g className="history-markers">
        {l.markers.map((m, i) => (
          <g key={i}>
            <line x1={m.x} x2={m.x} y1={l.plot.top} y2={l.plot.bottom} className={`history-marker ${m.change.direction}`} />
            <circle cx={m.x} cy={m.y} r={4} className={`history-marker-dot ${m.change.direction}`} />
          </g>
        ))}
      </g>
      <g className="history-strip">
        {STRIP_PERCENTILES.map((p, row) => (
          <text
            key={p}
            x={l.plot.left - 6}
            y={l.strip.top + (STRIP_PERCENTILES.length - 1 - row) * l.strip.rowHeight + l.strip.rowHeight - 1}
            textAnchor="end"
            className="history-strip-label"
          >
            {pName(p)}
          </text>
        ))}
        {l.strip.cells.map((c) => (
          <rect key={`${c.run}-${c.percentile}`} x={c.x + 0.5} y={c.y} width={Math.max(1, l.column - 1)} height={l.strip.rowHeight - 1} fill={c.fill}>
            <title>{c.ratio === null ? "" : `${pName(c.percentile)} ×${c.ratio.toFixed(3)} of the stretch before`}</title>
          </rect>
        ))}
      </g>
      {onRun ? (
        <g className="history-hit">
          {l.xs.map((x, i) => (
            <rect
              key={i}
              data-run-index={i}
              x={x - l.column / 2}
              y={l.plot.top}
              width={l.column}
              height={l.strip.top + l.strip.rowHeight * STRIP_PERCENTILES.length - l.plot.top}
              fill="transparent"
              onClick={() => onRun(i)}
            />
          ))}
        </g>
      ) : null}
    </svg>
  );
});
