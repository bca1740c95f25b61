// How raw samples (plain values, CSV/TSV) are read: which columns, which units, how long an
// interval is. Applies to the files loaded after a change; guessed when left empty.
import { memo } from "react";
import type { SampleOptions } from "../../formats/source";
import type { Unit } from "../../core/types";
import { UnitOptions } from "./UnitOptions";

function column(v: string): string | number | undefined {
  const t = v.trim();
  if (t === "") return undefined;
  return /^\d+$/.test(t) ? Number(t) : t;
}

// Memoised: its props do not change with the display unit, so a unit change skips it.
export const SampleOptionsPanel = memo(function SampleOptionsPanel({ options, onChange }: { options: SampleOptions; onChange: (o: SampleOptions) => void }) {
  const text = (v: string | number | null | undefined) => (v === undefined || v === null ? "" : String(v));
  return (
    <details className="sample-options">
      <summary>Raw sample options (CSV, plain values)</summary>
      <p className="hint">Columns by header name or 0-based index; empty means guessed. Applies to files loaded next.</p>
      <label>
        latency column{" "}
        <input data-testid="sample-value-column" defaultValue={text(options.valueColumn)} onBlur={(e) => onChange({ ...options, valueColumn: column(e.target.value) })} />
      </label>
      <label>
        unit{" "}
        <select
          data-testid="sample-value-unit"
          value={options.valueUnit ?? ""}
          onChange={(e) => onChange({ ...options, valueUnit: (e.target.value || undefined) as Unit | undefined })}
        >
          <option value="">guess (ms)</option>
          <UnitOptions />
        </select>
      </label>
      <label>
        timestamp column{" "}
        <input
          data-testid="sample-time-column"
          defaultValue={text(options.timestampColumn)}
          onBlur={(e) => onChange({ ...options, timestampColumn: column(e.target.value) ?? null })}
        />
      </label>
      <label>
        timestamps in{" "}
        <select
          data-testid="sample-time-unit"
          value={options.timestampUnit ?? ""}
          onChange={(e) => onChange({ ...options, timestampUnit: (e.target.value || undefined) as SampleOptions["timestampUnit"] })}
        >
          <option value="">guess</option>
          <option value="s">s</option>
          <option value="ms">ms</option>
          <option value="us">µs</option>
          <option value="ns">ns</option>
        </select>
      </label>
      <label>
        label column{" "}
        <input data-testid="sample-label-column" defaultValue={text(options.labelColumn)} onBlur={(e) => onChange({ ...options, labelColumn: column(e.target.value) ?? null })} />
      </label>
      <label>
        interval (s){" "}
        <input
          data-testid="sample-interval"
          type="number"
          min="0.001"
          step="any"
          defaultValue={options.intervalSec ?? 1}
          onBlur={(e) => {
            const v = Number(e.target.value);
            onChange({ ...options, intervalSec: Number.isFinite(v) && v > 0 ? v : 1 });
          }}
        />
      </label>
    </details>
  );
});
