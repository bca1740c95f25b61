// The percentile spectrum: one chart, or one per configuration side by side, with its export
// actions; a hint to drop files while nothing is shown.
import { useMemo, useRef } from "react";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../../charts/percentile-plot/PercentilePlot";
import { dataExtentNs } from "../../charts/percentile-plot/layout";
import { UNIT_LABEL } from "../../core/format";
import { spectrumCsv } from "../../core/markdown";
import { requirementSteps, type Requirement } from "../../core/requirements";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../../core/types";
import { useReadableFormats } from "./DemoBanner";
import { ChartActions } from "./ChartActions";
import type { SeriesRow } from "./SeriesList";

/** The requirement's steps as the spectrum draws them, labelled in the display unit. */
export function usePlotSteps(requirement: Requirement | null, unit: Unit): PlotStep[] {
  return useMemo(
    () =>
      requirement
        ? requirementSteps(requirement).map((st) => ({
            ...st,
            label: `${st.to >= 100 ? "max" : `p${st.to}`} ≤ ${Number((st.limitNs / NANOS_PER_UNIT[unit]).toPrecision(4))} ${UNIT_LABEL[unit]}`,
          }))
        : [],
    [requirement, unit],
  );
}

interface Props {
  rows: SeriesRow[];
  plotSeries: PlotSeries[];
  steps: PlotStep[];
  unit: Unit;
  yLog: boolean;
  sideBySide: boolean;
  width: number;
  onPick?: (p: { valueNs: number }) => void;
}

export function SpectrumPanel({ rows, plotSeries, steps, unit, yLog, sideBySide, width, onPick }: Props) {
  const plotRef = useRef<HTMLDivElement>(null);
  const read = useReadableFormats();
  // Loops, not closures made per render: V8 drops the optimised code of short-lived closures at
  // every major collection.
  const shown = new Set<string>();
  for (const r of rows) shown.add(r.view.config);
  const configsShown = [...shown];
  // In ns, like the plot's layout.
  const sharedExtent = useMemo(() => dataExtentNs(plotSeries), [plotSeries]);
  return (
    <>
      <div ref={plotRef}>
        {rows.length > 0 && sideBySide && configsShown.length > 1 ? (
          <div className="small-multiples" data-testid="small-multiples">
            {configsShown.map((c) => (
              <PercentilePlot
                key={c}
                title={c || "(no configuration)"}
                series={plotSeries.filter((p) => rows.find((r) => r.view.id === p.id)?.view.config === c)}
                requirement={steps}
                unit={unit}
                yLog={yLog}
                yExtent={sharedExtent}
                width={Math.max(300, Math.floor(width / 2) - 8)}
                height={320}
              />
            ))}
          </div>
        ) : rows.length > 0 ? (
          <PercentilePlot series={plotSeries} requirement={steps} unit={unit} yLog={yLog} width={Math.max(320, width)} height={440} onPick={onPick} />
        ) : (
          <div className="drop-hint" data-testid="percentile-plot" data-empty="true">
            Drop your latency logs here, or paste text.{read ? ` Read: ${read}.` : ""}
          </div>
        )}
      </div>
      {rows.length > 0 ? (
        <ChartActions
          container={plotRef}
          name="percentile-distribution"
          csv={() =>
            spectrumCsv(
              plotSeries.map((p) => {
                const f = unitFactor(p.recordedUnit, unit);
                return { name: p.name, values: Array.from(p.values, (v) => v * f), cumulative: p.cumulative, totalCount: p.totalCount };
              }),
              unit,
            )
          }
        />
      ) : null}
    </>
  );
}
