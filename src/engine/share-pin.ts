// What an opened link's series shows: its author's numbers (share-query.ts opens the link). Apart
// from the link's codec, which the engine fetches only to make or open a link.
import type { Spectrum } from "../core/spectrum";
import { TABLE_PERCENTILES } from "../core/types";
import type { SeriesWarning } from "../core/warnings";
import type { SharedShown } from "../share/results";

/** A spectrum of the link's rounded histogram showing the author's numbers: its curve stays, every number read from it is the author's. */
export function pinSpectrum(sp: Spectrum, shown: SharedShown): Spectrum {
  const percentiles: Record<string, number> = { ...sp.percentiles };
  for (const p of TABLE_PERCENTILES) {
    const v = shown.at[String(p)];
    if (v !== undefined) percentiles[String(p)] = v;
  }
  return {
    ...sp,
    totalCount: shown.total ?? sp.totalCount,
    percentiles,
    max: shown.at["100"] ?? sp.max,
    min: shown.min,
    mean: shown.mean,
    stdDeviation: shown.stdDeviation,
    exact: shown.at,
  };
}

/** The warnings a link carried, worded with the series' name here (it may have been edited). */
export function pinnedWarnings(shown: SharedShown, name: string): SeriesWarning[] {
  return shown.warnings.map((w) => ({ ...w, series: name }));
}
