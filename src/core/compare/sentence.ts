// The comparison said in one sentence, from the verdicts at the reported percentiles.
import { factor, pLabel, percentText, ratioText } from "./format";
import type { RatioPoint } from "./types";
import { ln } from "../exact-math";

function list(ps: number[]): string {
  const l = ps.map(pLabel);
  if (l.length <= 2) return l.join(" and ");
  return `${l.slice(0, -1).join(", ")} and ${l[l.length - 1]}`;
}

/** "p50–p99" for a run of consecutive reported percentiles, else a list. */
function span(ps: number[], all: number[]): string {
  if (ps.length >= 3) {
    const i = all.indexOf(ps[0]!);
    if (ps.every((p, k) => all[i + k] === p)) return `${pLabel(ps[0]!)}–${pLabel(ps[ps.length - 1]!)}`;
  }
  return list(ps);
}

/** "2.4–3.9×", both ends to the same number of decimals. */
function range(lo: number, hi: number): string {
  const d = Math.max(lo, hi) < 9.95 ? (Math.min(lo, hi) < 1.995 ? 2 : 1) : 0;
  return `${lo.toFixed(d)}–${hi.toFixed(d)}×`;
}

function strength(p: RatioPoint): number {
  return Math.abs(ln(p.ratio));
}

/**
 * E.g. "B is 3.1× faster than A at p99.9 (95 % interval 2.4–3.9×); no difference beyond ±5 %
 * at p50 and p90; beyond p99.99 too few values to say."
 */
export function compareSentence(base: string, cand: string, points: RatioPoint[], margin: number, level: number, notes: readonly string[] = []): string {
  const all = points.map((p) => p.percentile);
  const supported = points.filter((p) => p.supported);
  const lvl = `${Math.round(level * 100)} %`;
  if (supported.length === 0) return `Too few values to compare ${cand} with ${base} at any of ${list(all)}.`;
  // Judged: a verdict from the data. Older results (without `judged`) count every supported point.
  const judged = supported.filter((p) => p.judged ?? true);
  const parts: string[] = [];
  const definite = judged.filter((p) => p.verdict === "better" || p.verdict === "worse");
  if (definite.length > 0) {
    // The largest difference; among about equal ones, the deepest percentile (tails matter most).
    const head = definite.reduce((a, b) => (strength(b) > strength(a) * 1.01 || (strength(b) >= strength(a) / 1.01 && b.percentile > a.percentile) ? b : a));
    const faster = head.verdict === "better";
    const f = faster ? 1 / head.ratio : head.ratio;
    const lo = faster ? 1 / head.high! : head.low!;
    const hi = faster ? 1 / head.low! : head.high!;
    let s = `${cand} is ${factor(f)} ${faster ? "faster" : "slower"} than ${base} at ${pLabel(head.percentile)} (${lvl} interval ${range(lo, hi)})`;
    const same = definite.filter((p) => p !== head && p.verdict === head.verdict).map((p) => p.percentile);
    if (same.length) s += `, and ${faster ? "faster" : "slower"} at ${list(same)} too`;
    const other = definite.filter((p) => p.verdict !== head.verdict);
    if (other.length) s += `; but ${faster ? "slower" : "faster"} at ${list(other.map((p) => p.percentile))}`;
    parts.push(s);
  }
  const same = judged.filter((p) => p.verdict === "same").map((p) => p.percentile);
  if (same.length) {
    const lead = definite.length ? "no difference" : `no difference between ${cand} and ${base}`;
    parts.push(`${lead} beyond ±${percentText(margin)} at ${span(same, all)}`);
  }
  const unknown = judged.filter((p) => p.verdict === "unknown").map((p) => p.percentile);
  if (unknown.length) parts.push(`not enough evidence either way${definite.length || same.length ? "" : ` between ${cand} and ${base}`} at ${span(unknown, all)}`);
  // Not judged, by cause (reasons name counts that differ per percentile: one clause per cause).
  const notJudged = supported.filter((p) => !(p.judged ?? true));
  const byCause = (re: RegExp) => notJudged.filter((p) => re.test(p.reason ?? ""));
  const noTime = byCause(/no intervals/);
  if (noTime.length) {
    const ratios = noTime.map((p) => `${ratioText(p.ratio)} at ${pLabel(p.percentile)}`).slice(0, 3);
    parts.push(`no verdicts${parts.length ? "" : ` between ${cand} and ${base}`} (${cand} ÷ ${base} ${ratios.join(", ")}): ${noTime[0]!.reason}`);
  }
  const fewEvents = byCause(/separate stretch/);
  if (fewEvents.length)
    parts.push(
      `not judged at ${span(
        fewEvents.map((p) => p.percentile),
        all,
      )}: the values above come from fewer than 10 separate stretches of time on a side (a pause is one event, however many values it delays)`,
    );
  const lengths = byCause(/ran longer/);
  if (lengths.length) parts.push(`not judged at ${list(lengths.map((p) => p.percentile))}: ${lengths[0]!.reason}`);
  const lastSupported = supported[supported.length - 1]!.percentile;
  if (supported.length < points.length) parts.push(`beyond ${pLabel(lastSupported)} too few values to say`);
  const spread = judged.filter((p) => p.gapWithinSpread && p.verdict !== "same").map((p) => p.percentile);
  if (spread.length) parts.push(`at ${list(spread)} the gap is smaller than the spread between repeated runs`);
  parts.push(...notes);
  const text = parts.join("; ");
  // Capitalised only when it starts with our words, never a series name.
  return `${definite.length ? text : text.charAt(0).toUpperCase() + text.slice(1)}.`;
}
