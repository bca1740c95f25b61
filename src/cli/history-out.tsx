// `history --out DIR`: the history's Markdown (history.md) and one chart per series
// (history-<series>.svg), the page's chart component rendered to a string.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { HistoryChart } from "../charts/history/HistoryChart";
import { historyLayout } from "../charts/history/layout";
import { standaloneHistorySvg } from "../charts/history/svg";
import { UNIT_LABEL } from "../core/format";
import { seriesNames, type Change, type RunSummary } from "../core/history";
import { historyMarkdown } from "../core/history/markdown";
import { NANOS_PER_UNIT, type Unit } from "../core/types";
import { historyFragment } from "../share/history-link";

export function historySvg(runs: readonly RunSummary[], changes: readonly Change[], series: string, unit: Unit, width = 960): string {
  const recorded = (runs.flatMap((r) => r.series).find((s) => s.name === series)?.unit ?? "ns") as Unit;
  const layout = historyLayout({ runs, series, changes, width, scale: NANOS_PER_UNIT[recorded] / NANOS_PER_UNIT[unit], margin: 0.05 });
  return standaloneHistorySvg(renderToStaticMarkup(<HistoryChart layout={layout} unitLabel={UNIT_LABEL[unit]} selected={null} />));
}

const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 100) || "series";

/** Writes DIR/history.md and DIR/history-<series>.svg; returns the Markdown. */
export function writeHistoryOut(dir: string, runs: readonly RunSummary[], changes: readonly Change[], unit: Unit, linkBase: string | null): string {
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const name of seriesNames(runs)) {
    const file = `history-${fileSafe(name)}.svg`;
    files.set(name, file);
    writeFileSync(join(dir, file), historySvg(runs, changes, name, unit));
  }
  const link = linkBase !== null ? `${linkBase.replace(/#.*$/, "")}${historyFragment(runs)}` : null;
  const md = historyMarkdown(runs, changes, { unit, link, image: (s) => files.get(s) ?? null });
  writeFileSync(join(dir, "history.md"), md);
  return md;
}
