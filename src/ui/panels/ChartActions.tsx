// Export buttons for one chart: SVG and PNG (2×) exactly as drawn, and the plotted points as CSV.
import type { RefObject } from "react";
import { chartSvg, exportPng, exportSvg } from "../export/chart-export";
import { downloadText } from "../export/download";

interface Props {
  /** The element holding the chart: its plot(s) (and <canvas>, for the timeline) are exported; see chartSvg. */
  container: RefObject<HTMLElement | null>;
  name: string;
  csv?: () => string;
}

export function ChartActions({ container, name, csv }: Props) {
  const svg = () => (container.current ? chartSvg(container.current) : null);
  return (
    <div className="chart-actions" role="group" aria-label={`Export ${name}`}>
      <button
        type="button"
        data-testid="export-svg"
        onClick={() => {
          const s = svg();
          if (s) exportSvg(s, name);
        }}
      >
        SVG
      </button>
      <button
        type="button"
        data-testid="export-png"
        onClick={() => {
          const s = svg();
          if (s) void exportPng(s, name, container.current?.querySelector("canvas"));
        }}
      >
        PNG 2×
      </button>
      {csv ? (
        <button type="button" data-testid="export-csv" onClick={() => downloadText(`${name}.csv`, csv(), "text/csv")}>
          CSV
        </button>
      ) : null}
    </div>
  );
}
