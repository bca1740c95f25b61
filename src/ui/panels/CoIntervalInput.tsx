// Expected interval between requests for coordinated-omission correction: "10ms", or a rate
// such as "100/s". Applies on Enter or blur; empty means no correction.
import { memo } from "react";
import { parseExpectedInterval } from "../../core/interval";
import { AppliedInput } from "./AppliedInput";

function check(text: string): string | null {
  const ns = parseExpectedInterval(text);
  return ns !== null && Number.isNaN(ns) ? `"${text}" is neither a duration (10ms) nor a rate (100/s)` : null;
}

// Memoised: its props do not change with the display unit, so a unit change skips it.
// `value` is the applied text: a restored session sets it, and the field follows.
export const CoIntervalInput = memo(function CoIntervalInput({ value, onChange }: { value: string; onChange: (ns: number | null, text: string) => void }) {
  return (
    <AppliedInput
      className="co-interval"
      title="Expected interval between requests: shows a coordinated-omission-corrected copy of every series beside it"
      label="CO correction"
      testId="co-interval"
      value={value}
      placeholder="e.g. 10ms or 100/s"
      size={12}
      check={check}
      onApply={(t) => onChange(parseExpectedInterval(t), t)}
    />
  );
});
