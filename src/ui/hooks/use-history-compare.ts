// "Open in A vs B" from the history view: the clicked run and the stable stretch before it are
// loaded into the page as series the comparison tells apart. The stretch's files are named
// before_<name>_run<k> (one configuration, "before", whose run numbers make them repeats the
// comparison pools) and the run's after_<name>; once their series are on screen, the A vs B
// panel is opened on them.
import { useEffect, useState } from "react";
import type { SeriesView } from "../../engine/protocol";
import { useStableCallback } from "./use-stable-callback";

function split(name: string): [string, string] {
  const dot = name.indexOf(".");
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
}

export function historyCompareFiles(run: { id: string; files: File[] }, stretch: { ids: string[]; files: File[] }): { files: File[]; base: string; cand: string } {
  const first = run.files[0]!;
  const [stem, ext] = split(first.name);
  const before = stretch.files.filter((f) => f.name === first.name).map((f, k) => new File([f], `before_${stem}_run${k + 1}${ext}`));
  const after = new File([first], `after_${stem}${ext}`);
  return { files: [...before, after], base: before[0]?.name ?? "", cand: after.name };
}

export function useHistoryCompare(views: SeriesView[], loadFiles: (f: File[]) => void, open: (names: { baseline: string; candidate: string }) => void) {
  const [pending, setPending] = useState<{ base: string; cand: string } | null>(null);
  useEffect(() => {
    if (!pending) return;
    const b = views.find((v) => v.source === pending.base);
    const c = views.find((v) => v.source === pending.cand);
    if (!b || !c) return;
    setPending(null);
    open({ baseline: b.name, candidate: c.name });
  }, [views, pending, open]);
  return useStableCallback((run: { id: string; files: File[] }, stretch: { ids: string[]; files: File[] }) => {
    const { files, base, cand } = historyCompareFiles(run, stretch);
    if (!base) return;
    setPending({ base, cand });
    loadFiles(files);
  });
}
