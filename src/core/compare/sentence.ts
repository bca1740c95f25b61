// The comparison said in one short sentence: the reported percentiles grouped by verdict, the
// group of the headline's percentile first. No reasons and no numbers: the headline carries the
// number, each point its reason, the notes the rest (said once each, behind a toggle).
import { pLabel, percentText } from "./format";
import type { RatioPoint } from "./types";

function list(ps: number[]): string {
  const l = ps.map(pLabel);
  if (l.length <= 2) return l.join(" and ");
  return `${l.slice(0, -1).join(", ")} and ${l[l.length - 1]}`;
}

/** "p50–p99" for a run of three or more consecutive reported percentiles, else a list. */
function span(ps: number[], all: number[]): string {
  if (ps.length >= 3) {
    const i = all.indexOf(ps[0]!);
    if (ps.every((p, k) => all[i + k] === p)) return `${pLabel(ps[0]!)}–${pLabel(ps[ps.length - 1]!)}`;
  }
  return list(ps);
}

export type Group = "better" | "worse" | "same" | "unknown" | "unjudged" | "few";

/** A point's group: its verdict where judged, else why not (older results without `judged`: judged where supported). */
export function groupOf(p: RatioPoint): Group {
  if (!p.supported) return "few";
  if (!(p.judged ?? true)) return "unjudged";
  return p.verdict;
}

const ORDER: Group[] = ["better", "worse", "same", "unknown", "unjudged", "few"];

/**
 * E.g. "sysB is faster than sysA at p99, p99.9 and p99.99; the same within ±5 % at p50 and p90;
 * not judged at p99.999." `leadAt`: the headline's percentile, whose group leads.
 */
export function compareSentence(base: string, cand: string, points: RatioPoint[], margin: number, leadAt: number | null = null): string {
  const all = points.map((p) => p.percentile);
  if (!points.some((p) => p.supported)) return `Too few values to compare ${cand} with ${base} at any of ${list(all)}.`;
  const groups = new Map<Group, number[]>();
  for (const p of points) {
    const g = groupOf(p);
    groups.set(g, [...(groups.get(g) ?? []), p.percentile]);
  }
  const lead = leadAt === null ? undefined : points.find((p) => Math.abs(p.percentile - leadAt) < 1e-9);
  const order = lead ? [groupOf(lead), ...ORDER.filter((g) => g !== groupOf(lead))] : ORDER;
  const m = `±${percentText(margin)}`;
  const parts: string[] = [];
  for (const g of order) {
    const ps = groups.get(g);
    if (!ps) continue;
    const at = span(ps, all);
    const first = parts.length === 0;
    switch (g) {
      case "better":
        parts.push(first ? `${cand} is faster than ${base} at ${at}` : `faster at ${at}`);
        break;
      case "worse":
        parts.push(first ? `${cand} is slower than ${base} at ${at}` : `slower at ${at}`);
        break;
      case "same":
        parts.push(first ? `${cand} is the same as ${base} within ${m} at ${at}` : `the same within ${m} at ${at}`);
        break;
      case "unknown":
        parts.push(first ? `no clear difference between ${cand} and ${base} at ${at}` : `no clear difference at ${at}`);
        break;
      case "unjudged":
        parts.push(first ? `${cand} vs ${base}: not judged at ${at}` : `not judged at ${at}`);
        break;
      case "few":
        parts.push(first ? `${cand} vs ${base}: too few values at ${at}` : `too few values at ${at}`);
        break;
    }
  }
  const text = parts.join("; ");
  // Capitalised only when it starts with our words, never a series name.
  return `${text.startsWith("no clear") ? text.charAt(0).toUpperCase() + text.slice(1) : text}.`;
}
