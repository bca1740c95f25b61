// The A vs B panel: choose a baseline and a candidate (each a series or a merge), read the
// ratio at every percentile with its interval, the verdicts and one sentence; and, when the
// two configurations share throughputs, B vs A at each of them in one step.
import { memo } from "react";
import { RatioChart } from "../../charts/ratio/RatioChart";
import { formatNumber, UNIT_LABEL } from "../../core/format";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import { pLabel, ratioText } from "../../core/compare/format";
import { formatThroughput } from "../../core/naming";
import type { SeriesView } from "../../engine/store";
import type { CompareState, SweepRow } from "../hooks/use-compare";
import type { RatioPoint } from "../../core/compare/types";
import { changeWords, rangeWords, ruleText, type Headline } from "../../core/compare/headline";
import { methodText, reasonLines } from "../../core/compare/details";
import type { CompareResult as CompareAnswerLike } from "../../core/compare/types";
import { attr, HeadlineView, ratioAttrs } from "./Headline";
import { HeadlineSelect } from "./HeadlineSelect";
import { CompareBasis, SweepBasis } from "./LinkBasis";

interface Props {
  c: CompareState;
  views: SeriesView[];
  unit: Unit;
  width: number;
  /** The one-line answer (core/compare/headline.ts) and the requirement's percentiles (the select's options). */
  headline?: Headline | null;
  requirementPercentiles?: number[] | null;
}

const VERDICT_TEXT = { better: "better", worse: "worse", same: "same", unknown: "unknown" } as const;

function SweepSummary({ row }: { row: SweepRow }) {
  if (row.error) return <span className="muted">{row.error}</span>;
  if (!row.result) return <span className="muted">computing…</span>;
  return (
    <span className="sweep-verdicts">
      {row.result.points.map((p) => (
        <span
          key={p.percentile}
          className={`verdict-chip ${p.supported ? p.verdict : "unsupported"}`}
          title={`${pLabel(p.percentile)}: ${ratioText(p.ratio)} (${p.supported ? `${ratioText(p.low)}–${ratioText(p.high)}` : "too few values"})`}
        >
          {pLabel(p.percentile)} {p.supported ? ratioText(p.ratio) : "–"}
        </span>
      ))}
    </span>
  );
}

