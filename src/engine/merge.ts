// Merging series: a sum of histograms, never an average. The page's "merge selected" (Store.merge)
// and the command line's `--merge` of many files (merged in batches, shares of them on helper
// threads) both add through here.
import type { LoadProblem, Unit } from "../core/types";
import type { SparseHistogram } from "../core/histogram";
import type { TimeRange } from "./protocol";

export type SeriesKind = "response" | "service" | "";

/** What a merged group of files is, and the layout its counts are in: the same on every thread. */
export interface GroupFields {
  name: string;
  config: string;
  throughput: number | null;
  kind: SeriesKind;
  tag: string;
  unit: Unit;
  /** The layout the group's histogram is in. */
  digits: number;
  lowest: number;
  highest: number;
  /** Whether every file added had that layout (then its counts add by index, in any order). */
  uniform: boolean;
  files: number;
  startTime: number | null;
}

/** A group as another thread sends it: its histogram as sparse counts. */
export interface SentGroup extends GroupFields {
  key: string;
  counts: SparseHistogram;
  sources: string[];
  firstSource: string;
  starts: Float64Array;
  ends: Float64Array;
  maxes: Float64Array;
}

/**
 * A share of the files merged on one thread. `sequential` when it must be merged again in
 * order on the main thread to give exactly what one thread gives (files of one series that
 * cannot be merged, or of different layouts).
 */
export interface MergedShare {
  groups: SentGroup[];
  problems: LoadProblem[];
  sequential: boolean;
}

/** Threads that merge a share of the files each (the command line's helper threads). */
export interface MergeHelpers {
  readonly count: number;
  merge(helper: number, paths: readonly string[], range: TimeRange): Promise<MergedShare>;
}
