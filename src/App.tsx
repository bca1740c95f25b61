import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { PercentilePlot, type PlotSeries } from "./charts/percentile-plot/PercentilePlot";
import { UNIT_LABEL } from "./core/format";
import { NANOS_PER_UNIT, unitFactor, UNITS, type LoadProblem, type Unit } from "./core/types";
import { EngineClient } from "./engine/client";
import { clearSession, saveSession, withLoadedFiles, type Session, type SeriesEdit } from "./ui/session";
import { startApp, type RestoredView } from "./ui/startup";
import type { FileOutcome, Progress } from "./engine/protocol";
import type { SeriesView, TimelineResult, TimeRange } from "./engine/store";
import type { TimelineLine } from "./charts/timeline/Timeline";
import { DEFAULT_TIMELINE, TimelinePanel, type TimelineSettings } from "./ui/TimelinePanel";
import { Warnings } from "./ui/Warnings";
import { RequirementEditor } from "./ui/RequirementEditor";
import { Judgement, judgeRows } from "./ui/Judgement";
import { formatRequirement, parseRequirement, requirementSteps, type Requirement } from "./core/requirements";
import { ChartActions } from "./ui/ChartActions";
import { SampleOptionsPanel } from "./ui/SampleOptionsPanel";
import type { SampleOptions } from "./formats/source";
import { CoIntervalInput } from "./ui/CoIntervalInput";
import { parseExpectedInterval } from "./core/interval";
import { SharePanel } from "./ui/SharePanel";
import { Presentation } from "./ui/Presentation";
import { markdownSummary, spectrumCsv } from "./core/markdown";
import { markdownRows } from "./ui/markdown-rows";
import { formatThroughput } from "./core/naming";
import { LoadErrors } from "./ui/LoadErrors";
import { RemoteConsent, type RemoteQuestion } from "./ui/RemoteConsent";
import { PercentileTable } from "./ui/PercentileTable";
import { SeriesList, type SeriesRow } from "./ui/SeriesList";
import { useElementWidth } from "./ui/use-element-width";
import { useUpdateEffect } from "./ui/use-update-effect";
import { useWindowInput } from "./ui/use-window-input";
import { Toolbar } from "./ui/Toolbar";
import { PastePanel } from "./ui/PastePanel";
import { downloadText } from "./ui/download";
import { useStableCallback } from "./ui/use-stable-callback";
import { usePlotSeries, useSeriesRows } from "./ui/use-series-rows";
import { useAfterNextPaint, useOnScreen } from "./ui/use-after-paint";
import { memberOf, removalOf, replayMerges, replayRemovals, type MergeMember, type RemovedSeries, type SavedMerge } from "./ui/merges";
import { useCoalesced } from "./ui/use-coalesced";
import { TimeAnalysis } from "./ui/TimeAnalysis";
import {
  bandsById,
  DEFAULT_TIME_OPTIONS,
  NO_TIME_INFO,
  sharedSeriesTimes,
  shareTimeOptions,
  timeSummaryLines,
  type SharedTimeInfo,
  type TimeInfo,
  type TimeOptions,
} from "./ui/time-state";
import { thresholdText } from "./core/tail";
import { ComparePanel } from "./ui/ComparePanel";
import { useCompare } from "./ui/use-compare";
import { compareMarkdown } from "./core/compare/markdown";
import type { SharedCompare } from "./share/schema";

/** More series than this in an answer: rendered as a transition (see run). */
const MANY_SERIES = 20;

const engine = new EngineClient();
// Effects run twice under React's StrictMode in development: load the demo once.
let demoRequested = false;

