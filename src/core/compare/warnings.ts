// Reasons a comparison may not compare like with like, said before anyone quotes it.
import type { CompareWarning, SideInput } from "./types";
import type { PreparedSide } from "./bootstrap";

/** Totals further apart than this factor are called out. */
export const COUNT_RATIO_WARN = 10;

export function compareWarnings(base: SideInput, cand: SideInput, pb: PreparedSide, pc: PreparedSide, how: { runSpread: boolean; longer: string | null }): CompareWarning[] {
  const out: CompareWarning[] = [];
  const units = (s: SideInput) => [...new Set(s.runs.map((r) => r.recordedUnit ?? `${r.unitNs} ns`))];
  const ub = units(base);
  const uc = units(cand);
  if (ub.join() !== uc.join()) {
    out.push({
      kind: "units",
      message: `${base.label} was recorded in ${ub.join(", ")} and ${cand.label} in ${uc.join(", ")}: values are compared in nanoseconds; check each series' recorded unit (a wrong one shifts the ratio by a factor of 1000).`,
    });
  }
  const res = (s: SideInput) => [...new Set(s.runs.map((r) => `${r.layout.digits} significant digits, lowest discernible value ${r.layout.lowest * r.unitNs} ns`))];
  const rb = res(base);
  const rc = res(cand);
  if (rb.join() !== rc.join()) {
    out.push({
      kind: "precision",
      message: `The two sides were recorded at different precision (${base.label}: ${rb.join("; ")}; ${cand.label}: ${rc.join("; ")}): differences within the coarser one's buckets are not called differences.`,
    });
  }
  // A histogram of buckets (production's, from Prometheus) against a log: only as fine as its buckets.
  const buckets = (s: SideInput) => [...new Set(s.runs.map((r) => r.bucketed ?? ""))].filter((x) => x !== "");
  const bb = buckets(base);
  const bc = buckets(cand);
  if (bb.join() !== bc.join()) {
    const said = [bb.length ? `${base.label} is ${bb.join("; ")}` : "", bc.length ? `${cand.label} is ${bc.join("; ")}` : ""].filter(Boolean).join(" and ");
    out.push({
      kind: "precision",
      message: `${said}: its values sit at their buckets' upper bounds, so a ratio within a bucket's width is within its resolution, not a difference the data shows: such percentiles, and those in its top bucket (no max is kept), are not judged.`,
    });
  }
  const co = (s: SideInput) => s.runs.some((r) => r.coCorrected);
  if (co(base) !== co(cand)) {
    const [yes, no] = co(base) ? [base, cand] : [cand, base];
    out.push({
      kind: "co-correction",
      message: `${yes.label} is corrected for coordinated omission and ${no.label} is not: the corrected side's tail is larger by construction. Compare both corrected or both as measured.`,
    });
  }
  for (const s of [base, cand]) {
    const sat = s.runs.filter((r) => r.saturated).map((r) => r.name);
    if (sat.length)
      out.push({
        kind: "saturation",
        message: `${sat.join(", ")} ${sat.length > 1 ? "were" : "was"} past saturation (the median climbs through the run): ${s.label}'s percentiles describe a queue, and a ratio against it says how long that queue grew, not how the systems differ.`,
      });
  }
  const tb = pb.total;
  const tc = pc.total;
  if (tb > 0 && tc > 0 && Math.max(tb / tc, tc / tb) > COUNT_RATIO_WARN) {
    out.push({
      kind: "counts",
      message: `${base.label} holds ${tb.toLocaleString("en-US")} values and ${cand.label} ${tc.toLocaleString("en-US")}: over ${COUNT_RATIO_WARN}× apart, so the smaller one decides how far the comparison reaches, and the two may not have run the same test.`,
    });
  }
  const counts = [...pb.countsOnly, ...pc.countsOnly];
  if (counts.length) {
    const they = counts.length > 1 ? "have" : "has";
    out.push({
      kind: "no-intervals",
      message: how.runSpread
        ? `${counts.join(", ")} ${they} no usable intervals (time slices of the log), or too few: the range comes from the spread between each side's repeated runs alone.`
        : `${counts.join(", ")} ${they} no usable intervals (or too few): latencies come in bursts (a stall and its queue), so values without their time order cannot be resampled as independent ones. Ratios are shown without verdicts; 3 or more runs on each side would give a range from their spread.`,
    });
  }
  if (how.longer) {
    const secs = (s: PreparedSide) => Math.max(...s.seconds);
    out.push({
      kind: "lengths",
      message: `${base.label} ran ${Math.round(secs(pb))} s and ${cand.label} ${Math.round(secs(pc))} s: ${how.longer}, the longer, had more chances to meet a pause, so a worse tail there (p99 and beyond) is not called worse for that alone. Compare runs of the same length.`,
    });
  }
  return out;
}
