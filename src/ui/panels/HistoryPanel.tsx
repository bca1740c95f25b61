// The history of runs: folders (or files grouped by a run key) become runs, each series'
// percentiles across them are drawn with each run's interval, and the changes found are named
// and marked. A click on a run shows it against the stable stretch before it and can open the
// two in the A vs B panel.
import { memo, useMemo, useState, type DragEvent } from "react";
import "./history.css";
import { HistoryChart } from "../../charts/history/HistoryChart";
import { historyLayout, stretchBefore } from "../../charts/history/layout";
import { formatNumber, UNIT_LABEL } from "../../core/format";
import { changeText, detectChanges, judgedPercentiles, pName, seriesNames, seriesSentence } from "../../core/history";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import { droppedFiles, FOLDER_KEY, pickedFiles } from "../state/history-group";
import { HistoryShare } from "./HistoryShare";
import type { HistoryState } from "../hooks/use-history";

interface Props {
  h: HistoryState;
  unit: Unit;
  width: number;
  /** Loads the run's files and the stretch's into the page and compares them. */
  onCompare?: (run: { id: string; files: File[] }, stretch: { ids: string[]; files: File[] }) => void;
}

const folderInput = { webkitdirectory: "", directory: "" } as object;

// Memoised: the page renders again for much else (a live run's redraws, the busy flag).
export const HistoryPanel = memo(function HistoryPanel({ h, unit, width, onCompare }: Props) {
  const [series, setSeries] = useState<string>("");
  const [selected, setSelected] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  // Found here, in the panel's chunk, not in the page's start: only this panel shows them.
  const changes = useMemo(() => detectChanges(h.runs), [h.runs]);
  const names = useMemo(() => seriesNames(h.runs), [h.runs]);
  const shown = names.includes(series) ? series : (names[0] ?? "");
  const recorded = (h.runs.flatMap((r) => r.series).find((s) => s.name === shown)?.unit ?? "ns") as Unit;
  const scale = NANOS_PER_UNIT[recorded] / NANOS_PER_UNIT[unit];
  const layout = useMemo(
    () => historyLayout({ runs: h.runs, series: shown, changes: changes, width: Math.max(320, width), scale, margin: 0.05 }),
    [h.runs, changes, shown, width, scale],
  );
  const f = (v: number) => `${formatNumber(v * scale)} ${UNIT_LABEL[unit]}`;
  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setDragging(false);
    h.add(await droppedFiles(e.dataTransfer));
  };
  const sel = selected !== null && selected < h.runs.length ? selected : null;
  const stretch = sel !== null ? stretchBefore(sel, changes, shown) : null;

  return (
    <section
      className={`history-panel${dragging ? " dragging" : ""}`}
      data-testid="history"
      data-runs={h.runs.length}
      data-busy={h.progress ? "true" : "false"}
      onDragOver={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => void onDrop(e)}
    >
      <h2>History of runs</h2>
      <div className="history-inputs">
        <label className="button-like">
          Open a history folder…
          <input type="file" data-testid="history-folder-input" {...folderInput} onChange={(e) => h.add(pickedFiles(e.currentTarget.files))} />
        </label>
        <label className="button-like">
          Open run files…
          <input type="file" multiple data-testid="history-files-input" onChange={(e) => h.add(pickedFiles(e.currentTarget.files))} />
        </label>
        <label>
          Run key{" "}
          <input
            data-testid="history-run-key"
            value={h.key}
            size={14}
            title={`${FOLDER_KEY}: each file's folder is its run; or a regular expression matched against the file's path (its first group, or the whole match, names the run)`}
            onChange={(e) => h.setKey(e.currentTarget.value)}
          />
        </label>
        {h.files.length > 0 || h.runs.length > 0 ? (
          <button type="button" data-testid="history-clear" onClick={h.clear}>
            Clear history
          </button>
        ) : null}
        {names.length > 1 ? (
          <select data-testid="history-series" value={shown} onChange={(e) => setSeries(e.currentTarget.value)}>
            {names.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {h.runs.length === 0 && !h.progress ? (
        <p className="hint">
          Drop a history here: a folder with one folder per run (or run files, grouped by the run key). Each run is judged against the stable stretch before it.
        </p>
      ) : null}
      {h.progress ? (
        <p className="hint">
          Reading run {h.progress.done} of {h.progress.total}…
        </p>
      ) : null}
      {h.error ? <p className="error">{h.error}</p> : null}
      {h.unmatched.length > 0 ? (
        <p className="hint">
          {h.unmatched.length} files match no run key (e.g. {h.unmatched[0]}).
        </p>
      ) : null}
      {h.problems.map((p, i) => (
        <p key={i} className="error" data-testid="load-error" data-file={p.file} data-line={p.line ?? ""}>
          {p.file}
          {p.line !== null ? `:${p.line}` : ""}: {p.reason}
        </p>
      ))}
      {h.runs.length > 0 && shown ? (
        <>
          {names.map((n) => (
            <p key={n} className="history-sentence" data-testid="history-sentence" data-series={n}>
              <strong>{n}</strong> over {h.runs.length} runs: {seriesSentence(n, changes, judgedPercentiles(h.runs, n))}.
            </p>
          ))}
          <div className="history-legend">
            {layout.lines.map((l) => (
              <span key={l.percentile}>
                <svg width="18" height="8" aria-hidden="true">
                  <line x1="0" x2="18" y1="4" y2="4" stroke={l.color} strokeWidth="2" strokeDasharray={l.dash || undefined} />
                </svg>{" "}
                {pName(l.percentile)}
              </span>
            ))}
            <span className="history-legend-strip">
              strip: each run ÷ the stable stretch before it, <span className="swatch worse" /> slower, <span className="swatch better" /> faster, grey within ±5 %
            </span>
          </div>
          <HistoryChart layout={layout} unitLabel={UNIT_LABEL[unit]} selected={sel} onRun={setSelected} />
          <ul className="history-changes">
            {changes.map((c, i) => (
              <li
                key={i}
                data-testid="change-point"
                data-series={c.series}
                data-run={c.run}
                data-index={c.index}
                data-percentile={c.percentile}
                data-direction={c.direction}
                data-ratio={c.ratio}
                data-low={c.low}
                data-high={c.high}
                className={c.direction}
              >
                <button
                  type="button"
                  className="link-like"
                  onClick={() => {
                    setSeries(c.series);
                    setSelected(c.index);
                  }}
                >
                  {c.series}: {changeText(c)}
                </button>{" "}
                ({f(c.before)} → {f(c.after)})
              </li>
            ))}
          </ul>
          {sel !== null && stretch ? (
            <div className="history-run" data-testid="history-run" data-run={h.runs[sel]!.id}>
              <strong>{h.runs[sel]!.id}</strong>
              {stretch[1] > stretch[0] ? (
                <>
                  {" "}
                  against the stable stretch before it ({h.runs[stretch[0]]!.id} … {h.runs[stretch[1] - 1]!.id}, {stretch[1] - stretch[0]} runs)
                  {onCompare && h.filesOf(h.runs[sel]!.id).length > 0 ? (
                    <button
                      type="button"
                      data-testid="history-open-compare"
                      onClick={() => {
                        const ids = h.runs.slice(Math.max(stretch[0], stretch[1] - 10), stretch[1]).map((r) => r.id);
                        onCompare({ id: h.runs[sel]!.id, files: h.filesOf(h.runs[sel]!.id) }, { ids, files: ids.flatMap((id) => h.filesOf(id)) });
                      }}
                    >
                      Open in A vs B
                    </button>
                  ) : null}
                </>
              ) : (
                " is the first run"
              )}
            </div>
          ) : null}
          <HistoryShare runs={h.runs} changes={changes} unit={unit} series={shown} />
        </>
      ) : null}
    </section>
  );
});
