// The engine's context: what a thread's engine shares across its loads and queries, made once by
// the thread's main (the engine worker, a helper worker, the command line) with that thread's
// settings and passed down to the Store, the reader and the warm-ups, instead of module globals
// set at import.
//
// Some of it is the thread's by nature, whichever context holds it: the WebAssembly kernel (one
// memory, in which each decode leaves what the next step of the same load reads; it comes in
// the thread's PayloadDecoder, intervals/decode.ts) and the kept counts' registry (the budget
// bounds every table alive on the thread). A context holds those, and sets the registry's
// budget when it is made. The reader (hlog/) takes the kernel and the decoder from the context
// in its read options; the interval sources still decode through the thread's decoder.
import { threadDecoder, type PayloadDecoder } from "./intervals/decode";
import { KeptRegistry, threadKept } from "./intervals/kept";

export { HELPER_KEPT_BUDGET, WORKER_KEPT_BUDGET } from "./intervals/kept";

export interface EngineContextOptions {
  /**
   * Bytes of intervals' counts kept from loads for time windows (intervals/kept.ts), over every
   * table alive on this thread; 0 keeps none. Tables already kept stay. Absent: the thread's
   * budget as it is (0 until a context sets it).
   */
  keptBudget?: number;
  /** A payload decoder of its own (tests read without the kernel so); default the thread's. */
  decoder?: PayloadDecoder;
  /** Kept counts of its own, apart from the thread's (a warm-up's throw-away reads); default the thread's. */
  kept?: KeptRegistry;
}

/** The command line keeps none: it asks for one time window at most, and reads its edges back from the file. */
export const CLI_KEPT_BUDGET = 0;

export class EngineContext {
  /** This thread's payload decoder, over its WebAssembly kernel. */
  readonly decoder: PayloadDecoder;
  /** This thread's WebAssembly kernel (null where WebAssembly is missing or refused). */
  readonly kernel: PayloadDecoder["kernel"];
  /** This thread's kept counts: their budget and what is held. */
  readonly kept: KeptRegistry;
  /** Whether the idle warm-up on a synthetic log has started (it runs once: warm-up.ts warmUp). */
  warmUpStarted = false;
  /** Merged series made so far, for their ids (m1, m2, …), unique across the stores of this context. */
  private merged = 0;

  constructor(options: EngineContextOptions = {}) {
    this.decoder = options.decoder ?? threadDecoder;
    this.kernel = this.decoder.kernel;
    this.kept = options.kept ?? threadKept;
    if (options.keptBudget !== undefined) this.kept.setBudget(options.keptBudget);
  }

  /** The id of the next merged series. */
  nextMergedId(): string {
    return `m${++this.merged}`;
  }
}

/**
 * What a warm-up reads its synthetic logs with: the thread's decoder and kernel, so that it warms
 * the real path, but kept counts of its own within `keptBudget`. The thread's budget let each of
 * its reads keep ~10 MB of counts that no one reads, garbage an idle worker held on to until it
 * next collected (a helper held ~100 MB while the page read a Prometheus fleet).
 */
export function warmUpContext(context: EngineContext, keptBudget: number): EngineContext {
  return new EngineContext({ decoder: context.decoder, kept: new KeptRegistry(), keptBudget });
}

/** The context of a thread's engine, made by the thread's main. */
export function createEngineContext(options: EngineContextOptions): EngineContext {
  return new EngineContext(options);
}

/**
 * The context of stores made without one (tests, and command-line paths that make their own
 * stores): the thread's kernel and kept counts as they are, merged ids of its own.
 */
export const sharedContext = new EngineContext();
