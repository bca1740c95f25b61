// The table rows of the Markdown summary, from what the page shows (display unit, verdicts).
import { valueAtFromBuckets } from "../core/bucket-lookup";
import type { MarkdownRow } from "../core/markdown";
import { unitFactor, type Unit } from "../core/types";
import type { SeriesRow } from "./SeriesList";

export function markdownRows(rows: SeriesRow[], unit: Unit): MarkdownRow[] {
  return rows.map((r) => {
    const f = unitFactor(r.view.recordedUnit, unit);
    const at = (p: number) => valueAtFromBuckets(r.view.spectrum, p) * f;
    const v = r.verdict;
    return {
      name: r.view.name,
      values: { p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), p9999: at(99.99), max: r.view.spectrum.max * f },
      count: r.view.spectrum.totalCount,
      verdict: !v ? "" : v.pass ? "pass" : `fails at ${v.firstViolation === 100 ? "max" : `p${v.firstViolation}`}`,
    };
  });
}
