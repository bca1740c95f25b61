// The build-time edits of hdr-histogram-js (library-edits.mjs) on the library's own files: its
// log writer must make no number formatter when it loads, and write exactly what it wrote.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { editLibrary } from "./library-edits.mjs";

const require = createRequire(import.meta.url);
const UMD = require.resolve("hdr-histogram-js/dist/hdrhistogram.umd.js");
const WRITER = require.resolve("hdr-histogram-js/dist/HistogramLogWriter.js");

/** Loads the UMD build in a fresh context that counts the number formatters made; writes one histogram line. */
function load(code: string): { atLoad: number; made: () => number; line: string } {
  let made = 0;
  const RealFormat = Intl.NumberFormat;
  const CountingIntl = {
    ...Intl,
    NumberFormat: function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made++;
      return new RealFormat(...args);
    },
  };
  const sandbox: Record<string, unknown> = { Intl: CountingIntl, self: {}, console, TextDecoder, TextEncoder, atob, btoa, require };
  sandbox.globalThis = sandbox;
  sandbox.window = sandbox;
  runInNewContext(code, sandbox);
  const lib = (sandbox.hdr ?? (sandbox.self as Record<string, unknown>).hdr) as typeof import("hdr-histogram-js");
  const atLoad = made;
  let out = "";
  const writer = new lib.HistogramLogWriter((s: string) => void (out += s));
  const h = lib.build({ numberOfSignificantValueDigits: 3 });
  h.recordValue(1234);
  h.startTimeStampMsec = 1_000_500;
  h.endTimeStampMsec = 1_001_750;
  writer.outputIntervalHistogram(h);
  return { atLoad, made: () => made, line: out };
}

describe("hdr-histogram-js's build-time edits", () => {
  it("the log writer's formatter is made at its first use, and writes what it wrote", () => {
    // The formatter's edit alone: the library then compresses with Node's zlib here, as unedited.
    const original = readFileSync(UMD, "utf8");
    const edited = editLibrary(original, false);
    expect(edited).not.toBeNull();
    const before = load(original);
    const after = load(edited!);
    expect(before.atLoad).toBeGreaterThan(0);
    expect(after.atLoad).toBe(0);
    expect(after.made()).toBeGreaterThan(0);
    expect(after.line).toBe(before.line);
    expect(after.line).toMatch(/^1000\.500,1\.250,/);
  });

  it("the CommonJS build (the command line's) is edited the same way, and only that for Node", () => {
    const original = readFileSync(WRITER, "utf8");
    const edited = editLibrary(original, false)!;
    expect(edited).not.toBeNull();
    expect(edited).not.toMatch(/timeFormatter = \(0, formatters_1\.floatFormatter\)\(5, 3\);/);
    expect(edited).toContain("(made ??= (0, formatters_1.floatFormatter)(5, 3))(value)");
    // The zlib probe and the embedded WebAssembly are the browser's edits only.
    const umd = readFileSync(UMD, "utf8");
    expect(editLibrary(umd, false)!.length).toBeGreaterThan(umd.length - 100);
    expect(editLibrary(umd, true)!.length).toBeLessThan(umd.length - 30_000);
  });
});
