// Says that the first view is the demo, and how to put one's own logs in its place.
import { useEffect, useState } from "react";

let formats: string | null = null;

/**
 * The formats the page reads, as the readers' registry words them (formats/detect.ts), so the
 * list stays true as readers come. Fetched as a chunk of its own: the registry brings every
 * reader with it, which the page's own bundle leaves to the engine worker.
 */
export function useReadableFormats(): string | null {
  const [text, setText] = useState(formats);
  useEffect(() => {
    if (formats !== null) return;
    let live = true;
    void import("../../formats/detect").then((m) => {
      formats = m.READABLE_FORMATS;
      if (live) setText(formats);
    });
    return () => {
      live = false;
    };
  }, []);
  return text;
}

export function DemoBanner() {
  const read = useReadableFormats();
  return (
    <div className="demo-banner" data-testid="demo-banner" role="note">
      <strong>Demo: System A vs System B — drop your own logs anywhere</strong> (or <em>Open files…</em>, or paste).{read ? ` Read: ${read}.` : ""}
    </div>
  );
}
