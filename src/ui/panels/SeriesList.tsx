// The series list doubles as the legend, grouped by configuration: swatch, name, identity
// (configuration, throughput, kind), verdict; click toggles visibility.
// The list and each item are memoised (nothing here depends on the display unit): with stable
// callbacks from the parent, a unit change skips it and hiding one series re-renders one item.
import { memo, useState, type ReactElement } from "react";
import { formatCount, formatCountOf, UNIT_LABEL } from "../../core/format";
import { formatThroughput, parseThroughput } from "../../core/naming";
import type { Verdict } from "../../core/requirements";
import { withoutValues } from "../../core/judge";
import { UNITS, type Unit } from "../../core/types";
import type { IdentityPatch } from "../../engine/protocol";
import type { SeriesView } from "../../engine/store";
import { useInSlices, useRowsShown } from "../hooks/use-in-slices";
import { MoreRows } from "./MoreRows";

export interface SeriesRow {
  view: SeriesView;
  color: string;
  dash: string;
  visible: boolean;
  verdict: Verdict | null;
}

interface Props {
  rows: SeriesRow[];
  selected: Set<string>;
  onSelect: (id: string, on: boolean) => void;
  onToggle: (id: string) => void;
  onExport: (id: string) => void;
  onRemove: (id: string) => void;
  onUnit: (id: string, unit: Unit) => void;
  onIdentity: (id: string, patch: IdentityPatch) => void;
  /** Holds the page's busy flag while rows are left to render (see use-in-slices.ts). */
  onBusy?: (d: 1 | -1) => void;
}

/** Rows added per frame when many series arrive at once. */
const ROWS_PER_SLICE = 20;

const UNIT_SOURCE_TEXT: Record<SeriesView["unitSource"], string> = {
  "interval-max": "inferred from the Interval_Max column",
  default: "assumed (the log gives no usable Interval_Max): check it",
  format: "as the file states",
  user: "set by you",
};

function verdictText(v: Verdict | null): string {
  if (!v) return "";
  if (v.pass) return "passes";
  // Every request failed: no value to hold the requirement with (core/judge.ts).
  if (withoutValues(v)) return "fails: no successful requests";
  const worst = v.violations.find((x) => x.percentile === v.firstViolation);
  const at = v.firstViolation === 100 ? "max" : `p${v.firstViolation}`;
  return worst ? `fails at ${at} (${worst.ratio.toFixed(worst.ratio < 10 ? 2 : 1)}× the limit)` : `fails at ${at}`;
}

/**
 * The row's visible name: for a series named "file [label]" (one per label of a file) the label
 * first, then the file in muted text, so the end of a long name that the row cuts off is the
 * part all rows share, not the part that tells them apart. data-name keeps the full name.
 */
function labelFirst(name: string, tag: string): React.ReactNode {
  const suffix = tag ? ` [${tag}]` : "";
  if (!suffix || !name.endsWith(suffix) || name.length === suffix.length) return name;
  return (
    <>
      {tag} <span className="series-file">{name.slice(0, -suffix.length)}</span>
    </>
  );
}

export const SeriesList = memo(function SeriesList(props: Props) {
  const { rows: all, selected, onBusy, ...handlers } = props;
  // A long list shows its first rows, the rest as it is scrolled (MoreRows).
  const { shown, more, all: showAll } = useRowsShown(all.length);
  const count = useInSlices(shown, ROWS_PER_SLICE, onBusy);
  const rows = count < all.length ? all.slice(0, count) : all;
  if (rows.length === 0) return <p className="empty">No series loaded. Drop .hlog, .hgrm, wrk2 or load-generator output anywhere on the page.</p>;
  // Loops, not closures made per render: V8 drops the optimised code of short-lived closures at
  // every major collection, and the list renders on every update of a followed run.
  const byConfig = new Map<string, ReactElement[]>();
  for (const r of rows) {
    let items = byConfig.get(r.view.config);
    if (!items) byConfig.set(r.view.config, (items = []));
    items.push(<SeriesItem key={r.view.id} row={r} isSelected={selected.has(r.view.id)} {...handlers} />);
  }
  const groups: ReactElement[] = [];
  for (const [config, items] of byConfig) {
    groups.push(
      <section key={config} className="series-group" aria-label={`Configuration ${config}`}>
        <h3 className="config-heading">{config || "(no configuration)"}</h3>
        <ul className="series-list" aria-label={`Series of ${config} (click to show or hide)`}>
          {items}
        </ul>
      </section>,
    );
  }
  return (
    <div className="series-groups">
      {groups}
      {count >= shown ? <MoreRows shown={shown} total={all.length} moreHook="series-more" onMore={more} onAll={showAll} /> : null}
    </div>
  );
});

