// When latency goes on a log axis: one rule for the page's charts, its slides and the command
// line's SVG (`--log-axis auto`), so a chart looks the same wherever it is drawn.

export type LogAxis = "auto" | "on" | "off";

/** More than two decades between the smallest and the largest value drawn: a linear axis would flatten the small ones to 0. */
export const LOG_AXIS_DECADES = 2;

/** Whether latency goes on a log axis: `auto` when the values (ns, positive) span more than two decades. */
export function wantsLogAxis(mode: LogAxis, lowNs: number, highNs: number): boolean {
  if (mode !== "auto") return mode === "on";
  return lowNs > 0 && Number.isFinite(lowNs) && highNs / lowNs > 10 ** LOG_AXIS_DECADES;
}

/** A spectrum as the span needs it: its values in ascending order, its max, and their unit in ns. */
export interface SpanInput {
  values: ArrayLike<number>;
  max: number;
  nanos: number;
}

/** The smallest positive value and the largest max of these spectra, in ns ([Infinity, 0] when there is none). */
export function spectrumSpanNs(spectra: Iterable<SpanInput>): [number, number] {
  let lo = Infinity;
  let hi = 0;
  for (const s of spectra) {
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i]!;
      if (v > 0) {
        lo = Math.min(lo, v * s.nanos);
        break;
      }
    }
    hi = Math.max(hi, s.max * s.nanos);
  }
  return [lo, hi];
}

/** The smallest positive value and the largest value of these series (a timeline's maxes), in ns. */
export function valuesSpanNs(series: Iterable<{ values: ArrayLike<number>; nanos: number }>): [number, number] {
  let lo = Infinity;
  let hi = 0;
  for (const s of series) {
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i]!;
      if (!(v > 0)) continue; // zeros and NaN (no data in a bucket)
      lo = Math.min(lo, v * s.nanos);
      hi = Math.max(hi, v * s.nanos);
    }
  }
  return [lo, hi];
}
