// The page's side of the engine: what it answered (series views, the timeline, problems), the
// time window asked for and the one on screen, and the busy count behind data-busy.
import { startTransition, useCallback, useRef, useState } from "react";
import type { LoadProblem } from "../../core/types";
import type { EngineClient } from "../../engine/client";
import type { FileOutcome, Progress } from "../../engine/protocol";
import type { SeriesView, TimelineResult, TimeRange } from "../../engine/store";
import { useCoalesced } from "./use-coalesced";
import { useUpdateEffect } from "./use-update-effect";

/** More series than this in an answer: rendered as a transition (see run). */
const MANY_SERIES = 20;

/** What the timeline asks for: its zoom, its percentiles and the chart's width. */
export interface TimelineQuery {
  domain: [number, number] | null;
  percentiles: number[];
  width: number;
}

export type EngineTask = (() => Promise<FileOutcome[] | null | void>) | null;

/**
 * What `run` asks again after its task: the spectra, the timeline, or neither. `together`
 * renders both in one go, with what `more` answered (asked after the task, beside them): a run
 * followed live redraws a few times a second, and each render of a part repainted the page.
 */
export interface Refresh {
  views?: boolean;
  timeline?: boolean;
  together?: boolean;
  more?: () => Promise<(() => void) | null>;
  /**
   * False: the run leaves data-busy alone. A followed run's lines appended to series on screen:
   * lines keep arriving, so the flag would never mean "idle", and raising it rendered the whole
   * page once more a redraw.
   */
  busy?: boolean;
}

export function useEngine(engine: EngineClient, tlQuery: TimelineQuery) {
  const [views, setViews] = useState<SeriesView[]>([]);
  const [timeline, setTimeline] = useState<TimelineResult | null>(null);
  const [problems, setProblems] = useState<LoadProblem[]>([]);
  const [pending, setPending] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [range, setRangeState] = useState<TimeRange>({ start: null, end: null });
  const rangeRef = useRef(range);
  rangeRef.current = range;
  /**
   * The window of the spectra on screen: the timeline's shading and the window inputs follow
   * it, so a new window changes nothing visible until its spectra arrive, and the page is
   * painted once with all of it (an intermediate frame for the shading alone held the main
   * thread while the engine's answer waited).
   */
  const [shownRange, setShownRange] = useState<TimeRange>(range);
  const tlq = useRef(tlQuery);
  tlq.current = tlQuery;

  /**
   * Runs an engine task, then refreshes what it may have changed (the spectra and table, the
   * timeline), and only then clears the busy flag, in the same render as the new data.
   */
  const run = useCallback(
    async (task: EngineTask, refresh: Refresh = {}) => {
      const flag = refresh.busy !== false;
      if (flag) setPending((n) => n + 1);
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
        const q = tlq.current;
        const asked = rangeRef.current;
        const nextP = refresh.views === false ? null : engine.views(asked);
        const tlP =
          refresh.timeline === false
            ? null
            : engine.timeline({ t0: q.domain?.[0] ?? null, t1: q.domain?.[1] ?? null, columns: Math.max(100, q.width - 92), percentiles: q.percentiles });
        const moreP = refresh.more ? refresh.more() : null;
        // The spectra are rendered as soon as they arrive, while the engine computes the
        // timeline (answered after them): after a 24-hour load that overlaps much of each.
        // Busy stays true until both are shown.
        const next = await nextP;
        many = next !== null && next.length > MANY_SERIES;
        // Many: one transition for spectra and timeline together (a second one arriving while
        // React renders the first would restart that render, which grows with the series count).
        const together = many || refresh.together === true;
        const tl = together ? await tlP : null;
        const more = moreP ? await moreP : null;
        if (next || tl || more) {
          apply(() => {
            if (next) {
              setViews(next);
              setShownRange(asked);
            }
            if (tl) setTimeline(tl);
            more?.();
          });
        }
        if (!together) {
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
          if (flag) setPending((n) => n - 1);
        });
      }
    },
    [engine],
  );

  /** Runs an engine call that changes series, then refreshes as `run` does. */
  const change = useCallback(
    (f: () => Promise<unknown>, refresh?: Refresh) =>
      void run(async () => {
        await f();
        return null;
      }, refresh),
    [run],
  );

  /** Sets the window without asking (a restore asks afterwards, in the run that restores). */
  const setRange = useCallback((r: TimeRange) => {
    rangeRef.current = r;
    setRangeState(r);
  }, []);
  // A new time window re-queries the spectra, asked for in the event that set it: the engine
  // computes while React renders the inputs and the busy state (one render, not two: the
  // window and busy are batched), rather than from an effect after that render.
  const changeRange = useCallback(
    (r: TimeRange) => {
      setRange(r);
      void run(null, { timeline: false });
    },
    [run, setRange],
  );
  // Zoom, chosen percentiles and width re-query only the timeline. Timeline queries are
  // coalesced (the chart draws each zoom/pan step at once from the buckets it has; see
  // Timeline), and the app stays busy until the last one has landed.
  const timelineOnly = useCallback(() => run(null, { views: false }), [run]);
  const holdBusy = useCallback((d: 1 | -1) => setPending((n) => n + d), []);
  const refreshTimeline = useCoalesced(timelineOnly, holdBusy);
  useUpdateEffect(refreshTimeline, [tlQuery.domain, tlQuery.percentiles, tlQuery.width, refreshTimeline]);
  const dismissProblems = useCallback(() => setProblems([]), []);

  return { views, timeline, problems, setProblems, dismissProblems, pending, progress, setProgress, range, rangeRef, setRange, changeRange, shownRange, run, change, holdBusy };
}

export type EngineState = ReturnType<typeof useEngine>;
