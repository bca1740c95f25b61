// Problems met while loading: each names the file, the line when there is one, and the reason.
import { memo } from "react";
import type { LoadProblem } from "../core/types";

// Memoised: its props do not change with the display unit, so a unit change skips it.
export const LoadErrors = memo(function LoadErrors({ problems, onDismiss }: { problems: LoadProblem[]; onDismiss: () => void }) {
  if (problems.length === 0) return null;
  return (
    <section className="load-errors" role="alert" aria-label="Problems while loading">
      <ul>
        {problems.map((p, i) => (
          <li key={i} data-testid="load-error" data-file={p.file} data-line={p.line === null ? "" : String(p.line)}>
            <strong>{p.file}</strong>
            {p.line !== null ? `, line ${p.line}` : ""}: {p.reason}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onDismiss} data-testid="dismiss-errors">
        Dismiss
      </button>
    </section>
  );
});
