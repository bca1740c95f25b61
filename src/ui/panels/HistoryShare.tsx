// The history's own share actions: a link holding the runs' summaries (#history=…), Markdown
// for a review comment, and the chart as an SVG file.
import { useState } from "react";
import { standaloneHistorySvg } from "../../charts/history/svg";
import type { Change, RunSummary } from "../../core/history";
import { historyMarkdown } from "../../core/history/markdown";
import type { Unit } from "../../core/types";
import { historyFragment } from "../../share/history-link";
import { downloadText } from "../export/download";

export function HistoryShare({ runs, changes, unit, series }: { runs: RunSummary[]; changes: Change[]; unit: Unit; series: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [md, setMd] = useState<string | null>(null);
  const link = () => `${window.location.origin}${window.location.pathname}${window.location.search}${historyFragment(runs)}`;
  return (
    <div className="history-share">
      <button type="button" data-testid="history-share-link" onClick={() => setUrl(link())}>
        Link to this history
      </button>
      <button type="button" data-testid="history-copy-markdown" onClick={() => setMd(historyMarkdown(runs, changes, { unit, link: link() }))}>
        Markdown
      </button>
      <button
        type="button"
        data-testid="history-export-svg"
        onClick={() => {
          const svg = document.querySelector("[data-testid=history] svg.history-chart");
          if (svg) downloadText(`history-${series}.svg`, standaloneHistorySvg(svg.outerHTML), "image/svg+xml");
        }}
      >
        SVG
      </button>
      {url ? <input readOnly data-testid="history-share-url" value={url} size={40} onFocus={(e) => e.currentTarget.select()} /> : null}
      {md ? <textarea readOnly data-testid="history-markdown-output" value={md} rows={8} /> : null}
    </div>
  );
}
