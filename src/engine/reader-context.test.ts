// The reader runs in the engine context it is given: its kernel reads the byte path and its
// decoder the text path. A context whose decoder has no kernel reads every line in JavaScript
// (the kernel's counters do not move) and gives the same series as the thread's context, whose
// kernel reads them.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeDayLog } from "../../tests/support/day-log";
import { sparseOf } from "../core/histogram";
import { kernelStats } from "../wasm/kernel";
import { EngineContext, sharedContext } from "./context";
import { ingestHlogInParts, ingestHlogPart } from "./hlog-ingest";
import { PayloadDecoder } from "./intervals/decode";

const file = writeDayLog(path.join(mkdtempSync(path.join(tmpdir(), "hdr-reader-context-")), "ctx.hlog"), { intervals: 600, seed: 9 }).path;

async function read(context: EngineContext) {
  const bytes = new Uint8Array(readFileSync(file));
  const part = await ingestHlogPart("ctx.hlog", [bytes], undefined, bytes, { context });
  const r = await ingestHlogInParts("ctx.hlog", [], [Promise.resolve(part)], undefined, { context });
  const s = r.series[0]!;
  return { n: s.intervals!.n, counts: sparseOf(s.histogram), p50: Array.from(s.intervals!.p50.subarray(0, s.intervals!.n)) };
}

describe("the reader's engine context", () => {
  it("a context without a kernel reads in JavaScript alone, the thread's with its kernel, to the same series", async () => {
    expect(sharedContext.kernel).not.toBeNull();
    const before = { ...kernelStats };
    const js = await read(new EngineContext({ decoder: new PayloadDecoder(null) }));
    expect(kernelStats.handled).toBe(before.handled);
    expect(kernelStats.bytes).toBe(before.bytes);
    const kernel = await read(sharedContext);
    // Every interval line but a few read from its bytes by the kernel.
    expect(kernelStats.bytes - before.bytes).toBeGreaterThan(550);
    expect(js.n).toBe(600);
    expect(kernel).toEqual(js);
  });
});