export function App() {
  const [views, setViews] = useState<SeriesView[]>([]);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [unit, setUnit] = useState<Unit>("ms");
  const [yLog, setYLog] = useState(false);
  const [range, setRange] = useState<TimeRange>({ start: null, end: null });
  const [problems, setProblems] = useState<LoadProblem[]>([]);
  const [remoteQuestion, setRemoteQuestion] = useState<RemoteQuestion | null>(null);
  const [pending, setPending] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [dragging, setDragging] = useState(false);
  const rangeRef = useRef(range);
  rangeRef.current = range;
  /**
   * The window of the spectra on screen: the timeline's shading and the window inputs follow
   * it, so a new window changes nothing visible until its spectra arrive, and the page is
   * painted once with all of it (an intermediate frame for the shading alone held the main
   * thread while the engine's answer waited).
   */
  const [shownRange, setShownRange] = useState<TimeRange>(range);
  const pasteCount = useRef(0);
  const [sampleOpts, setSampleOpts] = useState<SampleOptions>({});
  const sampleOptions = useRef(sampleOpts);
  sampleOptions.current = sampleOpts;
  /** What reloading the page restores (files as blobs, and the view); see ui/session.ts. */
  const session = useRef<Session>({ demo: false, files: [], view: null });
  const sessionReady = useRef(false);
  const keepFiles = (outcomes: FileOutcome[], blobs: { name: string; blob: Blob }[]) => {
    session.current = withLoadedFiles(session.current, outcomes, blobs);
    void saveSession(session.current);
  };
  /** The demo's requirement: "Clear all" drops it with the demo unless the user changed it. */
  const demoRequirement = useRef<Requirement | null>(null);
  const [plotBox, plotWidth] = useElementWidth<HTMLDivElement>();
  const [timeline, setTimeline] = useState<TimelineResult | null>(null);
  const [tl, setTl] = useState<TimelineSettings>(DEFAULT_TIMELINE);
  const [requirement, setRequirement] = useState<Requirement | null>(null);
  /** Heatmap, requirement in every window, tail attribution: options and what they found. */
  const [timeOpts, setTimeOpts] = useState<TimeOptions>(DEFAULT_TIME_OPTIONS);
  const [timeInfo, setTimeInfo] = useState<TimeInfo>(NO_TIME_INFO);
  /** What an opened share link's page found in its intervals (this page has none to compute it). */
  const [sharedTime, setSharedTime] = useState<SharedTimeInfo | null>(null);
  const timeBands = useMemo(() => bandsById(timeInfo), [timeInfo]);
  const timeNotes = useMemo(() => timeSummaryLines(timeInfo, unit), [timeInfo, unit]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [sideBySide, setSideBySide] = useState(false);
  const [presenting, setPresenting] = useState(false);
  const [theme, setTheme] = useState<"light" | "dark">("light");
  /** The CO correction's expected interval as applied (kept in the saved session). */
  const [coText, setCoText] = useState("");
  /** Unit and identity edits per series, by file and tag (kept in the saved session). */
  const edits = useRef(new Map<string, SeriesEdit>());
  const [editsVersion, setEditsVersion] = useState(0);
  /** Merges made in the page, in order (kept in the saved session; see ui/merges.ts), and which shown series each made. */
  const merges = useRef<SavedMerge[]>([]);
  const mergeIndex = useRef(new Map<string, number>());
  /** Loaded series the user removed, in order (kept in the saved session: their files stay in it). */
  const removed = useRef<RemovedSeries[]>([]);
  /** The comparison on screen, for the saved session (set where the comparison's hook is). */
  const compareRef = useRef<SharedCompare | null>(null);
  const noteEdit = (v: SeriesView | undefined, change: Pick<SeriesEdit, "unit" | "patch">) => {
    // Merged and corrected series are made in the page, not loaded: nothing to re-apply.
    if (!v || v.correctedFrom || v.mergedFrom.length > 0) return;
    const key = `${v.source}\u0000${v.tag}`;
    const prev = edits.current.get(key) ?? { source: v.source, tag: v.tag };
    edits.current.set(key, { ...prev, ...(change.unit ? { unit: change.unit } : {}), ...(change.patch ? { patch: { ...prev.patch, ...change.patch } } : {}) });
    setEditsVersion((n) => n + 1);
  };
  const plotRef = useRef<HTMLDivElement>(null);
  const [tableBox, tableOnScreen] = useOnScreen<HTMLDivElement>();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const tlQuery = useRef({ domain: tl.domain, percentiles: tl.percentiles, width: plotWidth });
  tlQuery.current = { domain: tl.domain, percentiles: tl.percentiles, width: plotWidth };

  /**
   * Runs an engine task, then refreshes what it may have changed (the spectra and table, the
   * timeline), and only then clears the busy flag, in the same render as the new data.
   */
  const run = useCallback(async (task: (() => Promise<FileOutcome[] | null | void>) | null, refresh: { views?: boolean; timeline?: boolean } = {}) => {
    setPending((n) => n + 1);
    // Many series are rendered as a transition: React renders them in slices and the page
    // stays responsive (100 logs dropped at once made one 100+ ms task of it). Few are
    // rendered at once, which is quicker. Everything the answer changes, the busy flag's
    // release included, goes the same way, so data-busy never turns false before the data shows.
    let many = false;
    const apply = (f: () => void) => (many ? startTransition(f) : f());
    try {
      // No task: the queries below are posted at once, in the caller's task (a new time
      // window reaches the engine before React renders the inputs, not after).
      const outcomes = task ? await task() : null;
      const q = tlQuery.current;
      const asked = rangeRef.current;
      const nextP = refresh.views === false ? null : engine.views(asked);
      const tlP =
        refresh.timeline === false
          ? null
          : engine.timeline({ t0: q.domain?.[0] ?? null, t1: q.domain?.[1] ?? null, columns: Math.max(100, q.width - 92), percentiles: q.percentiles });
      // The spectra are rendered as soon as they arrive, while the engine computes the
      // timeline (answered after them): after a 24-hour load that overlaps much of each.
      // Busy stays true until both are shown.
      const next = await nextP;
      many = next !== null && next.length > MANY_SERIES;
      // Many: one transition for spectra and timeline together (a second one arriving while
      // React renders the first would restart that render, which grows with the series count).
      const tl = many ? await tlP : null;
      if (next) {
        apply(() => {
          setViews(next);
          setShownRange(asked);
          if (tl) setTimeline(tl);
        });
      }
      if (!many) {
        const later = await tlP;
        if (later) setTimeline(later);
      }
      if (outcomes) {
        const found = outcomes.flatMap((o) => o.problems);
        if (found.length > 0) setProblems((p) => [...p, ...found]);
      }
    } catch (e) {
      setProblems((p) => [...p, { file: "(app)", line: null, reason: e instanceof Error ? e.message : String(e) }]);
    } finally {
      apply(() => {
        setProgress(null);
        setPending((n) => n - 1);
      });
    }
  }, []);

  const loadFiles = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      void run(async () => {
        const out = await engine.load(files, setProgress, sampleOptions.current);
        keepFiles(
          out,
          files.map((f) => ({ name: f.name, blob: f })),
        );
        return out;
      });
      // eslint-disable-next-line react-hooks/exhaustive-deps
    },
    [run],
  );

  const loadText = useCallback(
    (text: string, name?: string) => {
      if (!text.trim()) return;
      pasteCount.current += 1;
      const n = name ?? `pasted-${pasteCount.current}.txt`;
      void run(async () => {
        const out = await engine.loadText(n, text, sampleOptions.current);
        keepFiles(out, [{ name: n, blob: new Blob([text], { type: "text/plain" }) }]);
        return out;
      });
      // eslint-disable-next-line react-hooks/exhaustive-deps
    },
    [run],
  );

  /** Puts a restored view (from a share link or the saved session) on screen. */
  const applyView = async (v: RestoredView) => {
    setUnit(v.unit);
    setYLog(v.yLog);
    setSideBySide(v.sideBySide);
    const req = v.requirement ? parseRequirement(v.requirement) : null;
    setRequirement(req && req.ok ? req.value : null);
    rangeRef.current = v.range; // the views asked for below, and by the run that restores, use it
    setRange(v.range);
    setTl({ ...DEFAULT_TIMELINE, ...v.timeline });
    if (v.theme) setTheme(v.theme);
    if (v.timeOptions) setTimeOpts({ ...DEFAULT_TIME_OPTIONS, ...v.timeOptions });
    setSharedTime(v.sharedTime ?? null);
    if (v.compare) cmp.restore(v.compare);
    if (v.coInterval) {
      // Only what the field accepted was saved; a session edited by hand is checked again.
      const ns = parseExpectedInterval(v.coInterval);
      if (ns !== null && !Number.isNaN(ns)) {
        await engine.setCoInterval(ns);
        setCoText(v.coInterval);
      }
    }
    if (v.edits && v.edits.length > 0) {
      // Edits go back onto the series of the same file and tag, before names are matched
      // for hiding (an edit may have renamed a series).
      const loaded = await engine.views(rangeRef.current);
      for (const e of v.edits) {
        const target = loaded.find((x) => x.source === e.source && x.tag === e.tag && !x.correctedFrom && x.mergedFrom.length === 0);
        if (!target) continue;
        if (e.unit && (UNITS as readonly string[]).includes(e.unit)) await engine.setUnit(target.id, e.unit as Unit);
        if (e.patch) await engine.setIdentity(target.id, e.patch);
        edits.current.set(`${e.source}\u0000${e.tag}`, e);
      }
    }
    if (v.merges && v.merges.length > 0) {
      merges.current = v.merges;
      mergeIndex.current = await replayMerges(v.merges, await engine.views(rangeRef.current), {
        merge: (ids, name) => engine.merge(ids, name),
        remove: (id) => engine.remove(id),
      });
    }
    // After the merges: a merge may have been made from a series removed later.
    if (v.removed && v.removed.length > 0) {
      removed.current = v.removed;
      await replayRemovals(v.removed, await engine.views(rangeRef.current), (id) => engine.remove(id));
    }
    const all = await engine.views(rangeRef.current);
    setHidden(new Set(all.filter((x, i) => v.hidden(x.name, i)).map((x) => x.id)));
  };

  // A share link or #src= link opens what it names; a reload restores the saved session;
  // otherwise the first screen is the demo: System A vs System B at several throughputs.
  useEffect(() => {
    if (demoRequested) return;
    demoRequested = true;
    void run(() =>
      startApp({
        engine,
        setProgress,
        applyView,
        session,
        onSessionReady: () => {
          sessionReady.current = true;
        },
        onDemoRequirement: (text) => {
          const r = parseRequirement(text);
          if (r.ok) {
            setRequirement(r.value);
            demoRequirement.current = r.value;
          }
        },
        askRemote: (hosts, answer) => setRemoteQuestion({ hosts, answer }),
      }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run]);

  // The view is saved as it changes (after the session was restored, so a restore is not undone).
  useEffect(() => {
    if (!sessionReady.current) return;
    const t = setTimeout(() => {
      if (!sessionReady.current) return; // Start over was pressed meanwhile
      session.current = {
        ...session.current,
        view: {
          unit,
          yLog,
          sideBySide,
          requirement: requirement ? formatRequirement(requirement) : null,
          range,
          hiddenNames: views.filter((v) => hidden.has(v.id)).map((v) => v.name),
          timeline: { percentiles: tl.percentiles, perLane: tl.perLane, wallClock: tl.wallClock, log: tl.log },
          theme,
          coInterval: coText || undefined,
          edits: edits.current.size > 0 ? [...edits.current.values()] : undefined,
          merges: merges.current.length > 0 ? merges.current : undefined,
          removed: removed.current.length > 0 ? removed.current : undefined,
          timeOptions: timeOpts,
          compare: compareRef.current ?? undefined,
        },
      };
      void saveSession(session.current);
    }, 200);
    return () => clearTimeout(t);
  }, [unit, yLog, sideBySide, requirement, range, hidden, views, tl, theme, coText, editsVersion, timeOpts]);

  // A new time window re-queries the spectra, asked for in the event that set it: the engine
  // computes while React renders the inputs and the busy state (one render, not two: the
  // window and busy are batched), rather than from an effect after that render.
  // Zoom, chosen percentiles and width re-query only the timeline.
  const changeRange = useCallback(
    (r: TimeRange) => {
      rangeRef.current = r;
      setRange(r);
      void run(null, { timeline: false });
    },
    [run],
  );
  // Timeline queries are coalesced (the chart draws each zoom/pan step at once from the
  // buckets it has; see Timeline), and the app stays busy until the last one has landed.
  const timelineOnly = useCallback(() => run(null, { views: false }), [run]);
  const holdBusy = useCallback((d: 1 | -1) => setPending((n) => n + d), []);
  const refreshTimeline = useCoalesced(timelineOnly, holdBusy);
  const zoomBoth = useCallback((d: [number, number] | null) => setTl((s) => ({ ...s, domain: d })), []);
  const cmp = useCompare(engine, views, shownRange, holdBusy);
  compareRef.current = cmp.shared;
  const compareKey = cmp.shared ? JSON.stringify(cmp.shared) : "";
  // A new comparison is saved with the view (the save effect runs on editsVersion).
  useUpdateEffect(() => setEditsVersion((n) => n + 1), [compareKey]);
  useUpdateEffect(refreshTimeline, [tl.domain, tl.percentiles, plotWidth, refreshTimeline]);

  useWindowInput({
    onEscape: () => {
      // Escape leaves a presentation (Presentation listens for it): it must not also open the
      // time window again underneath.
      if (presenting) return;
      const r = rangeRef.current;
      if (r.start !== null || r.end !== null) changeRange({ start: null, end: null });
    },
    onPasteFiles: loadFiles,
    onPasteText: loadText,
  });

  // Rows and plot series keep their objects while unchanged (memoised children skip).
  const rows: SeriesRow[] = useSeriesRows(views, hidden, requirement, theme);
  const visibleRows = useMemo(() => rows.filter((r) => r.visible), [rows]);
  const plotSeries: PlotSeries[] = usePlotSeries(visibleRows);

  const toggle = useStableCallback((id: string) =>
    setHidden((h) => {
      const n = new Set(h);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    }),
  );

  const exportSeries = useStableCallback((id: string) => {
    const v = views.find((x) => x.id === id);
    if (!v) return;
    void engine.exportHgrm(id, rangeRef.current, unit).then((text) => downloadText(`${v.name}.hgrm`, text));
  });
  const selectSeries = useStableCallback((id: string, on: boolean) =>
    setSelected((cur) => {
      const n = new Set(cur);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    }),
  );
  const setIdentity = useStableCallback((id: string, patch: Parameters<typeof engine.setIdentity>[1]) => {
    noteEdit(
      views.find((v) => v.id === id),
      { patch },
    );
    void run(
      async () => {
        await engine.setIdentity(id, patch);
        return null;
      },
      { timeline: false },
    );
  });
  const removeSeries = useStableCallback((id: string) => {
    const v = views.find((x) => x.id === id);
    if (v && edits.current.delete(`${v.source}\u0000${v.tag}`)) setEditsVersion((n) => n + 1);
    const gone = v ? removalOf(v, views) : null;
    if (gone) {
      removed.current = [...removed.current, gone];
      setEditsVersion((n) => n + 1);
    }
    const k = mergeIndex.current.get(id);
    if (k !== undefined) {
      // Kept, marked removed: a later merge may have been made from it.
      merges.current = merges.current.map((m, i) => (i === k ? { ...m, removed: true } : m));
      mergeIndex.current.delete(id);
      setEditsVersion((n) => n + 1);
    }
    void run(async () => {
      await engine.remove(id);
      return null;
    });
  });
  const setSeriesUnit = useStableCallback((id: string, u: Unit) => {
    noteEdit(
      views.find((v) => v.id === id),
      { unit: u },
    );
    void run(async () => {
      await engine.setUnit(id, u);
      return null;
    });
  });

  // The timeline's lines depend on which series are shown and how they look, not on their
  // spectra: a new time window brings new spectra (new rows) but must not redraw the timeline
  // canvas (resizing and repainting it was a large part of every window change).
  const lineLooks = visibleRows.map((r) => `${r.view.id}\u0000${r.view.name}\u0000${r.color}\u0000${r.dash}`).join("\u0001");
  const timelineLines: TimelineLine[] = useMemo(() => {
    if (!timeline) return [];
    const byId = new Map(timeline.series.map((t) => [t.id, t]));
    return visibleRows.flatMap((r) => {
      const data = byId.get(r.view.id);
      return data ? [{ id: r.view.id, name: r.view.name, color: r.color, dash: r.dash, data }] : [];
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [timeline, lineLooks]);

  const plotSteps = useMemo(
    () =>
      requirement
        ? requirementSteps(requirement).map((st) => ({
            ...st,
            label: `${st.to >= 100 ? "max" : `p${st.to}`} ≤ ${Number((st.limitNs / NANOS_PER_UNIT[unit]).toPrecision(4))} ${UNIT_LABEL[unit]}`,
          }))
        : [],
    [requirement, unit],
  );

  const configsShown = [...new Set(visibleRows.map((r) => r.view.config))];
  // In ns, like the plot's layout.
  const sharedExtent = useMemo(() => {
    const ns = (p: PlotSeries, v: number) => v * NANOS_PER_UNIT[p.recordedUnit];
    return { max: Math.max(0, ...plotSeries.map((p) => ns(p, p.max))), min: Math.min(Infinity, ...plotSeries.filter((p) => p.min > 0).map((p) => ns(p, p.min))) };
  }, [plotSeries]);

  // The judgment, shared by the summary, the Markdown and the presentation.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const judged = useMemo(() => judgeRows(visibleRows, requirement), [rows, requirement]);

  const shareUrl = useRef<string | null>(null);
  // Stable identities (they read the latest state when called) so the share panel is skipped.
  const makeLink = useStableCallback(async (fullPrecision: boolean) => {
    try {
      const view = {
        displayUnit: unit,
        yLog,
        sideBySide,
        requirement: requirement ? formatRequirement(requirement) : null,
        range,
        timeline: { percentiles: tl.percentiles, perLane: tl.perLane, wallClock: tl.wallClock, log: tl.log },
        ...(shareTimeOptions(timeOpts) ? { time: shareTimeOptions(timeOpts) } : {}),
        ...(cmp.shared ? { compare: cmp.shared } : {}),
      };
      const times = sharedSeriesTimes(timeInfo);
      const looks = rows
        .filter((r) => !r.view.correctedFrom)
        .map((r) => ({ id: r.view.id, color: r.color, visible: r.visible, ...(times.has(r.view.id) ? { time: times.get(r.view.id) } : {}) }));
      const enc = await engine.share(view, looks, range, fullPrecision);
      const url = `${window.location.origin}${window.location.pathname}#${enc.fragment}`;
      shareUrl.current = url;
      return { url, lossy: enc.lossy, length: url.length };
    } catch (e) {
      return { error: `Could not make a link: ${e instanceof Error ? e.message : String(e)}` };
    }
  });

  const makeMarkdown = useStableCallback(
    () =>
      markdownSummary({
        rows: markdownRows(visibleRows, unit),
        unit,
        requirement: requirement ? formatRequirement(requirement) : null,
        sentence: judged.sentence,
        shareUrl: shareUrl.current,
        range,
        notes: timeNotes,
      }) + (cmp.result ? `\n${compareMarkdown(cmp.result, unit)}` : ""),
  );
  const setCoInterval = useStableCallback((ns: number | null, text: string) => {
    setCoText(text);
    void run(
      async () => {
        await engine.setCoInterval(ns);
        return null;
      },
      { timeline: false },
    );
  });
  const dismissProblems = useCallback(() => setProblems([]), []);
  /** A click on the spectrum: the tail threshold becomes the value of the curve clicked there. */
  const pickThreshold = useCallback((p: { valueNs: number }) => setTimeOpts((o) => ({ ...o, tail: thresholdText(p.valueNs) })), []);

  // Off screen, the table takes a new display unit one frame after the chart (see use-after-paint.ts).
  const tableUnit = useAfterNextPaint(unit, () => !tableOnScreen());
  const busy = pending > 0 || tableUnit.stale;
  const hasIntervals = views.some((v) => v.intervalCount > 0);

  return (
    <div
      data-testid="app"
      data-busy={busy ? "true" : "false"}
      className={dragging ? "app dragging" : "app"}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        const files = Array.from(e.dataTransfer.files);
        if (files.length > 0) loadFiles(files);
        else loadText(e.dataTransfer.getData("text/plain"));
      }}
    >
      <Toolbar
        onFiles={loadFiles}
        unit={unit}
        onUnit={setUnit}
        yLog={yLog}
        onYLog={setYLog}
        sideBySide={sideBySide}
        onSideBySide={setSideBySide}
        range={hasIntervals ? range : null}
        shownRange={shownRange}
        onRange={changeRange}
        canPresent={visibleRows.length > 0}
        onPresent={() => setPresenting(true)}
        theme={theme}
        onTheme={setTheme}
        onStartOver={async () => {
          // No view save may land after the clear (a save due 200 ms after the last change
          // brought the session back after the reload, now and then).
          sessionReady.current = false;
          await clearSession();
          window.location.hash = "";
          window.location.reload();
        }}
        onClear={() =>
          void run(async () => {
            await engine.clear();
            setHidden(new Set());
            setProblems([]);
            edits.current.clear();
            merges.current = [];
            mergeIndex.current.clear();
            removed.current = [];
            setEditsVersion((n) => n + 1);
            session.current = { demo: false, files: [], view: session.current.view };
            void saveSession(session.current);
            setRequirement((r) => (r !== null && r === demoRequirement.current ? null : r));
            setSharedTime(null);
            return null;
          })
        }
        busy={busy}
        progress={progress}
        onCancel={() => engine.cancel()}
      />
      <div className="toolbar second">
        <RequirementEditor requirement={requirement} onChange={setRequirement} />
        <CoIntervalInput value={coText} onChange={setCoInterval} />
      </div>
      <RemoteConsent
        question={remoteQuestion}
        onAnswer={(load) => {
          setRemoteQuestion(null);
          if (remoteQuestion) void run(() => remoteQuestion.answer(load));
        }}
      />
      <LoadErrors problems={problems} onDismiss={dismissProblems} />
      <Warnings rows={visibleRows} />
      <main className="main">
        <section className="chart-panel" ref={plotBox}>
          <Judgement part="summary" rows={visibleRows} requirement={requirement} unit={unit} width={Math.max(320, plotWidth)} time={timeInfo} />
          <div ref={plotRef}>
            {visibleRows.length > 0 && sideBySide && configsShown.length > 1 ? (
              <div className="small-multiples" data-testid="small-multiples">
                {configsShown.map((c) => (
                  <PercentilePlot
                    key={c}
                    title={c || "(no configuration)"}
                    series={plotSeries.filter((p) => visibleRows.find((r) => r.view.id === p.id)?.view.config === c)}
                    requirement={plotSteps}
                    unit={unit}
                    yLog={yLog}
                    yExtent={sharedExtent}
                    width={Math.max(300, Math.floor(plotWidth / 2) - 8)}
                    height={320}
                  />
                ))}
              </div>
            ) : visibleRows.length > 0 ? (
              <PercentilePlot
                series={plotSeries}
                requirement={plotSteps}
                unit={unit}
                yLog={yLog}
                width={Math.max(320, plotWidth)}
                height={440}
                onPick={hasIntervals ? pickThreshold : undefined}
              />
            ) : (
              <div className="drop-hint" data-testid="percentile-plot" data-empty="true">
                Drop HdrHistogram logs (.hlog), percentile files (.hgrm) or wrk2 output here, or paste text.
              </div>
            )}
          </div>
          {visibleRows.length > 0 ? (
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
          {timeline && timelineLines.length > 0 ? (
            <TimelinePanel
              timeline={timeline}
              lines={timelineLines}
              unit={unit}
              range={shownRange}
              width={Math.max(320, plotWidth)}
              settings={tl}
              onSettings={setTl}
              onRange={changeRange}
              bands={timeBands}
            />
          ) : null}
          {(hasIntervals || sharedTime) && visibleRows.length > 0 ? (
            <TimeAnalysis
              shared={sharedTime}
              engine={engine}
              rows={visibleRows}
              requirement={requirement}
              unit={unit}
              range={shownRange}
              width={Math.max(320, plotWidth)}
              domain={tl.domain}
              options={timeOpts}
              onOptions={setTimeOpts}
              onZoom={zoomBoth}
              onRange={changeRange}
              onInfo={setTimeInfo}
              holdBusy={holdBusy}
            />
          ) : null}
          <div ref={tableBox}>
            <PercentileTable rows={visibleRows} unit={tableUnit.value} />
          </div>
          <Judgement part="chart" rows={visibleRows} requirement={requirement} unit={unit} width={Math.max(320, plotWidth)} />
          <ComparePanel c={cmp} views={views} unit={unit} width={Math.max(320, plotWidth)} />
        </section>
        <aside className="side-panel">
          <h2>Series</h2>
          {selected.size >= 2 ? (
            <button
              type="button"
              data-testid="merge"
              className="merge-button"
              onClick={() => {
                const chosen = views.filter((v) => selected.has(v.id));
                const ids = chosen.map((v) => v.id);
                const members = chosen.map((v) => memberOf(v, mergeIndex.current));
                setSelected(new Set());
                void run(async () => {
                  const id = await engine.merge(ids);
                  // Remembered for the saved session when every member can be named again.
                  if (members.every((m) => m !== null)) {
                    const name = (await engine.views(rangeRef.current)).find((v) => v.id === id)?.name ?? "merged";
                    merges.current = [...merges.current, { members: members as MergeMember[], name }];
                    mergeIndex.current.set(id, merges.current.length - 1);
                    setEditsVersion((n) => n + 1);
                  }
                  return null;
                });
              }}
            >
              Merge {selected.size} selected into one series
            </button>
          ) : null}
          <SeriesList
            rows={rows}
            selected={selected}
            onSelect={selectSeries}
            onIdentity={setIdentity}
            onToggle={toggle}
            onExport={exportSeries}
            onRemove={removeSeries}
            onUnit={setSeriesUnit}
          />
          <SharePanel makeMarkdown={makeMarkdown} makeLink={makeLink} />
          <SampleOptionsPanel options={sampleOpts} onChange={setSampleOpts} />
          <PastePanel onLoad={loadText} />
        </aside>
      </main>
      {presenting ? (
        <Presentation
          sentence={judged.sentence}
          sustainable={judged.sustainable.map((x) => ({
            config: x.config,
            text: x.maxThroughput === null ? (x.points.length ? "fails at every tested throughput" : "no throughput known") : `sustains ${formatThroughput(x.maxThroughput)}`,
          }))}
          plotSeries={plotSeries}
          steps={plotSteps}
          unit={unit}
          yLog={yLog}
          timeline={timeline}
          timelineLines={timelineLines}
          compare={cmp.result}
          onExit={() => setPresenting(false)}
          notes={timeNotes}
          heatmap={timeInfo.heatmap}
        />
      ) : null}
    </div>
  );
}
