// A series' history in words: "p99.9 rose 18 % (12–25 %) at run-2026-11-03; p50 steady".
import { HISTORY_PERCENTILES, type Change } from "./types";

function pct(x: number): string {
  const v = Math.abs(x) * 100;
  return v >= 10 ? v.toFixed(0) : v.toFixed(1);
}

export function pName(p: number): string {
  return p === 100 ? "max" : `p${p}`;
}

/** One change: "p99.9 rose 18 % (12–25 %) at RUN" or "p50 fell 12 % (9–15 %) at RUN". */
export function changeText(c: Change): string {
  const rose = c.ratio > 1;
  const [a, b] = rose ? [c.low - 1, c.high - 1] : [1 - c.high, 1 - c.low];
  return `${pName(c.percentile)} ${rose ? "rose" : "fell"} ${pct(c.ratio - 1)} % (${pct(a)}–${pct(b)} %) at ${c.run}`;
}

/**
 * Every change of a series in run order, then the percentiles that stayed steady, then those
 * too few runs support (`judged`: the percentiles that could be judged).
 */
export function seriesSentence(series: string, changes: readonly Change[], judged: readonly number[] = HISTORY_PERCENTILES): string {
  const own = changes.filter((c) => c.series === series).sort((a, b) => a.index - b.index || a.percentile - b.percentile);
  const steady = judged.filter((p) => !own.some((c) => c.percentile === p)).map(pName);
  const unsupported = HISTORY_PERCENTILES.filter((p) => !judged.includes(p)).map(pName);
  const parts = own.map(changeText);
  if (steady.length > 0) parts.push(`${steady.join(", ")} steady`);
  if (unsupported.length > 0) parts.push(`${unsupported.join(", ")} not supported by the runs' data`);
  return parts.join("; ");
}
