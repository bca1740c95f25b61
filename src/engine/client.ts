// Typed Promise API over the engine worker, for the UI.
import type { Unit } from "../core/types";
import type {
  CompareAnswer,
  CompareRequest,
  Envelope,
  FileOutcome,
  HeatmapQuery,
  HeatmapResult,
  IdentityPatch,
  LiveAnswer,
  LivePiece,
  Progress,
  Reply,
  Request,
  ResultOf,
  SeriesView,
  ShareLook,
  TailQuery,
  TailSeries,
  TimelineQuery,
  TimelineResult,
  TimeRange,
  WindowQuery,
  WindowSeries,
} from "./protocol";
import type { Encoded, ShareView } from "../share";
import type { SampleOptions } from "../formats/source";
import { helperCount } from "./part-pool";
import { ViewsHeld, type PackedView } from "./views-reuse";
import type { CompareResult } from "../core/compare/types";
import type { PrometheusAuth, PrometheusRequest } from "./prometheus-query";
import type { HelperFailed, HelperPorts, HelperSetup } from "./helpers/messages";
import engineUrl from "./worker.ts?worker&url";

/** The fetch over the page's port to agreed hosts (net-port.ts), for the page's own requests too. */
export { portFetch } from "./net-port";
export type { NetAnswer, NetAsk, NetPull, NetReady } from "./net-port";
import helperUrl from "./part-worker.ts?worker&url";
import historyUrl from "./history-worker.ts?worker&url";

/**
 * A module worker started from a blob: address that imports the script: a worker started from
 * its own address would carry no policy (the page's is a meta tag, not a header), while one from
 * a blob: address keeps the page's, so the workers too may connect to the page's origin only.
 */
export function startWorker(script: string, name: string): Worker {
  const href = new URL(script, location.href).href;
  const blob = new Blob([`import ${JSON.stringify(href)};\n`], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(blob), { type: "module", name });
}

/** The history panel's worker (history-worker.ts). */
export const startHistoryWorker = (): Worker => startWorker(historyUrl, "history");

/**
 * Requests that read the person's logs, which the helper workers may share. Not a server's series
 * (`loadPrometheus`): the helpers take no part in it, and the engine ends any started (warm-up.ts
 * READS_NO_LOGS).
 */
const READS_LOGS = new Set<Request["kind"]>(["load", "loadUrls", "loadText", "append"]);

