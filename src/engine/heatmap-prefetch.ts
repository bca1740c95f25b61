// The heatmap's block rows, computed while the page paints the first answers of a load.
//
// After a load the page asks for the spectra and the timeline, paints them, and only then asks
// for the heatmap (its panel asks once it has rows to show). Between the timeline's answer and
// that request the engine had nothing to do (traced on the 24-hour log), and the heatmap's
// request then began with its longest part: the rows of every pre-merged block. Here that pass
// runs in the wait, for the series the page shows first (the one with the highest max, as
// ui/panels/TimeAnalysis.tsx picks it) and the row count the page asked last, so the request only adds
// up kept rows (and finds the table's extent and each block's end and max kept too). Nothing is
// held for it beyond what a first query would keep anyway.
import { NANOS_PER_UNIT } from "../core/types";
import type { SeriesModel } from "../core/series";
import { maxOf } from "../core/histogram";
import { prepareBlockRows } from "./heatmap-query";

/** The rows the page's heatmap asks for one series (its lane's height halved), until it asks. */
const FIRST_ROWS = 110;
const LOADS = new Set(["load", "loadUrls", "loadText"]);

export class HeatmapPrefetch {
  private rows = FIRST_ROWS;
  /** A load was answered and no heatmap asked since. */
  private due = false;

  constructor(
    private readonly series: () => readonly SeriesModel[],
    private readonly prepare: (s: SeriesModel, rows: number) => unknown = prepareBlockRows,
  ) {}

  /** A request arrived (in order). */
  requested(kind: string, rows?: number): void {
    if (kind === "heatmap") {
      if (rows !== undefined && Number.isFinite(rows)) this.rows = rows;
      this.due = false;
    } else if (LOADS.has(kind)) this.due = true;
  }

  /**
   * A request was answered and none is waiting. The pass runs after the timeline's answer (the
   * last of what the page asks before painting), never before the spectra's.
   */
  idle(answered: string): void {
    if (!this.due || answered !== "timeline") return;
    this.due = false;
    let worst: SeriesModel | null = null;
    let top = -Infinity;
    for (const s of this.series()) {
      if (!s.intervals || s.intervals.n === 0) continue;
      const v = maxOf(s.histogram) * NANOS_PER_UNIT[s.recordedUnit];
      if (v > top) {
        top = v;
        worst = s;
      }
    }
    try {
      if (worst?.blocks) this.prepare(worst, this.rows);
    } catch {
      // Only a head start: the query computes what is missing.
    }
  }
}