type ItemProps = Omit<Props, "rows" | "selected" | "onBusy"> & { row: SeriesRow; isSelected: boolean };

const stop = (e: React.SyntheticEvent) => e.stopPropagation();

// A followed run changes every row's counts a few times a second: the row's parts that do not
// change with them (the controls, the unit's menu) are memoised on what they show, so that a
// redraw updates the counts' text and leaves the rest alone.

/** The checkbox, the swatch and the name's button. */
const ItemHead = memo(function ItemHead(p: {
  id: string;
  name: string;
  source: string;
  tag: string;
  merged: string;
  color: string;
  dash: string;
  visible: boolean;
  isSelected: boolean;
  onSelect: (id: string, on: boolean) => void;
  onToggle: (id: string) => void;
}) {
  const { id, name, visible } = p;
  return (
    <>
      <input
        type="checkbox"
        className="select"
        data-testid="series-select"
        aria-label={`Select ${name} for merging`}
        checked={p.isSelected}
        onClick={stop}
        onChange={(e) => p.onSelect(id, e.target.checked)}
      />
      <svg width="28" height="10" aria-hidden="true" className="swatch">
        <line x1="0" x2="28" y1="5" y2="5" stroke={p.color} strokeWidth="3" strokeDasharray={p.dash || undefined} />
      </svg>
      <button
        type="button"
        className="series-name"
        data-testid="series-toggle"
        aria-pressed={visible}
        aria-label={`${name}: ${visible ? "shown" : "hidden"} (press to ${visible ? "hide" : "show"})`}
        title={`${p.source}${p.tag ? ` (tag ${p.tag})` : ""}${p.merged ? `\nmerged from: ${p.merged}` : ""}`}
        onClick={(e) => {
          e.stopPropagation();
          p.onToggle(id);
        }}
      >
        {labelFirst(name, p.tag)}
      </button>
    </>
  );
});

/** The menu of a guessed unit: the guess says it is one, and changes it in one go. */
const UnitGuess = memo(function UnitGuess(p: { id: string; name: string; unit: Unit; unitSource: SeriesView["unitSource"]; onUnit: (id: string, unit: Unit) => void }) {
  const options: ReactElement[] = [];
  for (const u of UNITS)
    options.push(
      <option key={u} value={u}>
        {u === p.unit ? `${UNIT_LABEL[u]}? — ${p.unitSource === "interval-max" ? "from Interval_Max" : "assumed"}` : UNIT_LABEL[u]}
      </option>,
    );
  return (
    <select
      className="unit-assumed"
      data-testid="unit-assumed"
      value={p.unit}
      title={`Recorded unit ${UNIT_SOURCE_TEXT[p.unitSource]}`}
      aria-label={`Recorded unit of ${p.name}, assumed: change it`}
      onClick={stop}
      onKeyDown={stop}
      onChange={(e) => p.onUnit(p.id, e.target.value as Unit)}
    >
      {options}
    </select>
  );
});

