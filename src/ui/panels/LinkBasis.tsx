// The one line that says what an opened share link's numbers rest on (link-basis.ts), where
// some were computed here rather than carried from the author's page.
import { memo } from "react";
import type { Requirement } from "../../core/requirements";
import type { CompareAnswer } from "../../engine/compare-query";
import type { SeriesView } from "../../engine/store";
import { COMPARE_FROM_LINK, linkBasisLine } from "../state/link-basis";

export const LinkBasis = memo(function LinkBasis({ views, requirement }: { views: SeriesView[]; requirement: Requirement | null }) {
  const line = linkBasisLine(views, requirement);
  return line ? (
    <p className="hint link-basis" data-testid="link-basis">
      {line}
    </p>
  ) : null;
});

/** Under the sweep over common throughputs: shown when its answers were computed from a link's data. */
export function SweepBasis({ answers }: { answers: readonly (CompareAnswer | null)[] }) {
  return answers.some((a) => a?.basis === "link-data") ? (
    <p className="hint link-basis" data-testid="sweep-basis">
      {COMPARE_FROM_LINK}
    </p>
  ) : null;
}

/** Under the A vs B sentence: shown when the answer was computed from a link's data. */
export function CompareBasis({ answer }: { answer: CompareAnswer }) {
  return answer.basis === "link-data" ? (
    <p className="hint link-basis" data-testid="compare-basis">
      {COMPARE_FROM_LINK}
    </p>
  ) : null;
}
