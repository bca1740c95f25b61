// The comparison as Markdown, for a pull-request comment beside the summary table.
import { escapeCell } from "../markdown";
import { formatNumber, UNIT_LABEL } from "../format";
import { NANOS_PER_UNIT, type Unit } from "../types";
import { pLabel, ratioText } from "./format";
import type { CompareResult } from "./types";

const MARK = { better: "✅ better", worse: "❌ worse", same: "= same", unknown: "? unknown" } as const;

export function compareMarkdown(r: CompareResult, unit: Unit): string {
  const u = UNIT_LABEL[unit];
  const f = (ns: number) => (Number.isFinite(ns) ? formatNumber(ns / NANOS_PER_UNIT[unit]) : "");
  const lvl = `${Math.round(r.level * 100)} %`;
  const out = [`### ${escapeCell(r.cand.label)} vs ${escapeCell(r.base.label)}`, "", `**${escapeCell(r.sentence)}**`, ""];
  out.push(`| percentile | A: ${escapeCell(r.base.label)} (${u}) | B: ${escapeCell(r.cand.label)} (${u}) | B ÷ A | ${lvl} interval | verdict |`);
  out.push("| --- | ---: | ---: | ---: | ---: | --- |");
  for (const p of r.points) {
    const interval = p.low !== null && p.high !== null ? `${ratioText(p.low)}–${ratioText(p.high)}` : p.supported ? "no interval" : "too few values";
    const judged = p.supported && (p.judged ?? true);
    out.push(`| ${pLabel(p.percentile)} | ${f(p.base)} | ${f(p.cand)} | ${ratioText(p.ratio)} | ${interval} | ${judged ? MARK[p.verdict] : p.supported ? "not judged" : ""} |`);
  }
  out.push(`| max | ${f(r.max.base)} | ${f(r.max.cand)} | ${ratioText(r.max.ratio)} | (a single value: no interval) | |`);
  out.push("");
  // One line per cause (the reasons of neighbouring percentiles differ only in their counts).
  const causes = new Map<string, { ps: string[]; reason: string }>();
  for (const p of r.points) {
    if (!p.supported || (p.judged ?? true) || !p.reason) continue;
    const key = p.reason.replace(/\d+/g, "#");
    const c = causes.get(key) ?? { ps: [], reason: p.reason };
    c.ps.push(pLabel(p.percentile));
    causes.set(key, c);
  }
  for (const c of causes.values()) out.push(`> Not judged at ${c.ps.join(", ")}: ${escapeCell(c.reason)}`, "");
  for (const w of r.warnings) out.push(`> ⚠️ ${escapeCell(w.message)}`, "");
  out.push(
    `<sub>Ratio B ÷ A of the pooled histograms' percentiles; ${lvl} intervals from ${r.resamples.toLocaleString("en-US")} bootstrap resamples (A: ${escapeCell(r.base.method.join("; "))}; B: ${escapeCell(r.cand.method.join("; "))}); verdicts against a margin of ±${Number((r.margin * 100).toPrecision(3))} %, one simultaneous band over the judged percentiles; a percentile is judged only where the values above it come from 10 or more separate stretches of time on each side.</sub>`,
  );
  return `${out.join("\n")}\n`;
}
