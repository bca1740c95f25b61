// The comparison as Markdown, for a pull-request comment beside the summary table.
import { escapeCell } from "../markdown";
import { formatNumber, UNIT_LABEL } from "../format";
import { NANOS_PER_UNIT, type Unit } from "../types";
import { pLabel, ratioText } from "./format";
import type { CompareResult } from "./types";
import { methodText, reasonLines } from "./details";

const MARK = { better: "✅ better", worse: "❌ worse", same: "= same", unknown: "? unknown" } as const;

/**
 * The comparison's section: its headline when given (the summary above may say it already),
 * the one sentence (led by the headline's percentile when given), the table, each reason once,
 * the notes and the method.
 */
export function compareMarkdown(r: CompareResult, unit: Unit, headline: string | null = null, sentence: string | null = null): string {
  const u = UNIT_LABEL[unit];
  const f = (ns: number) => (Number.isFinite(ns) ? formatNumber(ns / NANOS_PER_UNIT[unit]) : "");
  const lvl = `${Math.round(r.level * 100)} %`;
  const out: string[] = [];
  if (headline) out.push(`**${escapeCell(headline)}**`, "");
  out.push(`### ${escapeCell(r.cand.label)} vs ${escapeCell(r.base.label)}`, "");
  out.push(escapeCell(sentence ?? r.sentence), "");
  out.push(`| percentile | A: ${escapeCell(r.base.label)} (${u}) | B: ${escapeCell(r.cand.label)} (${u}) | B ÷ A | ${lvl} range | verdict |`);
  out.push("| --- | ---: | ---: | ---: | ---: | --- |");
  for (const p of r.points) {
    const range = p.low !== null && p.high !== null ? `${ratioText(p.low)}–${ratioText(p.high)}` : p.supported ? "no range" : "too few values";
    const judged = p.supported && (p.judged ?? true);
    const basis = judged && p.basis === "events" ? " (events)" : "";
    out.push(
      `| ${pLabel(p.percentile)} | ${f(p.base)} | ${f(p.cand)} | ${ratioText(p.ratio)} | ${range} | ${judged ? MARK[p.verdict] + basis : p.supported ? "not judged" : ""} |`,
    );
  }
  out.push(`| max | ${f(r.max.base)} | ${f(r.max.cand)} | ${ratioText(r.max.ratio)} | (a single value: no range) | |`);
  out.push("");
  for (const line of reasonLines(r.points)) out.push(`> ${escapeCell(line)}`, "");
  for (const n of r.notes ?? []) out.push(`> ${escapeCell(n)}`, "");
  for (const w of r.warnings) out.push(`> ⚠️ ${escapeCell(w.message)}`, "");
  out.push(`<sub>${escapeCell(methodText(r))}</sub>`);
  return `${out.join("\n")}\n`;
}
