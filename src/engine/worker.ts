// The engine worker: owns the loaded data, parses off the main thread. Thin by design: the
// logic lives in store.ts and handle.ts.
import { handle } from "./handle";
import type { Envelope, Reply } from "./protocol";
import { Store } from "./store";
import { defaultPool } from "./part-pool";

const store = new Store();
// Helpers start now, not on the first load: booting a worker takes tens of milliseconds.
const helpers = defaultPool(Number(/helpers=(\d)/.exec((self as unknown as { name?: string }).name ?? "")?.[1] ?? Number.NaN));
helpers?.start();
const post = (r: Reply) => (self as unknown as Worker).postMessage(r);

// Requests run one at a time, in order, so a query never sees a half-loaded file.
let queue: Promise<void> = Promise.resolve();

// Cancelling is handled at once, not queued: loads check the signal between chunks.
let cancel = new AbortController();

self.onmessage = (ev: MessageEvent<Envelope | { cancel: true }>) => {
  if ("cancel" in ev.data) {
    cancel.abort();
    cancel = new AbortController();
    return;
  }
  const { reqId, request } = ev.data;
  queue = queue.then(async () => {
    const signal = cancel.signal;
    try {
      const result = await handle(store, request, (progress) => post({ reqId, type: "progress", progress }), signal, helpers);
      post({ reqId, type: "done", result });
    } catch (e) {
      post({ reqId, type: "error", message: e instanceof Error ? e.message : String(e) });
    }
  });
};
