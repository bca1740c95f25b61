// Item 7: production JS per file, gzipped.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export function bundleSizes(distDir: string): { total: number; main: number; mainName: string; files: { name: string; raw: number; gz: number }[] } {
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
  return { total: files.reduce((s, f) => s + f.gz, 0), main: main?.gz ?? Number.NaN, mainName, files };
}
