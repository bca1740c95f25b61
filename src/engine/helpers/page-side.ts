// A page helper worker's side of the helper loop (serve.ts), with its idle warm-up: while no part
// is asked for, it reads a synthetic log through the same path (warm-up.ts), so that the first
// log's pieces are read by optimised code. A real part read makes the warm-up needless; so does
// a load that reads no log (`release`: a server's series), which the helpers take no part in, and
// through which what the warm-up holds and makes would only add to the page's memory.
import { threadBlockWorkspace } from "../block-workspace";
import type { EngineContext } from "../context";
import { ingestHlogPart } from "../hlog-ingest";
import { warmUp } from "../warm-up";
import type { PieceRef } from "./messages";
import type { HelperSide } from "./serve";

type WarmRead = Parameters<typeof warmUp>[2];

const readPart: WarmRead = (name, chunks, _whole, reading) => ingestHlogPart(name, chunks, undefined, null, { context: reading });

/**
 * The side and the warm-up it started (settles once the warm-up is over). `startDelayMs` and
 * `read` are warmUp's (tests shorten the one and count the other).
 */
export function pageHelperSide(context: EngineContext, startDelayMs?: number, read: WarmRead = readPart): { side: HelperSide; warming: Promise<void> } {
  const reads = { running: 0, done: 0 };
  let released = false;
  const warming = warmUp(
    context,
    () => reads.running > 0,
    read,
    () => released || reads.done + reads.running > 0,
    startDelayMs,
  );
  const side: HelperSide = {
    blobOf: (ref: PieceRef) => ref as Blob,
    // The part's bytes go to the engine with it (transferred): its payloads are cut out of them.
    keepsBytes: true,
    progress: true,
    context,
    release: () => {
      // The warm-up stops at its next look at the event loop and writes no more chunks.
      released = true;
      threadBlockWorkspace().chunks.drop();
    },
    started: () => reads.running++,
    finished: () => {
      reads.running--;
      reads.done++;
      // What the warm-up wrote ahead served this part; the rest is not held on for nothing.
      threadBlockWorkspace().chunks.drop();
    },
  };
  return { side, warming };
}
