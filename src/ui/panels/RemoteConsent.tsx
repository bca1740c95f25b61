// The question a #src= link asks before the page fetches from another host: opening a link
// must not tell a server who opened it and when, unless the user agrees. Asked in the page
// (not window.confirm, which blocks the page and cannot be styled or tested as part of it).
import type { FileOutcome } from "../../engine/protocol";

export interface RemoteQuestion {
  /** The other hosts the link names (host[:port]), each once. */
  hosts: string[];
  /** Loads what the answer allows; run as a load. */
  answer: (load: boolean) => Promise<FileOutcome[]>;
}

export function RemoteConsent({ question, onAnswer }: { question: RemoteQuestion | null; onAnswer: (load: boolean) => void }) {
  if (!question) return null;
  const hosts = question.hosts;
  return (
    <section className="warning remote-consent" style={{ margin: "10px 16px 0" }} aria-label="Load data from other hosts?" data-testid="src-consent" data-hosts={hosts.join(" ")}>
      <p style={{ margin: "0 0 6px" }}>
        This link loads data from{" "}
        {hosts.map((h, i) => (
          <span key={h}>
            {i === 0 ? "" : i === hosts.length - 1 ? " and " : ", "}
            <strong>{h}</strong>
          </span>
        ))}
        . Load? Nothing has been fetched yet; loading tells {hosts.length === 1 ? "that host" : "those hosts"} that this page was opened.
      </p>
      <button type="button" data-testid="src-consent-load" onClick={() => onAnswer(true)}>
        Load
      </button>{" "}
      <button type="button" data-testid="src-consent-cancel" onClick={() => onAnswer(false)}>
        Cancel
      </button>
    </section>
  );
}
