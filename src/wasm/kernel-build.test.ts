import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The committed kernel-wasm.ts must be what the committed AssemblyScript source compiles to,
// so the two cannot drift apart. Skipped only where the compiler is not installed.

const ROOT = path.resolve(__dirname, "../..");

function hasCompiler(): boolean {
  try {
    createRequire(import.meta.url).resolve("assemblyscript/package.json");
    return true;
  } catch {
    return false;
  }
}

interface BuildScript {
  GENERATED: string;
  compileKernel(): Promise<Uint8Array>;
  generatedSource(wasm: Uint8Array): string;
}

describe.skipIf(!hasCompiler())("kernel-wasm.ts", () => {
  it("is exactly what scripts/build-wasm.mjs makes from src/wasm/assembly/kernel.ts", async () => {
    const script = pathToFileURL(path.join(ROOT, "scripts/build-wasm.mjs")).href;
    const build = (await import(/* @vite-ignore */ script)) as BuildScript;
    const wasm = await build.compileKernel();
    const committed = readFileSync(path.join(ROOT, build.GENERATED), "utf8");
    expect(committed === build.generatedSource(wasm), "run `npm run build:wasm` and commit src/wasm/kernel-wasm.ts").toBe(true);
  });
});
