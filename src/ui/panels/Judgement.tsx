// The judgment the app exists for: which throughput each configuration sustains under the
// requirement, said in one sentence generated from the numbers, with the chart that shows
// where each configuration crosses its limits.
import { memo, type ReactNode } from "react";
import { ThroughputChart } from "../../charts/throughput/ThroughputChart";
import type { TpLine } from "../../charts/throughput/layout";
import { formatNumber, UNIT_LABEL } from "../../core/format";
import { formatThroughput } from "../../core/naming";
import type { Requirement, Sustainable } from "../../core/requirements";
import { judgeRows } from "../../core/judge";
import { valueAtFromBuckets } from "../../core/bucket-lookup";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../../core/types";
import { dashOf } from "../../core/palette/colors";
import { gapsByConfig, type ConfigGap } from "../state/kind-gaps";
import type { SeriesRow } from "./SeriesList";
import { windowText, type TimeInfo } from "../state/time-state";

interface Props {
  rows: SeriesRow[];
  requirement: Requirement | null;
  unit: Unit;
  width: number;
  /** The sentence and list (above the charts) or the throughput chart (below them). */
  part: "summary" | "chart";
  /** The requirement in every window (time-state.ts), shown with the verdicts. */
  time?: TimeInfo;
  /** The throughput chart's height (a slide gives it more room). */
  chartHeight?: number;
}

/** The judgment (pure, in core/judge.ts: the command line gives the same). */
export { judgeRows };

// Memoised: its inputs keep their identity across the app's other re-renders (timeline queries).
export const Judgement = memo(function Judgement({ rows, requirement, unit, width, part, time, chartHeight = 280 }: Props) {
  const gaps = gapsByConfig(rows);
  const { judged, sustainable, sentence } = judgeRows(rows, requirement);
  // A run without values (every request failed) has no point to draw: its verdict says why.
  const withThroughput = judged.filter((r) => r.view.throughput !== null && r.view.spectrum.totalCount > 0);
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
          height={chartHeight}
        />
      </section>
    );
  }
  const windowRows = time && time.windowLength !== null && requirement ? time.windows.filter((w) => w.judgement) : [];
  if (!sentence && sustainable.length === 0 && gaps.length === 0 && windowRows.length === 0) return null;
  return (
    <section className="judgement" aria-label="Verdict">
      {sentence ? (
        <p className="verdict-sentence" data-testid="verdict-sentence">
          {sentence}
        </p>
      ) : null}
      <ListOf className="sustainable-list" items={sustainable}>
        {(s) => <SustainableLine key={s.config} s={s} />}
      </ListOf>
      <ListOf className="kind-pairs" items={gaps}>
        {(g) => <KindGapLine key={g.config} g={g} unit={unit} />}
      </ListOf>
      <ListOf className="window-verdicts" items={windowRows}>
        {(w) => <WindowLine key={w.id} w={w} length={time!.windowLength!} unit={unit} />}
      </ListOf>
    </section>
  );
});

/** A list of `items`, each drawn by `children`; nothing when there are none. */
function ListOf<T>({ className, items, children }: { className: string; items: readonly T[]; children: (item: T) => ReactNode }) {
  return items.length > 0 ? <ul className={className}>{items.map(children)}</ul> : null;
}

/** The throughput one configuration sustains, with the throughputs tried. */
function SustainableLine({ s }: { s: Sustainable }) {
  return (
    <li
      data-testid="sustainable"
      data-config={s.config}
      data-max-throughput={s.maxThroughput === null ? "" : String(s.maxThroughput)}
      data-non-monotonic={s.nonMonotonic ? "true" : "false"}
    >
      <strong>{s.config || "(no configuration)"}</strong>:{" "}
      {s.points.length === 0
        ? "no throughput known (name files like sysA_40k.hlog, or edit the series)"
        : s.maxThroughput === null
          ? "fails at every tested throughput"
          : `sustains ${formatThroughput(s.maxThroughput)}`}
      {s.points.length > 0 ? <span className="points"> ({s.points.map((p) => `${formatThroughput(p.throughput)} ${p.pass ? "✓" : "✗"}`).join(", ")})</span> : null}
      {s.nonMonotonic ? <span className="warn-inline"> — a lower throughput fails while a higher one passes: suspicious data, check those runs</span> : null}
    </li>
  );
}

/** One series' requirement in every window of `length` seconds: how many pass, and the worst. */
function WindowLine({ w, length, unit }: { w: TimeInfo["windows"][number]; length: number; unit: Unit }) {
  const j = w.judgement!;
  return (
    <li
      data-testid="window-verdict"
      data-series={w.name}
      data-windows={String(j.windows)}
      data-passing={String(j.passing)}
      data-worst-start={j.worst ? String(j.worst.start) : ""}
      className={j.passing < j.windows ? "fail" : "pass"}
    >
      <strong>{w.name}</strong>: {windowText(w, length, unit)}
    </li>
  );
}

/** One configuration's response time against its service time: the widest gap, and where. */
function KindGapLine({ g, unit }: { g: ConfigGap; unit: Unit }) {
  const w = g.worst;
  const v = (ns: number) => `${formatNumber(ns / NANOS_PER_UNIT[unit])} ${UNIT_LABEL[unit]}`;
  const at = w.response.view.throughput !== null ? ` at ${formatThroughput(w.response.view.throughput)}` : "";
  const diverge = w.gap >= 2;
  const apart = diverge ? ` — ${w.gap.toFixed(1)}× apart: requests wait in a queue before service; service time alone hides it.` : ` (${w.gap.toFixed(2)}×)`;
  return (
    <li
      data-testid="kind-gap"
      data-config={g.config}
      data-pairs={g.pairs.length}
      data-throughput={w.response.view.throughput === null ? "" : String(w.response.view.throughput)}
      data-response={w.response.view.name}
      data-service={w.service.view.name}
      data-gap={w.gap.toFixed(3)}
      className={diverge ? "diverge" : undefined}
    >
      {g.pairs.length === 1
        ? `${g.config}${at}: response time p99 ${v(w.responseP99)} vs service time p99 ${v(w.serviceP99)}${apart}`
        : `${g.config}: response time p99 against service time p99 at ${g.pairs.length} throughputs, widest${at}: ${v(w.responseP99)} vs ${v(w.serviceP99)}${apart}`}
    </li>
  );
}
