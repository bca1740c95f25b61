// A helper worker: reads an interval log, or a slice of one that starts at a line boundary,
// and hands the part to the engine worker, which joins parts (see load-files.ts).
//
// The page starts helpers beside the engine worker and gives each a MessagePort to it (a
// helper started by the engine would only boot once the engine has, and a file dropped at
// once waited for it). Started by the engine itself (the fallback), it talks
// to the engine through its own worker messages.
import { threadBlockWorkspace } from "./block-workspace";
import { fileBytes } from "./file-chunks";
import { addCounts, intervalsBefore, partCounts } from "./piece-origins";
import { ingestHlogPart, transferablesOf } from "./hlog-ingest";
import type { PartReply, PartRequest, PartSetup } from "./part-protocol";
import { warmUp } from "./warm-up";
import { createEngineContext, HELPER_KEPT_BUDGET } from "./context";

// This thread's engine context. Intervals' counts are kept from the load for time windows
// (intervals/kept.ts), within a bound; the engine takes them with the part.
const context = createEngineContext({ keptBudget: HELPER_KEPT_BUDGET });

const running = new Map<number, AbortController>();
/** Requests cancelled before they started (they wait their turn in `serve`'s queue). */
const cancelled = new Set<number>();
// While no part is asked for, read a synthetic log through the same path (see warm-up.ts); a
// real part read makes it needless.
let partsRead = 0;
void warmUp(
  context,
  () => running.size > 0,
  (name, chunks) => ingestHlogPart(name, chunks),
  () => partsRead > 0,
);

function serve(endpoint: { postMessage(message: unknown, transfer: Transferable[]): void }) {
  const post = (r: PartReply, transfer: Transferable[] = []) => endpoint.postMessage(r, transfer);
  // Parts are read one at a time, in the order asked: the engine asks for the next piece while
  // this one is read (load-pieces.ts), and reading them interleaved would only delay the first.
  let queue = Promise.resolve();
  // The piece read last and, per tag, the intervals up to its end. The engine asks for a
  // helper's next piece ahead, before it knows where the last one ends in intervals; when it
  // follows this one (the same log, starting where it ended), its origin is known here and
  // nothing is counted again. Were it another log of the same name and sizes, only speed would
  // suffer: sums are exact whatever a part's origin (core/blocks.ts).
  let lastPiece: { name: string; end: number; counts: Map<string, number> } | null = null;
  return (m: PartRequest) => {
    if (m.type === "cancel") {
      const control = running.get(m.id);
      if (control) control.abort();
      else cancelled.add(m.id);
      return;
    }
    queue = queue.then(() => read(m));
  };

  async function read(m: Extract<PartRequest, { type: "read" }>): Promise<void> {
    if (cancelled.delete(m.id)) {
      post({ id: m.id, type: "error", message: "cancelled" });
      return;
    }
    const control = new AbortController();
    running.set(m.id, control);
    partsRead++;
    let bytes = 0;
    let last = 0;
    try {
      // The part's bytes go to the engine with it (transferred): its payloads are cut out of them.
      const source = new Uint8Array(m.blob.size);
      const follows = m.before && lastPiece !== null && lastPiece.name === m.name && lastPiece.end === m.before.size;
      const origins = follows ? lastPiece!.counts : m.before ? await intervalsBefore(m.before, control.signal) : undefined;
      lastPiece = null;
      const part = await ingestHlogPart(
        m.name,
        fileBytes(m.blob, (b) => (bytes = b), control.signal, source),
        (p) => {
          // Progress at most every 100 ms: a message per chunk would cost more than it tells.
          const now = performance.now();
          if (now - last < 100) return;
          last = now;
          post({ id: m.id, type: "progress", bytes, intervals: p.intervals });
        },
        source,
        { origins },
      );
      if (origins && m.before) lastPiece = { name: m.name, end: m.before.size + m.blob.size, counts: addCounts(origins, partCounts(part)) };
      post({ id: m.id, type: "done", part }, transferablesOf(part));
    } catch (e) {
      post({ id: m.id, type: "error", message: e instanceof Error ? e.message : String(e) });
    } finally {
      running.delete(m.id);
      // What the warm-up wrote ahead served this part; the rest is not held on for nothing.
      threadBlockWorkspace().chunks.drop();
    }
  }
}

const direct = serve(self as unknown as Worker);
self.onmessage = (ev: MessageEvent<PartRequest | PartSetup>) => {
  const m = ev.data;
  if (m.type === "port") {
    const onRequest = serve(m.port);
    m.port.onmessage = (e: MessageEvent<PartRequest>) => void onRequest(e.data);
    return;
  }
  void direct(m);
};
