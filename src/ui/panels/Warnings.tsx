// Warnings the data itself gives: saturation, coordinated omission and a histogram of buckets
// that keeps no max, in the words of
// core/warnings.ts (what it means, what to do).
import { memo } from "react";
import { warningText } from "../../core/warnings";
import type { SeriesRow } from "./SeriesList";

// Memoised: the rows it reads keep their identity across display-unit changes.
export const Warnings = memo(function Warnings({ rows }: { rows: SeriesRow[] }) {
  const items = rows.flatMap((r) => r.view.warnings.map((w) => ({ w, name: r.view.name })));
  if (items.length === 0) return null;
  return (
    <section className="warnings" aria-label="Warnings about the data">
      {items.map(({ w, name }, i) => (
        <p key={i} data-testid="warning" data-kind={w.kind} data-series={name} className={`warning ${w.kind}`}>
          <strong>{w.kind === "saturation" ? "Past capacity" : w.kind === "bucketed" ? "No max kept" : "Coordinated omission?"}</strong> {warningText(w)}
        </p>
      ))}
    </section>
  );
});
