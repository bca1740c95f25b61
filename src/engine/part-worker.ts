// A helper worker: reads an interval log, or a slice of one that starts at a line boundary,
// and hands the part to the engine worker, which joins parts (see load-files.ts). The loop is
// helpers/serve.ts, shared with the command line's helper threads.
//
// The page starts helpers beside the engine worker and gives each a MessagePort to it (a
// helper started by the engine would only boot once the engine has, and a file dropped at
// once waited for it). Started by the engine itself (the fallback), it talks
// to the engine through its own worker messages.
import { threadBlockWorkspace } from "./block-workspace";
import { ingestHlogPart } from "./hlog-ingest";
import type { HelperReply, HelperRequest, HelperSetup, PieceRef } from "./helpers/messages";
import { serveHelper, type HelperSide } from "./helpers/serve";
import { warmUp } from "./warm-up";
import { createEngineContext, HELPER_KEPT_BUDGET } from "./context";

// This thread's engine context. Intervals' counts are kept from the load for time windows
// (intervals/kept.ts), within a bound; the engine takes them with the part.
const context = createEngineContext({ keptBudget: HELPER_KEPT_BUDGET });

const reads = { running: 0, done: 0 };
// While no part is asked for, read a synthetic log through the same path (see warm-up.ts); a
// real part read makes it needless.
void warmUp(
  context,
  () => reads.running > 0,
  (name, chunks, _whole, reading) => ingestHlogPart(name, chunks, undefined, null, { context: reading }),
  () => reads.done + reads.running > 0,
);

const side: HelperSide = {
  blobOf: (ref: PieceRef) => ref as Blob,
  // The part's bytes go to the engine with it (transferred): its payloads are cut out of them.
  keepsBytes: true,
  progress: true,
  context,
  started: () => reads.running++,
  finished: () => {
    reads.running--;
    reads.done++;
    // What the warm-up wrote ahead served this part; the rest is not held on for nothing.
    threadBlockWorkspace().chunks.drop();
  },
};

type Endpoint = { postMessage(message: HelperReply, transfer: Transferable[]): void };
const serve = (endpoint: Endpoint) => serveHelper((r, transfer = []) => endpoint.postMessage(r, transfer), side);

const direct = serve(self as unknown as Endpoint);
self.onmessage = (ev: MessageEvent<HelperRequest | HelperSetup>) => {
  const m = ev.data;
  if (m.type === "port") {
    const onRequest = serve(m.port);
    m.port.onmessage = (e: MessageEvent<HelperRequest>) => onRequest(e.data);
    return;
  }
  direct(m);
};
