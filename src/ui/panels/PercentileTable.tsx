// The numbers people quote. Also the plot's text alternative. Values shown in the display unit;
// data-raw keeps the exact value in the series' recorded unit for tests and tools.
// Rows are memoised on their series and the unit: hiding one series of fifty touches one row.
import { memo, useState, type ReactElement } from "react";
import { formatCount, formatNumber, formatPercentile, UNIT_LABEL } from "../../core/format";
import { noValuesText } from "../../core/judge";
import { TABLE_PERCENTILES, unitFactor, type Unit } from "../../core/types";
import type { SeriesView } from "../../engine/store";
import type { SeriesRow } from "./SeriesList";
import { useInSlices, useRowsShown } from "../hooks/use-in-slices";
import { MoreRows } from "./MoreRows";

/** Rows added per frame when many series arrive at once (see use-in-slices.ts). */
const ROWS_PER_SLICE = 25;

// Loops and elements made once, not closures made per render: V8 drops the optimised code of
// short-lived closures at every major collection, and the table renders on every update.
const PERCENTILE_HEADS = TABLE_PERCENTILES.map((p) => (
  <th scope="col" key={p}>
    {formatPercentile(p)}
  </th>
));

export const PercentileTable = memo(function PercentileTable({ rows: all, unit, onBusy }: { rows: SeriesRow[]; unit: Unit; onBusy?: (d: 1 | -1) => void }) {
  // A long table shows its first rows, the rest as it is scrolled (MoreRows).
  const { shown, more, all: showAll } = useRowsShown(all.length);
  const count = useInSlices(shown, ROWS_PER_SLICE, onBusy);
  const rows = count < all.length ? all.slice(0, count) : all;
  // The details' rows exist only while it is open: closed, they are not shown, and with 50
  // series their 150 cells were a fifth of the DOM updates of a unit change.
  const [detailsOpen, setDetailsOpen] = useState(false);
  if (rows.length === 0) return null;
  const valueRows: ReactElement[] = [];
  for (const { view: v, color } of rows) valueRows.push(<ValueRow key={v.id} view={v} color={color} unit={unit} />);
  return (
    <div className="table-wrap">
      <table data-testid="percentile-table" className="percentile-table">
        <caption>Latency at percentile ({UNIT_LABEL[unit]}); max is the largest value recorded</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            {PERCENTILE_HEADS}
            <th scope="col">Count</th>
          </tr>
        </thead>
        <tbody>{valueRows}</tbody>
      </table>
      {count >= shown ? <MoreRows shown={shown} total={all.length} moreHook="table-more" onMore={more} onAll={showAll} /> : null}
      <details className="details" onToggle={(e) => setDetailsOpen(e.currentTarget.open)}>
        <summary>Details (mean and standard deviation: not for judging latency)</summary>
        <p>
          Latency is rarely normally distributed: a mean and a standard deviation say little about the tail. They are here to compare with other tools, never as headline numbers.
        </p>
        <table className="details-table">
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col">min</th>
              <th scope="col">mean</th>
              <th scope="col">std dev</th>
            </tr>
          </thead>
          <tbody>{detailsOpen ? rows.map(({ view: v }) => <DetailsRow key={v.id} view={v} unit={unit} />) : null}</tbody>
        </table>
      </details>
    </div>
  );
});

const ValueRow = memo(function ValueRow({ view: v, color, unit }: { view: SeriesView; color: string; unit: Unit }) {
  const f = unitFactor(v.recordedUnit, unit);
  // Without values the row says why in words ("no successful requests: 6 failed"): its dashes
  // alone would not tell a run whose every request failed from an empty time window.
  const empty = noValuesText(v);
  const cells: ReactElement[] = [];
  for (const p of TABLE_PERCENTILES) cells.push(<ValueCell key={p} name={v.name} percentile={p} raw={v.spectrum.percentiles[String(p)] ?? 0} factor={f} empty={empty} />);
  return (
    <tr>
      <RowHead name={v.name} color={color} empty={empty} />
      {cells}
      <CountCell name={v.name} count={v.spectrum.totalCount} />
    </tr>
  );
});

// The row's parts are memoised on what they show: a followed run's redraw gives every row a
// new view, and most of its cells read the same as before (the counts change, the whole run's
// percentiles seldom do).
const RowHead = memo(function RowHead({ name, color, empty }: { name: string; color: string; empty: string | null }) {
  return (
    <th scope="row">
      <span className="dot" style={{ background: color }} aria-hidden="true" />
      {name}
      {empty ? (
        <span className="series-note" data-testid="table-no-values" data-series={name}>
          {empty}
        </span>
      ) : null}
    </th>
  );
});

const ValueCell = memo(function ValueCell({ name, percentile: p, raw, factor, empty }: { name: string; percentile: number; raw: number; factor: number; empty: string | null }) {
  // Without values, data-raw is empty and data-novalues says why, as report --json's null
  // and noValues: a "0" would read as 0 ms to whatever reads the page.
  return (
    <td data-series={name} data-percentile={String(p)} data-raw={empty ? "" : String(raw)} data-novalues={empty ?? undefined} className={p === 100 ? "max" : undefined}>
      {empty ? "–" : formatNumber(raw * factor)}
    </td>
  );
});

// Unit-independent, and formatCount (toLocaleString) is not cheap: skipped on a unit change.
const CountCell = memo(function CountCell({ name, count }: { name: string; count: number }) {
  return (
    <td data-series={name} data-count={String(count)}>
      {formatCount(count)}
    </td>
  );
});

const DetailsRow = memo(function DetailsRow({ view: v, unit }: { view: SeriesView; unit: Unit }) {
  const f = unitFactor(v.recordedUnit, unit);
  return (
    <tr>
      <th scope="row">{v.name}</th>
      <td>{formatNumber(v.spectrum.min * f)}</td>
      <td>{formatNumber(v.spectrum.mean * f)}</td>
      <td>{formatNumber(v.spectrum.stdDeviation * f)}</td>
    </tr>
  );
});
