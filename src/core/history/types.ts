// What a history of runs is made of, as plain data: the command line, the page and the
// calibration harness build these, the change-point method reads them.

/** Percentiles judged across runs (the max is shown, never judged: it is one value). */
export const HISTORY_PERCENTILES: readonly number[] = [50, 90, 99, 99.9, 99.99];
/** Percentiles each run's summary keeps (the report's). */
export const SUMMARY_PERCENTILES: readonly number[] = [50, 90, 99, 99.9, 99.99, 99.999, 100];

/** One series of one run. */
export interface SeriesSummary {
  name: string;
  /** Recorded unit (`ns`, `us`, `ms`, `s`). */
  unit: string;
  count: number;
  /** Values in the recorded unit, keyed as in `report --json` ("50" … "100"). */
  percentiles: Record<string, number>;
  /**
   * Standard error of the natural log of each judged percentile, from the run's own bootstrap
   * interval (the A vs B machinery); 0 where the run has enough values above the percentile but
   * no interval to rely on (counts only, or too few separate events above it); null where it
   * has too few values above it to support the percentile.
   */
  se: Record<string, number | null>;
}

export interface RunSummary {
  /** The run directory's name (or the run key the page groups files by). */
  id: string;
  /** Epoch seconds of the run's earliest StartTime; null when no file gives one. */
  start: number | null;
  series: SeriesSummary[];
}

export type Direction = "worse" | "better";

/** A change found in one series at one percentile. */
export interface Change {
  series: string;
  /** Id of the first run after the change. */
  run: string;
  /** Its position in the ordered runs, from 0. */
  index: number;
  percentile: number;
  /** Typical values of the stretch before and after (recorded unit). */
  before: number;
  after: number;
  /** after ÷ before, with its interval. */
  ratio: number;
  low: number;
  high: number;
  direction: Direction;
  /** The stretches compared: [from, to) run indices. */
  beforeRuns: [number, number];
  afterRuns: [number, number];
  /** Permutation p-value of the split. */
  p: number;
}

export interface HistoryOptions {
  /** Practical-equivalence margin: changes smaller than this are not reported. */
  margin?: number;
  /** Chance of calling a change in a steady series, at any of its percentiles (shared among them). */
  alpha?: number;
  permutations?: number;
  /** Fewest runs on either side of a change. */
  minSegment?: number;
  seed?: number;
  /** Confidence level of the ratios' intervals. */
  level?: number;
}
