// The engine worker's helper workers, one per lane, started on first use.
import type { HlogPart } from "./ingest";
import type { PartReader } from "./load-files";
import type { PartReply, PartRequest } from "./part-protocol";

interface Pending {
  resolve: (p: HlogPart) => void;
  reject: (e: Error) => void;
  progress: (bytes: number, intervals: number) => void;
}

export class WorkerPartPool implements PartReader {
  private readonly workers: (Worker | null)[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(readonly lanes: number) {
    this.workers = new Array<Worker | null>(lanes).fill(null);
  }

  /** Starts every helper now, so that none is still booting when a file arrives. */
  start(): void {
    for (let lane = 0; lane < this.lanes; lane++) this.worker(lane);
  }

  private worker(lane: number): Worker {
    let w = this.workers[lane];
    if (!w) {
      w = new Worker(new URL("./part-worker.ts", import.meta.url), { type: "module" });
      w.onmessage = (ev: MessageEvent<PartReply>) => {
        const r = ev.data;
        const p = this.pending.get(r.id);
        if (!p) return;
        if (r.type === "progress") p.progress(r.bytes, r.intervals);
        else {
          this.pending.delete(r.id);
          if (r.type === "done") p.resolve(r.part);
          else p.reject(new Error(r.message));
        }
      };
      w.onerror = (ev) => {
        // A helper that died fails what it was doing; the caller reads those files itself.
        ev.preventDefault();
        for (const [id, p] of this.pending) {
          this.pending.delete(id);
          p.reject(new Error(`helper worker failed: ${ev.message || "unknown error"}`));
        }
        this.workers[lane] = null;
      };
      this.workers[lane] = w;
    }
    return w;
  }

  read(lane: number, blob: Blob, name: string, onProgress: (bytes: number, intervals: number) => void, signal?: AbortSignal): Promise<HlogPart> {
    const id = this.nextId++;
    const w = this.worker(lane);
    return new Promise<HlogPart>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("cancelled: nothing of this file was loaded"));
      const onAbort = () => w.postMessage({ type: "cancel", id } satisfies PartRequest);
      // The signal outlives this read (it serves a whole load): drop the listener when done.
      const settle = <T,>(f: (v: T) => void) => (v: T) => {
        signal?.removeEventListener("abort", onAbort);
        f(v);
      };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), progress: onProgress });
      signal?.addEventListener("abort", onAbort, { once: true });
      w.postMessage({ type: "read", id, blob, name } satisfies PartRequest);
    });
  }
}

/**
 * Helpers for the cores beyond the engine worker's own (none when the browser says 1 core),
 * at most 3; `override` (a number) sets the count instead.
 */
export function defaultPool(override = Number.NaN): WorkerPartPool | null {
  if (typeof Worker === "undefined") return null;
  const cores = typeof navigator !== "undefined" && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  const lanes = Number.isInteger(override) ? Math.max(0, Math.min(3, override)) : Math.max(0, Math.min(3, cores - 1));
  return lanes > 0 ? new WorkerPartPool(lanes) : null;
}
