import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { bundleSizes, PRELOADED_PANELS, staticImports } from "./bundle";

describe("item 7's count of the JavaScript loaded at start", () => {
  it("counts the panels the page preloads once idle, as lazy-panels.tsx lists them", () => {
    const src = readFileSync(resolve(__dirname, "../../src/ui/panels/lazy-panels.tsx"), "utf8");
    const list = /export function preloadPanels\(\)[^{]*\{\s*for \(const p of \[([^\]]+)\]\)/.exec(src);
    expect(list, "preloadPanels' list of panels").not.toBeNull();
    expect(list![1]!.split(",").map((s) => s.trim())).toEqual([...PRELOADED_PANELS]);
  });

  it("follows static imports, minified or not, and never a dynamic import()", () => {
    expect(staticImports(`import{a as b,c}from"./x-1.js";import"./y-2.js";import * as n from './z-3.js';`)).toEqual(["x-1.js", "y-2.js", "z-3.js"]);
    expect(staticImports(`const m=await import("./lazy-4.js");import(\`./lazy-5.js\`)`)).toEqual([]);
  });

  const dir = mkdtempSync(join(tmpdir(), "bundle-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("adds the workers, the preloaded panels and all they import, each chunk once", () => {
    const chunks: Record<string, string> = {
      "index-A1.js": `import{x}from"./shared-B2.js";new URL("worker-C3.js",import.meta.url);import("./Other-D4.js");`,
      "shared-B2.js": `export const x=1;`,
      "worker-C3.js": `import"./shared-B2.js";import{r}from"./reader-E5.js";import("./rare-F6.js")`,
      "part-worker-G7.js": `import{r}from"./reader-E5.js";`,
      "reader-E5.js": `export const r="${"r".repeat(200)}";`,
      "rare-F6.js": `export const rare=2;`,
      "HistoryPanel-H8.js": `import{x}from"./shared-B2.js";import{d}from"./deflate-I9.js";`,
      "deflate-I9.js": `export const d=3;`,
      "Other-D4.js": `export default 4;`,
      "history-worker-J1.js": `import{r}from"./reader-E5.js";`,
    };
    mkdirSync(join(dir, "assets"));
    for (const [name, code] of Object.entries(chunks)) writeFileSync(join(dir, "assets", name), code);
    writeFileSync(join(dir, "index.html"), `<script type="module" crossorigin src="./assets/index-A1.js"></script>`);
    const b = bundleSizes(dir);
    const atStart = ["index-A1.js", "shared-B2.js", "worker-C3.js", "reader-E5.js", "part-worker-G7.js", "HistoryPanel-H8.js", "deflate-I9.js"];
    expect([...b.startFiles].sort()).toEqual([...atStart].sort());
    const gz = (n: string) => gzipSync(Buffer.from(chunks[n]!), { level: 9 }).length;
    expect(b.start).toBe(atStart.reduce((s, n) => s + gz(n), 0));
    expect(b.total).toBe(Object.keys(chunks).reduce((s, n) => s + gz(n), 0));
    expect(b.mainName).toBe("index-A1.js");
  });
});
