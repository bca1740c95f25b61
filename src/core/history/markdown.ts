// A history in Markdown, for a review comment or a CI summary: per series its sentence, then a
// table of the changes (run, values before and after, ratio with its interval).
import { formatNumber, UNIT_LABEL } from "../format";
import { NANOS_PER_UNIT, type Unit } from "../types";
import { judgedPercentiles, seriesNames } from "./changes";
import { pName, seriesSentence } from "./sentence";
import type { Change, RunSummary } from "./types";

export interface HistoryMarkdownOptions {
  unit: Unit;
  /** A link that opens the history in the page. */
  link?: string | null;
  /** Image file name per series (written beside the Markdown). */
  image?: (series: string) => string | null;
}

export function historyMarkdown(runs: readonly RunSummary[], changes: readonly Change[], o: HistoryMarkdownOptions): string {
  const out: string[] = [`### History of runs: ${runs.length} runs, ${runs[0]?.id ?? ""} … ${runs[runs.length - 1]?.id ?? ""}`, ""];
  const u = UNIT_LABEL[o.unit];
  for (const name of seriesNames(runs)) {
    out.push(`**${name}**: ${seriesSentence(name, changes, judgedPercentiles(runs, name))}.`, "");
    const img = o.image?.(name);
    if (img) out.push(`![${name} across runs](${img})`, "");
    const own = changes.filter((c) => c.series === name);
    if (own.length === 0) continue;
    const unitNs = NANOS_PER_UNIT[(runs.flatMap((r) => r.series).find((s) => s.name === name)?.unit ?? "ns") as Unit];
    const f = (v: number) => `${formatNumber((v * unitNs) / NANOS_PER_UNIT[o.unit])} ${u}`;
    out.push("| percentile | from run | before | after | ratio (95 % interval) | |", "|---|---|---:|---:|---|---|");
    for (const c of own)
      out.push(`| ${pName(c.percentile)} | ${c.run} | ${f(c.before)} | ${f(c.after)} | ×${c.ratio.toFixed(3)} (${c.low.toFixed(3)}–${c.high.toFixed(3)}) | ${c.direction} |`);
    out.push("");
  }
  if (o.link) out.push(`[Open this history in hdr-spectrum](${o.link})`, "");
  return out.join("\n");
}
