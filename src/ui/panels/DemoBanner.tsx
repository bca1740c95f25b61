// Says that the first view is the demo, and how to put one's own logs in its place.
import { READABLE_FORMATS } from "../../formats/detect";

export function DemoBanner() {
  return (
    <div className="demo-banner" data-testid="demo-banner" role="note">
      <strong>Demo: System A vs System B — drop your own logs anywhere</strong> (or <em>Open files…</em>, or paste). Read: {READABLE_FORMATS}.
    </div>
  );
}
