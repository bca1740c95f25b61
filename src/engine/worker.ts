// The engine worker: owns the loaded data, parses off the main thread. Thin by design: a
// dispatcher that queues requests for handle.ts; the warm-ups are in warm-up.ts. It makes the
// thread's engine context (context.ts) and passes it down.
import { handle } from "./handle";
import type { Envelope, Reply, SeriesView, TimelineResult } from "./protocol";
import { handedOver, ViewsSent } from "./views-reuse";
import { Store } from "./store";
import { helperPoolOf, type HelperPool } from "./part-pool";
import type { HelperFailed, HelperPorts } from "./helpers/messages";
import { EngineWarmUps, READS_NO_LOGS, type WarmableStore } from "./warm-up";
import { heatmapQuery } from "./time-queries";
import { HeatmapPrefetch } from "./heatmap-prefetch";
import { createEngineContext, WORKER_KEPT_BUDGET, type EngineContext } from "./context";

// The heatmap is drawn right after a load too: its interval path (a column per few intervals)
// and its block path (many intervals a column, as a long log takes).
const warmHeatmap = (s: WarmableStore) => {
  const series = (s as Store).series;
  const ids = series.slice(0, 1).map((x) => x.id);
  for (const columns of [800, 4]) heatmapQuery(series, { ids, t0: null, t1: null, columns, rows: 110 });
};

function serve(context: EngineContext): void {
  const store = new Store(context);
  const warm = new EngineWarmUps(context, store, () => new Store(context), warmHeatmap);
  const prefetch = new HeatmapPrefetch(() => store.series);
  // The page says how many helpers there are, and sends ports to those it started beside this
  // worker, before any request; the others start then, not on the first load (booting a worker
  // takes tens of milliseconds).
  let helpers: HelperPool | null = null;
  const sent = new ViewsSent();
  const post = (r: Reply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);

  // Requests run one at a time, in order, so a query never sees a half-loaded file.
  let queue: Promise<void> = Promise.resolve();
  let waiting = 0;

  // Cancelling is handled at once, not queued: loads check the signal between chunks.
  let cancel = new AbortController();
  // A comparison has its own: a new choice of series cancels the one under way, not a load.
  let compareCancel = new AbortController();

  self.onmessage = (ev: MessageEvent<Envelope | { cancel: true } | { cancelCompare: true } | HelperPorts | HelperFailed>) => {
    if ("cancelCompare" in ev.data) {
      compareCancel.abort();
      compareCancel = new AbortController();
      return;
    }
    if ("helperPorts" in ev.data) {
      helpers = helperPoolOf(ev.data.helperCount, ev.data.helperPorts);
      helpers?.start();
      return;
    }
    if ("helperFailed" in ev.data) {
      helpers?.failed(ev.data.helperFailed, ev.data.message);
      return;
    }
    if ("cancel" in ev.data) {
      cancel.abort();
      cancel = new AbortController();
      return;
    }
    const { reqId, request } = ev.data;
    // Taken now: a cancel sent after this request (before it starts) still reaches it.
    const compareSignal = compareCancel.signal;
    const demo = request.kind === "load" && request.demo === true;
    const seq = warm.requested(request.kind, demo);
    prefetch.requested(request.kind, request.kind === "heatmap" ? request.query.rows : undefined);
    waiting++;
    queue = queue.then(async () => {
      const signal = request.kind === "compare" ? compareSignal : cancel.signal;
      // Here, not on arrival: a log's load before it has had its helpers' parts.
      if (READS_NO_LOGS.has(request.kind)) helpers?.release();
      try {
        const result = await handle(store, request, (progress) => post({ reqId, type: "progress", progress }), signal, helpers);
        // Views unchanged since the last answer for their window go as marks, the others with
        // their spectra handed over (views-reuse.ts). A timeline's columns are made for the answer
        // and kept by nothing here: handed over, not copied (a fleet's are tens of MB, held twice
        // until this thread collected them).
        if (request.kind === "views") {
          const out = handedOver(sent.pack(request.range, result as SeriesView[]));
          post({ reqId, type: "done", result: out.views as unknown as SeriesView[] }, out.buffers);
        } else post({ reqId, type: "done", result }, request.kind === "timeline" ? timelineBuffers(result as TimelineResult) : []);
      } catch (e) {
        post({ reqId, type: "error", message: e instanceof Error ? e.message : String(e) });
      }
      warm.answered(request.kind, seq, demo);
      if (--waiting === 0) prefetch.idle(request.kind);
    });
  };

  warm.start();
}

/** The buffers of a timeline's columns, each once. */
function timelineBuffers(r: TimelineResult): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const s of r.series) for (const a of [s.t0, s.t1, s.max, s.count, ...Object.values(s.percentiles)]) out.add(a.buffer as ArrayBuffer);
  return [...out];
}

// Intervals' counts are kept from the load for time windows (intervals/kept.ts), within a bound.
serve(createEngineContext({ keptBudget: WORKER_KEPT_BUDGET }));
