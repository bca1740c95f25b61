// The engine worker: owns the loaded data, parses off the main thread. Thin by design: the
// logic lives in store.ts and handle.ts.
import { handle } from "./handle";
import type { Envelope, Reply } from "./protocol";
import { Store } from "./store";
import { defaultPool } from "./part-pool";
import type { HelperFailed, HelperPorts } from "./part-protocol";
import { syntheticLog, warmUp } from "./warm-up";

/** The quick warm-up at start (below): intervals, and rounds of the page's after-load queries. */
const QUICK_WARM_LINES = 400;
const QUICK_WARM_QUERIES = 12;


const store = new Store();
const name = (self as unknown as { name?: string }).name ?? "";
const override = Number(/helpers=(\d)/.exec(name)?.[1] ?? Number.NaN);
// The page starts the helpers beside this worker and sends their ports first (";ports" in the
// name says so); otherwise they start now, not on the first load: booting a worker takes tens
// of milliseconds.
let helpers = name.includes(";ports") ? null : defaultPool(override);
helpers?.start();
const post = (r: Reply) => (self as unknown as Worker).postMessage(r);

// Requests run one at a time, in order, so a query never sees a half-loaded file.
let queue: Promise<void> = Promise.resolve();

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
    helpers = defaultPool(override, ev.data.helperPorts);
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
  const seq = ++received;
  inFlight++;
  if (request.kind === "load") filesLoaded = true;
  queue = queue.then(async () => {
    const signal = request.kind === "compare" ? compareSignal : cancel.signal;
    try {
      const result = await handle(store, request, (progress) => post({ reqId, type: "progress", progress }), signal, helpers);
      post({ reqId, type: "done", result });
    } catch (e) {
      post({ reqId, type: "error", message: e instanceof Error ? e.message : String(e) });
    }
    inFlight--;
    if (LOADS.has(request.kind)) warmPending = true;
    // The page asks for the spectra and the timeline right after a load: wait for those too.
    if (warmPending) setTimeout(() => warmIfIdle(seq), WARM_AFTER_MS);
  });
};

let inFlight = 0;
let filesLoaded = false;

// At once, before the page is ready: what the page asks right after a load (views, the
// timeline, then time windows) on a small synthetic log, several times, so that a log chosen
// the moment the page is ready does not run them in V8's interpreter (traced after a 24-hour
// load: an order of magnitude slower cold than warm). Small, and in rounds that give way to requests.
setTimeout(() => {
  if (inFlight > 0) return;
  void (async () => {
    try {
      const scratch = new Store();
      await scratch.load("warm-up.hlog", [syntheticLog(QUICK_WARM_LINES)]);
      for (let k = 0; k < QUICK_WARM_QUERIES; k++) {
        // A round at a time, giving way to any request (the demo's load comes meanwhile).
        await new Promise((r) => setTimeout(r, 0));
        if (inFlight > 0) return;
        scratch.views();
        scratch.timeline({ t0: null, t1: null, columns: 1200, percentiles: [] });
        // Few columns for many intervals: the block-aligned path a long log takes.
        scratch.timeline({ t0: null, t1: null, columns: 4, percentiles: [] });
        // Time windows: a few intervals decoded at the edges only, and one over whole blocks
        // (the first window a person picked after a load was the slowest, several times the next
        // ones).
        scratch.views({ start: 10 + k, end: 20 + k });
        scratch.views({ start: 20 + k, end: 300 + k });
      }
    } catch {
      // Only a speed-up.
    }
  })();
}, 0);

// While idle, read a synthetic log into a throw-away store and ask what the page asks after a
// load (see warm-up.ts): the first real load then runs optimised code.
void warmUp(
  () => inFlight > 0,
  async (name, chunks) => {
    const scratch = new Store();
    await scratch.load(name, chunks);
    if (inFlight > 0 || scratch.series.length === 0) return;
    scratch.views();
    scratch.timeline({ t0: null, t1: null, columns: 1200, percentiles: [] });
    scratch.warmWindow();
  },
  () => filesLoaded,
);

// After a load, once nothing else has been asked for a moment, one throw-away time window
// (Store.warmWindow), so that the first window a person picks runs warm code. Any request
// that comes meanwhile cancels it, so it never delays one; it takes a few ms when it runs.
const LOADS = new Set<string>(["load", "loadUrls", "loadText", "openShare"]);
const WARM_AFTER_MS = 100;
let received = 0;
let warmPending = false;
function warmIfIdle(seq: number): void {
  if (received !== seq || !warmPending) return;
  warmPending = false;
  try {
    store.warmWindow();
  } catch {
    // Only a speed-up.
  }
}
