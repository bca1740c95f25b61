// The top bar: open files, display unit and axis, layout, time window, presentation, theme,
// start over, clear, and the progress of a load (with Cancel).
import { memo, useEffect, useState } from "react";
import { formatBytes, formatCountOf } from "../../core/format";
import type { Unit } from "../../core/types";
import type { Progress } from "../../engine/protocol";
import type { TimeRange } from "../../engine/store";
import { RangeInputs } from "./RangeInputs";
import { UnitOptions } from "./UnitOptions";
import type { ViewOptions } from "../hooks/use-view-state";

interface Props {
  onFiles: (files: File[]) => void;
  /** The display options it sets. */
  view: Pick<ViewOptions, "unit" | "setUnit" | "yChoice" | "setYLog" | "sideBySide" | "setSideBySide" | "theme" | "setTheme"> & { yLog: boolean };
  /** The time window, or null when no series has intervals (no inputs then). */
  range: TimeRange | null;
  /** The window of the spectra on screen (the "whole run" button shows with them). */
  shownRange: TimeRange;
  onRange: (r: TimeRange) => void;
  canPresent: boolean;
  onPresent: () => void;
  /** Downloads the deck as a PowerPoint file. */
  onPptx: () => void;
  onStartOver: () => void;
  onClear: () => void;
  busy: boolean;
  progress: Progress | null;
  onCancel: () => void;
}

/** True once `on` has stayed true for `ms` (false again as soon as it is false). */
function useDelayed(on: boolean, ms: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!on) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), ms);
    return () => clearTimeout(t);
  }, [on, ms]);
  return on && shown;
}

type ViewProps = Props["view"] & { onFiles: Props["onFiles"] };

/**
 * The file button and display options: memoised on their values, so that the busy flag and a
 * live run's redraws (the bar renders again for each) leave these inputs alone.
 */
const ViewControls = memo(function ViewControls({ onFiles, unit, setUnit, yChoice, yLog, setYLog, sideBySide, setSideBySide }: Omit<ViewProps, "theme" | "setTheme">) {
  return (
    <>
      <label className="file-button">
        Open files…
        <input
          type="file"
          multiple
          data-testid="file-input"
          onChange={(e) => {
            onFiles(Array.from(e.target.files ?? []));
            e.target.value = "";
          }}
        />
      </label>
      <label>
        Unit{" "}
        <select data-testid="unit-select" value={unit} onChange={(e) => setUnit(e.target.value as Unit)}>
          <UnitOptions />
        </select>
      </label>
      <label>
        <input type="checkbox" data-testid="y-log" checked={yLog} onChange={(e) => setYLog(e.target.checked)} /> log latency axis
        {yChoice === null ? <span className="hint"> (auto)</span> : null}
      </label>
      <label>
        <input type="checkbox" data-testid="side-by-side" checked={sideBySide} onChange={(e) => setSideBySide(e.target.checked)} /> side by side
      </label>
    </>
  );
});

const ThemeToggle = memo(function ThemeToggle({ theme, setTheme }: Pick<ViewProps, "theme" | "setTheme">) {
  return (
    <label>
      <input type="checkbox" data-testid="theme" checked={theme === "dark"} onChange={(e) => setTheme(e.target.checked ? "dark" : "light")} /> dark
    </label>
  );
});

export function Toolbar(p: Props) {
  // "Working…" only for work that lasts: a new time window is answered within a frame or two, and the
  // text flashing in and out cost a relayout and a frame of its own each time (and a status
  // announcement). A load's progress bar shows at once. data-busy is set either way.
  const slow = useDelayed(p.busy && !p.progress, 200);
  const v = p.view;
  return (
    <header className="toolbar">
      <h1>HdrHistogram spectrum</h1>
      <ViewControls
        onFiles={p.onFiles}
        unit={v.unit}
        setUnit={v.setUnit}
        yChoice={v.yChoice}
        yLog={v.yLog}
        setYLog={v.setYLog}
        sideBySide={v.sideBySide}
        setSideBySide={v.setSideBySide}
      />
      {p.range ? <RangeInputs range={p.range} shown={p.shownRange} onChange={p.onRange} /> : null}
      <button type="button" data-testid="present" onClick={p.onPresent} disabled={!p.canPresent}>
        Present
      </button>
      <button type="button" data-testid="download-pptx" onClick={p.onPptx} disabled={!p.canPresent} title="Download the presentation as a PowerPoint file (.pptx)">
        Download PowerPoint
      </button>
      <ThemeToggle theme={v.theme} setTheme={v.setTheme} />
      <button type="button" data-testid="start-over" title="Forget the saved session (files and view) and start again with the demo" onClick={p.onStartOver}>
        Start over
      </button>
      <button type="button" data-testid="clear" onClick={p.onClear}>
        Clear all
      </button>
      {p.busy && (p.progress || slow) ? (
        <span className="progress" role="status" data-testid="progress">
          {p.progress ? (
            <>
              <LoadProgress progress={p.progress} />{" "}
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

/**
 * One bar for the load; when several files load at once (in parallel, on every core), the bar
 * is their total and each file has its own bar in a list that opens on demand.
 */
function LoadProgress({ progress }: { progress: Progress }) {
  const files = progress.files;
  if (!files || files.length < 2) {
    return (
      <>
        {/* Without a length (a server's answer that did not say it) the bar shows activity, not a full bar. */}
        <progress
          data-testid="progress-bar"
          max={progress.totalBytes || 1}
          value={progress.totalBytes ? Math.min(progress.bytes, progress.totalBytes) : undefined}
          aria-label={`Reading ${progress.file}`}
        />{" "}
        {`${progress.file}: ${formatBytes(progress.bytes)}${progress.totalBytes ? ` of ${formatBytes(progress.totalBytes)}` : ""}, ${progress.series !== undefined ? formatCountOf(progress.series, "series", "series") : formatCountOf(progress.intervals, "interval")}`}
      </>
    );
  }
  const total = files.reduce((a, f) => a + f.totalBytes, 0);
  const read = files.reduce((a, f) => a + Math.min(f.bytes, f.totalBytes), 0);
  const done = files.filter((f) => f.done).length;
  return (
    <>
      <progress data-testid="progress-bar" max={total || 1} value={Math.min(read, total || 1)} aria-label={`Reading ${files.length} files`} />{" "}
      <details className="file-progress" data-testid="progress-files">
        <summary>{`${files.length} files: ${done} read, ${formatBytes(read)} of ${formatBytes(total)}`}</summary>
        <ul>
          {files.map((f, k) => (
            <li key={k} data-testid="file-progress" data-file={f.file} data-done={String(f.done)}>
              <progress max={f.totalBytes || 1} value={Math.min(f.bytes, f.totalBytes || 1)} aria-label={`Reading ${f.file}`} /> {f.file}
              {f.done ? " — read" : `: ${formatBytes(f.bytes)} of ${formatBytes(f.totalBytes)}, ${formatCountOf(f.intervals, "interval")}`}
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}
