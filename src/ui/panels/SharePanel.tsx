// For reviews: a Markdown summary (copied to the clipboard and shown), and a share link that
// carries the view and its data in the URL fragment (never sent to a server).
import { memo, useState } from "react";
import { loadLinkBase, pointsAtThisMachine, saveLinkBase } from "../state/link-base";

function linkHost(url: string): string {
  const u = new URL(url);
  return u.protocol === "file:" ? "a file on this disk" : u.host;
}

interface Props {
  makeMarkdown: () => Promise<string>;
  makeLink: (fullPrecision: boolean, base: string) => Promise<{ url: string; lossy: boolean; length: number } | { error: string }>;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // no permission (or not a secure context): the text is still shown to copy by hand
  }
}

// Memoised: its props do not change with the display unit, so a unit change skips it.
export const SharePanel = memo(function SharePanel({ makeMarkdown, makeLink }: Props) {
  const [markdown, setMarkdown] = useState<string | null>(null);
  const [link, setLink] = useState<{ url: string; lossy: boolean; length: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [full, setFull] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const [base, setBase] = useState(loadLinkBase);
  const local = link !== null && pointsAtThisMachine(link.url);
  return (
    <section className="share-panel" aria-label="Share">
      <div className="share-buttons">
        <button
          type="button"
          data-testid="share-link"
          onClick={async () => {
            setError(null);
            const r = await makeLink(full, base);
            if ("error" in r) {
              setError(r.error);
              setLink(null);
              return;
            }
            setLink(r);
            setCopied((await copy(r.url)) ? "link" : null);
          }}
        >
          Share link
        </button>
        <label title="Keep every bucket of every histogram: exact, but a longer link">
          <input type="checkbox" data-testid="share-full" checked={full} onChange={(e) => setFull(e.target.checked)} /> full precision
        </label>
        <button
          type="button"
          data-testid="copy-markdown"
          onClick={async () => {
            const md = await makeMarkdown();
            setMarkdown(md);
            setCopied((await copy(md)) ? "markdown" : null);
          }}
        >
          Copy Markdown
        </button>
      </div>
      <label className="link-base" title="Where the page is published, e.g. https://perf.example.org/hdr-spectrum/; empty: this page's own address. Kept in this browser.">
        Links open at{" "}
        <input
          type="url"
          data-testid="link-base"
          value={base}
          placeholder="this page's address"
          spellCheck={false}
          onChange={(e) => {
            setBase(e.target.value);
            saveLinkBase(e.target.value);
          }}
        />
      </label>
      {error ? (
        <p className="share-error" role="alert">
          {error}
        </p>
      ) : null}
      {link ? (
        <div className="share-result">
          <input data-testid="share-url" readOnly value={link.url} aria-label="Share link" onFocus={(e) => e.target.select()} />
          {local ? (
            <p className="share-warning" data-testid="share-warning" role="alert">
              This link points at this computer ({linkHost(link.url)}): nobody else can open it, and the Markdown carries it. Type the address where the page is published in{" "}
              <em>Links open at</em> and make the link again.
            </p>
          ) : null}
          <p className="hint" data-testid="share-note">
            {copied === "link" ? "Copied. " : ""}
            {Math.round(link.length / 1024)} KB; {link.lossy ? "the numbers as shown here; curves from histograms rounded upward (at most 1 % high)" : "full precision"}. The data
            is in the link itself: nothing is uploaded.
          </p>
        </div>
      ) : null}
      {markdown !== null ? (
        <div className="share-result">
          <textarea data-testid="markdown-output" readOnly value={markdown} rows={Math.min(16, markdown.split("\n").length + 1)} aria-label="Markdown summary" />
          {copied === "markdown" ? <p className="hint">Copied.</p> : null}
        </div>
      ) : null}
    </section>
  );
});
