// Says that the first view is the demo, and how to put one's own logs in its place.
import { READABLE_FORMATS } from "../../formats/readable";

/** The formats the page reads, as the readers' registry words them, so the list stays true as readers come. */
export function useReadableFormats(): string {
  return READABLE_FORMATS;
}

export function DemoBanner() {
  return (
    <div className="demo-banner" data-testid="demo-banner" role="note">
      <strong>Demo: System A vs System B — drop your own logs anywhere</strong> (or <em>Open files…</em>, or paste).{" "}
      <details className="demo-formats">
        <summary>What it reads</summary>
        {READABLE_FORMATS}.
      </details>
    </div>
  );
}
