// The engine worker: owns the loaded data, parses off the main thread. Thin by design: the
// logic lives in store.ts and handle.ts.
import { handle } from "./handle";
import type { Envelope, Reply } from "./protocol";
import { Store } from "./store";

const store = new Store();
const post = (r: Reply) => (self as unknown as Worker).postMessage(r);

// Requests run one at a time, in order, so a query never sees a half-loaded file.
let queue: Promise<void> = Promise.resolve();

self.onmessage = (ev: MessageEvent<Envelope>) => {
  const { reqId, request } = ev.data;
  queue = queue.then(async () => {
    try {
      const result = await handle(store, request, (progress) => post({ reqId, type: "progress", progress }));
      post({ reqId, type: "done", result });
    } catch (e) {
      post({ reqId, type: "error", message: e instanceof Error ? e.message : String(e) });
    }
  });
};
