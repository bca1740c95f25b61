// protocol.ts is what every thread and query module shares: it must stay a leaf of types, or
// the engine's modules import one another in a circle again (protocol → store → queries →
// protocol), which bundlers order arbitrarily.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const importsOf = (file: string) =>
  [...readFileSync(resolve(import.meta.dirname, file), "utf8").matchAll(/^(import|export)\b([^;]*?)from\s+"([^"]+)"/gm)].map((m) => ({
    kind: m[1]!,
    clause: m[2]!.trim(),
    from: m[3]!,
  }));

describe("protocol.ts", () => {
  it("imports types only, and of the engine only query-types.ts, which imports no engine module", () => {
    const imports = importsOf("protocol.ts");
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) {
      expect(i.clause.startsWith("type "), `${i.kind} ${i.clause} from ${i.from}`).toBe(true);
      if (i.from.startsWith("./")) expect(i.from).toBe("./query-types");
    }
    for (const i of importsOf("query-types.ts")) {
      expect(i.clause.startsWith("type ")).toBe(true);
      expect(i.from.startsWith("./")).toBe(false);
    }
  });
});