/** What is behind the sentence, each said once: why a percentile is not judged, the notes, the method. */
function CompareDetails({ r, skip }: { r: CompareAnswerLike; skip: number | null }) {
  const lines = [...reasonLines(r.points, skip), ...(r.notes ?? [])];
  return (
    <details className="compare-details" data-testid="compare-details">
      <summary>Details{lines.length ? ` (${lines.length})` : ""}</summary>
      {lines.length ? (
        <ul>
          {lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      ) : null}
      <p className="compare-method muted">{methodText(r)} Hover a verdict for why one is not judged.</p>
    </details>
  );
}

export const ComparePanel = memo(function ComparePanel({ c, views, unit, width, headline, requirementPercentiles }: Props) {
  if (!c.open) {
    return (
      <section className="compare-panel closed">
        <button type="button" data-testid="compare-open" onClick={() => c.setOpen(true)} disabled={views.length < 2}>
          A vs B: compare two series, percentile by percentile…
        </button>
      </section>
    );
  }
  const r = c.result;
  const f = (ns: number) => (Number.isFinite(ns) ? `${formatNumber(ns / NANOS_PER_UNIT[unit])} ${UNIT_LABEL[unit]}` : "–");
  const options = views.map((v) => (
    <option key={v.id} value={v.name}>
      {v.name}
    </option>
  ));
  const lvl = r ? `${Math.round(r.level * 100)} %` : "95 %";
  return (
    <section className="compare-panel" data-testid="compare" data-busy={c.progress !== null ? "true" : "false"} aria-label="A vs B comparison">
      <header className="compare-head">
        <h2>A vs B: the ratio at every percentile</h2>
        <button type="button" className="link-button" onClick={() => c.setOpen(false)} data-testid="compare-close">
          close
        </button>
      </header>
      <div className="compare-controls">
        <label>
          Baseline (A){" "}
          <select data-testid="compare-baseline" value={c.baseline} onChange={(e) => c.choose({ baseline: e.target.value })}>
            {options}
          </select>
        </label>
        <button type="button" onClick={c.swap} data-testid="compare-swap" title="Swap A and B" aria-label="Swap baseline and candidate">
          ⇄
        </button>
        <label>
          Candidate (B){" "}
          <select data-testid="compare-candidate" value={c.candidate} onChange={(e) => c.choose({ candidate: e.target.value })}>
            {options}
          </select>
        </label>
        <label title="Differences smaller than this are called the same: long runs make tiny differences 'significant'">
          Margin ±{" "}
          <input
            data-testid="compare-margin"
            type="number"
            min={0}
            max={100}
            step={1}
            value={Number((c.margin * 100).toPrecision(6))}
            onChange={(e) => {
              const m = Number(e.target.value);
              if (e.target.value !== "" && Number.isFinite(m) && m >= 0 && m <= 100) c.choose({ margin: m / 100 });
            }}
          />{" "}
          %
        </label>
        <label title="Runs of the same configuration, throughput and kind (run1, run2 …) are pooled, and the interval includes run-to-run variation">
          <input type="checkbox" data-testid="compare-repeats" checked={c.repeats} onChange={(e) => c.choose({ repeats: e.target.checked })} /> pool repeated runs
        </label>
        <HeadlineSelect
          value={c.headlineAt}
          ruleAt={c.headlineAt === null && headline ? headline.percentile : null}
          requirementPercentiles={requirementPercentiles ?? null}
          onChange={(headlineAt) => c.choose({ headlineAt })}
        />
        {c.progress !== null ? (
          <span className="muted" role="status">
            resampling… {Math.round(c.progress * 100)} %
          </span>
        ) : null}
      </div>
      {c.error ? <p className="compare-error">Could not compare: {c.error}</p> : null}
      {r ? (
        <>
          {headline ? <HeadlineView h={headline} /> : null}
          {headline ? <p className="headline-rule muted">Stated at {ruleText(headline)}.</p> : null}
          <p data-testid="compare-sentence" className="compare-sentence">
            {headline?.sentence ?? r.sentence}
          </p>
          <CompareDetails r={r} skip={headline && !headline.judged ? headline.percentile : null} />
          <CompareBasis answer={r} />
          {r.warnings.length > 0 ? (
            <ul className="compare-warnings">
              {r.warnings.map((w, i) => (
                <li key={i} className="warning" data-testid="compare-warning" data-kind={w.kind}>
                  {w.message}
                </li>
              ))}
            </ul>
          ) : null}
          <RatioChart
            curve={r.curve}
            maxRatio={r.max.ratio}
            margin={r.margin}
            width={width}
            height={300}
            baseLabel={r.base.label}
            candLabel={r.cand.label}
            title={`B ÷ A: ${r.cand.label} ÷ ${r.base.label}`}
          />
          <p className="compare-legend muted">
            Line: B ÷ A (below 1 B is faster). Band: the {lvl} range. Shaded: within ±{Number((r.margin * 100).toPrecision(3))} % (no practical difference). Dashed areas: spread of
            repeated runs. The dot at the right is the max: a single value, so no range.
          </p>
          <div className="table-wrap">
            <table className="percentile-table ratio-table">
              <thead>
                <tr>
                  <th scope="col">percentile</th>
                  <th scope="col">A: {r.base.label}</th>
                  <th scope="col">B: {r.cand.label}</th>
                  <th scope="col" title="B ÷ A at that percentile">
                    B vs A
                  </th>
                  <th scope="col">{lvl} range</th>
                  <th scope="col">verdict</th>
                </tr>
              </thead>
              <tbody>
                {r.points.map((p: RatioPoint) => (
                  <tr key={p.percentile} data-testid="ratio-point" {...ratioAttrs(p)} className={p.supported ? p.verdict : "unsupported"}>
                    <th scope="row">{pLabel(p.percentile)}</th>
                    <td>{f(p.base)}</td>
                    <td>{f(p.cand)}</td>
                    <td title={`B ÷ A = ${ratioText(p.ratio)}`}>{changeWords(p.ratio)}</td>
                    <td title={p.low !== null && p.high !== null ? `B ÷ A ${ratioText(p.low)}–${ratioText(p.high)}` : undefined}>
                      {rangeWords(p.ratio, p.low, p.high, r.level)?.replace(/^\d+ % range /, "") ?? (p.supported ? "no range" : "too few values")}
                    </td>
                    <td className="verdict-cell" data-reason={p.reason ?? undefined} title={p.reason ?? undefined}>
                      {p.supported ? (p.judged === false ? "not judged" : VERDICT_TEXT[p.verdict]) : "–"}
                      {p.basis === "events" ? <span className="muted"> (events)</span> : null}
                      {p.supported && p.gapWithinSpread && p.verdict !== "same" ? <span className="muted"> (gap within run-to-run spread)</span> : null}
                    </td>
                  </tr>
                ))}
                <tr data-testid="ratio-max" data-ratio={attr(r.max.ratio)}>
                  <th scope="row">max</th>
                  <td>{f(r.max.base)}</td>
                  <td>{f(r.max.cand)}</td>
                  <td title={`B ÷ A = ${ratioText(r.max.ratio)}`}>{changeWords(r.max.ratio)}</td>
                  <td>a single value: no range</td>
                  <td />
                </tr>
              </tbody>
            </table>
          </div>
        </>
      ) : c.progress === null && !c.error ? (
        <p className="muted">Choose two series.</p>
      ) : null}
      {c.sweepThroughputs.length >= 2 ? (
        <div className="compare-sweep">
          <button type="button" data-testid="compare-sweep" onClick={c.runSweep}>
            B vs A at every common throughput ({c.sweepThroughputs.map(formatThroughput).join(", ")})
          </button>
          {c.sweep ? <SweepBasis answers={c.sweep.map((row) => row.result)} /> : null}
          {c.sweep ? (
            <ul>
              {c.sweep.map((row) => (
                <li key={row.throughput}>
                  <button
                    type="button"
                    className="link-button"
                    data-testid="compare-sweep-row"
                    data-throughput={String(row.throughput)}
                    onClick={() => c.choose({ baseline: row.baseName, candidate: row.candName })}
                    title={row.result?.sentence ?? ""}
                  >
                    {formatThroughput(row.throughput)}: {row.candName} ÷ {row.baseName}
                  </button>{" "}
                  <SweepSummary row={row} />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </section>
  );
});
