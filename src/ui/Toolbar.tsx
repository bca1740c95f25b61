// The top bar: open files, display unit and axis, layout, time window, presentation, theme,
// start over, clear, and the progress of a load (with Cancel).
import { formatBytes, formatCount, UNIT_LABEL } from "../core/format";
import { UNITS, type Unit } from "../core/types";
import type { Progress } from "../engine/protocol";
import type { TimeRange } from "../engine/store";
import { RangeInputs } from "./RangeInputs";

interface Props {
  onFiles: (files: File[]) => void;
  unit: Unit;
  onUnit: (u: Unit) => void;
  yLog: boolean;
  onYLog: (v: boolean) => void;
  sideBySide: boolean;
  onSideBySide: (v: boolean) => void;
  /** The time window, or null when no series has intervals (no inputs then). */
  range: TimeRange | null;
  onRange: (r: TimeRange) => void;
  canPresent: boolean;
  onPresent: () => void;
  theme: "light" | "dark";
  onTheme: (t: "light" | "dark") => void;
  onStartOver: () => void;
  onClear: () => void;
  busy: boolean;
  progress: Progress | null;
  onCancel: () => void;
}

export function Toolbar(p: Props) {
  return (
    <header className="toolbar">
      <h1>HdrHistogram spectrum</h1>
      <label className="file-button">
        Open files…
        <input
          type="file"
          multiple
          data-testid="file-input"
          onChange={(e) => {
            p.onFiles(Array.from(e.target.files ?? []));
            e.target.value = "";
          }}
        />
      </label>
      <label>
        Unit{" "}
        <select data-testid="unit-select" value={p.unit} onChange={(e) => p.onUnit(e.target.value as Unit)}>
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_LABEL[u]}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" data-testid="y-log" checked={p.yLog} onChange={(e) => p.onYLog(e.target.checked)} /> log latency axis
      </label>
      <label>
        <input type="checkbox" data-testid="side-by-side" checked={p.sideBySide} onChange={(e) => p.onSideBySide(e.target.checked)} /> side by side
      </label>
      {p.range ? <RangeInputs range={p.range} onChange={p.onRange} /> : null}
      <button type="button" data-testid="present" onClick={p.onPresent} disabled={!p.canPresent}>
        Present
      </button>
      <label>
        <input type="checkbox" data-testid="theme" checked={p.theme === "dark"} onChange={(e) => p.onTheme(e.target.checked ? "dark" : "light")} /> dark
      </label>
      <button type="button" data-testid="start-over" title="Forget the saved session (files and view) and start again with the demo" onClick={p.onStartOver}>
        Start over
      </button>
      <button type="button" data-testid="clear" onClick={p.onClear}>
        Clear all
      </button>
      {p.busy ? (
        <span className="progress" role="status" data-testid="progress">
          {p.progress ? (
            <>
              <progress data-testid="progress-bar" max={p.progress.totalBytes || 1} value={Math.min(p.progress.bytes, p.progress.totalBytes || 1)} aria-label={`Reading ${p.progress.file}`} />{" "}
              {`${p.progress.file}: ${formatBytes(p.progress.bytes)}${p.progress.totalBytes ? ` of ${formatBytes(p.progress.totalBytes)}` : ""}, ${formatCount(p.progress.intervals)} intervals`}{" "}
              <button type="button" data-testid="cancel-load" onClick={p.onCancel}>
                Cancel
              </button>
            </>
          ) : (
            "Working…"
          )}
        </span>
      ) : null}
    </header>
  );
}
