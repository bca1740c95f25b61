// Expected interval between requests for coordinated-omission correction: "10ms", or a rate
// such as "100/s". Applies on Enter or blur; empty means no correction.
import { memo, useEffect, useState } from "react";
import { parseExpectedInterval } from "../core/interval";

// Memoised: its props do not change with the display unit, so a unit change skips it.
// `value` is the applied text: a restored session sets it, and the field follows.
export const CoIntervalInput = memo(function CoIntervalInput({ value, onChange }: { value: string; onChange: (ns: number | null, text: string) => void }) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(value);
    setApplied(value);
  }, [value]);
  const apply = () => {
    if (text === applied) return;
    const ns = parseExpectedInterval(text);
    if (ns !== null && Number.isNaN(ns)) {
      setError(`"${text}" is neither a duration (10ms) nor a rate (100/s)`);
      return;
    }
    setError(null);
    setApplied(text);
    onChange(ns, text);
  };
  return (
    <label className="co-interval" title="Expected interval between requests: shows a coordinated-omission-corrected copy of every series beside it">
      CO correction{" "}
      <input
        data-testid="co-interval"
        value={text}
        placeholder="e.g. 10ms or 100/s"
        aria-invalid={error !== null}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === "Enter" && apply()}
        size={12}
      />
      {error ? (
        <span className="warn-inline" role="alert">
          {" "}
          {error}
        </span>
      ) : null}
    </label>
  );
});
