// Paste data: a text area and a button that loads what was pasted. Holds its own text, so
// typing re-renders only this and a display-unit change skips it (memoised).
import { memo, useState } from "react";

export const PastePanel = memo(function PastePanel({ onLoad }: { onLoad: (text: string) => void }) {
  const [text, setText] = useState("");
  return (
    <details className="paste">
      <summary>Paste data</summary>
      <textarea
        data-testid="paste-input"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={6}
        placeholder="Paste an .hlog, .hgrm or wrk2 output"
        aria-label="Text to load"
      />
      <button
        type="button"
        data-testid="paste-load"
        onClick={() => {
          onLoad(text);
          setText("");
        }}
      >
        Load pasted text
      </button>
    </details>
  );
});
