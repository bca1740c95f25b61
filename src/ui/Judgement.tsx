// The judgment the app exists for: which throughput each configuration sustains under the
// requirement, said in one sentence generated from the numbers, with the chart that shows
// where each configuration crosses its limits.
import { memo } from "react";
import { ThroughputChart } from "../charts/throughput/ThroughputChart";
import type { TpLine } from "../charts/throughput/layout";
import { formatNumber, UNIT_LABEL } from "../core/format";
import { formatThroughput } from "../core/naming";
import type { Requirement } from "../core/requirements";
import { judgeRows } from "../core/judge";
import { valueAtFromBuckets } from "../core/bucket-lookup";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../core/types";
import { dashOf } from "./colors";
import type { SeriesRow } from "./SeriesList";

interface Props {
  rows: SeriesRow[];
  requirement: Requirement | null;
  unit: Unit;
  width: number;
  /** The sentence and list (above the charts) or the throughput chart (below them). */
  part: "summary" | "chart";
}

/** Response and service time of the same run side by side: the gap is queueing. */
function kindPairs(rows: SeriesRow[]) {
  const out: { key: string; response: SeriesRow; service: SeriesRow; gap: number }[] = [];
  for (const r of rows) {
    if (r.view.kind !== "response") continue;
    const s = rows.find((x) => x.view.kind === "service" && x.view.config === r.view.config && x.view.throughput === r.view.throughput && x.view.source === r.view.source);
    const s2 = s ?? rows.find((x) => x.view.kind === "service" && x.view.config === r.view.config && x.view.throughput === r.view.throughput);
    if (!s2) continue;
    const p99r = valueAtFromBuckets(r.view.spectrum, 99) * NANOS_PER_UNIT[r.view.recordedUnit];
    const p99s = valueAtFromBuckets(s2.view.spectrum, 99) * NANOS_PER_UNIT[s2.view.recordedUnit];
    out.push({ key: `${r.view.id}-${s2.view.id}`, response: r, service: s2, gap: p99s > 0 ? p99r / p99s : 0 });
  }
  return out;
}

/** The judgment (pure, in core/judge.ts: the command line gives the same). */
export { judgeRows };

// Memoised: its inputs keep their identity across the app's other re-renders (timeline queries).
export const Judgement = memo(function Judgement({ rows, requirement, unit, width, part }: Props) {
  const pairs = kindPairs(rows);
  const { judged, sustainable, sentence } = judgeRows(rows, requirement);
  const withThroughput = judged.filter((r) => r.view.throughput !== null);
  const lines: TpLine[] = [];
  if (requirement && withThroughput.length > 0) {
    const configs = [...new Set(withThroughput.map((r) => r.view.config))];
    configs.forEach((c) => {
      const members = withThroughput.filter((r) => r.view.config === c).sort((a, b) => a.view.throughput! - b.view.throughput!);
      // The config's colour is its highest-throughput run's (the darkest shade).
      const color = members[members.length - 1]!.color;
      requirement.entries.forEach((e, k) => {
        lines.push({
          config: c,
          percentile: e.percentile,
          color,
          dash: dashOf(k),
          points: members.map((r) => ({
            throughput: r.view.throughput!,
            value: valueAtFromBuckets(r.view.spectrum, e.percentile) * unitFactor(r.view.recordedUnit, unit),
            pass: r.verdict!.violations.every((v) => v.percentile !== e.percentile),
          })),
        });
      });
    });
  }
  if (part === "chart") {
    if (lines.length === 0) return null;
    return (
      <section className="throughput-panel" aria-label="Latency against throughput">
        <h2 className="panel-title">Latency at the requirement's percentiles, by throughput</h2>
        <ThroughputChart
          lines={lines}
          limits={requirement!.entries.map((e) => ({
            percentile: e.percentile,
            limit: e.limitNs / NANOS_PER_UNIT[unit],
            label: `${e.percentile === 100 ? "max" : `p${e.percentile}`} ≤ ${formatNumber(e.limitNs / NANOS_PER_UNIT[unit])} ${UNIT_LABEL[unit]}`,
          }))}
          unit={unit}
          width={width}
          height={280}
        />
      </section>
    );
  }
  if (!sentence && sustainable.length === 0 && pairs.length === 0) return null;
  return (
    <section className="judgement" aria-label="Verdict">
      {sentence ? (
        <p className="verdict-sentence" data-testid="verdict-sentence">
          {sentence}
        </p>
      ) : null}
      {sustainable.length > 0 ? (
        <ul className="sustainable-list">
          {sustainable.map((s) => (
            <li key={s.config} data-testid="sustainable" data-config={s.config} data-max-throughput={s.maxThroughput === null ? "" : String(s.maxThroughput)} data-non-monotonic={s.nonMonotonic ? "true" : "false"}>
              <strong>{s.config || "(no configuration)"}</strong>:{" "}
              {s.points.length === 0
                ? "no throughput known (name files like sysA_40k.hlog, or edit the series)"
                : s.maxThroughput === null
                  ? "fails at every tested throughput"
                  : `sustains ${formatThroughput(s.maxThroughput)}`}
              {s.points.length > 0 ? (
                <span className="points">
                  {" "}
                  ({s.points.map((p) => `${formatThroughput(p.throughput)} ${p.pass ? "✓" : "✗"}`).join(", ")})
                </span>
              ) : null}
              {s.nonMonotonic ? <span className="warn-inline"> — a lower throughput fails while a higher one passes: suspicious data, check those runs</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {pairs.length > 0 ? (
        <ul className="kind-pairs">
          {pairs.map((p) => (
            <li key={p.key} data-testid="kind-gap" data-response={p.response.view.name} data-service={p.service.view.name} data-gap={p.gap.toFixed(3)} className={p.gap >= 2 ? "diverge" : undefined}>
              {p.response.view.config} {p.response.view.throughput !== null ? `at ${formatThroughput(p.response.view.throughput)}` : ""}: response time p99{" "}
              {formatNumber(valueAtFromBuckets(p.response.view.spectrum, 99) * unitFactor(p.response.view.recordedUnit, unit))} {UNIT_LABEL[unit]} vs service time p99{" "}
              {formatNumber(valueAtFromBuckets(p.service.view.spectrum, 99) * unitFactor(p.service.view.recordedUnit, unit))} {UNIT_LABEL[unit]}
              {p.gap >= 2
                ? ` — ${p.gap.toFixed(1)}× apart: requests wait in a queue before service; service time alone hides it.`
                : ` (${p.gap.toFixed(2)}×)`}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
});
