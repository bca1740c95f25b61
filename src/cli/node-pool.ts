// The command line's side of the engine's helper pool (engine/helpers/pool.ts): helpers are
// worker_threads running the bundled command line itself; the engine's loader shares interval
// logs out to them and cuts a big log into parts read at once, exactly as the page does with
// its helper workers, and `--merge` hands them shares of files. The helper's loop is the
// engine's (engine/helpers/serve.ts), over files on disk.
import { availableParallelism } from "node:os";
import { Worker, parentPort, type MessagePort as NodeMessagePort } from "node:worker_threads";
import type { FileRange, HelperReply, HelperRequest } from "../engine/helpers/messages";
import { HelperPool, type HelperHost } from "../engine/helpers/pool";
import { serveHelper } from "../engine/helpers/serve";
import { PathFile } from "./path-file";
import { HELPER_ROLE } from "./helper-role";

export type { HelperPool };

/** One helper per core beyond this thread's own, at most 3 (the page's rule). */
export function helperThreadCount(): number {
  return Math.max(0, Math.min(3, availableParallelism() - 1));
}

/**
 * Helper threads on `script` (the bundled command line), taking those in `started` (made
 * before the pool, on the same script) first. `blocks`: whether the logs' parts keep their
 * blocks (engine/hlog-ingest.ts ReadOptions).
 */
export function nodeHost(script: URL, started: readonly Worker[] = [], blocks = true): HelperHost {
  const early = [...started];
  const rangeOf = (f: PathFile): FileRange => ({ path: f.path, start: f.start, end: f.end });
  return {
    noun: "thread",
    start(_helper, link) {
      const w = early.shift() ?? new Worker(script, { workerData: { role: HELPER_ROLE } });
      // One started early is unreferenced until it has work: now it keeps the process alive while it reads.
      w.ref();
      w.on("message", (r: HelperReply) => link.reply(r));
      w.on("error", (e: unknown) => link.failed(e instanceof Error ? e.message : String(e)));
      w.on("exit", (code) => {
        if (code !== 0) link.failed(`helper thread exited with code ${code}`);
      });
      return { post: (m) => w.postMessage(m), end: () => w.terminate() };
    },
    refs(blob, before) {
      if (!(blob instanceof PathFile) || (before && !(before instanceof PathFile))) throw new Error("only files on disk are read on helper threads");
      // Counted only for parts that keep blocks: the count lays them on the log's grid, nothing else.
      return { piece: rangeOf(blob), before: blocks && before instanceof PathFile ? rangeOf(before) : null, blocks };
    },
    // The helper keeps none of the part's bytes: its payloads are read back from the file when asked.
    received: (part, blob) => ({ ...part, source: (blob as unknown as PathFile).bytesOnDemand() }),
  };
}

/** The pool of `count` helper threads (see nodeHost). */
export function nodeHelperPool(count: number, script: URL, started: readonly Worker[] = [], blocks = true): HelperPool {
  return new HelperPool(count, nodeHost(script, started.slice(0, count), blocks));
}

/** The helper thread's side: reads each part asked for (or merges a share) and sends it back, its arrays transferred. */
export function serveParts(port: NodeMessagePort | null = parentPort): void {
  if (!port) return;
  const onRequest = serveHelper((r, transfer) => port.postMessage(r, (transfer ?? []) as ArrayBuffer[]), {
    blobOf: (ref, name) => {
      const r = ref as FileRange;
      return new PathFile(r.path, name, r.start, r.end) as unknown as Blob;
    },
    // The part's bytes are not kept: the main thread reads its payloads back from the file.
    keepsBytes: false,
    progress: false,
    async merge(paths, range) {
      // Merging reads every format (the whole loader): loaded only by a helper that merges,
      // so that one reading parts of a log starts on the interval-log reader alone.
      const { mergeShare, transferablesOfShare } = await import("./load");
      const share = await mergeShare(paths, range);
      return { share, transfer: transferablesOfShare(share) };
    },
  });
  port.on("message", (m: HelperRequest) => onRequest(m));
}
