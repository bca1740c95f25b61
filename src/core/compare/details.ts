// What the page's details toggle, the Markdown and the command line say beyond the headline and
// the sentence, built once here so that each says it in the same words.
import { pLabel } from "./format";
import type { CompareResult, RatioPoint } from "./types";

/** One line per percentile not judged, with its reason: "Not judged at p99.99: …". */
export function reasonLines(points: readonly RatioPoint[], skip: number | null = null): string[] {
  const out: string[] = [];
  for (const p of points) {
    if (skip !== null && Math.abs(p.percentile - skip) < 1e-9) continue;
    if ((p.supported && (p.judged ?? true)) || !p.reason) continue;
    out.push(`Not judged at ${pLabel(p.percentile)}: ${p.reason}.`);
  }
  return out;
}

/** The method in one paragraph, with the one number of stretches needed. */
export function methodText(r: CompareResult): string {
  const lvl = `${Math.round(r.level * 100)} %`;
  const parts = [
    `Ratio B ÷ A of the pooled histograms' percentiles; ${lvl} ranges from ${r.resamples.toLocaleString("en-US")} bootstrap resamples (seed ${r.seed}; A: ${r.base.method.join("; ")}; B: ${r.cand.method.join("; ")}), one band over the judged percentiles; verdicts against a margin of ±${Number((r.margin * 100).toPrecision(3))} %.`,
  ];
  const rule = neededText(r);
  if (rule) parts.push(rule);
  return parts.join(" ");
}

/** The two rules with the one number of stretches needed; null without time order. */
export function neededText(r: CompareResult): string | null {
  const needed = r.exceedance?.needed ?? r.points.find((p) => typeof p.needed === "number")?.needed ?? null;
  if (needed === null) return null;
  const tail = r.exceedance
    ? `, or on events where one side went more than the margin above all of the other's values in ${needed} or more stretches (Rosenbaum's exceedance test); both rules share one family-wise ${100 - Math.round(r.level * 100)} %.`
    : ".";
  return `A percentile is judged on its values where the values above it come from ${needed} or more separate stretches of time on each side${tail}`;
}
