// Warnings the data itself gives: saturation, coordinated omission and a histogram of buckets
// that keeps no max, in the words of
// core/warnings.ts (what it means, what to do).
import { memo, useState } from "react";
import { formatCount } from "../../core/format";
import { formatNs, warningText, type SeriesWarning } from "../../core/warnings";
import type { SeriesRow } from "./SeriesList";

/**
 * From this many series with a `bucketed` warning, they are said in one notice that names how
 * many and which, each series' own words one click away: a fleet of a thousand series gave a
 * thousand near-identical boxes above the chart, pushing it out of sight.
 */
export const GROUP_AT = 10;

/** Series named in a collapsed notice's own sentence; the rest are counted. */
const NAMED = 3;

const TITLE: Record<SeriesWarning["kind"], string> = {
  saturation: "Past capacity",
  bucketed: "No max kept",
  "coordinated-omission": "Coordinated omission?",
};

interface Item {
  w: SeriesWarning;
  name: string;
}

type Bucketed = Extract<SeriesWarning, { kind: "bucketed" }>;

/**
 * Many series' `bucketed` warnings said in one notice. Only that kind is grouped: coordinated
 * omission and saturation stay a box per series, as outside checks count those boxes (one
 * `warning` per series and kind).
 */
export interface WarningGroup {
  kind: "bucketed";
  items: { w: Bucketed; name: string }[];
}

const isBucketed = (it: Item): it is WarningGroup["items"][number] => it.w.kind === "bucketed";

/** The warnings by kind, in the order of their first series; GROUP_AT or more `bucketed` ones become one notice, every other warning stays one box. */
export function groupWarnings(rows: readonly SeriesRow[]): (Item | WarningGroup)[] {
  // A loop, not closures made per call: V8 drops the optimised code of short-lived closures at
  // every major collection, and this runs on every render.
  const items: Item[] = [];
  for (const r of rows) for (const w of r.view.warnings) items.push({ w, name: r.view.name });
  const byKind = new Map<SeriesWarning["kind"], Item[]>();
  for (const it of items) {
    const list = byKind.get(it.w.kind);
    if (list) list.push(it);
    else byKind.set(it.w.kind, [it]);
  }
  const out: (Item | WarningGroup)[] = [];
  for (const [kind, list] of byKind) {
    if (kind === "bucketed" && list.length >= GROUP_AT) out.push({ kind, items: list.filter(isBucketed) });
    else out.push(...list);
  }
  return out;
}

/** What every series of a collapsed notice has in common, in plain words. */
export function groupText(g: WarningGroup): string {
  const names = g.items.slice(0, NAMED).map((x) => x.name);
  const rest = g.items.length - names.length;
  const which = `${names.join(", ")}${rest > 0 ? ` and ${formatCount(rest)} more` : ""}`;
  // The fleet's top lies in the highest of their top buckets: named with its series.
  let top = g.items[0]!;
  for (const it of g.items) if (it.w.highNs > top.w.highNs) top = it;
  const highest = Number.isFinite(top.w.highNs)
    ? `max within [${formatNs(top.w.lowNs)}, ${formatNs(top.w.highNs)}]`
    : `max above ${formatNs(top.w.lowNs)} (its top bucket has no upper bound)`;
  return `${formatCount(g.items.length)} series (${which}) keep no max: each spectrum ends in "max within [a, b]", its top bucket holding a value; the highest is ${highest} (${top.name}). Every value is shown at its bucket's upper bound, never below what was observed. Open for each series' range.`;
}

function One({ w, name }: Item) {
  return (
    <p data-testid="warning" data-kind={w.kind} data-series={name} className={`warning ${w.kind}`}>
      <strong>{TITLE[w.kind]}</strong> {warningText(w)}
    </p>
  );
}

/** Many series' warnings of one kind: one notice; each series' own box only while it is open. */
function Group({ g }: { g: WarningGroup }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      data-testid="warning-group"
      data-kind={g.kind}
      data-count={String(g.items.length)}
      className={`warning warning-group ${g.kind}`}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <strong>{TITLE[g.kind]}</strong> {groupText(g)}
      </summary>
      {open ? (
        <div className="warning-group-items">
          {g.items.map((it, i) => (
            <One key={i} {...it} />
          ))}
        </div>
      ) : null}
    </details>
  );
}

// Memoised: the rows it reads keep their identity across display-unit changes.
export const Warnings = memo(function Warnings({ rows }: { rows: SeriesRow[] }) {
  const parts = groupWarnings(rows);
  if (parts.length === 0) return null;
  return (
    <section className="warnings" aria-label="Warnings about the data">
      {parts.map((p, i) => ("items" in p ? <Group key={`g-${p.kind}`} g={p} /> : <One key={i} {...p} />))}
    </section>
  );
});
