// "Where the tail comes from": the latency heatmap, the requirement in every window and tail
// attribution, with their inputs. Asks the engine for heatmap columns, window values and
// per-interval tail counts; judges the windows here (cheap) and reports what the rest of the
// page shows (verdicts, Markdown, presentation, the timeline's bands) through onInfo.
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Heatmap, HM_MARGIN, type HeatmapLane } from "../../charts/heatmap/Heatmap";
import { heatmapAxisNs } from "../../charts/heatmap/layout";
import { formatCount } from "../../core/format";
import { judgeWindows, parseWindowLength } from "../../core/windows";
import { parseThreshold } from "../../core/tail";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import type { Requirement } from "../../core/requirements";
import type { EngineClient } from "../../engine/client";
import type { TimeRange } from "../../engine/store";
import type { HeatmapResult, TailSeries, WindowSeries } from "../../engine/time-queries";
import type { WindowJudgement } from "../../core/windows";
import type { SeriesRow } from "./SeriesList";
import { intervalLabel, tailStyle, tailText, timeInfoOfShare, type SharedTimeInfo, type TailRow, type TimeInfo, type TimeOptions } from "../state/time-state";
import { AppliedInput } from "./AppliedInput";
import { sameFields, sameItems, useSame } from "../hooks/use-same";
import { useStableCallback } from "../hooks/use-stable-callback";
import "./time-panel.css";

interface Props {
  engine: EngineClient;
  /** The shown series. */
  rows: SeriesRow[];
  requirement: Requirement | null;
  unit: Unit;
  range: TimeRange;
  width: number;
  /** The zoom shared with the timeline (null: everything). */
  domain: [number, number] | null;
  options: TimeOptions;
  onOptions: (o: TimeOptions) => void;
  onZoom: (d: [number, number] | null) => void;
  onRange: (r: TimeRange) => void;
  onInfo: (info: TimeInfo) => void;
  /** +1 while a query is out, −1 when it lands: the page stays busy meanwhile. */
  holdBusy: (d: 1 | -1) => void;
  /** What an opened share link found (shown while no series here has intervals to compute it). */
  shared?: SharedTimeInfo | null;
  /** The timeline's wall-clock setting: the heatmap labels its time the same way. */
  wallClock?: boolean;
  /**
   * A run followed live: the heatmap, asked again at every append, is asked only while the
   * panel is on screen (and once more when it scrolls into view).
   */
  onlyInView?: boolean;
}

const SINGLE_LANE = 220;
const MULTI_LANE = 110;
/** Lanes of many series: lower, so 24 of them stay one scroll. */
const MANY_LANE = 64;

// Module-level functions and loops, not closures made per render: V8 drops the optimised code of
// short-lived closures at every major collection, and this renders on every update.
const hasIntervals = (r: SeriesRow) => r.view.intervalCount > 0 && !r.view.correctedFrom;
const seriesKeyOf = (r: SeriesRow) => `${r.view.id}:${r.view.recordedUnit}:${r.view.intervalCount}`;
const nameKeyOf = (r: SeriesRow) => `${r.view.id}:${r.view.name}`;
const idOf = (r: SeriesRow) => r.view.id;

function rowWithId(rows: readonly SeriesRow[], id: string): SeriesRow | undefined {
  for (const r of rows) if (r.view.id === id) return r;
  return undefined;
}

