// A helper worker: reads an interval log, or a slice of one that starts at a line boundary,
// and hands the part to the engine worker, which joins parts (see load-files.ts). The loop is
// helpers/serve.ts, shared with the command line's helper threads.
//
// The page starts helpers beside the engine worker and gives each a MessagePort to it (a
// helper started by the engine would only boot once the engine has, and a file dropped at
// once waited for it). Started by the engine itself (the fallback), it talks
// to the engine through its own worker messages.
import type { HelperReply, HelperRequest, HelperSetup } from "./helpers/messages";
import { pageHelperSide } from "./helpers/page-side";
import { serveHelper } from "./helpers/serve";
import { createEngineContext, HELPER_KEPT_BUDGET } from "./context";

// This thread's engine context. Intervals' counts are kept from the load for time windows
// (intervals/kept.ts), within a bound; the engine takes them with the part.
const context = createEngineContext({ keptBudget: HELPER_KEPT_BUDGET });

// Its idle warm-up starts here (helpers/page-side.ts); a release ends the worker.
const { side } = pageHelperSide(context, () => self.close());

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
