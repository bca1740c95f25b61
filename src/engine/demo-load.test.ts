// The page's demo is not the person's file: the engine reads it alone, and the workers' idle
// warm-up goes on after it (on the page as it opens by default, the warm-up otherwise never ran
// and the person's first file was read by code V8 had not optimised yet).
import { describe, expect, it } from "vitest";
import { threadBlockWorkspace } from "./block-workspace";
import { hlogFixture } from "../../tests/fuzz/generators";
import { handle } from "./handle";
import type { FileOutcome } from "./protocol";
import { ingestHlogPart, type HlogPart } from "./ingest";
import type { HelperWorkers } from "./load-files";
import { fileChunks } from "./file-chunks";
import { Store } from "./store";
import { EngineWarmUps, type WarmableStore } from "./warm-up";
import { EngineContext } from "./context";

class CountingHelpers implements HelperWorkers {
  readonly count = 1;
  reads = 0;
  async read(_helper: number, blob: Blob, name: string): Promise<HlogPart> {
    this.reads++;
    const source = new Uint8Array(blob.size);
    return ingestHlogPart(
      name,
      fileChunks(blob, () => undefined, undefined, source),
      () => undefined,
      source,
    );
  }
}

const files = () => [1, 2, 3, 4].map((k) => new File([hlogFixture(40 + k).text], `sys${k}.hlog`));

describe("the demo's load", () => {
  it("is read by the engine alone, with what a load shared out to helpers gives", async () => {
    const helpers = new CountingHelpers();
    const shared = new Store();
    const a = (await handle(shared, { kind: "load", files: files() }, () => undefined, undefined, helpers)) as FileOutcome[];
    expect(helpers.reads).toBeGreaterThan(0);

    const alone = new CountingHelpers();
    const demo = new Store();
    const b = (await handle(demo, { kind: "load", files: files(), demo: true }, () => undefined, undefined, alone)) as FileOutcome[];
    expect(alone.reads).toBe(0);
    expect(b.map((o) => o.problems)).toEqual(a.map((o) => o.problems));
    expect(demo.series.map((s) => [s.name, s.histogram.totalCount, s.intervals?.n])).toEqual(shared.series.map((s) => [s.name, s.histogram.totalCount, s.intervals?.n]));
  });

  it("keeps the block chunks written ahead, which a load of the person's logs lets go", () => {
    const store = { series: [] } as unknown as WarmableStore;
    const warm = new EngineWarmUps(new EngineContext(), store, () => store);
    const chunks = threadBlockWorkspace().chunks;
    chunks.drop();
    chunks.prepare();
    chunks.prepare();
    warm.answered("load", warm.requested("load", true), true);
    expect(chunks.ready).toBe(2);
    warm.answered("views", warm.requested("views"));
    expect(chunks.ready).toBe(2);
    warm.answered("loadUrls", warm.requested("loadUrls"));
    expect(chunks.ready).toBe(0);
  });

  it("leaves the idle warm-up to go on, where a load of the person's files ends it", () => {
    const store = { series: [] } as unknown as WarmableStore;
    const warm = new EngineWarmUps(new EngineContext(), store, () => store);
    warm.answered("load", warm.requested("load", true), true);
    expect(warm.warmedByFiles()).toBe(false);
    warm.answered("views", warm.requested("views"));
    expect(warm.warmedByFiles()).toBe(false);
    warm.answered("load", warm.requested("load"));
    expect(warm.warmedByFiles()).toBe(true);
    for (const kind of ["loadUrls", "loadText"]) {
      const other = new EngineWarmUps(new EngineContext(), store, () => store);
      other.answered(kind, other.requested(kind));
      expect(other.warmedByFiles()).toBe(true);
    }
  });

  it("is not kept waiting by the engine's quick warm-up at start: the warm-up gives way to it while it still makes its synthetic log", async () => {
    const tick = () => new Promise((r) => setTimeout(r, 0));
    /**
     * A warm-up whose store records when the synthetic log is read; `request`: a load arrives
     * when the quick warm-up first gives way (a message to itself), after its first step. Timed
     * by a timer instead, warm code could make the whole log before the timer fired.
     */
    const run = async (request: boolean) => {
      const loads: string[] = [];
      const store = { series: [], load: async (name: string) => void loads.push(name) } as unknown as WarmableStore;
      const context = new EngineContext();
      context.warmUpStarted = true; // the idle warm-up (after its delay) is not this test's
      const warm = new EngineWarmUps(context, store, () => store);
      let gaveWay = false;
      const Real = globalThis.MessageChannel;
      // Channels made from here on: the quick warm-up's, made when it starts.
      globalThis.MessageChannel = class extends Real {
        constructor() {
          super();
          const post = this.port2.postMessage.bind(this.port2);
          this.port2.postMessage = (m: unknown) => {
            if (!gaveWay && request) warm.requested("load", true);
            gaveWay = true;
            post(m);
          };
        }
      };
      try {
        warm.start();
        for (let k = 0; k < 200 && loads.length === 0; k++) await tick();
      } finally {
        globalThis.MessageChannel = Real;
      }
      expect(gaveWay).toBe(true);
      return loads;
    };
    // Left alone, it reads its log; with the demo's load come meanwhile, it stops before reading it.
    expect(await run(false)).toEqual(["warm-up.hlog"]);
    expect(await run(true)).toEqual([]);
  });
});
