// The live view's own panel: the badge (following or paused, and when the latest lines were
// drawn), pause and resume, how the time axis follows the run, what happened to the files
// (a new run, a deleted file, a file that stopped growing), the moment each series' run so far
// first failed the requirement, and the spectrum of the run so far beside that of the last window.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { PercentilePlot, type PlotSeries, type PlotStep } from "../../charts/percentile-plot/PercentilePlot";
import { formatNumber } from "../../core/format";
import { percentileLabel, type Requirement } from "../../core/requirements";
import { verdictFor } from "../../core/judge";
import type { EngineClient } from "../../engine/client";
import type { SeriesView, TimelineResult, TimeRange } from "../../engine/protocol";
import type { Unit } from "../../core/types";
import type { LiveFollowEnd, LiveState } from "../hooks/use-live";
import type { SeriesRow } from "./SeriesList";

interface Props {
  live: LiveState;
  engine: EngineClient;
  rows: SeriesRow[];
  timeline: TimelineResult | null;
  requirement: Requirement | null;
  unit: Unit;
  yLog: boolean;
  steps: PlotStep[];
  width: number;
  follow: LiveFollowEnd;
  /** The time window of the views in `rows`. */
  range: TimeRange;
  onFollow: (f: LiveFollowEnd) => void;
}

interface FirstFailure {
  id: string;
  name: string;
  /** Seconds since StartTime: the end of the intervals read when the run so far first failed. */
  at: number;
  /** Failed before `at` (earlier than the time axis shows), not found exactly. */
  before: boolean;
  what: string;
}

/** The last window's length (s) when the axis shows the whole run. */
const LAST_WINDOW_S = 60;

/** A plotted series and what it was made of: kept while its view and row are the same objects. */
interface Plotted {
  view: SeriesView;
  row: SeriesRow;
  plot: PlotSeries;
}

/**
 * The plotted series of `views`; a view the engine answered unchanged (the same object, see
 * views-reuse.ts) keeps its plotted series, so that its curve is not drawn again.
 */
function plotOf(views: SeriesView[], rows: SeriesRow[], kept: Map<string, Plotted>): PlotSeries[] {
  const out: PlotSeries[] = [];
  // Series gone (removed, or an ended run's) are forgotten.
  const ids = new Set<string>();
  for (const v of views) ids.add(v.id);
  for (const id of [...kept.keys()]) if (!ids.has(id)) kept.delete(id);
  for (const v of views) {
    const r = rowOf(rows, v.id);
    if (!r || v.spectrum.totalCount <= 0) continue;
    const k = kept.get(v.id);
    if (k && k.view === v && k.row.color === r.color && k.row.dash === r.dash && k.row.view.name === r.view.name) {
      out.push(k.plot);
      continue;
    }
    const sp = v.spectrum;
    const plot: PlotSeries = {
      id: v.id,
      name: v.name,
      color: r.color,
      dash: r.dash,
      recordedUnit: v.recordedUnit,
      values: sp.values,
      cumulative: sp.cumulative,
      totalCount: sp.totalCount,
      max: sp.max,
      min: sp.min,
    };
    kept.set(v.id, { view: v, row: r, plot });
    out.push(plot);
  }
  return out;
}

// Loops and module-level functions, not closures made per update: V8 drops the optimised code of
// short-lived closures at every major collection.
function rowOf(rows: readonly SeriesRow[], id: string): SeriesRow | undefined {
  for (const x of rows) if (x.view.id === id) return x;
  return undefined;
}

const viewOf = (r: SeriesRow) => r.view;

/** The views of the followed run's series. */
function liveOnly(vs: readonly SeriesView[], ids: ReadonlySet<string>): SeriesView[] {
  const out: SeriesView[] = [];
  for (const v of vs) if (ids.has(v.id)) out.push(v);
  return out;
}

