// The line of context under a deck slide's title, one text for the page's slides and the
// PowerPoint deck.
import { formatCount } from "./format";
import { formatThroughput } from "./naming";

/** What the line reads of a series: its name, throughput and how many values it holds. */
export interface ContextRow {
  view: { id: string; name: string; throughput: number | null; spectrum: { totalCount: number } };
}

/** What the line reads of the timeline: each series' column spans (seconds since its start). */
export interface ContextTimeline {
  series: readonly { id: string; t0: Float64Array; t1: Float64Array }[];
}

/** "60 s", "15 min", "2.5 h". */
export function durationText(s: number): string {
  if (!(s > 0)) return "";
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Number((s / 3600).toPrecision(2))} h`;
}

/** One line of context: throughput, how long, how many values. */
export function contextLine(rows: readonly ContextRow[], timeline: ContextTimeline | null): string {
  const tps = [...new Set(rows.map((r) => r.view.throughput))];
  const parts: string[] = [];
  if (tps.length === 1 && tps[0] !== null) parts.push(`at ${formatThroughput(tps[0]!)}`);
  else if (tps.some((t) => t !== null))
    parts.push(rows.map((r) => `${r.view.name} at ${r.view.throughput === null ? "unknown throughput" : formatThroughput(r.view.throughput)}`).join(", "));
  const durations = rows.map((r) => {
    const d = timeline?.series.find((s) => s.id === r.view.id);
    return d && d.t0.length ? d.t1[d.t1.length - 1]! - d.t0[0]! : 0;
  });
  const ds = [...new Set(durations.map(durationText).filter((x) => x))];
  if (ds.length === 1) parts.push(`${ds[0]} each`);
  else if (ds.length > 1) parts.push(`runs of ${ds.join(" and ")}`);
  parts.push(`${rows.map((r) => formatCount(r.view.spectrum.totalCount)).join(" and ")} values counted`);
  return parts.join(" · ");
}
