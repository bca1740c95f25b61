import { describe, expect, it, vi } from "vitest";
import { ingest } from "./ingest";
import { threadBlockWorkspace } from "./block-workspace";
import { READY_BLOCK_CHUNKS, syntheticLog, syntheticSteps, warmUp } from "./warm-up";
import { EngineContext } from "./context";
import { HlogIngest } from "./hlog-ingest";
import { kernelStats } from "../wasm/kernel";

describe("warm-up", () => {
  it("its synthetic log is a valid interval log that reaches every part of the load path it means to warm", async () => {
    const lines = 400;
    const r = await ingest("warm-up.hlog", [syntheticLog(lines)]);
    // A silent failure here would leave the warm-up warming nothing.
    expect(r.problems).toEqual([]);
    expect(r.series.map((s) => s.tag).sort()).toEqual(["", "warm"]);
    const total = r.series.reduce((n, s) => n + s.intervals!.n, 0);
    expect(total).toBe(lines);
    // Both tags keep one layout each, so both build blocks (the window path).
    for (const s of r.series) expect(s.blocks).toBeTruthy();
  });

  it("its synthetic log, read as bytes as the warm-up reads it, takes the bytes path for its usual lines", () => {
    const lines = 2000;
    const bytes = new TextEncoder().encode(syntheticLog(lines));
    const before = kernelStats.nativeBase64;
    const sink = new HlogIngest("warm-up.hlog", true, bytes);
    for (let i = 0; i < bytes.length; i += 16 * 1024) sink.pushBytes(bytes.subarray(i, i + 16 * 1024));
    const r = sink.finish();
    expect(r.problems).toEqual([]);
    expect(r.series.reduce((n, s) => n + s.intervals!.n, 0)).toBe(lines);
    // Untagged lines (four in five) are read from the bytes; a tag's lines, a tag's first one
    // and a line cut by a slice's end go the text way.
    const asText = kernelStats.nativeBase64 - before;
    expect(asText).toBeGreaterThan(lines / 5 - 10);
    expect(asText).toBeLessThan(lines / 4);
  });

  it("waits while the worker is busy and reads the whole log once it is idle", async () => {
    let busy = true;
    let chunks = 0;
    const done = warmUp(
      new EngineContext(),
      () => busy,
      async (_name, it) => {
        for await (const _ of it) chunks++;
      },
      () => false,
      0,
    );
    await new Promise((r) => setTimeout(r, 120));
    expect(chunks).toBe(0);
    busy = false;
    await done;
    expect(chunks).toBeGreaterThan(10);
    // Then the block chunks a big first file will write, until a load lets them go.
    expect(threadBlockWorkspace().chunks.ready).toBe(READY_BLOCK_CHUNKS);
    threadBlockWorkspace().chunks.drop();
  });

  it("reads with kept counts of its own, within a few MB, none of them against the thread's budget", async () => {
    const context = new EngineContext({ keptBudget: 96 * 1024 * 1024 });
    const seen: { held: number; budget: number; own: boolean; n: number }[] = [];
    await warmUp(
      context,
      () => false,
      async (name, chunks, whole, reading) => {
        const sink = new HlogIngest(name, true, whole, true, undefined, reading);
        for await (const chunk of chunks) sink.pushBytes(chunk);
        const r = sink.finish();
        seen.push({ held: reading.kept.held(), budget: reading.kept.bytes, own: reading.kept !== context.kept, n: r.series.reduce((a, x) => a + (x.intervals?.n ?? 0), 0) });
      },
      () => false,
      0,
    );
    threadBlockWorkspace().chunks.drop();
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.own).toBe(true);
      // Kept up to its bound, far below what the log's intervals would take (~500 bytes each).
      expect(s.budget).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(s.held).toBeLessThanOrEqual(s.budget);
      expect(s.n * 300).toBeGreaterThan(s.budget);
    }
    // The thread's budget is untouched (what its registry holds is not compared: other tests'
    // tables attach to it and go at their own collection).
    expect(context.kept.bytes).toBe(96 * 1024 * 1024);
  });

  it("makes its synthetic log in small steps (each payload, each thousand lines), the same log as in one piece", () => {
    const steps = syntheticSteps(5000);
    let n = 0;
    let r = steps.next();
    while (!r.done) {
      n++;
      r = steps.next();
    }
    // 24 payloads encoded and 5 thousands of lines: a file chosen meanwhile waits for one step, not the whole log.
    expect(n).toBeGreaterThanOrEqual(29);
    expect(r.value).toBe(syntheticLog(5000));
  });

  it("stops for good once it is no longer needed", async () => {
    vi.resetModules(); // the block chunks' state, fresh
    const { warmUp: fresh } = await import("./warm-up");
    const { threadBlockWorkspace: freshWorkspace } = await import("./block-workspace");
    let chunks = 0;
    let needed = true;
    await fresh(
      new EngineContext(), // warmUp runs once per context: a fresh one
      () => false,
      async (_name, it) => {
        for await (const _ of it) {
          chunks++;
          if (chunks === 3) needed = false;
          await new Promise((r) => setTimeout(r, 10)); // past a slice, so it looks again
        }
      },
      () => !needed,
      0,
    );
    expect(chunks).toBe(3);
    // A file came: nothing is written ahead for it.
    expect(freshWorkspace().chunks.ready).toBe(0);
  });

  it("says on the thread's global when it is running and when it is over, cut short by a file or read through", async () => {
    const state = () => (globalThis as unknown as { hdrWarmUp?: string }).hdrWarmUp;
    let busy = true;
    let needed = true;
    const seen: (string | undefined)[] = [];
    const cut = warmUp(
      new EngineContext(),
      () => busy,
      async (_name, it) => {
        for await (const _ of it) {
          seen.push(state());
          needed = false;
          await new Promise((r) => setTimeout(r, 10));
        }
      },
      () => !needed,
      0,
    );
    expect(state()).toBe("running");
    await new Promise((r) => setTimeout(r, 60));
    expect(state()).toBe("running"); // waiting while the worker is busy
    busy = false;
    await cut;
    expect(seen).toEqual(["running"]);
    expect(state()).toBe("over");
    const whole = warmUp(
      new EngineContext(),
      () => false,
      async (_name, it) => void (await it[Symbol.asyncIterator]().next()),
      () => false,
      0,
    );
    expect(state()).toBe("running");
    await whole;
    expect(state()).toBe("over");
    threadBlockWorkspace().chunks.drop();
  });

  it("runs once per engine context", async () => {
    const context = new EngineContext();
    await warmUp(
      context,
      () => false,
      async () => undefined,
      () => true,
      0,
    );
    let reads = 0;
    await warmUp(
      context,
      () => false,
      async () => void reads++,
      () => false,
      0,
    );
    expect(reads).toBe(0);
    expect(context.warmUpStarted).toBe(true);
  });
});
