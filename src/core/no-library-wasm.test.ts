// scripts/lib/library-edits.mjs removes hdr-histogram-js's embedded WebAssembly from the production bundle
// (editLibrary), so the library's WebAssembly histograms must never be asked for.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "assembly" ? [] : sources(p);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}

describe("hdr-histogram-js's WebAssembly", () => {
  it("is never asked for by the app (its module is stripped from the build)", () => {
    const files = sources(join(import.meta.dirname, ".."));
    expect(files.length).toBeGreaterThan(50);
    const uses = files.filter((f) => /initWebAssembly|useWebAssembly|webAssemblyReady|WasmHistogram/.test(readFileSync(f, "utf8")));
    expect(uses).toEqual([]);
  });
});
