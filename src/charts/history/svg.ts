// The history chart as a standalone SVG file: the chart's markup (the page's element, or the
// component rendered to a string on the command line) with its styles and light-theme colours
// inlined and a background, so it shows the same anywhere an image is shown.
const CSS = `svg { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.axis text, .history-strip-label { font-size: 11px; fill: #5b6470; }
.grid { stroke: #d8dde4; }
.history-marker { stroke-width: 1.5; stroke-dasharray: 3 3; }
.history-marker.worse, .history-marker-dot.worse { stroke: #b3261e; fill: #b3261e; }
.history-marker.better, .history-marker-dot.better { stroke: #005a8c; fill: #005a8c; }
.history-selected, .history-hit { display: none; }`;

export function standaloneHistorySvg(markup: string): string {
  const open = markup.indexOf(">");
  const head = markup.slice(0, open).replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  // The strip's neutral colours are CSS variables in the page; their light values here.
  const body = markup
    .slice(open + 1)
    .replace(/var\(--history-same, (#[0-9a-f]+)\)/g, "$1")
    .replace(/var\(--history-none, (#[0-9a-f]+)\)/g, "$1");
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}><style>${CSS}</style><rect width="100%" height="100%" fill="#ffffff"/>${body}\n`;
}