export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;
  /** The views last answered for each time window (views-reuse.ts). */
  private readonly held = new ViewsHeld();
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; progress?: (p: Progress) => void }>();

  /** Starts the helper workers and sends the engine their ports; null once done. */
  private helpers: (() => void) | null;

  /**
   * `helpersLater`: the helper workers start with the first request that reads logs (or
   * `startHelpers()`), not now: on a page that opens on the demo, whose small logs they do not
   * read, their start (a thread and its modules' fetches) would share the demo's fetches and cores.
   */
  constructor(options: { helpersLater?: boolean } = {}) {
    // `?helpers=N` in the page's address sets how many helper workers the engine may start
    // (0: everything in the engine worker), for comparing both in the benchmark.
    const param = typeof location !== "undefined" ? new URLSearchParams(location.search).get("helpers") : null;
    const override = param !== null && /^\d$/.test(param) ? Number(param) : Number.NaN;
    // The helper workers start here, beside the engine worker, not from it: they boot in
    // parallel with it instead of after it (a file dropped as soon as the page showed waited
    // for them). The engine reaches them through ports; their count goes to it as data, with
    // the ports (it starts any that has no port itself), before any request that may use them.
    const count = helperCount(override);
    const started = typeof MessageChannel !== "undefined" ? count : 0;
    this.worker = startWorker(engineUrl, "engine");
    this.helpers = () => {
      this.helpers = null;
      const ports: MessagePort[] = [];
      for (let k = 0; k < started; k++) {
        const helper = startWorker(helperUrl, "helper");
        const channel = new MessageChannel();
        helper.postMessage({ type: "port", port: channel.port1 } satisfies HelperSetup, [channel.port1]);
        helper.onerror = (ev) => {
          ev.preventDefault();
          this.worker.postMessage({ helperFailed: k, message: ev.message } satisfies HelperFailed);
        };
        ports.push(channel.port2);
      }
      this.worker.postMessage({ helperPorts: ports, helperCount: count } satisfies HelperPorts, ports);
    };
    if (!options.helpersLater) this.startHelpers();
    this.worker.onmessage = (ev: MessageEvent<Reply>) => {
      const r = ev.data;
      const p = this.pending.get(r.reqId);
      if (!p) return;
      if (r.type === "progress") p.progress?.(r.progress);
      else {
        this.pending.delete(r.reqId);
        if (r.type === "done") p.resolve(r.result);
        else p.reject(new Error(r.message));
      }
    };
  }

  /** Starts the helper workers if they have not started (see the constructor's `helpersLater`). */
  startHelpers(): void {
    this.helpers?.();
  }

  private call<T>(request: Request, progress?: (p: Progress) => void, transfer: Transferable[] = []): Promise<T> {
    if (READS_LOGS.has(request.kind) && !(request.kind === "load" && request.demo === true)) this.startHelpers();
    const reqId = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(reqId, { resolve: resolve as (v: unknown) => void, reject, progress });
      const env: Envelope = { reqId, request };
      this.worker.postMessage(env, transfer);
    });
  }

  load(files: File[], progress?: (p: Progress) => void, options?: SampleOptions): Promise<FileOutcome[]> {
    return this.call({ kind: "load", files, options }, progress);
  }
  /** The demo's files (see the load request's `demo`). */
  loadDemo(files: File[]): Promise<FileOutcome[]> {
    return this.call({ kind: "load", files, demo: true });
  }
  /** Stops the load under way (and any queued ones see a fresh signal). */
  cancel(): void {
    this.worker.postMessage({ cancel: true });
  }
  /** `net`: the page's port to the hosts the user agreed to (ui/state/net-frames.ts), transferred. */
  loadUrls(urls: string[], progress?: (p: Progress) => void, net?: MessagePort): Promise<FileOutcome[]> {
    return this.call({ kind: "loadUrls", urls, net }, progress, net ? [net] : []);
  }
  /** Series from a Prometheus-compatible API; `auth` stays in memory (this tab's worker). */
  loadPrometheus(request: PrometheusRequest, auth: PrometheusAuth, progress?: (p: Progress) => void, net?: MessagePort): Promise<FileOutcome[]> {
    return this.call({ kind: "loadPrometheus", request, auth, net }, progress, net ? [net] : []);
  }
  loadText(name: string, text: string, options?: SampleOptions): Promise<FileOutcome[]> {
    return this.call({ kind: "loadText", name, text, options });
  }
  views(range: TimeRange): Promise<SeriesView[]> {
    return this.call<PackedView[]>({ kind: "views", range }).then((p) => this.held.unpack(range, p));
  }
  timeline(query: TimelineQuery): Promise<TimelineResult> {
    return this.call({ kind: "timeline", query });
  }
  heatmap(query: HeatmapQuery): Promise<HeatmapResult> {
    return this.call({ kind: "heatmap", query });
  }
  windows(query: WindowQuery): Promise<WindowSeries[]> {
    return this.call({ kind: "windows", query });
  }
  tail(query: TailQuery): Promise<TailSeries[]> {
    return this.call({ kind: "tail", query });
  }
  exportHgrm(id: string, range: TimeRange, unit: Unit): Promise<string> {
    return this.call({ kind: "export", id, range, unit });
  }
  remove(id: string): Promise<null> {
    return this.call({ kind: "remove", id });
  }
  clear(): Promise<null> {
    return this.call({ kind: "clear" });
  }
  setIdentity(id: string, patch: IdentityPatch): Promise<null> {
    return this.call({ kind: "setIdentity", id, patch });
  }
  merge(ids: string[], name?: string): Promise<string> {
    return this.call({ kind: "merge", ids, name });
  }
  /** `compare`: the A vs B answer on screen for the view's comparison, carried in the link. */
  share(view: ShareView, looks: ShareLook[], range: TimeRange, fullPrecision: boolean, compare: CompareResult | null = null): Promise<Encoded> {
    return this.call({ kind: "share", view, looks, range, fullPrecision, compare });
  }
  openShare(fragment: string): Promise<ResultOf["openShare"]> {
    return this.call({ kind: "openShare", fragment });
  }
  setCoInterval(ns: number | null): Promise<null> {
    return this.call({ kind: "setCoInterval", ns });
  }
  /** A vs B (runs in the engine; see compare-query.ts). Progress: `bytes` resamples done of `totalBytes`. */
  compare(request: CompareRequest, progress?: (p: Progress) => void): Promise<CompareAnswer> {
    return this.call({ kind: "compare", request }, progress);
  }
  /** Stops comparisons under way or queued (they fail with "comparison cancelled"). */
  cancelCompare(): void {
    this.worker.postMessage({ cancelCompare: true });
  }
  /** Complete lines of files followed live, appended to their series (see live.ts). */
  append(pieces: LivePiece[]): Promise<LiveAnswer> {
    return this.call({ kind: "append", pieces });
  }
  setUnit(id: string, unit: Unit): Promise<null> {
    return this.call({ kind: "setUnit", id, unit });
  }
}
