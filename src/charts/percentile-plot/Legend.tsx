// The percentile plot's legend entries and the keys its labels are memoised on.
import { memo, type ReactElement } from "react";
import { noLineLegend } from "../../core/judge";
import type { LegendItem } from "./layout";
import type { PlotSeries } from "./PercentilePlot";

// Loops, not closures made per render: V8 drops the optimised code of short-lived closures at
// every major collection, and the plot redraws a few times a second while a run is followed.

/** The keys the legend's labels are memoised on: the names, and why each has no line. */
export function seriesKeys(series: readonly PlotSeries[]): { namesKey: string; noValuesKey: string } {
  const names: string[] = [];
  const why: string[] = [];
  for (const s of series) {
    names.push(s.name);
    why.push(s.noValues ?? "");
  }
  return { namesKey: names.join("\u0000"), noValuesKey: why.join("\u0000") };
}

type LegendProps = { series: PlotSeries[]; labels: string[]; items: LegendItem[] };

/**
 * The same entries: what each shows (its name, colour, dash and why it has no line), not the
 * series' values, which change with every redraw of a followed run while the legend does not.
 */
export function sameLegend(a: LegendProps, b: LegendProps): boolean {
  if (a.labels !== b.labels || a.items !== b.items || a.series.length !== b.series.length) return false;
  for (let i = 0; i < a.series.length; i++) {
    const x = a.series[i]!;
    const y = b.series[i]!;
    if (x !== y && (x.id !== y.id || x.name !== y.name || x.color !== y.color || x.dash !== y.dash || x.noValues !== y.noValues)) return false;
  }
  return true;
}

export const Legend = memo(function Legend({ series, labels, items }: LegendProps) {
  const entries: (ReactElement | null)[] = [];
  for (let i = 0; i < series.length; i++) {
    const s = series[i]!;
    const it = items[i];
    entries.push(
      !it ? null : (
        <g
          key={s.id}
          transform={`translate(${it.x} ${it.y})`}
          data-testid="legend-item"
          data-series={s.name}
          data-novalues={s.noValues || undefined}
          className={s.noValues ? "no-line" : undefined}
        >
          <title>{s.noValues ? noLineLegend(s.name, s.noValues) : s.name}</title>
          <line x1={0} x2={22} y1={0} y2={0} stroke={s.color} strokeWidth={2.5} strokeDasharray={s.dash || undefined} opacity={s.noValues ? 0.3 : undefined} />
          <text x={28} y={0} dy="0.32em">
            {labels[i]}
          </text>
        </g>
      ),
    );
  }
  return (
    <g className="legend" data-testid="plot-legend">
      {entries}
    </g>
  );
}, sameLegend);
