// The requirement as text (the contract's syntax, applied on Enter or blur), as rows, or
// imported from a gnuplot SLA file. Errors say which entry is wrong and why.
import { memo, useEffect, useState } from "react";
import { formatRequirement, parseRequirement, parseSlaDat, type Requirement, type RequirementEntry } from "../../core/requirements";
import { NANOS_PER_UNIT, type Unit } from "../../core/types";
import { UnitOptions } from "./UnitOptions";

interface Props {
  requirement: Requirement | null;
  onChange: (r: Requirement | null) => void;
}

// Memoised: its props do not change with the display unit, so a unit change skips it.
export const RequirementEditor = memo(function RequirementEditor({ requirement, onChange }: Props) {
  const [text, setText] = useState(requirement ? formatRequirement(requirement) : "");
  const [errors, setErrors] = useState<string[]>([]);
  const [rowsOpen, setRowsOpen] = useState(false);
  useEffect(() => {
    setText(requirement ? formatRequirement(requirement) : "");
  }, [requirement]);

  const apply = (t: string) => {
    const r = parseRequirement(t);
    if (r.ok) {
      setErrors([]);
      onChange(r.value);
    } else setErrors(r.errors);
  };

  const setEntries = (entries: RequirementEntry[]) => {
    const sorted = [...entries].sort((a, b) => a.percentile - b.percentile);
    onChange(sorted.length ? { entries: sorted } : null);
  };

  return (
    <div className="requirement">
      <label className="requirement-text">
        Requirement{" "}
        <input
          data-testid="requirement-input"
          value={text}
          placeholder="p50<=1ms, p99<=5ms, p99.9<=10ms, max<=100ms"
          aria-invalid={errors.length > 0}
          aria-describedby="requirement-errors"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") apply(text);
          }}
          onBlur={() => apply(text)}
        />
      </label>
      <button type="button" data-testid="requirement-rows-toggle" aria-expanded={rowsOpen} onClick={() => setRowsOpen((o) => !o)}>
        rows
      </button>
      <label className="file-link" title="Import a gnuplot SLA file (1/(1-p), latency in ms, label), as in HdrHistogram's gnuplot example">
        import SLA…
        <input
          type="file"
          data-testid="requirement-file"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            e.target.value = "";
            if (!f) return;
            const r = parseSlaDat(await f.text());
            if (r.problems.length) setErrors(r.problems.map((p) => `${f.name}, line ${p.line}: ${p.reason}`));
            else setErrors([]);
            if (r.value) onChange(r.value);
          }}
        />
      </label>
      {errors.length > 0 ? (
        <ul id="requirement-errors" className="requirement-errors" data-testid="requirement-error" role="alert">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
      {rowsOpen ? <RequirementRows entries={requirement?.entries ?? []} onChange={setEntries} /> : null}
    </div>
  );
});

function RequirementRows({ entries, onChange }: { entries: RequirementEntry[]; onChange: (e: RequirementEntry[]) => void }) {
  const update = (i: number, patch: Partial<RequirementEntry>) => onChange(entries.map((e, k) => (k === i ? { ...e, ...patch } : e)));
  return (
    <table className="requirement-rows">
      <thead>
        <tr>
          <th scope="col">percentile</th>
          <th scope="col">at most</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {entries.map((e, i) => (
          <tr key={`${i}-${e.percentile}`}>
            <td>
              <input
                aria-label="Percentile (100 = max)"
                defaultValue={e.percentile === 100 ? "max" : String(e.percentile)}
                onBlur={(ev) => {
                  const t = ev.target.value.trim().toLowerCase();
                  const p = t === "max" ? 100 : Number(t.replace(/^p/, ""));
                  if (Number.isFinite(p) && p > 0 && p <= 100) update(i, { percentile: p });
                }}
              />
            </td>
            <td>
              <input
                aria-label="Limit"
                type="number"
                step="any"
                min="0"
                defaultValue={String(e.limitNs / NANOS_PER_UNIT[e.unit])}
                onBlur={(ev) => {
                  const v = Number(ev.target.value);
                  if (Number.isFinite(v) && v > 0) update(i, { limitNs: v * NANOS_PER_UNIT[e.unit] });
                }}
              />
              <select
                aria-label="Unit"
                value={e.unit}
                onChange={(ev) => update(i, { unit: ev.target.value as Unit, limitNs: (e.limitNs / NANOS_PER_UNIT[e.unit]) * NANOS_PER_UNIT[ev.target.value as Unit] })}
              >
                <UnitOptions />
              </select>
            </td>
            <td>
              <button type="button" aria-label="Remove this entry" onClick={() => onChange(entries.filter((_, k) => k !== i))}>
                ×
              </button>
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={3}>
            <button
              type="button"
              onClick={() => {
                const used = new Set(entries.map((e) => e.percentile));
                const p = [50, 90, 99, 99.9, 99.99, 100].find((x) => !used.has(x)) ?? 99.999;
                onChange([...entries, { percentile: p, limitNs: 10 * NANOS_PER_UNIT.ms, unit: "ms" }]);
              }}
            >
              add entry
            </button>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
