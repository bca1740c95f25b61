// Item 7: production JS per file, gzipped; what the page loads at start: the entry, the workers
// it starts at once (the engine worker and its helpers), the panels' chunks it fetches once idle
// after its first paint (ui/panels/lazy-panels.tsx, preloadPanels: a page fetches them whether
// or not it shows them), and every chunk these import statically. The workers are entries of the
// page's build (vite.config.ts), so a chunk they share with the page or with each other is
// fetched, and counted, once. Cross-checked against the .js files the browser fetches for the
// page opened with its demo and for a 24-hour log chosen (the bench's items 1e and 1).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleFile {
  name: string;
  raw: number;
  gz: number;
}

export interface BundleSizes {
  /** All of dist/assets/*.js. */
  total: number;
  /** What the page loads at start (see above). */
  start: number;
  main: number;
  mainName: string;
  files: BundleFile[];
  startFiles: string[];
}

/** The workers the page starts at once (engine/client.ts): the engine worker and its helpers. */
export const START_WORKERS = /^(part-)?worker-[\w-]+\.js$/;
/** The panels the page fetches once idle after start (lazy-panels.tsx, preloadPanels). */
export const PRELOADED_PANELS = ["TimeAnalysis", "ComparePanel", "HistoryPanel", "Presentation"] as const;

/** The chunks a chunk imports statically (`import … from"./x.js"` or `import"./x.js"`), not `import("./x.js")`. */
export function staticImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[\w${},*\s]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]!);
}

export function bundleSizes(distDir: string): BundleSizes {
  const dir = join(distDir, "assets");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .map((name) => {
      const buf = readFileSync(join(dir, name));
      return { name, raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
    });
  const html = readFileSync(join(distDir, "index.html"), "utf8");
  const m = /<script[^>]*type="module"[^>]*src="[^"]*?assets\/([^"]+\.js)"/.exec(html);
  const mainName = m?.[1] ?? "";
  const main = files.find((f) => f.name === mainName);
  const start = new Set<string>();
  const visit = (name: string) => {
    if (start.has(name) || !files.some((f) => f.name === name)) return;
    start.add(name);
    for (const s of staticImports(readFileSync(join(dir, name), "utf8"))) visit(s);
  };
  visit(mainName);
  const panel = new RegExp(`^(${PRELOADED_PANELS.join("|")})-[\\w-]+\\.js$`);
  for (const f of files) if (START_WORKERS.test(f.name) || panel.test(f.name)) visit(f.name);
  return {
    total: files.reduce((s, f) => s + f.gz, 0),
    start: files.filter((f) => start.has(f.name)).reduce((s, f) => s + f.gz, 0),
    main: main?.gz ?? Number.NaN,
    mainName,
    files,
    startFiles: [...start],
  };
}
