// Item 7: production JS per file, gzipped; what the page loads at start (the entry, the chunks
// it imports statically, the workers) apart from the panels' chunks loaded when first shown.
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
  /** What the page loads at start: the entry and its static imports, the workers and theirs. */
  start: number;
  main: number;
  mainName: string;
  files: BundleFile[];
  startFiles: string[];
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
  // Static imports only (`import … from"./x.js"` or `import"./x.js"`), not `import("./x.js")`.
  const start = new Set<string>();
  const visit = (name: string) => {
    if (start.has(name) || !files.some((f) => f.name === name)) return;
    start.add(name);
    const code = readFileSync(join(dir, name), "utf8");
    for (const s of code.matchAll(/\bimport\s*(?:[\w${},*\s]+from\s*)?["']\.\/([^"']+\.js)["']/g)) visit(s[1]!);
  };
  visit(mainName);
  for (const f of files) if (/^(part-)?worker-/.test(f.name)) visit(f.name);
  return {
    total: files.reduce((s, f) => s + f.gz, 0),
    start: files.filter((f) => start.has(f.name)).reduce((s, f) => s + f.gz, 0),
    main: main?.gz ?? Number.NaN,
    mainName,
    files,
    startFiles: [...start],
  };
}