/** Edit, .hgrm and remove. */
const ItemActions = memo(function ItemActions(p: {
  id: string;
  name: string;
  corrected: boolean;
  editing: boolean;
  onEdit: (f: (e: boolean) => boolean) => void;
  onExport: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  return (
    <span className="series-actions" onClick={stop}>
      {p.corrected ? null : (
        <button type="button" data-testid="edit-identity" aria-expanded={p.editing} onClick={() => p.onEdit((e) => !e)} title="Edit configuration, throughput and kind">
          edit
        </button>
      )}
      <button type="button" data-testid="export-hgrm" onClick={() => p.onExport(p.id)} title="Download this series' percentile distribution (.hgrm, HdrHistogram's format)">
        .hgrm
      </button>
      {p.corrected ? null : (
        <button type="button" data-testid="remove-series" aria-label={`Remove ${p.name}`} onClick={() => p.onRemove(p.id)}>
          ×
        </button>
      )}
    </span>
  );
});

const SeriesItem = memo(function SeriesItem({ row, isSelected, onSelect, onToggle, onExport, onRemove, onUnit, onIdentity }: ItemProps) {
  const { view: v, color, dash, visible, verdict } = row;
  const [editing, setEditing] = useState(false);
  return (
    <li
      data-testid="series"
      data-id={v.id}
      data-name={v.name}
      data-source={v.source}
      data-tag={v.tag}
      data-config={v.config}
      data-throughput={v.throughput === null ? "" : String(v.throughput)}
      data-kind={v.kind}
      data-count={String(v.wholeCount)}
      data-unit={v.recordedUnit}
      data-visible={visible ? "true" : "false"}
      data-verdict={verdict ? (verdict.pass ? "pass" : "fail") : ""}
      data-corrected={v.correctedFrom ? "true" : "false"}
      data-first-violation={verdict?.firstViolation === null || !verdict ? "" : String(verdict.firstViolation)}
      className={visible ? "series" : "series hidden"}
      // A click anywhere on the row toggles it (mouse); the keyboard uses the name's button.
      onClick={() => onToggle(v.id)}
    >
      <ItemHead
        id={v.id}
        name={v.name}
        source={v.source}
        tag={v.tag}
        merged={v.mergedFrom.join(", ")}
        color={color}
        dash={dash}
        visible={visible}
        isSelected={isSelected}
        onSelect={onSelect}
        onToggle={onToggle}
      />
      <span className="series-meta">{metaOf(v)}</span>
      {v.origin ? (
        <span className="series-note" data-testid="series-origin">
          {`from ${v.origin}`}
        </span>
      ) : null}
      {v.beforeStart ? (
        <span
          className="series-note"
          data-testid="before-start"
          data-intervals={v.beforeStart.intervals}
          data-count={v.beforeStart.count}
          title="HistogramLogProcessor without -start counts intervals from StartTime on; give it a negative -start (or set the window's start to 0 here) to match"
        >
          {`${formatCountOf(v.beforeStart.intervals, "interval")} (${formatCountOf(v.beforeStart.count, "value")}) ${v.beforeStart.intervals === 1 ? "starts" : "start"} before StartTime: counted here, left out by HistogramLogProcessor without -start`}
        </span>
      ) : null}
      {v.unitSource === "interval-max" || v.unitSource === "default" ? <UnitGuess id={v.id} name={v.name} unit={v.recordedUnit} unitSource={v.unitSource} onUnit={onUnit} /> : null}
      {verdict ? (
        <span className={verdict.pass ? "verdict pass" : "verdict fail"} data-testid="series-verdict">
          {verdict.pass ? "✓ " : "✗ "}
          {verdictText(verdict)}
        </span>
      ) : null}
      <ItemActions id={v.id} name={v.name} corrected={Boolean(v.correctedFrom)} editing={editing} onEdit={setEditing} onExport={onExport} onRemove={onRemove} />
      {editing ? (
        <div className="identity-editor" onClick={stop} onKeyDown={stop}>
          <label>
            configuration{" "}
            <input
              data-testid="identity-config"
              defaultValue={v.config}
              onBlur={(e) => e.target.value !== v.config && onIdentity(v.id, { config: e.target.value.trim() })}
              onKeyDown={(e) => e.key === "Enter" && (e.target as HTMLInputElement).blur()}
            />
          </label>
          <label>
            throughput{" "}
            <input
              data-testid="identity-throughput"
              defaultValue={v.throughput === null ? "" : String(v.throughput)}
              placeholder="e.g. 40k"
              onBlur={(e) => {
                const t = e.target.value.trim() === "" ? null : parseThroughput(e.target.value);
                if (t !== v.throughput && (t !== null || e.target.value.trim() === "")) onIdentity(v.id, { throughput: t });
              }}
              onKeyDown={(e) => e.key === "Enter" && (e.target as HTMLInputElement).blur()}
            />
          </label>
          <label>
            kind{" "}
            <select data-testid="identity-kind" value={v.kind} onChange={(e) => onIdentity(v.id, { kind: e.target.value as SeriesView["kind"] })}>
              <option value="">—</option>
              <option value="response">response time</option>
              <option value="service">service time</option>
            </select>
          </label>
          <label title={`Recorded unit ${UNIT_SOURCE_TEXT[v.unitSource]}`}>
            recorded in{" "}
            <select data-testid="series-unit" value={v.recordedUnit} onChange={(e) => onUnit(v.id, e.target.value as Unit)} aria-label={`Recorded unit of ${v.name}`}>
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {UNIT_LABEL[u]}
                </option>
              ))}
            </select>
            {v.unitSource === "default" ? <span className="warn-inline"> (assumed: check)</span> : null}
          </label>
        </div>
      ) : null}
    </li>
  );
});

/**
 * A row's counts as one string: a followed run changes them every redraw, and written as
 * separate parts they were a text node each to update.
 */
function metaOf(v: SeriesView): string {
  const parts = [
    v.throughput !== null ? `${formatThroughput(v.throughput)} · ` : "",
    v.kind ? `${v.kind} time · ` : "",
    formatCountOf(v.wholeCount, "value"),
    v.intervalCount > 0 ? `, ${formatCountOf(v.intervalCount, "interval")}` : "",
    v.failures > 0 ? `, ${formatCount(v.failures)} failed` : "",
    v.mergedFrom.length ? ` · merged from ${v.mergedFrom.length}` : "",
  ];
  return parts.join("");
}
