// The comparison's headline as the A vs B panel and the first slide show it (built by
// core/compare/headline.ts), with its hook: both values in the recorded unit, the ratio, its
// range, the verdict and what it rests on as data attributes, and the line itself as data-text.
import { useMemo } from "react";
import { plainNumber } from "../../core/format";
import { buildHeadline, headlineExtras, spectrumValueAt, type Headline } from "../../core/compare/headline";
import type { CompareResult } from "../../core/compare/types";
import type { Requirement } from "../../core/requirements";
import type { Unit } from "../../core/types";
import type { SeriesView } from "../../engine/store";
import "./headline.css";

/** A number as a data attribute: plain digits, empty when there is none. */
export function attr(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "" : plainNumber(x);
}

/** A percentile's B ÷ A as data attributes: where, the ratio and its range, the verdict and what it rests on. */
export function ratioAttrs(p: { percentile: number; ratio: number | null; low: number | null; high: number | null; verdict: string; basis?: string | null }) {
  return {
    "data-percentile": String(p.percentile),
    "data-ratio": attr(p.ratio),
    "data-low": attr(p.low),
    "data-high": attr(p.high),
    "data-verdict": p.verdict,
    "data-basis": p.basis ?? "",
  };
}

/** The requirement's percentiles (below the max) and those the comparison must add for the headline. */
export function useRequirementPercentiles(requirement: Requirement | null): { percentiles: number[] | null; extras: number[] } {
  const key = requirement ? requirement.entries.map((e) => e.percentile).join(",") : "";
  return useMemo(() => {
    const percentiles = requirement ? requirement.entries.map((e) => e.percentile) : null;
    return { percentiles, extras: headlineExtras(percentiles) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

/** The headline of the comparison on screen (null without one). */
export function useHeadline(
  result: (CompareResult & { baseIds?: string[]; candIds?: string[] }) | null,
  views: SeriesView[],
  requirementPercentiles: number[] | null,
  unit: Unit,
  chosen: number | null,
): Headline | null {
  return useMemo(() => {
    if (!result) return null;
    const viewOf = (ids: string[] | undefined) => views.find((v) => v.id === ids?.[0]);
    const base = viewOf(result.baseIds);
    const cand = viewOf(result.candIds);
    // One series a side: its own values, as the table's data-raw.
    const own = (v: SeriesView | undefined, ids: string[] | undefined) => (v && ids?.length === 1 ? (p: number) => spectrumValueAt(v.spectrum, p) : () => null);
    const b = own(base, result.baseIds);
    const c = own(cand, result.candIds);
    return buildHeadline(result, {
      baseUnit: base?.recordedUnit ?? "ns",
      candUnit: cand?.recordedUnit ?? "ns",
      displayUnit: unit,
      requirementPercentiles,
      chosen,
      valuesAt: (p) => ({ base: b(p), cand: c(p) }),
    });
  }, [result, views, requirementPercentiles, unit, chosen]);
}

export function HeadlineView({ h, className }: { h: Headline; className?: string }) {
  const cls = h.judged ? h.verdict : "unjudged";
  // One line of plain text, the same string as data-text: what slide 1, the Markdown's first
  // line and the command line's headlineText say.
  return (
    <div
      className={`headline ${cls}${className ? ` ${className}` : ""}`}
      data-testid="headline"
      {...ratioAttrs(h)}
      data-baseline={attr(h.baseline)}
      data-candidate={attr(h.candidate)}
      data-text={h.text}
    >
      <p className="headline-text">{h.text}</p>
    </div>
  );
}
