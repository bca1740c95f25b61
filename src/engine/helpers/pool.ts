// The pool of helpers a loading thread hands pieces of logs to (and, on the command line, shares
// of files to merge): the page's engine worker over Web Workers, the command line over
// worker_threads. Only how a helper is started and how a piece is named differ (a HelperHost);
// requests, replies, cancelling and a helper's death are handled here, once.
import type { HlogPart } from "../hlog-ingest";
import type { HelperWorkers } from "../load-files";
import type { MergedShare, MergeHelpers } from "../merge";
import type { TimeRange } from "../protocol";
import type { HelperReply, HelperRequest, PieceRef } from "./messages";

/** A started helper, as the pool talks to it. */
export interface HelperPort {
  post(message: HelperRequest): void;
  /** Ends the helper (a thread that would keep the process alive); absent where nothing needs ending. */
  end?(): Promise<unknown>;
}

/** Where a helper's replies and its death go. */
export interface HelperLink {
  reply(r: HelperReply): void;
  failed(message: string): void;
}

/** How helpers are made and pieces named where the pool runs. */
export interface HelperHost {
  /** "worker" (the page) or "thread" (the command line), for error messages. */
  readonly noun: string;
  /** Starts helper number `helper`; throws when none can be started here. */
  start(helper: number, link: HelperLink): HelperPort;
  /** What a read request carries for a piece and the bytes ahead of it; throws when this host cannot send it. */
  refs(blob: Blob, before: Blob | undefined): { piece: PieceRef; before: PieceRef | null; blocks: boolean };
  /** The part as the loader takes it (the command line reads its payloads back from the file). */
  received?(part: HlogPart, blob: Blob): HlogPart;
}

interface Pending {
  resolve: (v: never) => void;
  reject: (e: Error) => void;
  progress?: (bytes: number, intervals: number) => void;
}

export class HelperPool implements HelperWorkers, MergeHelpers {
  private readonly ports: (HelperPort | null)[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    readonly count: number,
    private readonly host: HelperHost,
  ) {
    this.ports = new Array<HelperPort | null>(count).fill(null);
  }

  /** Starts every helper not started yet, so that none is still booting when a file arrives. */
  start(): void {
    for (let helper = 0; helper < this.count; helper++) {
      try {
        this.port(helper);
      } catch {
        // Started again when next used; a read then fails and the caller reads the file itself.
      }
    }
  }

  /** A helper died: what it was doing fails (the caller reads those files itself); a new one takes its place when next used. */
  failed(helper: number, message: string): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new Error(`helper ${this.host.noun} failed: ${message || "unknown error"}`));
    }
    if (helper >= 0 && helper < this.count) this.ports[helper] = null;
  }

  private port(helper: number): HelperPort {
    let p = this.ports[helper];
    if (!p) {
      p = this.host.start(helper, { reply: (r) => this.reply(r), failed: (m) => this.failed(helper, m) });
      this.ports[helper] = p;
    }
    return p;
  }

  private reply(r: HelperReply): void {
    const p = this.pending.get(r.id);
    if (!p) return;
    if (r.type === "progress") p.progress?.(r.bytes, r.intervals);
    else {
      this.pending.delete(r.id);
      if (r.type === "done") p.resolve(r.part as never);
      else if (r.type === "merged") p.resolve(r.share as never);
      else p.reject(new Error(r.message));
    }
  }

  /** Sends the request made for a fresh id to helper `helper`; settles with its answer. */
  private ask<T>(helper: number, request: (id: number) => HelperRequest, progress?: (bytes: number, intervals: number) => void, signal?: AbortSignal): Promise<T> {
    const id = this.nextId++;
    let port: HelperPort;
    try {
      port = this.port(helper);
    } catch (err) {
      // No helper can be started here (no nested workers, say): the caller reads it.
      return Promise.reject(new Error(`no helper ${this.host.noun}: ${err instanceof Error ? err.message : String(err)}`));
    }
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("cancelled: nothing of this file was loaded"));
      const onAbort = () => port.post({ type: "cancel", id });
      // The signal outlives this request (it serves a whole load): drop the listener when done.
      const settle =
        <V>(f: (v: V) => void) =>
        (v: V) => {
          signal?.removeEventListener("abort", onAbort);
          f(v);
        };
      this.pending.set(id, { resolve: settle(resolve) as (v: never) => void, reject: settle(reject), progress });
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        port.post(request(id));
      } catch (e) {
        this.pending.delete(id);
        settle(reject)(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  read(helper: number, blob: Blob, name: string, onProgress?: (bytes: number, intervals: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart> {
    let refs: ReturnType<HelperHost["refs"]>;
    try {
      refs = this.host.refs(blob, before);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const part = this.ask<HlogPart>(helper, (id) => ({ type: "read", id, name, ...refs }), onProgress, signal);
    const received = this.host.received;
    return received ? part.then((p) => received(p, blob)) : part;
  }

  /** Merges a share of the files on helper number `helper` (merge.ts). */
  merge(helper: number, paths: readonly string[], range: TimeRange): Promise<MergedShare> {
    return this.ask<MergedShare>(helper, (id) => ({ type: "merge", id, paths, range }));
  }

  /**
   * Ends every started helper (messages.ts `release`): a load that reads no log has begun. An
   * idle helper's isolate held what its warm-up left, garbage it had no cause to collect, through
   * such a load; helpers are started anew when a log is next read (`port`). Returns false, and
   * does nothing, while any request is pending: those helpers are still at work.
   */
  release(): boolean {
    if (this.pending.size > 0) return false;
    for (let helper = 0; helper < this.count; helper++) {
      const p = this.ports[helper];
      if (!p) continue;
      this.ports[helper] = null;
      try {
        p.post({ type: "release", id: this.nextId++ });
      } catch {
        // Only memory: a helper that cannot be told keeps what it holds.
      }
      void p.end?.();
    }
    return true;
  }

  /** Ends the helpers that need ending. */
  async close(): Promise<void> {
    await Promise.all(this.ports.map((p) => p?.end?.()));
    this.ports.fill(null);
  }
}
