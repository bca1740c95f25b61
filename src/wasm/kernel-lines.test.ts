// readLines' arguments have one definition in TypeScript (kernel.ts ReadLinesArgs), which the
// lines' read and the module's export both take: it must name the module's own parameters
// (assembly/lines.ts) in their order, its flags where the module takes its 0/1 flags.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const source = (f: string) => readFileSync(path.join(__dirname, f), "utf8");

/** `name: type` pairs inside the first bracket (or parenthesis) after `head`. */
function params(text: string, head: RegExp, open: string, close: string): [string, string][] {
  const at = text.search(head);
  expect(at, String(head)).toBeGreaterThanOrEqual(0);
  const from = text.indexOf(open, at) + 1;
  const body = text.slice(from, text.indexOf(close, from));
  return body
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => p.split(":").map((x) => x.trim()) as [string, string]);
}

describe("readLines' arguments", () => {
  it("ReadLinesArgs names the module's parameters in the module's order, its Flag where the module takes a 0/1 flag", () => {
    const ts = params(source("kernel.ts"), /export type ReadLinesArgs<Flag> = \[/, "[", "]");
    const as = params(source("assembly/lines.ts"), /export function readLines\(/, "(", ")");
    expect(ts.map(([n]) => n)).toEqual(as.map(([n]) => n));
    expect(ts.filter(([, t]) => t === "Flag").map(([n]) => n)).toEqual(["zeroOk", "keep"]);
    for (const [name, type] of as) expect(type, name).toMatch(/^(i32|f64)$/);
  });

  it("is stated once: the lines' read and the module's export take it, not their own lists", () => {
    expect(source("kernel-lines.ts")).toMatch(/read\(\.\.\.args: ReadLinesArgs<boolean>\): number \{/);
    expect(source("kernel.ts")).toMatch(/readLines\(\.\.\.args: ReadLinesArgs<number>\): number;/);
  });
});
