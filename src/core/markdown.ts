// A Markdown summary for a pull-request comment: the numbers people quote, the requirement,
// the verdict sentence and the link that reopens the view. Pure: tested without a browser.
import { formatCount, formatNumber, UNIT_LABEL } from "./format";
import type { Unit } from "./types";

export interface MarkdownRow {
  name: string;
  /** Values in the display unit at 50, 90, 99, 99.9, 99.99 and the max. */
  values: { p50: number; p90: number; p99: number; p999: number; p9999: number; max: number };
  count: number;
  /** "pass", "fail at p99.9", or "" without a requirement. */
  verdict: string;
  /** Why the series has no values ("no successful requests: 6 failed"): said instead of its numbers. */
  noValues?: string | null;
}

export interface MarkdownInput {
  rows: MarkdownRow[];
  unit: Unit;
  requirement: string | null;
  sentence: string | null;
  /** The comparison's headline (core/compare/headline.ts headlineLine), said first. */
  headline?: string | null;
  shareUrl: string | null;
  range: { start: number | null; end: number | null };
  /** Sentences after the table: the requirement in every window, the tail's attribution. */
  notes?: string[];
}

const ALNUM = /[\p{L}\p{N}]/u;

/**
 * Markdown table cells must not break the table: escape pipes, drop line breaks and markup. An
 * underscore is left as it is between two letters or digits (`sync_20k`): there CommonMark never
 * reads it as emphasis, and a backslash before it would show in every plain-text view of the
 * comment. Everywhere else it is escaped.
 */
export function escapeCell(s: string): string {
  const text = s.replace(/[\r\n]+/g, " ");
  return text.replace(/[\\|*`[\]<>#]|_+/g, (m, at: number) => {
    if (m[0] !== "_") return `\\${m}`;
    const intraword = ALNUM.test(text[at - 1] ?? "") && ALNUM.test(text[at + m.length] ?? "");
    return intraword ? m : m.replace(/_/g, "\\_");
  });
}

/**
 * The verdict sentence as a comment reader needs it: without what it tells the page's user to
 * do ("set one in the series list …"), which means nothing in a pull request.
 */
export function readerSentence(s: string): string {
  return s.replace(/;\s*set (?:one|them) in the series list[^.]*\./g, ".");
}

export function markdownSummary(m: MarkdownInput): string {
  const u = UNIT_LABEL[m.unit];
  const out: string[] = [];
  if (m.headline) out.push(`**${escapeCell(m.headline)}**`, "");
  if (m.sentence) out.push(`${m.headline ? "" : "**"}${escapeCell(readerSentence(m.sentence))}${m.headline ? "" : "**"}`, "");
  if (m.requirement) out.push(`Requirement: \`${m.requirement.replace(/`/g, "'")}\``, "");
  if (m.range.start !== null || m.range.end !== null) {
    out.push(`Time window: ${m.range.start ?? "start"} s to ${m.range.end ?? "end"} s after each log's StartTime`, "");
  }
  const hasVerdict = m.rows.some((r) => r.verdict !== "");
  const head = ["Series", `p50 (${u})`, `p90 (${u})`, `p99 (${u})`, `p99.9 (${u})`, `p99.99 (${u})`, `max (${u})`, "count"];
  if (hasVerdict) head.push("verdict");
  out.push(`| ${head.join(" | ")} |`);
  out.push(`|${head.map((_, i) => (i === 0 || (i === head.length - 1 && hasVerdict) ? " --- " : " ---: ")).join("|")}|`);
  for (const r of m.rows) {
    const v = r.values;
    // A series without values says why in words where its numbers would be: zeros would read as 0 ms.
    const values = r.noValues
      ? [`*${escapeCell(r.noValues)}*`, "–", "–", "–", "–", "–"]
      : [formatNumber(v.p50), formatNumber(v.p90), formatNumber(v.p99), formatNumber(v.p999), formatNumber(v.p9999), `**${formatNumber(v.max)}**`];
    const cells = [escapeCell(r.name), ...values, formatCount(r.count)];
    if (hasVerdict) cells.push(r.verdict === "pass" ? "✅ pass" : r.verdict ? `❌ ${escapeCell(r.verdict)}` : r.noValues ? "not judged" : "");
    out.push(`| ${cells.join(" | ")} |`);
  }
  out.push("");
  if (m.notes && m.notes.length > 0) out.push(...m.notes.map((t) => `- ${escapeCell(t)}`), "");
  if (m.shareUrl) out.push(`[Open this view](${m.shareUrl.replace(/\)/g, "%29").replace(/ /g, "%20")})`, "");
  out.push("<sub>Percentiles of merged HdrHistograms; max is the largest recorded value.</sub>");
  return `${out.join("\n")}\n`;
}

/** The plotted points of the percentile plot as CSV: each bucket's percentile range and value. */
export function spectrumCsv(series: { name: string; values: ArrayLike<number>; cumulative: ArrayLike<number>; totalCount: number }[], unit: Unit): string {
  // Quote when needed; a leading = + - @ would be run as a formula by spreadsheets.
  const q = (raw: string) => {
    const s = /^[=+\-@]/.test(raw) ? `'${raw}` : raw;
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [`series,percentile_from,percentile_to,value_${unit},count_at_or_below`];
  for (const s of series) {
    let prev = 0;
    for (let i = 0; i < s.values.length; i++) {
      const to = (s.cumulative[i]! / s.totalCount) * 100;
      lines.push(`${q(s.name)},${prev},${to},${s.values[i]},${s.cumulative[i]}`);
      prev = to;
    }
  }
  return `${lines.join("\n")}\n`;
}
