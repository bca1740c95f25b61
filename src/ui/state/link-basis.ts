// What the numbers of an opened share link rest on, in one line. The link carries what its
// author's page showed (v5), and those numbers are shown as they were; anything the reader asks
// that the author's page did not compute (a requirement at another percentile, a merge, a
// CO-corrected copy, a link from before v5, a series whose recorded unit was changed) is
// computed here from the link's histograms, and the line says which. Pure.
import { percentileLabel, type Requirement } from "../../core/requirements";
import type { SeriesView } from "../../engine/store";

/** How a link's histograms were kept, for the sentence (a page does not know which a link used). */
const HISTOGRAMS = "the link's histograms (rounded upward, at most 1 % high, unless it was made at full precision)";

// Module-level, not a closure made per call: V8 drops the optimised code of short-lived closures
// at every major collection, and this runs on every render.
const isShared = (v: SeriesView) => v.format === "shared" && !v.correctedFrom;

/** Null when nothing on screen is recomputed from a link (or no link was opened). */
export function linkBasisLine(views: readonly SeriesView[], requirement: Requirement | null): string | null {
  const shared = views.filter(isShared);
  if (shared.length === 0) return null;
  const sharedIds = new Set(shared.map((v) => v.id));
  const sharedNames = new Set(shared.map((v) => v.name));
  const parts: string[] = [];
  const bare = shared.filter((v) => !v.spectrum.exact);
  if (bare.length > 0) parts.push(bare.length === shared.length ? "every value" : `the values of ${names(bare)}`);
  if (requirement) {
    const pinned = shared.filter((v) => v.spectrum.exact);
    const missing = requirement.entries.map((e) => e.percentile).filter((p) => pinned.some((v) => v.spectrum.exact![String(p)] === undefined));
    if (missing.length > 0) parts.push(`the requirement at ${missing.map(percentileLabel).join(", ")}`);
  }
  if (views.some((v) => v.correctedFrom !== null && sharedIds.has(v.correctedFrom) && !v.spectrum.exact)) parts.push("the CO-corrected copies");
  if (views.some((v) => v.mergedFrom.some((n) => sharedNames.has(n)))) parts.push("the merges");
  if (parts.length === 0) return null;
  return `Opened from a share link: ${joinAnd(parts)} computed here from ${HISTOGRAMS}; the rest as its author's page showed it.`;
}

/** The line under an A vs B answer computed here from a link's data (basis "link-data"). */
export const COMPARE_FROM_LINK =
  "Computed here from the link's rounded histograms, without their intervals: counts without time order are not judged (a verdict needs intervals, or three or more runs a side). The link's own answer, from its author's full data, is the one it opened with.";

function names(vs: readonly SeriesView[]): string {
  const n = vs.slice(0, 3).map((v) => v.name);
  return vs.length > 3 ? `${n.join(", ")} and ${vs.length - 3} more` : joinAnd(n);
}

function joinAnd(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}
