// The engine worker's helper workers: reached through ports to workers the page
// started (see part-worker.ts), or through workers started here on first use (no ports given,
// or a page-started helper that died).
import type { HlogPart } from "./ingest";
import type { HelperWorkers } from "./load-files";
import type { PartReply, PartRequest } from "./part-protocol";

interface Pending {
  resolve: (p: HlogPart) => void;
  reject: (e: Error) => void;
  progress: (bytes: number, intervals: number) => void;
}

type Endpoint = { postMessage(message: PartRequest): void };

export class HelperPool implements HelperWorkers {
  private readonly endpoints: (Endpoint | null)[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** `ports`: one per helper, to helpers the page started; a helper without one is started here. */
  constructor(
    readonly count: number,
    ports: readonly MessagePort[] = [],
  ) {
    this.endpoints = new Array<Endpoint | null>(count).fill(null);
    ports.slice(0, count).forEach((port, helper) => {
      port.onmessage = (ev: MessageEvent<PartReply>) => this.reply(ev.data);
      this.endpoints[helper] = port;
    });
  }

  /** Starts every helper not started yet, so that none is still booting when a file arrives. */
  start(): void {
    for (let helper = 0; helper < this.count; helper++) this.endpoint(helper);
  }

  /** A helper died: what it was doing fails (the caller reads those files itself); a new worker takes its place when next used. */
  failed(helper: number, message: string): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error(`helper worker failed: ${message || "unknown error"}`));
    }
    if (helper >= 0 && helper < this.count) this.endpoints[helper] = null;
  }

  private reply(r: PartReply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.type === "progress") p.progress(r.bytes, r.intervals);
    else {
      this.pending.delete(r.id);
      if (r.type === "done") p.resolve(r.part);
      else p.reject(new Error(r.message));
    }
  }

  private endpoint(helper: number): Endpoint {
    let e = this.endpoints[helper];
    if (!e) {
      const w = new Worker(new URL("./part-worker.ts", import.meta.url), { type: "module", name: "helper" });
      w.onmessage = (ev: MessageEvent<PartReply>) => this.reply(ev.data);
      w.onerror = (ev) => {
        ev.preventDefault();
        this.failed(helper, ev.message);
      };
      this.endpoints[helper] = w;
      e = w;
    }
    return e;
  }

  read(helper: number, blob: Blob, name: string, onProgress: (bytes: number, intervals: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart> {
    const id = this.nextId++;
    let e: Endpoint;
    try {
      e = this.endpoint(helper);
    } catch (err) {
      // No nested workers here (and the page's helper in this place died): the caller reads it.
      return Promise.reject(new Error(`no helper worker: ${err instanceof Error ? err.message : String(err)}`));
    }
    return new Promise<HlogPart>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("cancelled: nothing of this file was loaded"));
      const onAbort = () => e.postMessage({ type: "cancel", id });
      // The signal outlives this read (it serves a whole load): drop the listener when done.
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          signal?.removeEventListener("abort", onAbort);
          f(v);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), progress: onProgress });
      signal?.addEventListener("abort", onAbort, { once: true });
      e.postMessage({ type: "read", id, blob, name, before });
    });
  }
}

/**
 * How many helpers: one per core beyond the engine worker's own (none when the browser says
 * 1 core), at most 3; `override` (a number) sets the count instead. The page and the engine
 * both ask, so they agree.
 */
export function helperCount(override = Number.NaN): number {
  const cores = typeof navigator !== "undefined" && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return Number.isInteger(override) ? Math.max(0, Math.min(3, override)) : Math.max(0, Math.min(3, cores - 1));
}

/** The pool of `count` helpers, over the page's ports when given; null without Worker or helpers. */
export function helperPoolOf(count: number, ports: readonly MessagePort[] = []): HelperPool | null {
  if (typeof Worker === "undefined" && ports.length === 0) return null;
  return count > 0 ? new HelperPool(count, ports) : null;
}
