// The gate `check --compare` applies to one comparison, here so that the calibration harness
// (scripts/calibrate-compare.ts) measures the very decision the command line makes.
import { pLabel } from "./format";
import type { CompareResult } from "./types";

export interface GateOptions {
  /** A percentile the data cannot judge fails the gate too. */
  strict?: boolean;
}

export interface GateResult {
  pass: boolean;
  /** Reported percentiles where the candidate is worse. */
  worse: number[];
  /** Reported percentiles not judged, with why. */
  notJudged: { percentile: number; reason: string }[];
}

export function gateOf(r: CompareResult, options: GateOptions = {}): GateResult {
  // Verdicts are from one simultaneous band (compare.ts), so failing on any of them keeps the
  // gate's false alarms within 1 − level over all judged percentiles together.
  const worse = r.points.filter((x) => x.supported && (x.judged ?? true) && x.verdict === "worse").map((x) => x.percentile);
  const notJudged = r.points
    .filter((x) => x.verdict === "unknown")
    .map((x) => ({
      percentile: x.percentile,
      reason: x.reason ?? (x.supported ? `the ${Math.round(r.level * 100)} % range reaches across the margin: no clear difference either way` : "too few values"),
    }));
  return { pass: worse.length === 0 && !(options.strict && notJudged.length > 0), worse, notJudged };
}

/** "p99.9 (too few values), p99.99 (…)". */
export function notJudgedText(g: GateResult): string {
  return g.notJudged.map((x) => `${pLabel(x.percentile)} (${x.reason})`).join(", ");
}
