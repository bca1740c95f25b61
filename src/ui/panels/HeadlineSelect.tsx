// Where the headline is stated: by the rule (the requirement's highest supported percentile,
// else p99) or a percentile the user picks. The choice is part of the view (links, session).
import { pLabel } from "../../core/compare/format";
import { TABLE_PERCENTILES } from "../../core/types";

interface Props {
  value: number | null;
  /** Where the rule puts the headline now (shown in the default option). */
  ruleAt: number | null;
  requirementPercentiles: number[] | null;
  onChange: (p: number | null) => void;
}

export function HeadlineSelect({ value, ruleAt, requirementPercentiles, onChange }: Props) {
  const ps = [
    ...new Set([...TABLE_PERCENTILES.filter((p) => p < 100), ...(requirementPercentiles ?? []).filter((p) => p > 0 && p < 100), ...(value !== null ? [value] : [])]),
  ].sort((a, b) => a - b);
  return (
    <label title="The percentile the headline states: by default the requirement's highest percentile below the max that the data supports, else p99">
      Headline at{" "}
      <select data-testid="headline-percentile" value={value === null ? "" : String(value)} onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}>
        <option value="">
          {requirementPercentiles && requirementPercentiles.some((p) => p < 100) ? "the requirement's" : "the default"}
          {ruleAt !== null ? ` (${pLabel(ruleAt)})` : ""}
        </option>
        {ps.map((p) => (
          <option key={p} value={String(p)}>
            {pLabel(p)}
          </option>
        ))}
      </select>
    </label>
  );
}