export const TimeAnalysis = memo(function TimeAnalysis(p: Props) {
  const { engine, rows, requirement, unit, options, onOptions, holdBusy } = p;
  const withIntervals = useMemo(() => rows.filter(hasIntervals), [rows]);
  // What the engine's answers depend on: which series, their units and sizes (not the window's spectra).
  const seriesKey = withIntervals.map(seriesKeyOf).join(",");
  const windowLength = parseWindowLength(options.window);
  const length = windowLength !== null && !Number.isNaN(windowLength) ? windowLength : null;
  const threshold = parseThreshold(options.tail);
  const thresholdNs = threshold !== null && !Number.isNaN(threshold) ? threshold : null;

  // By default the heatmap shows the series that matters: the one with the worst tail (the
  // highest max). Chosen again only when the series change, not with every time window.
  const worstId = useMemo(() => worstTail(withIntervals), [seriesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const chosen = rowWithId(withIntervals, options.heatmap)?.view.id;
  const first = chosen ?? worstId ?? withIntervals[0]?.view.id;
  const heatIds = options.heatmap === "*" ? withIntervals.map(idOf) : first ? [first] : [];
  const laneHeight = heatIds.length > 6 ? MANY_LANE : heatIds.length > 1 ? MULTI_LANE : SINGLE_LANE;
  const plotW = Math.max(10, p.width - HM_MARGIN.left - HM_MARGIN.right);

  const [heat, setHeat] = useState<HeatmapResult | null>(null);
  const [windows, setWindows] = useState<{ key: string; data: WindowSeries[] } | null>(null);
  const [tail, setTail] = useState<{ key: string; data: TailSeries[] } | null>(null);

  // Queries are asked in layout effects: the busy flag is raised before the page is painted,
  // so data-busy never reads false between a load and these answers.
  // The answer depends on the heatmap's own series only: hiding another one asks nothing again.
  const heatSeries: string[] = [];
  for (const r of withIntervals) if (heatIds.includes(r.view.id)) heatSeries.push(seriesKeyOf(r));
  const heatSeriesKey = heatSeries.join(",");
  const heatKey = `${heatSeriesKey}|${heatIds.join(",")}|${p.domain?.[0] ?? ""}|${p.domain?.[1] ?? ""}|${plotW}|${laneHeight}`;
  const latestHeat = useRef("");
  const section = useRef<HTMLElement>(null);
  const [inView, setInView] = useState(true);
  const onlyInView = p.onlyInView === true;
  useEffect(() => {
    const el = section.current;
    if (!onlyInView || !el || typeof IntersectionObserver === "undefined") {
      setInView(true);
      return;
    }
    // Entries come in order, several at once when the panel moved more than once before the
    // callback ran (while a live page grows): the last one says where it is now.
    const io = new IntersectionObserver((es) => setInView(es[es.length - 1]!.isIntersecting));
    io.observe(el);
    return () => io.disconnect();
  }, [onlyInView]);
  const asked = useRef("");
  useLayoutEffect(() => {
    if (heatIds.length === 0 || !inView || asked.current === heatKey) return;
    asked.current = heatKey;
    latestHeat.current = heatKey;
    holdBusy(1);
    void engine
      .heatmap({ ids: heatIds, t0: p.domain?.[0] ?? null, t1: p.domain?.[1] ?? null, columns: plotW, rows: Math.round(laneHeight / 2) })
      .then((r) => {
        if (latestHeat.current === heatKey) setHeat(r);
      })
      .catch(() => undefined)
      .finally(() => holdBusy(-1));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [heatKey, inView]);

  const percentiles = requirement ? requirement.entries.map((e) => e.percentile) : [];
  const windowKey = length === null ? "" : `${seriesKey}|${length}|${options.wallClock}|${percentiles.join(",")}`;
  useLayoutEffect(() => {
    if (windowKey === "" || length === null) return;
    holdBusy(1);
    void engine
      .windows({ length, wallClock: options.wallClock, percentiles })
      .then((data) => setWindows({ key: windowKey, data }))
      .catch(() => undefined)
      .finally(() => holdBusy(-1));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windowKey]);

  const tailKey = thresholdNs === null ? "" : `${seriesKey}|${thresholdNs}`;
  useLayoutEffect(() => {
    if (tailKey === "" || thresholdNs === null) return;
    holdBusy(1);
    void engine
      .tail({ thresholdNs, keep: 10, maxMarks: 20000 })
      .then((data) => setTail({ key: tailKey, data }))
      .catch(() => undefined)
      .finally(() => holdBusy(-1));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tailKey]);

  const choicesKey = withIntervals.map(nameKeyOf).join("\n");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const choices = useMemo(() => withIntervals.map((r) => ({ id: r.view.id, name: r.view.name })), [choicesKey]);
  const shownIds = new Set(withIntervals.map(idOf));
  const nameOf = (id: string) => rowWithId(withIntervals, id)?.view.name ?? id;
  // A link's summaries, while no series here has intervals (the link carried none).
  const fromLink = withIntervals.length === 0 && p.shared ? p.shared : null;
  const namesKey = rows.map(nameKeyOf).join(",");
  // One judgement per window answer and requirement, so an unchanged row keeps its objects.
  const judged = useRef(new WeakMap<WindowSeries, { requirement: Requirement; judgement: WindowJudgement }>());
  const judge = (d: WindowSeries, req: Requirement): WindowJudgement => {
    const known = judged.current.get(d);
    if (known && known.requirement === req) return known.judgement;
    const f = NANOS_PER_UNIT[d.recordedUnit];
    const judgement = judgeWindows(
      Array.from(d.start, (start, k) => ({
        start,
        end: d.end[k]!,
        count: d.count[k]!,
        covered: d.covered[k]!,
        valuesNs: req.entries.map((e) => d.values[String(e.percentile)]![k]! * f),
      })),
      req,
    );
    judged.current.set(d, { requirement: req, judgement });
    return judgement;
  };
  const computedNow: Omit<TimeInfo, "heatmap"> = useMemo(() => {
    if (fromLink)
      return timeInfoOfShare(
        fromLink,
        rows.map((r) => ({ id: r.view.id, name: r.view.name, recordedUnit: r.view.recordedUnit, startTime: r.view.startTime })),
      );
    const w = windows && windows.key === windowKey ? windows.data.filter((d) => shownIds.has(d.id)) : [];
    const t = tail && tail.key === tailKey ? tail.data.filter((d) => shownIds.has(d.id)) : [];
    return {
      windowLength: length,
      windows: w.map((d) => ({ id: d.id, name: nameOf(d.id), data: d, judgement: requirement ? judge(d, requirement) : null })),
      thresholdNs,
      tail: t.map((d) => ({ id: d.id, name: nameOf(d.id), data: d })),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [windows, tail, windowKey, tailKey, requirement, seriesKey, fromLink, namesKey]);
  // The same summaries keep their object: the page is not told again (a second render of it).
  const computed = useSame(
    computedNow,
    (a, b) =>
      a.fromLink === b.fromLink &&
      a.windowLength === b.windowLength &&
      a.thresholdNs === b.thresholdNs &&
      sameItems(a.windows, b.windows, sameFields) &&
      sameItems(a.tail, b.tail, sameFields),
  );
  const lanesNow: HeatmapLane[] = useMemo(() => {
    if (!heat) return [];
    const marks = new Map(computed.tail.map((r) => [r.id, r.data.marks]));
    const bands = new Map(computed.windows.flatMap((r) => (r.judgement ? [[r.id, { start: r.data.start, end: r.data.end, pass: r.judgement.pass }] as const] : [])));
    return heat.series.flatMap((d) => {
      const r = withIntervals.find((x) => x.view.id === d.id);
      return r && heatIds.includes(d.id) ? [{ id: d.id, name: r.view.name, color: r.color, data: d, marks: marks.get(d.id) ?? null, windows: bands.get(d.id) ?? null }] : [];
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [heat, computed, seriesKey, heatIds.join(",")]);
  // The same lanes keep their object: the heatmap is not painted again.
  const lanes = useSame(lanesNow, (a, b) => sameItems(a, b, sameLane));
  const info: TimeInfo = useMemo(() => (heat && lanes.length > 0 ? { ...computed, heatmap: { lanes, domain: heat.domain } } : computed), [computed, heat, lanes]);
  useEffect(() => p.onInfo(info), [info]); // eslint-disable-line react-hooks/exhaustive-deps

  const brushed = useStableCallback((a: number, b: number) => p.onRange({ start: a, end: b }));

  if (fromLink) {
    return info.thresholdNs !== null && info.tail.length > 0 ? (
      <section className="time-panel" aria-label="Where the tail comes from" ref={section}>
        <p className="hint">From the share link: the tail as the page that made it found it (the link carries no intervals).</p>
        <TailSummaries tail={info.tail} thresholdNs={info.thresholdNs} />
      </section>
    ) : null;
  }
  if (withIntervals.length === 0) return null;

  /** Selects one interval as the time window: from its start (floored to the ms) to half way to its end. */
  const selectInterval = (start: number, end: number) => {
    const a = Math.floor(start * 1000) / 1000;
    p.onRange({ start: a, end: Number((a + Math.max(0.001, (end - start) / 2)).toFixed(3)) });
  };

  return (
    <section className="time-panel" aria-label="Where the tail comes from" ref={section}>
      <HeatmapControls options={options} onOptions={onOptions} shown={options.heatmap === "*" ? "*" : (heatIds[0] ?? "")} choices={choices} />
      {heat && lanes.length > 0 ? (
        <p className="heatmap-caption" data-testid="heatmap-caption">
          {lanes.length > 1
            ? heatmapAxisNs(lanes.map((l) => l.data))
              ? `One lane per series (${lanes.length}), all on one latency axis: the same height is the same latency in every lane, and a colour the same count.`
              : `One lane per series (${lanes.length}), each on its own latency axis (their ranges do not overlap); a colour is the same count in every lane.`
            : `Heatmap of ${lanes[0]!.name}${chosen ? "" : ": the series with the highest max (choose another above)"}.`}
        </p>
      ) : null}
      {heat && lanes.length > 0 ? (
        <Heatmap
          wallClock={p.wallClock}
          lanes={lanes}
          unit={unit}
          domain={heat.domain}
          range={p.range}
          width={p.width}
          laneHeight={laneHeight}
          onBrush={brushed}
          onZoom={p.onZoom}
        />
      ) : null}
      {thresholdNs !== null && info.tail.length > 0 ? <TailSummaries tail={info.tail} thresholdNs={thresholdNs} onSelect={selectInterval} /> : null}
    </section>
  );
});

/**
 * The heatmap's series, the window length and the tail threshold: memoised on their values, so
 * that a live run's redraws (new spectra every half second) leave these inputs alone.
 */
const HeatmapControls = memo(function HeatmapControls({
  options,
  onOptions,
  shown,
  choices,
}: {
  options: TimeOptions;
  onOptions: (o: TimeOptions) => void;
  shown: string;
  choices: readonly { id: string; name: string }[];
}) {
  return (
    <div className="timeline-controls">
      <strong>Heatmap</strong>
      <label>
        series{" "}
        <select data-testid="heatmap-series" value={shown} onChange={(e) => onOptions({ ...options, heatmap: e.target.value })}>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
          {choices.length > 1 ? <option value="*">all, one lane each</option> : null}
        </select>
      </label>
      <AppliedInput
        testId="window-length"
        label="requirement in every window of"
        value={options.window}
        placeholder="e.g. 10s, 5m"
        check={(t) => (Number.isNaN(parseWindowLength(t) ?? 0) ? `"${t}" is not a length (10s, 5m, 1h)` : null)}
        onApply={(t) => onOptions({ ...options, window: t })}
      />
      <label title="Windows start on whole multiples of their length in UTC instead of at each log's StartTime">
        <input type="checkbox" data-testid="window-wallclock" checked={options.wallClock} onChange={(e) => onOptions({ ...options, wallClock: e.target.checked })} /> on the clock
      </label>
      <AppliedInput
        testId="tail-threshold"
        label="tail above"
        value={options.tail}
        placeholder="e.g. >10ms"
        check={(t) => (Number.isNaN(parseThreshold(t) ?? 0) ? `"${t}" is not a latency (>10ms)` : null)}
        onApply={(t) => onOptions({ ...options, tail: t })}
      />
      <span className="hint">
        colour: values per cell (log scale; brighter, towards yellow, is more); white line: max per column; a value counts as above the tail threshold only when its whole histogram
        bucket lies above it
      </span>
    </div>
  );
});

/** The series with the highest max (in ns), the worst tail; null when there is none. */
function worstTail(rows: readonly SeriesRow[]): string | null {
  let best: string | null = null;
  let top = -Infinity;
  for (const r of rows) {
    const v = r.view.spectrum.max * NANOS_PER_UNIT[r.view.recordedUnit];
    if (v > top) {
      top = v;
      best = r.view.id;
    }
  }
  return best;
}

/**
 * One sentence per series on where its values above the threshold came from, with its top
 * intervals; a click on one selects it as the time window (`onSelect`; without it, as in a
 * page opened from a link, they are only shown).
 */
function TailSummaries({ tail, thresholdNs, onSelect }: { tail: TailRow[]; thresholdNs: number; onSelect?: (start: number, end: number) => void }) {
  return (
    <ul className="tail-summaries">
      {tail.map((r) => {
        const top = r.data.top[0];
        const style = tailStyle(r);
        return (
          <li
            key={r.id}
            data-testid="tail-summary"
            data-series={r.name}
            data-above={String(r.data.above)}
            data-top-start={top ? String(top.start) : ""}
            data-top-count={top ? String(top.above) : ""}
          >
            <strong>{r.name}</strong>: {tailText(r, thresholdNs)}
            {r.data.top.length > 0 ? (
              <span className="tail-top">
                {" "}
                Top intervals:{" "}
                {r.data.top.map((iv, k) => (
                  <span key={iv.index}>
                    {k > 0 ? ", " : ""}
                    <button
                      type="button"
                      className="link-button"
                      data-testid="tail-interval"
                      data-start={String(iv.start)}
                      disabled={!onSelect}
                      title={onSelect ? "Select this interval as the time window" : "The link carries no intervals to select"}
                      onClick={() => onSelect?.(iv.start, iv.end)}
                    >
                      {intervalLabel(iv.start, r.data.startTime, style)}
                    </button>
                    {` (${formatCount(iv.above)} values)`}
                  </span>
                ))}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Two lanes that draw the same (their window bands are rebuilt with the summaries). */
function sameLane(a: HeatmapLane, b: HeatmapLane): boolean {
  const wa = a.windows ?? null;
  const wb = b.windows ?? null;
  return sameFields({ ...a, windows: null }, { ...b, windows: null }) && (wa === wb || (wa !== null && wb !== null && sameFields(wa, wb)));
}
