// The history view's worker: each run is read into a Store of its own with the page's loader,
// summarised as the command line summarises it (engine/history-summary.ts), and dropped, so
// hundreds of runs never sit in memory at once and the page's own series are left alone.
import type { RunSummary } from "../core/history/types";
import type { LoadProblem } from "../core/types";
import { summarizeStore } from "./history-summary";
import { loadFiles } from "./load-files";
import { Store } from "./store";
import { createEngineContext } from "./context";

export interface HistoryJob {
  job: number;
  runs: { id: string; files: File[] }[];
}

export type HistoryReply = { job: number; kind: "progress"; done: number; total: number } | { job: number; kind: "done"; runs: RunSummary[]; problems: LoadProblem[] };

// This thread's engine context: a run is summarised once, so no counts are kept for time windows.
const context = createEngineContext({ keptBudget: 0 });

self.onmessage = async (e: MessageEvent<HistoryJob>) => {
  const { job, runs } = e.data;
  const out: RunSummary[] = [];
  const problems: LoadProblem[] = [];
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    const store = new Store(context);
    const outcomes = await loadFiles(store, r.files, () => undefined, undefined, undefined, null);
    const bad = outcomes.flatMap((o) => o.problems);
    problems.push(...bad);
    if (bad.length === 0) {
      const { start, series } = summarizeStore(store);
      out.push({ id: r.id, start, series });
    }
    store.clear();
    (self as unknown as Worker).postMessage({ job, kind: "progress", done: i + 1, total: runs.length } satisfies HistoryReply);
  }
  (self as unknown as Worker).postMessage({ job, kind: "done", runs: out, problems } satisfies HistoryReply);
};
