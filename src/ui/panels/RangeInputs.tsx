// Time window in seconds since each log's StartTime (HistogramLogProcessor's -start/-end).
// Applies on Enter or blur; Escape or the clear button opens the window again.
import { memo, useEffect, useState } from "react";
import type { TimeRange } from "../../engine/store";

function parse(s: string): number | null {
  const t = s.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * `range` is the window asked for (the fields follow it); `shown`, the window of the spectra on
 * screen: the "whole run" button comes with them, so typing a window changes nothing on the
 * page until its spectra arrive (one frame, not two).
 */
/** One end of the window, in seconds since StartTime; applies on Enter or blur. */
function WindowEdge(p: {
  testId: string;
  which: "start" | "end";
  value: string;
  onChange: (v: string) => void;
  onApply: () => void;
  onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => void;
}) {
  return (
    <input
      data-testid={p.testId}
      type="number"
      step="any"
      value={p.value}
      placeholder={p.which}
      aria-label={`Window ${p.which}, seconds since StartTime`}
      onChange={(e) => p.onChange(e.target.value)}
      onBlur={p.onApply}
      onKeyDown={p.onKeyDown}
    />
  );
}

// Memoised: the toolbar renders again with the busy flag; the inputs only with their window.
export const RangeInputs = memo(function RangeInputs({ range, shown = range, onChange }: { range: TimeRange; shown?: TimeRange; onChange: (r: TimeRange) => void }) {
  const [start, setStart] = useState(range.start === null ? "" : String(range.start));
  const [end, setEnd] = useState(range.end === null ? "" : String(range.end));
  useEffect(() => {
    setStart(range.start === null ? "" : String(range.start));
    setEnd(range.end === null ? "" : String(range.end));
  }, [range]);
  const apply = () => {
    const next = { start: parse(start), end: parse(end) };
    if (next.start !== range.start || next.end !== range.end) onChange(next);
  };
  const clear = () => onChange({ start: null, end: null });
  const keys = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") apply();
    if (e.key === "Escape") clear();
  };
  return (
    <fieldset className="range">
      <legend>Time window (s since start)</legend>
      <WindowEdge testId="range-start" which="start" value={start} onChange={setStart} onApply={apply} onKeyDown={keys} />–
      <WindowEdge testId="range-end" which="end" value={end} onChange={setEnd} onApply={apply} onKeyDown={keys} />
      {shown.start !== null || shown.end !== null ? (
        <button type="button" data-testid="range-clear" onClick={clear}>
          whole run
        </button>
      ) : null}
    </fieldset>
  );
});
