// The comparison as Markdown, for a pull-request comment beside the summary table.
import { escapeCell } from "../markdown";
import { formatNumber, UNIT_LABEL } from "../format";
import { NANOS_PER_UNIT, type Unit } from "../types";
import { pLabel, ratioText } from "./format";
import type { CompareResult } from "./types";

const MARK = { better: "✅ better", worse: "❌ worse", same: "= same", unknown: "? unknown" } as const;

/** The comparison's section: its headline when given (the summary above may say it already), the sentence, the table. */
export function compareMarkdown(r: CompareResult, unit: Unit, headline: string | null = null): string {
  const u = UNIT_LABEL[unit];
  const f = (ns: number) => (Number.isFinite(ns) ? formatNumber(ns / NANOS_PER_UNIT[unit]) : "");
  const lvl = `${Math.round(r.level * 100)} %`;
  const out = [`### ${escapeCell(r.cand.label)} vs ${escapeCell(r.base.label)}`, ""];
  if (headline) out.push(`**${escapeCell(headline)}**`, "");
  out.push(escapeCell(r.sentence), "");
  out.push(`| percentile | A: ${escapeCell(r.base.label)} (${u}) | B: ${escapeCell(r.cand.label)} (${u}) | B ÷ A | ${lvl} interval | verdict |`);
  out.push("| --- | ---: | ---: | ---: | ---: | --- |");
  for (const p of r.points) {
    const interval = p.supported ? `${ratioText(p.low)}–${ratioText(p.high)}` : "too few values";
    out.push(`| ${pLabel(p.percentile)} | ${f(p.base)} | ${f(p.cand)} | ${ratioText(p.ratio)} | ${interval} | ${p.supported ? MARK[p.verdict] : ""} |`);
  }
  out.push(`| max | ${f(r.max.base)} | ${f(r.max.cand)} | ${ratioText(r.max.ratio)} | (a single value: no interval) | |`);
  out.push("");
  for (const w of r.warnings) out.push(`> ⚠️ ${escapeCell(w.message)}`, "");
  out.push(
    `<sub>Ratio B ÷ A of the pooled histograms' percentiles; ${lvl} intervals from ${r.resamples.toLocaleString("en-US")} bootstrap resamples (A: ${escapeCell(r.base.method.join("; "))}; B: ${escapeCell(r.cand.method.join("; "))}); verdicts against a margin of ±${Number((r.margin * 100).toPrecision(3))} %; percentiles with fewer than 10 values above them are not judged.</sub>`,
  );
  return `${out.join("\n")}\n`;
}
