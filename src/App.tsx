import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { PlotSeries } from "./charts/percentile-plot/PercentilePlot";
import type { SeriesView } from "./engine/protocol";
import type { TimelineLine } from "./charts/timeline/Timeline";
import { formatThroughput } from "./core/naming";
import { thresholdText } from "./core/tail";
import { engine } from "./ui/state/page-engine";
import type { SampleOptions } from "./formats/source";
import type { PrometheusAuth, PrometheusRequest } from "./engine/prometheus-query";
import { TimelinePanel } from "./ui/panels/TimelinePanel";
import { Warnings } from "./ui/panels/Warnings";
import { FollowButton } from "./ui/panels/FollowButton";
import { RequirementEditor } from "./ui/panels/RequirementEditor";
import { Judgement, judgeRows } from "./ui/panels/Judgement";
import { SampleOptionsPanel } from "./ui/panels/SampleOptionsPanel";
import { CoIntervalInput } from "./ui/panels/CoIntervalInput";
import { SharePanel } from "./ui/panels/SharePanel";
import { LoadErrors } from "./ui/panels/LoadErrors";
import { RemoteConsent, type RemoteQuestion } from "./ui/panels/RemoteConsent";
import { PercentileTable } from "./ui/panels/PercentileTable";
import { SeriesList, type SeriesRow } from "./ui/panels/SeriesList";
import { SpectrumPanel, usePlotSteps } from "./ui/panels/SpectrumPanel";
import { useElementWidth } from "./ui/hooks/use-element-width";
import { useUpdateEffect } from "./ui/hooks/use-update-effect";
import { useWindowInput } from "./ui/hooks/use-window-input";
import { Toolbar } from "./ui/panels/Toolbar";
import { PastePanel } from "./ui/panels/PastePanel";
import { PrometheusPanel } from "./ui/panels/PrometheusPanel";
import { downloadText } from "./ui/export/download";
import { downloadPptx } from "./ui/export/pptx-download";
import { useStableCallback } from "./ui/hooks/use-stable-callback";
import { usePlotSeries, useSeriesRows, useTimelineLines } from "./ui/hooks/use-series-rows";
import { useAfterNextPaint, useOnScreen } from "./ui/hooks/use-after-paint";
import { bandsById, NO_TIME_INFO, timeSummaryLines, type SharedTimeInfo, type TimeInfo } from "./ui/state/time-state";
import { ComparePanel, HistoryPanel, Presentation, TimeAnalysis, useChunksLoading } from "./ui/panels/lazy-panels";
import { LinkBasis } from "./ui/panels/LinkBasis";
import { useHistory } from "./ui/hooks/use-history";
import { useHistoryCompare } from "./ui/hooks/use-history-compare";
import { comparable, configPair, useCompare } from "./ui/hooks/use-compare";
import { PairPicker } from "./ui/deck/PairPicker";
import { DemoBanner } from "./ui/panels/DemoBanner";
import { demoSources } from "./ui/state/startup";
import { useHeadline, useRequirementPercentiles } from "./ui/panels/Headline";
import { useEngine } from "./ui/hooks/use-engine";
import { useSeriesEdits } from "./ui/hooks/use-series-edits";
import { useSaveView, useSession } from "./ui/hooks/use-session";
import { useRestore } from "./ui/hooks/use-restore";
import { useShareActions } from "./ui/hooks/use-share-actions";
import { useDropZone } from "./ui/hooks/use-drop-zone";
import { useViewState } from "./ui/hooks/use-view-state";
import { sessionOfView, type ViewState } from "./ui/state/view-state";
import { spectrumSpanNs, valuesSpanNs, wantsLogAxis } from "./core/log-axis";
import { NANOS_PER_UNIT } from "./core/types";
import { useLive, type LiveFollowEnd } from "./ui/hooks/use-live";
import { LivePanel } from "./ui/panels/LivePanel";

// Module-level, not closures made per render: V8 drops the optimised code of short-lived
// closures at every major collection, and the app renders a few times a second while following.
const isVisible = (r: SeriesRow) => r.visible;
const spanOfPlot = (p: PlotSeries) => ({ values: p.values, max: p.max, nanos: NANOS_PER_UNIT[p.recordedUnit] });
const spanOfLine = (l: TimelineLine) => ({ values: l.data.max, nanos: NANOS_PER_UNIT[l.data.recordedUnit] });
const hasIntervalsIn = (v: SeriesView) => v.intervalCount > 0;
const isDemo = (v: SeriesView) => demoSources.has(v.source);

