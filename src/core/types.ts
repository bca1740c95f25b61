// Shared types of the pure core. Nothing here touches the DOM or React.

/** Time units a latency value can be recorded or displayed in. */
export type Unit = "ns" | "us" | "ms" | "s";

export const UNITS: readonly Unit[] = ["ns", "us", "ms", "s"];

/** Nanoseconds per unit: converting between units is a ratio of these. */
export const NANOS_PER_UNIT: Record<Unit, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

/** The spellings of a unit a person may type (micro sign and Greek mu alike), lower case. */
const UNIT_WORDS: Readonly<Record<string, Unit>> = { ns: "ns", us: "us", µs: "us", μs: "us", ms: "ms", s: "s" };

/** The unit a typed word names, or null (an own key only: "constructor" is no unit). */
export function unitOfWord(word: string): Unit | null {
  return Object.hasOwn(UNIT_WORDS, word) ? UNIT_WORDS[word]! : null;
}

/** Factor that turns a value recorded in `from` into `to`. */
export function unitFactor(from: Unit, to: Unit): number {
  return NANOS_PER_UNIT[from] / NANOS_PER_UNIT[to];
}

/**
 * A problem met while reading input. Errors are values: a parser returns what it could read
 * plus a list of these, so one bad line never takes down the rest of a file.
 */
export interface LoadProblem {
  file: string;
  /** 1-based line number, or null when the problem is not tied to a line. */
  line: number | null;
  reason: string;
  /**
   * Nothing was lost: the line was read whole and the reason says what was odd about it (a
   * timestamp far from the others). The command line reports notes and judges all the same;
   * any other problem means input was skipped, and it judges nothing.
   */
  note?: true;
}

/** The table's percentiles; 100 is the max, always shown. */
export const TABLE_PERCENTILES = [50, 90, 99, 99.9, 99.99, 99.999, 100] as const;

/** Per-interval percentiles the timeline can draw beside the max. */
export const TIMELINE_PERCENTILES = [50, 90, 99, 99.9, 99.99] as const;
