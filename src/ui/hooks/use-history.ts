// The history view's state: the files given, the run key, the runs' summaries (from the
// history worker or a history link). The changes found in them (core/history, as the command
// line finds them) are the panel's (HistoryPanel), off the page's start.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { orderRuns } from "../../core/history/order";
import type { RunSummary } from "../../core/history/types";
import type { LoadProblem } from "../../core/types";
import { HISTORY_PREFIX } from "../../share/history-prefix";
import { FOLDER_KEY, groupRuns, type PathedFile } from "../state/history-group";
import type { HistoryJob, HistoryReply } from "../../engine/history-worker";
import { startHistoryWorker } from "../../engine/client";

export interface HistoryState {
  files: PathedFile[];
  key: string;
  setKey: (k: string) => void;
  add: (f: PathedFile[]) => void;
  clear: () => void;
  runs: RunSummary[];
  /** Run files by run id (to open one in the A vs B panel). */
  filesOf: (id: string) => File[];
  progress: { done: number; total: number } | null;
  problems: LoadProblem[];
  unmatched: string[];
  error: string | null;
  /** Summaries shown without their files (a history link). */
  show: (runs: RunSummary[]) => void;
}

export function useHistory(holdBusy: (d: 1 | -1) => void): HistoryState {
  const [files, setFiles] = useState<PathedFile[]>([]);
  const [key, setKey] = useState(FOLDER_KEY);
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [problems, setProblems] = useState<LoadProblem[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const worker = useRef<Worker | null>(null);
  const job = useRef(0);
  const grouped = useMemo(() => groupRuns(files, key), [files, key]);

  useEffect(() => () => worker.current?.terminate(), []);
  const [linkError, setLinkError] = useState<string | null>(null);
  // A history link (#history=…) opens with its runs' summaries: no files, the same view. Its
  // decoder (and the inflater) is fetched only for such a link; the page is busy meanwhile.
  useEffect(() => {
    const hash = window.location.hash;
    if (!hash.startsWith(HISTORY_PREFIX)) return;
    holdBusy(1);
    void import("../../share/history-link")
      .then(({ openHistoryFragment }) => {
        const r = openHistoryFragment(hash);
        if (r.ok) setRuns(orderRuns(r.runs));
        else setLinkError(r.reason);
      })
      .catch((e: unknown) => setLinkError(`Could not open the history link: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => holdBusy(-1));
    // Once, at start: the link the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (grouped.runs.length === 0) return;
    const w = (worker.current ??= startHistoryWorker());
    const id = ++job.current;
    holdBusy(1);
    setProgress({ done: 0, total: grouped.runs.length });
    let held = true;
    const release = () => {
      if (held) holdBusy(-1);
      held = false;
    };
    const onMessage = (e: MessageEvent<HistoryReply>) => {
      if (e.data.job !== id) return;
      if (e.data.kind === "progress") setProgress({ done: e.data.done, total: e.data.total });
      else {
        setRuns(orderRuns(e.data.runs));
        setProblems(e.data.problems);
        setProgress(null);
        release();
      }
    };
    w.addEventListener("message", onMessage);
    w.postMessage({ job: id, runs: grouped.runs } satisfies HistoryJob);
    return () => {
      w.removeEventListener("message", onMessage);
      release();
    };
  }, [grouped, holdBusy]);

  const filesOf = useCallback((id: string) => grouped.runs.find((r) => r.id === id)?.files ?? [], [grouped]);
  // One object while nothing in it changed: the history panel is memoised on it, and the page
  // renders again for much else (a live run's redraws, the busy flag).
  return useMemo(
    () => ({
      files,
      key,
      setKey,
      add: (f) => setFiles((cur) => [...cur, ...f]),
      clear: () => {
        setFiles([]);
        setRuns([]);
        setProblems([]);
      },
      runs,
      filesOf,
      progress,
      problems,
      unmatched: grouped.unmatched,
      error: grouped.error ?? linkError,
      show: (r) => {
        setFiles([]);
        setRuns(orderRuns(r));
      },
    }),
    [files, key, runs, filesOf, progress, problems, grouped, linkError],
  );
}