export function LivePanel({ live, engine, rows, timeline, requirement, unit, yLog, steps, width, follow, range, onFollow }: Props) {
  const [failures, setFailures] = useState<FirstFailure[]>([]);
  /** The views of the run so far (null: those on screen, the whole run) and of its last window. */
  const [spectra, setSpectra] = useState<{ whole: SeriesView[] | null; last: SeriesView[]; window: [number, number] } | null>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  // The first moment each followed series' run so far fails: looked at when the timeline of a
  // new append arrives. The run so far is judged again at the end of each of the timeline's
  // columns since the last look that passed (a column is one interval unless the run is longer
  // than the chart is wide), so a requirement set late, or a burst, still finds the moment.
  const lastPass = useRef(new Map<string, number>());
  const searching = useRef(false);
  useEffect(() => {
    setFailures([]);
    lastPass.current = new Map();
  }, [requirement]);
  /** A look skipped while another was under way: looked at again when it ends. */
  const skipped = useRef(false);
  const [again, setAgain] = useState(0);
  useEffect(() => {
    if (!timeline || !requirement) return;
    if (searching.current) {
      skipped.current = true;
      return;
    }
    const end = timeline.extent[1];
    // A series without intervals (samples without times) has no moment to name: its verdict is in the list.
    const failing = rowsRef.current.filter((r) => live.ids.has(r.view.id) && r.view.intervalCount > 0 && !failures.some((f) => f.id === r.view.id));
    const found: FirstFailure[] = [];
    const run = async () => {
      for (const r of failing) {
        const v = verdictFor(r.view, requirement);
        if (!v) continue;
        if (v.pass) {
          lastPass.current.set(r.view.id, end);
          continue;
        }
        const from = lastPass.current.get(r.view.id) ?? -Infinity;
        const lane = timeline.series.find((x) => x.id === r.view.id);
        let at: number | null = null;
        let what = v.violations.map((x) => percentileLabel(x.percentile)).join(", ");
        for (let k = 0; lane && k < lane.t1.length; k++) {
          const t1 = lane.t1[k]!;
          if (t1 <= from || lane.count[k] === 0) continue;
          // Intervals that start before the column's end (its last interval ends there).
          const vs = await engine.views({ start: null, end: t1 - 1e-9 });
          const w = vs.find((x) => x.id === r.view.id);
          const wv = w ? verdictFor(w, requirement) : null;
          if (wv && !wv.pass) {
            at = t1;
            what = wv.violations.map((x) => percentileLabel(x.percentile)).join(", ");
            break;
          }
        }
        // Not found in the columns drawn: it failed before the time axis' window.
        found.push({ id: r.view.id, name: r.view.name, at: at ?? lane?.t0[0] ?? end, before: at === null, what });
      }
    };
    searching.current = true;
    void run().finally(() => {
      searching.current = false;
      if (found.length) setFailures((known) => [...known, ...found.filter((f) => !known.some((k) => k.id === f.id))]);
      if (skipped.current) {
        skipped.current = false;
        setAgain((n) => n + 1);
      }
    });
  }, [timeline, requirement, live.ids, engine, failures, again]);

  // The run so far and its last window, asked at each redraw of appended lines beside the
  // spectra and the timeline, and drawn in the same render (use-live.ts); asked here when the
  // panel shows or the time axis' choice changes. The run so far is the views on screen when
  // the page shows the whole run: only the last window is asked then.
  const wholeShown = range.start === null && range.end === null;
  const ask = useCallback(
    async (extent: [number, number]) => {
      const end = extent[1];
      const span = follow === "whole" ? LAST_WINDOW_S : follow * 60;
      const start = Math.max(extent[0], end - span);
      const [whole, last] = await Promise.all([wholeShown ? null : engine.views({ start: null, end: null }), engine.views({ start, end: null })]);
      return () => setSpectra({ whole, last, window: [start, end] });
    },
    [engine, follow, wholeShown],
  );
  useEffect(() => {
    live.lastWindow.current = ask;
    return () => {
      if (live.lastWindow.current === ask) live.lastWindow.current = null;
    };
  }, [ask, live.lastWindow]);
  const timelineRef = useRef(timeline);
  timelineRef.current = timeline;
  const updatedRef = useRef(live.updated);
  updatedRef.current = live.updated;
  useEffect(() => {
    const tl = timelineRef.current;
    if (!tl || updatedRef.current === 0) return;
    let stale = false;
    void ask(tl.extent).then((apply) => {
      if (!stale) apply();
    });
    return () => {
      stale = true;
    };
  }, [ask]);
  const keptWhole = useRef(new Map<string, Plotted>());
  const keptLast = useRef(new Map<string, Plotted>());
  const plotted = useMemo(() => {
    if (!spectra) return null;
    return {
      whole: plotOf(liveOnly(spectra.whole ?? rows.map(viewOf), live.ids), rows, keptWhole.current),
      last: plotOf(liveOnly(spectra.last, live.ids), rows, keptLast.current),
      window: spectra.window,
    };
  }, [spectra, rows, live.ids]);

  const half = Math.max(260, Math.floor((width - 24) / 2));
  return (
    <section className="live-panel">
      <LiveBar paused={live.paused} connected={live.connected} updated={live.updated} pause={live.pause} resume={live.resume} follow={follow} onFollow={onFollow} />
      {failures.length > 0 ? (
        <ul className="live-failures">
          {failures.map((f) => (
            <li key={f.id} data-testid="live-first-failure" data-series={f.name} data-at={f.before ? "" : String(f.at)}>
              ✗ {f.name}: the run so far first failed the requirement ({f.what}){" "}
              {f.before ? `before ${formatNumber(f.at)} s, earlier than the time axis shows` : `with the intervals up to ${formatNumber(f.at)} s`} (seconds since its StartTime)
            </li>
          ))}
        </ul>
      ) : null}
      {live.notes.length > 0 ? (
        <ul className="live-notes" data-testid="live-notes">
          {live.notes.map((n, i) => (
            <li key={`${n.at}-${i}`}>
              {new Date(n.at).toLocaleTimeString()}: {n.text}
            </li>
          ))}
        </ul>
      ) : null}
      {plotted && plotted.whole.length > 0 ? (
        <div className="live-spectra" data-testid="live-spectra">
          {/* Titles above the charts, not inside them: inside, they sat on the y axis' top label. */}
          <figure>
            <figcaption className="live-spectrum-title">The run so far</figcaption>
            <PercentilePlot series={plotted.whole} requirement={steps} unit={unit} yLog={yLog} width={half} height={220} />
          </figure>
          <figure>
            <figcaption className="live-spectrum-title">
              The last window ({formatNumber(plotted.window[0])}–{formatNumber(plotted.window[1])} s)
            </figcaption>
            <PercentilePlot series={plotted.last} requirement={steps} unit={unit} yLog={yLog} width={half} height={220} />
          </figure>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The badge, pause and resume, the time axis' choice and when the latest lines were drawn:
 * memoised on what they show, as the panel renders with every update of the page.
 */
const LiveBar = memo(function LiveBar(p: {
  paused: boolean;
  connected: boolean;
  updated: number;
  pause: () => void;
  resume: () => void;
  follow: LiveFollowEnd;
  onFollow: (f: LiveFollowEnd) => void;
}) {
  const { paused, connected, updated, pause, resume, follow, onFollow } = p;
  return (
    <div className="live-bar">
      <span
        data-testid="live"
        data-live={paused ? "false" : "true"}
        data-updated={String(updated)}
        data-connected={connected ? "true" : "false"}
        className={paused ? "live-badge paused" : "live-badge"}
        title={updated ? `latest lines drawn at ${new Date(updated).toLocaleTimeString()}` : "waiting for the first lines"}
      >
        {paused ? "Paused" : connected ? "● Live" : "● Live (reconnecting…)"}
      </span>
      {paused ? (
        <button type="button" data-testid="live-resume" onClick={resume}>
          Resume
        </button>
      ) : (
        <button type="button" data-testid="live-pause" onClick={pause}>
          Pause
        </button>
      )}
      <label>
        Time axis{" "}
        <select data-testid="live-follow" value={String(follow)} onChange={(e) => onFollow(e.target.value === "whole" ? "whole" : Number(e.target.value))}>
          <option value="whole">the whole run</option>
          <option value="1">the last minute</option>
          <option value="5">the last 5 minutes</option>
          <option value="15">the last 15 minutes</option>
          <option value="60">the last hour</option>
        </select>
      </label>
      {updated ? <span className="live-updated">updated {new Date(updated).toLocaleTimeString()}</span> : <span className="live-updated">waiting for the first lines…</span>}
    </div>
  );
});
