// The history view's state: the files given, the run key, the runs' summaries (from the
// history worker), and the changes found in them (core/history, as the command line finds them).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { detectChanges, orderRuns, type Change, type RunSummary } from "../core/history";
import type { LoadProblem } from "../core/types";
import { HISTORY_PREFIX, openHistoryFragment } from "../share/history-link";
import { FOLDER_KEY, groupRuns, type PathedFile } from "./history-group";
import type { HistoryJob, HistoryReply } from "../engine/history-worker";

export interface HistoryState {
  files: PathedFile[];
  key: string;
  setKey: (k: string) => void;
  add: (f: PathedFile[]) => void;
  clear: () => void;
  runs: RunSummary[];
  changes: Change[];
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
  // A history link (#history=…) opens with its runs' summaries: no files, the same view.
  useEffect(() => {
    if (!window.location.hash.startsWith(HISTORY_PREFIX)) return;
    const r = openHistoryFragment(window.location.hash);
    if (r.ok) setRuns(orderRuns(r.runs));
    else setLinkError(r.reason);
  }, []);
  useEffect(() => {
    if (grouped.runs.length === 0) return;
    const w = (worker.current ??= new Worker(new URL("../engine/history-worker.ts", import.meta.url), { type: "module", name: "history" }));
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

  const changes = useMemo(() => detectChanges(runs), [runs]);
  const filesOf = useCallback((id: string) => grouped.runs.find((r) => r.id === id)?.files ?? [], [grouped]);
  return {
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
    changes,
    filesOf,
    progress,
    problems,
    unmatched: grouped.unmatched,
    error: grouped.error ?? linkError,
    show: (r) => {
      setFiles([]);
      setRuns(orderRuns(r));
    },
  };
}
