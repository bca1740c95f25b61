// Before a deck of more than two series: which two it compares. Asked when no comparison is
// open and the series do not name one by themselves (two configurations at a common throughput).
import { useEffect, useRef, useState } from "react";

interface Props {
  names: string[];
  /** The pair preselected. */
  initial: [string, string];
  onPick: (pair: [string, string] | null) => void;
  onCancel: () => void;
}

export function PairPicker({ names, initial, onPick, onCancel }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [a, setA] = useState(initial[0]);
  const [b, setB] = useState(initial[1]);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const options = names.map((n) => (
    <option key={n} value={n}>
      {n}
    </option>
  ));
  return (
    <dialog
      ref={ref}
      className="pair-picker"
      data-testid="present-pair"
      aria-label="Which two series the presentation compares"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onPick([a, b]);
        }}
      >
        <h2>Which two does the presentation compare?</h2>
        <p className="hint">
          {names.length} series are shown. The first slide states how one compares with the other; every series stays on the charts (the worst ones where there are too many to
          read).
        </p>
        <label>
          Baseline (A){" "}
          <select data-testid="present-pair-baseline" value={a} onChange={(e) => setA(e.target.value)}>
            {options}
          </select>
        </label>
        <label>
          Candidate (B){" "}
          <select data-testid="present-pair-candidate" value={b} onChange={(e) => setB(e.target.value)}>
            {options}
          </select>
        </label>
        {a === b ? <p className="share-error">Pick two different series.</p> : null}
        <div className="pair-picker-buttons">
          <button type="submit" data-testid="present-pair-go" disabled={a === b} autoFocus>
            Present {b} vs {a}
          </button>
          <button type="button" data-testid="present-pair-none" onClick={() => onPick(null)}>
            Present without a comparison
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
