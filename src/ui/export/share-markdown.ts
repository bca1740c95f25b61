// The share panel's Markdown: the series' table, the requirement and verdicts, and the A vs B
// comparison when there is one. Its own chunk: only a click on "Copy Markdown" needs it.
import { compareMarkdown } from "../../core/compare/markdown";
import { markdownSummary } from "../../core/markdown";
import type { Unit } from "../../core/types";
import type { CompareAnswer } from "../../engine/compare-query";
import type { TimeRange } from "../../engine/store";
import { markdownRows } from "./markdown-rows";
import type { SeriesRow } from "../panels/SeriesList";

export interface ShareMarkdownInput {
  rows: SeriesRow[];
  unit: Unit;
  requirement: string | null;
  sentence: string | null;
  headline: string | null;
  shareUrl: string | null;
  range: TimeRange;
  notes: string[];
  compare: CompareAnswer | null;
}

export function shareMarkdown({ rows, compare, ...rest }: ShareMarkdownInput): string {
  return markdownSummary({ ...rest, rows: markdownRows(rows, rest.unit) }) + (compare ? `\n${compareMarkdown(compare, rest.unit)}` : "");
}
