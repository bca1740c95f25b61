// A page helper worker's side of the helper loop (serve.ts), with its idle warm-up: while no part
// is asked for, it reads a synthetic log through the same path (warm-up.ts), so that the first
// log's pieces are read by optimised code. A real part read makes the warm-up needless; so does
// a load that reads no log (`release`: a server's series), which the helpers take no part in:
// the helper then ends, and with its isolate goes what the warm-up left (an idle worker's
// garbage, which it had no cause to collect, held through the load).
import { threadBlockWorkspace } from "../block-workspace";
import type { EngineContext } from "../context";
import { ingestHlogPart } from "../hlog-ingest";
import { warmUp } from "../warm-up";
import type { PieceRef } from "./messages";
import type { HelperSide } from "./serve";

type WarmRead = Parameters<typeof warmUp>[2];

const readPart: WarmRead = (name, chunks, _whole, reading) => ingestHlogPart(name, chunks, undefined, null, { context: reading });

/**
 * The side and the warm-up it started (settles once the warm-up is over). `end` ends the helper
 * after a release (the worker closes itself: only then does its isolate's memory go);
 * `startDelayMs` and `read` are warmUp's (tests shorten the one and count the other).
 */
export function pageHelperSide(context: EngineContext, end: () => void, startDelayMs?: number, read: WarmRead = readPart): { side: HelperSide; warming: Promise<void> } {
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
    end,
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
