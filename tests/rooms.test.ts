// Keeps the code's rooms the size a newcomer can read: no source file over 500 lines, the store
// within 400, and the engine's module-level state (a `let` at the top of a module) within 5 in
// engine/, the kernel and the blocks together: state belongs in the engine context.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(import.meta.dirname, "..");
const SRC = path.join(repoRoot, "src");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

const lines = (file: string) => readFileSync(file, "utf8").split("\n").length - 1;
const rel = (file: string) => path.relative(repoRoot, file);

describe("rooms", () => {
  it("no source file is over 500 lines", () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const long = files.filter((f) => lines(f) > 500).map((f) => `${rel(f)}: ${lines(f)} lines`);
    expect(long).toEqual([]);
  });

  it("the store is within 400 lines", () => {
    expect(lines(path.join(SRC, "engine/store.ts"))).toBeLessThanOrEqual(400);
  });

  it("the engine, the kernel and the blocks hold at most 5 module-level lets together", () => {
    const files = [...sources(path.join(SRC, "engine")), path.join(SRC, "wasm/kernel.ts"), path.join(SRC, "core/blocks.ts")];
    const lets = files.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((l, i) => (/^(export )?let /.test(l) ? [`${rel(f)}:${i + 1}`] : [])),
    );
    expect(lets.length, lets.join(", ")).toBeLessThanOrEqual(5);
  });
});
