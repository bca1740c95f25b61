// Helper threads for the command line: the engine's loader (engine/load-files.ts) shares
// interval logs out to these, and cuts a big log into parts read at once, exactly as the page
// does with its helper workers; the parts are read by the same code (ingestHlogPart) and
// joined by the same code (ingestHlogInParts).
import { availableParallelism } from "node:os";
import { Worker, parentPort, type MessagePort as NodeMessagePort } from "node:worker_threads";
import { fileBytes } from "../engine/file-chunks";
import { ingestHlogPart, transferablesOf, type HlogPart } from "../engine/hlog-ingest";
import type { HelperWorkers } from "../engine/load-files";
import type { TimeRange } from "../engine/protocol";
import type { MergedShare, MergeHelpers } from "./load";
import { PathFile } from "./path-file";
import { intervalsBefore } from "../engine/piece-origins";

type ToHelper =
  | { type: "read"; id: number; path: string; name: string; start: number; end: number; blocks: boolean; before: [number, number] | null }
  | { type: "merge"; id: number; paths: readonly string[]; range: TimeRange };
type FromHelper = { id: number; type: "done"; part: HlogPart } | { id: number; type: "merged"; share: MergedShare } | { id: number; type: "error"; message: string };

import { HELPER_ROLE } from "./helper-role";

/** One helper per core beyond this thread's own, at most 3 (the page's rule). */
export function helperThreadCount(): number {
  return Math.max(0, Math.min(3, availableParallelism() - 1));
}

export class NodeHelperPool implements HelperWorkers, MergeHelpers {
  private readonly workers: (Worker | null)[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a part or a share, by the request's type
  private readonly pending = new Map<number, { resolve: (p: any) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  /**
   * `script`: the file a helper runs (the bundled command line itself). `blocks`: whether the
   * logs' parts keep their blocks (engine/hlog-ingest.ts ReadOptions).
   */
  constructor(
    readonly count: number,
    private readonly script: URL,
    started: readonly Worker[] = [],
    private readonly blocks = true,
  ) {
    this.workers = new Array<Worker | null>(count).fill(null);
    this.started = started.slice(0, count);
  }

  /** Threads started before the pool was made (on the same script), taken in turn. */
  private readonly started: Worker[];

  /** Starts every helper now, so none is still booting when the first part is sent. */
  start(): void {
    for (let l = 0; l < this.count; l++) this.worker(l);
  }

  private worker(helper: number): Worker {
    let w = this.workers[helper];
    if (w) return w;
    w = this.started.shift() ?? new Worker(this.script, { workerData: { role: HELPER_ROLE } });
    // One started early is unreferenced until it has work: now it keeps the process alive while it reads.
    w.ref();
    w.on("message", (r: FromHelper) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if (r.type === "done") p.resolve(r.part);
      else if (r.type === "merged") p.resolve(r.share);
      else p.reject(new Error(r.message));
    });
    w.on("error", (e: unknown) => this.fail(helper, e instanceof Error ? e : new Error(String(e))));
    w.on("exit", (code) => {
      if (code !== 0) this.fail(helper, new Error(`helper thread exited with code ${code}`));
    });
    this.workers[helper] = w;
    return w;
  }

  private fail(helper: number, e: Error): void {
    // What was pending fails; the loader then reads those files on the main thread.
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error(`helper thread failed: ${e.message}`));
    }
    this.workers[helper] = null;
  }

  read(helper: number, blob: Blob, name: string, _progress?: unknown, _signal?: AbortSignal, before?: Blob): Promise<HlogPart> {
    if (!(blob instanceof PathFile) || (before && !(before instanceof PathFile))) return Promise.reject(new Error("only files on disk are read on helper threads"));
    // Counted only for parts that keep blocks: the count lays them on the log's grid, nothing else.
    const ahead: [number, number] | null = this.blocks && before instanceof PathFile ? [before.start, before.end] : null;
    // The helper keeps none of the part's bytes: its payloads are read back from the file when asked.
    return this.ask<HlogPart>(helper, (id) => ({ type: "read", id, path: blob.path, name, start: blob.start, end: blob.end, blocks: this.blocks, before: ahead })).then((part) => ({
      ...part,
      source: blob.bytesOnDemand(),
    }));
  }

  /** Merges a share of the files on helper number `helper` (load.ts mergeShare). */
  merge(helper: number, paths: readonly string[], range: TimeRange): Promise<MergedShare> {
    return this.ask<MergedShare>(helper, (id) => ({ type: "merge", id, paths, range }));
  }

  private ask<T>(helper: number, message: (id: number) => ToHelper): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const msg = message(id);
      try {
        this.worker(helper).postMessage(msg);
      } catch (e) {
        this.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  /** Ends the helper threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w?.terminate()));
    this.workers.fill(null);
  }
}

/** The helper thread's side: reads each part asked for and sends it back, its arrays transferred. */
export function serveParts(port: NodeMessagePort | null = parentPort): void {
  if (!port) return;
  // One request at a time, in the order asked: a helper is asked for all of its pieces at once
  // (load-on-demand.ts), and reading them interleaved would only delay the first.
  let queue = Promise.resolve();
  port.on("message", (m: ToHelper) => {
    queue = queue.then(() => serve(port, m));
  });
}

async function serve(port: NodeMessagePort, m: ToHelper): Promise<void> {
  try {
    if (m.type === "merge") {
      // Merging reads every format (the whole loader): loaded only by a helper that merges,
      // so that one reading parts of a log starts on the interval-log reader alone.
      const { mergeShare, transferablesOfShare } = await import("./load");
      const share = await mergeShare(m.paths, m.range);
      port.postMessage({ id: m.id, type: "merged", share } satisfies FromHelper, transferablesOfShare(share));
      return;
    }
    // The part's bytes are not kept: the main thread reads its payloads back from the file (read()).
    const file = new PathFile(m.path, m.name, m.start, m.end);
    // The intervals ahead of the part, counted from the file, lay its blocks on the log's grid.
    const origins = m.before ? await intervalsBefore(new PathFile(m.path, m.name, m.before[0], m.before[1]) as unknown as Blob) : undefined;
    const part = await ingestHlogPart(
      m.name,
      fileBytes(file as unknown as Blob, () => undefined),
      undefined,
      null,
      { keepBlocks: m.blocks, origins },
    );
    port.postMessage({ id: m.id, type: "done", part } satisfies FromHelper, transferablesOf(part));
  } catch (e) {
    port.postMessage({ id: m.id, type: "error", message: e instanceof Error ? e.message : String(e) } satisfies FromHelper);
  }
}