export function App() {
  const vs = useViewState();
  const { unit, requirement, tl, timeOpts } = vs;
  const [plotBox, plotWidth] = useElementWidth<HTMLDivElement>();
  const eng = useEngine(engine, { domain: tl.domain, percentiles: tl.percentiles, width: plotWidth });
  const { views, timeline, range, shownRange, run, changeRange, holdBusy } = eng;
  const edits = useSeriesEdits(engine, eng);
  const [sampleOpts, setSampleOpts] = useState<SampleOptions>({});
  /** What reloading the page restores (files as blobs, and the view); see ui/state/session.ts. */
  const sess = useSession(engine, eng, sampleOpts);
  const { loadFiles, loadText } = sess;
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [remoteQuestion, setRemoteQuestion] = useState<RemoteQuestion | null>(null);
  const [presenting, setPresenting] = useState(false);
  /** The series to pick a pair from before presenting, while asking. */
  const [askPair, setAskPair] = useState<string[] | null>(null);
  const drop = useDropZone(loadFiles, loadText);
  /** What the time panel found in the intervals, and what an opened share link's page found (this page has none to compute it). */
  const [timeInfo, setTimeInfo] = useState<TimeInfo>(NO_TIME_INFO);
  const [sharedTime, setSharedTime] = useState<SharedTimeInfo | null>(null);
  const timeBands = useMemo(() => bandsById(timeInfo), [timeInfo]);
  const timeNotes = useMemo(() => timeSummaryLines(timeInfo, unit), [timeInfo, unit]);
  const [tableBox, tableOnScreen] = useOnScreen<HTMLDivElement>();
  const reqPs = useRequirementPercentiles(requirement);
  const cmp = useCompare(engine, views, shownRange, holdBusy, reqPs.extras);
  const headline = useHeadline(cmp.result, views, reqPs.percentiles, unit, cmp.headlineAt);
  const history = useHistory(holdBusy);
  const openHistoryCompare = useHistoryCompare(views, loadFiles, (n) => cmp.restore({ ...n, margin: cmp.margin, repeats: true }));
  /** The comparison on screen, for the saved session. */
  const compareRef = useRef(cmp.shared);
  compareRef.current = cmp.shared;
  // A new comparison is saved with the view (the save runs on the edits' version).
  useUpdateEffect(edits.bump, [cmp.shared ? JSON.stringify(cmp.shared) : ""]);

  const demoRequirement = useRestore({ engine, eng, vs, edits, sess, restoreCompare: cmp.restore, setHidden, setSharedTime, askRemote: setRemoteQuestion });
  const hiddenNames = () => views.filter((v) => hidden.has(v.id)).map((v) => v.name);
  /** The axes as drawn (they follow the data), for the saved session. */
  const axesRef = useRef<Pick<ViewState, "yLog" | "yAuto" | "timeline">>({ yLog: false, yAuto: true, timeline: vs.view.timeline });
  useSaveView(sess, () => sessionOfView({ ...vs.view, ...axesRef.current, range, compare: compareRef.current }, hiddenNames(), edits.log()), [
    vs.view,
    vs.yChoice,
    range,
    hidden,
    views,
    edits.version,
  ]);

  const { setTl, setTimeOpts } = vs;
  const zoomBoth = useCallback((d: [number, number] | null) => setTl((s) => ({ ...s, domain: d })), [setTl]);
  const live = useLive(engine, eng);
  const [follow, setFollow] = useState<LiveFollowEnd>("whole");
  const followShown = useRef<LiveFollowEnd>("whole");
  // Followed live, the time axis keeps the end in view: its last minutes, or (chosen once) the whole run.
  useEffect(() => {
    if (!live.active || !timeline) return;
    const changed = followShown.current !== follow;
    followShown.current = follow;
    if (follow === "whole") {
      if (changed) zoomBoth(null);
      return;
    }
    const [a, b] = timeline.extent;
    const want: [number, number] = [Math.max(a, b - follow * 60), b];
    const cur = tl.domain;
    if (!cur || cur[0] !== want[0] || cur[1] !== want[1]) zoomBoth(want);
  }, [live.active, timeline, follow, tl.domain, zoomBoth]);
  useWindowInput({
    onEscape: () => {
      // Escape leaves a presentation (Presentation listens for it): it must not also open the
      // time window again underneath.
      if (presenting) return;
      const r = eng.rangeRef.current;
      if (r.start !== null || r.end !== null) changeRange({ start: null, end: null });
    },
    onPasteFiles: loadFiles,
    onPasteText: loadText,
  });

  // Rows and plot series keep their objects while unchanged (memoised children skip).
  const rows: SeriesRow[] = useSeriesRows(views, hidden, requirement, vs.theme);
  const visibleRows = useMemo(() => rows.filter(isVisible), [rows]);
  const plotSeries: PlotSeries[] = usePlotSeries(visibleRows);
  const plotSteps = usePlotSteps(requirement, unit);
  /** The latency axis as drawn: the user's choice, else the data's span decides (the command line's `--log-axis auto`). */
  const yAuto = vs.yChoice === null;
  const autoLog = useMemo(() => wantsLogAxis("auto", ...spectrumSpanNs(plotSeries.map(spanOfPlot))), [plotSeries]);
  const yLog = vs.yChoice ?? autoLog;
  // The spectrum as the page's plot and the presentation's draw it.
  const plot = { plotSeries, steps: plotSteps, unit, yLog };
  const flip = (s: Set<string>, id: string, on: boolean) => {
    const n = new Set(s);
    if (on) n.add(id);
    else n.delete(id);
    return n;
  };
  const toggle = useStableCallback((id: string) => setHidden((h) => flip(h, id, !h.has(id))));
  const selectSeries = useStableCallback((id: string, on: boolean) => setSelected((cur) => flip(cur, id, on)));
  const exportSeries = useStableCallback((id: string) => {
    const v = views.find((x) => x.id === id);
    if (v) void engine.exportHgrm(id, eng.rangeRef.current, unit).then((text) => downloadText(`${v.name}.hgrm`, text));
  });
  const setIdentity = useStableCallback((id: string, patch: Parameters<typeof engine.setIdentity>[1]) => edits.setIdentity(views, id, patch));
  const loadPrometheus = useStableCallback((request: PrometheusRequest, auth: PrometheusAuth) => sess.loadQuery(request, auth));
  const removeSeries = useStableCallback((id: string) => edits.remove(views, id));
  const setSeriesUnit = useStableCallback((id: string, u: typeof unit) => edits.setUnit(views, id, u));

  const timelineLines = useTimelineLines(timeline, visibleRows);
  const tlAutoLog = useMemo(() => wantsLogAxis("auto", ...valuesSpanNs(timelineLines.map(spanOfLine))), [timelineLines]);
  const tlLog = tl.logAuto ? tlAutoLog : tl.log;
  const tlShown = useMemo(() => ({ ...tl, log: tlLog }), [tl, tlLog]);

  // The judgment, shared by the summary, the Markdown and the presentation.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const judged = useMemo(() => judgeRows(visibleRows, requirement), [rows, requirement]);

  axesRef.current = { yLog, yAuto, timeline: { ...vs.view.timeline, log: tlLog } };
  const view = { ...vs.view, ...axesRef.current, range, compare: cmp.shared };
  const pair: [string, string] | null = cmp.open && cmp.baseline && cmp.candidate ? [cmp.baseline, cmp.candidate] : null;
  // The PowerPoint deck: what the presentation shows, built by the command line's deck builder.
  const savePptx = useStableCallback(() => {
    const heat = timeInfo.heatmap;
    const c = cmp.result;
    downloadPptx({
      headline: pair ? headline : null,
      pair,
      rows: visibleRows,
      requirement,
      sentence: judged.sentence,
      sustainable: judged.sustainable,
      unit,
      yLog,
      timeline,
      heatmap: heat ? { lanes: heat.lanes.map((l) => ({ name: l.name, data: l.data })), domain: heat.domain } : null,
      compare: pair && c ? { sentence: c.sentence, level: c.level, resamples: c.resamples, margin: c.margin } : null,
      notes: timeNotes,
    }).catch((e: unknown) => console.error("the PowerPoint deck could not be written", e));
  });

  const { makeLink, makeMarkdown } = useShareActions(engine, {
    view,
    rows,
    visibleRows,
    sentence: judged.sentence,
    timeInfo,
    notes: timeNotes,
    compare: cmp.result,
    headline,
    compareBusy: cmp.progress !== null,
  });
  const setCoInterval = useStableCallback((ns: number | null, text: string) => {
    vs.setCoText(text);
    eng.change(() => engine.setCoInterval(ns), { timeline: false });
  });
  /** A click on the spectrum: the tail threshold becomes the value of the curve clicked there. */
  const pickThreshold = useCallback((p: { valueNs: number }) => setTimeOpts((o) => ({ ...o, tail: thresholdText(p.valueNs) })), [setTimeOpts]);

  // Off screen, the table takes a new display unit one frame after the chart (see use-after-paint.ts).
  const tableUnit = useAfterNextPaint(unit, () => !tableOnScreen());
  const chunksLoading = useChunksLoading();
  const busy = eng.pending > 0 || tableUnit.stale || chunksLoading;
  const hasIntervals = views.some(hasIntervalsIn);
  /** Only the demo's series are on screen (nothing of the user's loaded yet). */
  const demoShown = views.length > 0 && sess.session.current.files.length === 0 && views.every(isDemo);
  const width = Math.max(320, plotWidth);
  /** The time panels' shared inputs: they show the window of the spectra on screen. */
  const timeProps = { unit, range: shownRange, width, onRange: changeRange };

  return (
    <div data-testid="app" data-busy={busy ? "true" : "false"} className={drop.dragging ? "app dragging" : "app"} {...drop.handlers}>
      <Toolbar
        onFiles={loadFiles}
        view={{ ...vs, yLog }}
        range={hasIntervals ? range : null}
        shownRange={shownRange}
        onRange={changeRange}
        canPresent={visibleRows.length > 0}
        onPptx={savePptx}
        onPresent={() => {
          // The deck opens on a comparison's headline: the one open, the only two series, the
          // two configurations the series name at a common throughput; else the user says which.
          const names = comparable(views).map((v) => v.name);
          if ((cmp.open && cmp.baseline && cmp.candidate) || names.length < 2) return setPresenting(true);
          const pair = names.length === 2 ? (names as [string, string]) : configPair(views);
          if (!pair) return setAskPair(names);
          cmp.choose({ baseline: pair[0], candidate: pair[1] });
          cmp.setOpen(true);
          setPresenting(true);
        }}
        onStartOver={sess.startOver}
        onClear={() =>
          void run(async () => {
            await engine.clear();
            setHidden(new Set());
            eng.setProblems([]);
            edits.clear();
            sess.dropFiles();
            vs.setRequirement((r) => (r !== null && r === demoRequirement.current ? null : r));
            setSharedTime(null);
            return null;
          })
        }
        busy={busy}
        progress={eng.progress}
        onCancel={() => engine.cancel()}
      />
      <div className="toolbar second">
        <RequirementEditor requirement={requirement} onChange={vs.setRequirement} />
        <CoIntervalInput value={vs.coText} onChange={setCoInterval} />
      </div>
      <RemoteConsent
        question={remoteQuestion}
        onAnswer={(load) => {
          setRemoteQuestion(null);
          if (remoteQuestion) void run(() => remoteQuestion.answer(load));
        }}
      />
      {demoShown ? <DemoBanner /> : null}
      <LoadErrors problems={eng.problems} onDismiss={eng.dismissProblems} />
      <Warnings rows={visibleRows} />
      <main className="main">
        <section className="chart-panel" ref={plotBox}>
          {live.active ? (
            <LivePanel
              live={live}
              engine={engine}
              rows={visibleRows}
              timeline={timeline}
              requirement={requirement}
              unit={unit}
              yLog={yLog}
              steps={plotSteps}
              width={width}
              follow={follow}
              range={shownRange}
              onFollow={setFollow}
            />
          ) : null}
          <LinkBasis views={views} requirement={requirement} />
          <Judgement part="summary" rows={visibleRows} requirement={requirement} unit={unit} width={width} time={timeInfo} />
          <SpectrumPanel {...plot} rows={visibleRows} sideBySide={vs.sideBySide} width={plotWidth} onPick={hasIntervals ? pickThreshold : undefined} />
          {timeline && timelineLines.length > 0 ? (
            <TimelinePanel {...timeProps} timeline={timeline} lines={timelineLines} settings={tlShown} onSettings={vs.setTl} bands={timeBands} onBusy={holdBusy} />
          ) : null}
          {(hasIntervals || sharedTime) && visibleRows.length > 0 ? (
            <TimeAnalysis
              {...timeProps}
              shared={sharedTime}
              engine={engine}
              rows={visibleRows}
              requirement={requirement}
              domain={tl.domain}
              options={timeOpts}
              onOptions={vs.setTimeOpts}
              onZoom={zoomBoth}
              onInfo={setTimeInfo}
              holdBusy={holdBusy}
              wallClock={tl.wallClock}
              onlyInView={live.active}
            />
          ) : null}
          <div ref={tableBox}>
            <PercentileTable rows={visibleRows} unit={tableUnit.value} onBusy={holdBusy} />
          </div>
          <Judgement part="chart" rows={visibleRows} requirement={requirement} unit={unit} width={width} />
          <ComparePanel c={cmp} views={views} unit={unit} width={width} headline={headline} requirementPercentiles={reqPs.percentiles} />
          <HistoryPanel h={history} unit={unit} width={width} onCompare={openHistoryCompare} />
        </section>
        <aside className="side-panel">
          <h2>Series</h2>
          {views.length >= 2 ? (
            // A fleet is merged whole: its rows need not all be shown and ticked one by one.
            <button
              type="button"
              data-testid="series-select-all"
              className="select-all"
              onClick={() => setSelected(selected.size === views.length ? new Set() : new Set(views.map((v) => v.id)))}
            >
              {selected.size === views.length ? "Clear the selection" : `Select all ${views.length} to merge`}
            </button>
          ) : null}
          {selected.size >= 2 ? (
            <button
              type="button"
              data-testid="merge"
              className="merge-button"
              onClick={() => {
                edits.merge(views.filter((v) => selected.has(v.id)));
                setSelected(new Set());
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
            onBusy={holdBusy}
          />
          {live.canFollowLink ? <FollowButton testId="follow-src" onClick={() => void live.followLink()} /> : null}
          {live.canFollowFiles ? <FollowButton testId="follow-file" onClick={() => void live.followFiles()} /> : null}
          <SharePanel makeMarkdown={makeMarkdown} makeLink={makeLink} />
          <SampleOptionsPanel options={sampleOpts} onChange={setSampleOpts} />
          <PastePanel onLoad={loadText} />
          <PrometheusPanel onLoad={loadPrometheus} />
        </aside>
      </main>
      {askPair ? (
        <PairPicker
          names={askPair}
          initial={[askPair[0]!, askPair[1]!]}
          onCancel={() => setAskPair(null)}
          onPick={(pair) => {
            setAskPair(null);
            if (pair) {
              cmp.choose({ baseline: pair[0], candidate: pair[1] });
              cmp.setOpen(true);
            } else cmp.setOpen(false);
            setPresenting(true);
          }}
        />
      ) : null}
      {presenting ? (
        <Presentation
          sentence={judged.sentence}
          sustainable={judged.sustainable.map((x) => ({
            config: x.config,
            text: x.maxThroughput === null ? (x.points.length ? "fails at every tested throughput" : "no throughput known") : `sustains ${formatThroughput(x.maxThroughput)}`,
          }))}
          {...plot}
          timelineLog={tlLog}
          timeline={timeline}
          timelineLines={timelineLines}
          compare={cmp.result}
          headline={headline}
          pair={pair}
          onPptx={savePptx}
          rows={visibleRows}
          requirement={requirement}
          sweep={judged.sustainable.some((x) => x.points.length >= 2)}
          onExit={() => setPresenting(false)}
          notes={timeNotes}
          heatmap={timeInfo.heatmap}
        />
      ) : null}
    </div>
  );
}
