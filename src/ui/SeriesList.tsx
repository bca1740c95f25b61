// The series list doubles as the legend: swatch, name, count, recorded unit; click toggles.
import { formatCount, UNIT_LABEL } from "../core/format";
import { UNITS, type Unit } from "../core/types";
import type { SeriesView } from "../engine/store";

export interface SeriesRow {
  view: SeriesView;
  color: string;
  dash: string;
  visible: boolean;
}

interface Props {
  rows: SeriesRow[];
  onToggle: (id: string) => void;
  onExport: (id: string) => void;
  onRemove: (id: string) => void;
  onUnit: (id: string, unit: Unit) => void;
}

const UNIT_SOURCE_TEXT: Record<SeriesView["unitSource"], string> = {
  "interval-max": "inferred from the Interval_Max column",
  default: "assumed (the log gives no usable Interval_Max): check it",
  format: "as the file states",
  user: "set by you",
};

export function SeriesList({ rows, onToggle, onExport, onRemove, onUnit }: Props) {
  if (rows.length === 0) return <p className="empty">No series loaded. Drop .hlog, .hgrm or wrk2 output anywhere on the page.</p>;
  return (
    <ul className="series-list" aria-label="Loaded series (click to show or hide)">
      {rows.map(({ view: v, color, dash, visible }) => (
        <li
          key={v.id}
          data-testid="series"
          data-id={v.id}
          data-name={v.name}
          data-source={v.source}
          data-tag={v.tag}
          data-config=""
          data-throughput=""
          data-kind=""
          data-count={String(v.wholeCount)}
          data-unit={v.recordedUnit}
          data-visible={visible ? "true" : "false"}
          className={visible ? "series" : "series hidden"}
          tabIndex={0}
          role="button"
          aria-pressed={visible}
          onClick={() => onToggle(v.id)}
          onKeyDown={(e) => {
            if (e.target === e.currentTarget && (e.key === "Enter" || e.key === " ")) {
              e.preventDefault();
              onToggle(v.id);
            }
          }}
        >
          <svg width="28" height="10" aria-hidden="true" className="swatch">
            <line x1="0" x2="28" y1="5" y2="5" stroke={color} strokeWidth="3" strokeDasharray={dash || undefined} />
          </svg>
          <span className="series-name" title={`${v.source}${v.tag ? ` (tag ${v.tag})` : ""}`}>
            {v.name}
          </span>
          <span className="series-meta">
            {formatCount(v.wholeCount)} values
            {v.intervalCount > 0 ? `, ${formatCount(v.intervalCount)} intervals` : ""}
          </span>
          <label className="series-unit" onClick={(e) => e.stopPropagation()} title={`Recorded unit ${UNIT_SOURCE_TEXT[v.unitSource]}`}>
            recorded in{" "}
            <select data-testid="series-unit" value={v.recordedUnit} onChange={(e) => onUnit(v.id, e.target.value as Unit)} aria-label={`Recorded unit of ${v.name}`}>
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {UNIT_LABEL[u]}
                </option>
              ))}
            </select>
            {v.unitSource === "default" ? <span className="warn-inline" title={UNIT_SOURCE_TEXT.default}> ?</span> : null}
          </label>
          <button
            type="button"
            data-testid="export-hgrm"
            onClick={(e) => {
              e.stopPropagation();
              onExport(v.id);
            }}
            title="Download this series' percentile distribution (.hgrm, HdrHistogram's format)"
          >
            .hgrm
          </button>
          <button
            type="button"
            data-testid="remove-series"
            aria-label={`Remove ${v.name}`}
            onClick={(e) => {
              e.stopPropagation();
              onRemove(v.id);
            }}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
