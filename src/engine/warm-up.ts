// Warming a worker's interval-log path while nobody needs the worker.
//
// A fresh worker runs the decoder in V8's interpreter and baseline tiers until enough calls
// have been made for the optimising compilers, and then compiles it on background threads
// that share the machine's cores with the load itself. Measured on the 24-hour log in one
// page: a second load of the same file was markedly faster than the first. A person needs
// seconds to choose a file after the page opens; in them, each worker reads a synthetic log
// through the same code, so that the first real load starts with optimised code.
//
// Nothing of it is kept. It runs in slices of a few milliseconds and only while the worker
// has nothing else to do: a request that arrives waits for at most one slice, and the
// warm-up resumes once the worker is idle again.
import { encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { newHistogram } from "../core/histogram";
import { threadBlockWorkspace } from "./block-workspace";
import type { Histogram } from "../core/histogram";
import type { SeriesModel } from "../core/series";
import { spectrumOf } from "../core/spectrum";
import { warmUpContext, type EngineContext } from "./context";
import { HlogIngest } from "./hlog-ingest";
import type { IngestResult } from "./series-make";

/**
 * Intervals read in all: enough for V8's top tier on the per-interval path. With a quarter of
 * it, traced with --trace-opt, the line reader and the interval table were still in V8's
 * middle tier when the file came, and the load spent its first quarter-second beside their
 * optimising compiles (~0.5 s of CPU on V8's background threads, on the same two cores).
 */
export const WARM_UP_LINES = 60000;
/**
 * The synthetic log is read this many times, as separate logs. V8 records what a function sees
 * only after its first few calls, so what a log's first lines do (its header, a tag's first
 * interval, the end of a log) had no feedback after one read, and a real log's first lines
 * threw optimised code away (in Node: the line reader, the splitter, the table).
 */
const ROUNDS = 3;
const SLICE_CHARS = 16 * 1024;
/** Work between two looks at the event loop (a request waits at most about this long). */
const SLICE_MS = 8;
/** How long to wait before looking again when the worker is busy. */
const BUSY_POLL_MS = 50;
/**
 * The warm-up starts this long after the worker does: a file dropped the moment the page is
 * ready (or a log the page's address names) must not share the cores with it. Optimising
 * compilers run on their own threads and cannot be paused like the warm-up itself: started at
 * once, the warm-up made a 24-hour log chosen at once ~10 % slower.
 */
const START_DELAY_MS = 1500;
/**
 * Bytes of counts a warm-up read keeps: enough intervals for V8 to optimise the keeping, no
 * more (what it keeps is thrown away with its store).
 */
const WARM_UP_KEPT_BYTES = 4 * 1024 * 1024;
/**
 * Block chunks written ahead after the synthetic log (core/blocks.ts): 3 MB each, about what
 * a worker's share of a 24-hour log's blocks takes of the largest size. Held until the next
 * load is answered (written after the demo's, they wait for the person's file).
 */
export const READY_BLOCK_CHUNKS = 8;

/**
 * A synthetic interval log: latencies in ns of several shapes (narrow and wide, few and many
 * distinct values), so the decoder sees both short and long zero runs, and a second tag in
 * another layout (2 significant digits), as jHiccup and load generators write.
 */
export function syntheticLog(lines = WARM_UP_LINES): string {
  const steps = syntheticSteps(lines);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * syntheticLog in steps of about a millisecond (a payload encoded, a thousand lines written):
 * the warm-up takes them between looks at the event loop, so a file chosen meanwhile does not
 * wait for the whole log to be made (tens of milliseconds in one piece).
 */
export function* syntheticSteps(lines: number): Generator<void, string> {
  let seed = 0x2f6e2b1;
  const rnd = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return (seed + 1) / 0x80000000;
  };
  const payloads: string[] = [];
  const shapes = [
    { digits: 3, median: 40_000, spread: 0.4, samples: 600 },
    { digits: 3, median: 250_000, spread: 1.2, samples: 1000 },
    { digits: 3, median: 2_000_000, spread: 0.8, samples: 300 },
    { digits: 3, median: 15_000, spread: 1.8, samples: 1500 },
    { digits: 2, median: 60_000, spread: 1.0, samples: 600 },
    { digits: 2, median: 900_000, spread: 1.6, samples: 1000 },
  ];
  for (const s of shapes) {
    for (let variant = 0; variant < 4; variant++) {
      const h = newHistogram(s.digits, 1, 2);
      for (let i = 0; i < s.samples; i++) {
        const z = Math.sqrt(-2 * Math.log(rnd())) * Math.cos(2 * Math.PI * rnd());
        h.recordValue(Math.max(1, Math.round(s.median * Math.exp(s.spread * z))));
      }
      // A stall now and then, as in a real log: evenly spaced single counts at the top. Their
      // encoding repeats itself at the very end of the payload, so the inflater's end-of-input
      // loop decodes matches, long ones too, as it does on ~9 % of a real log's payloads (and
      // refills its bits between length and distance on 0.4 %). Every path the warm-up never
      // takes has no type feedback: V8 threw the optimised inflater away at the first real
      // payload that took one.
      if (variant >= 2) {
        const stalls = 10 + Math.floor(rnd() * 30);
        const step = s.median * (1 + Math.floor(rnd() * 4));
        for (let k = 0; k < stalls; k++) h.recordValue(Math.round(s.median * 300 + k * step));
      }
      payloads.push(encodeIntoCompressedBase64(h));
      yield;
    }
  }
  // Nearly empty intervals (a quiet second): tiny payloads, which deflate writes with fixed codes.
  const sparse: string[] = [];
  for (let k = 1; k <= 6; k++) {
    const h = newHistogram(3, 1, 2);
    for (let i = 0; i < k; i++) h.recordValueWithCount(Math.round(30_000 * (1 + i * 0.37)), 1 + ((i * k) % 5));
    sparse.push(encodeIntoCompressedBase64(h));
  }
  const threeDigit = [...payloads.slice(0, 16), ...sparse];
  const twoDigit = payloads.slice(16);
  const parts = [
    "#[Histogram log format version 1.3]\n#[StartTime: 1700000000.000 (seconds since epoch), 2023-11-14T22:13:20Z]\n",
    '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n',
  ];
  for (let i = 0; i < lines; i++) {
    if (i % 1000 === 999) yield;
    const t = (i + 0.001 * (i % 7)).toFixed(3);
    if (i % 5 === 4) parts.push(`Tag=warm,${t},1.000,${(1 + (i % 13) / 10).toFixed(3)},${twoDigit[i % twoDigit.length]}\n`);
    else parts.push(`${t},1.000,${(0.5 + (i % 11) / 10).toFixed(3)},${threeDigit[(i * 7) % threeDigit.length]}\n`);
  }
  return parts.join("");
}

/**
 * The thread's idle warm-up as a global (docs/HOOKS.md, Worker globals): "running" from its
 * start, "over" once it has ended (read through, made needless by a file, or failed). Its
 * synthetic log goes through the kernel as a real one does, and one cut short by a file ends in
 * a cut line the kernel declines: a test counting the kernel's work on a file waits for "over".
 */
function signal(state: "running" | "over"): void {
  (globalThis as unknown as { hdrWarmUp?: string }).hdrWarmUp = state;
}

/**
 * Runs once per engine context (a worker's), never throws. `busy()` tells whether real work is under way (then
 * the warm-up waits); `done()` that it is no longer needed (a real log has been read: that
 * warmed the code, and the warm-up would only compete with what the person does next, as it
 * did with the bench's time windows); `read` consumes the synthetic log as the worker reads
 * real ones.
 */
export async function warmUp(
  context: EngineContext,
  busy: () => boolean,
  read: (name: string, chunks: AsyncIterable<Uint8Array>, whole: Uint8Array, context: EngineContext) => Promise<unknown>,
  done: () => boolean = () => false,
  startDelayMs = START_DELAY_MS,
): Promise<void> {
  if (context.warmUpStarted) return;
  context.warmUpStarted = true;
  signal("running");
  const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  // A message to itself returns to the event loop without the 4 ms a nested setTimeout(0)
  // waits in a browser (a slice at a time, that was most of the warm-up's time).
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  const yieldNow = () =>
    new Promise<void>((r) => {
      waiting.push(r);
      channel.port2.postMessage(0);
    });
  try {
    await pause(startDelayMs);
    while (busy()) await pause(BUSY_POLL_MS);
    if (done()) return;
    let last = performance.now();
    /** Whether to stop: looked at every SLICE_MS, after a return to the event loop and any real work. */
    const stop = async (): Promise<boolean> => {
      if (performance.now() - last < SLICE_MS) return false;
      await yieldNow();
      while (busy()) await pause(BUSY_POLL_MS);
      last = performance.now();
      return done();
    };
    const steps = syntheticSteps(Math.ceil(WARM_UP_LINES / ROUNDS));
    let step = steps.next();
    while (!step.done) {
      if (await stop()) return;
      step = steps.next();
    }
    // As bytes, as a big log's pieces are read (HlogIngest.pushBytes).
    const bytes = new TextEncoder().encode(step.value);
    last = -Infinity; // look at once: a request may have come while the log was made
    async function* slices(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < bytes.length; i += SLICE_CHARS) {
        if (performance.now() - last >= SLICE_MS) {
          await yieldNow();
          while (busy()) await pause(BUSY_POLL_MS);
          if (done()) return;
          last = performance.now();
        }
        yield bytes.subarray(i, i + SLICE_CHARS);
      }
    }
    const reading = warmUpContext(context, WARM_UP_KEPT_BYTES);
    for (let round = 0; round < ROUNDS && !done(); round++) await read("warm-up.hlog", slices(), bytes, reading);
    // Then the memory a big log's blocks write first (core/blocks.ts), a chunk per look at the
    // event loop, while no file has come.
    for (let k = 0; k < READY_BLOCK_CHUNKS; k++) {
      if (done() || (await stop())) return;
      threadBlockWorkspace().chunks.prepare();
    }
  } catch {
    // Only a speed-up: a failure here changes nothing else.
  } finally {
    channel.port1.close();
    signal("over");
  }
}

/** What the engine's warm-ups ask of a store (the Store; kept structural so helpers need not load it). */
export interface WarmableStore {
  readonly series: readonly SeriesModel[];
  load(name: string, chunks: AsyncIterable<string> | Iterable<string>): Promise<unknown>;
  add(r: IngestResult): unknown;
  views(range?: { start: number | null; end: number | null }): unknown;
  timeline(q: { t0: number | null; t1: number | null; columns: number; percentiles: readonly number[] }): unknown;
  histogramFor(id: string, range: { start: number | null; end: number | null }): Histogram;
}

/**
 * Computes, and throws away, the spectrum of the middle third of the longest series with
 * intervals. The worker runs it when idle after a load, so that the first time window a
 * person picks does not run the window path (block sums, edge decoding, spectrum) in V8's
 * cold tiers (traced on the 24-hour log, the first window was markedly slower than the next
 * ones). Returns whether there was anything to warm.
 */
export function warmWindow(store: WarmableStore): boolean {
  let best: SeriesModel | null = null;
  for (const s of store.series) if (s.intervals && s.intervals.n > (best?.intervals?.n ?? 1)) best = s;
  const t = best?.intervals;
  if (!best || !t) return false;
  const t0 = t.offsets[0]!;
  const span = t.offsets[t.n - 1]! - t0;
  const h = store.histogramFor(best.id, { start: t0 + span / 3, end: t0 + (2 * span) / 3 });
  return spectrumOf(h).totalCount >= 0;
}

/** The quick warm-up at start: intervals, and rounds of the page's after-load queries. */
const QUICK_WARM_LINES = 400;
const QUICK_WARM_QUERIES = 12;
/**
 * Requests that read the person's logs (or their series from a server); a run followed live
 * (`append`) reads its lines through the same reader, a few times a second.
 */
const READS_LOGS = new Set<string>(["load", "loadUrls", "loadText", "loadPrometheus", "append"]);
/**
 * Loads that read no log (a server's series): the helpers take no part in them, and are ended,
 * with what their warm-ups hold (helpers/messages.ts `release`).
 */
export const READS_NO_LOGS = new Set<string>(["loadPrometheus"]);
/** Requests after which the engine warms the time-window path once it is idle. */
const LOADS = new Set<string>(["load", "loadUrls", "loadText", "openShare"]);
const WARM_AFTER_MS = 100;

/**
 * The engine worker's three warm-ups, and the bookkeeping of requests they need to stay out of
 * the way: the worker reports each request as it arrives (`requested`) and once answered
 * (`answered`).
 */
export class EngineWarmUps {
  private inFlight = 0;
  private filesLoaded = false;
  private received = 0;
  private pending = false;

  /**
   * `afterLoad`: more of what the page asks right after a load (the heatmap), run on the
   * warm-up's store with the rest; given by the worker, so helpers need not load its code.
   */
  constructor(
    private readonly context: EngineContext,
    private readonly store: WarmableStore,
    private readonly scratch: () => WarmableStore,
    private readonly afterLoad: (s: WarmableStore) => void = () => undefined,
  ) {}

  /**
   * A request arrived; returns its sequence number. A load of the person's logs (files, a
   * link's URLs, pasted text) ends the idle warm-up for good: it would only compete with what
   * they do next. The page's `demo` does not (a few hundred intervals, which warm nothing): on
   * the page as it opens by default, the warm-up then never ran, and the person's first file
   * was read by code V8 had not yet optimised.
   */
  requested(kind: string, demo = false): number {
    this.inFlight++;
    if (READS_LOGS.has(kind) && !demo) this.filesLoaded = true;
    // A server's series keep no blocks: the chunks written ahead for a big log's would only be held through the load.
    if (kind === "loadPrometheus") threadBlockWorkspace().chunks.drop();
    return ++this.received;
  }

  /** Whether the idle warm-up is needless now (a file of the person's has been loaded). */
  warmedByFiles(): boolean {
    return this.filesLoaded;
  }

  /**
   * A request was answered (`demo` as given to `requested`). After a load of the person's logs
   * the block chunks written ahead have served it, and what is left is let go; the demo's load
   * keeps them for the file to come.
   */
  answered(kind: string, seq: number, demo = false): void {
    this.inFlight--;
    if (READS_LOGS.has(kind) && !demo) threadBlockWorkspace().chunks.drop();
    if (LOADS.has(kind)) this.pending = true;
    // The page asks for the spectra and the timeline right after a load: wait for those too.
    if (this.pending) setTimeout(() => this.warmIfIdle(seq), WARM_AFTER_MS);
  }

  /** Starts the quick warm-up at once and the idle warm-up after its delay. */
  start(): void {
    setTimeout(() => this.quick(), 0);
    // While idle, read a synthetic log into a throw-away store and ask what the page asks after
    // a load: the first real load then runs optimised code.
    void warmUp(
      this.context,
      () => this.inFlight > 0,
      async (name, chunks, whole, reading) => {
        const scratch = this.scratch();
        // Read as a big log's first piece is (load-pieces.ts): from its bytes, kept whole.
        const sink = new HlogIngest(name, true, whole, true, undefined, reading);
        for await (const chunk of chunks) sink.pushBytes(chunk);
        scratch.add(sink.finish());
        if (this.inFlight > 0 || scratch.series.length === 0) return;
        scratch.views();
        scratch.timeline({ t0: null, t1: null, columns: 1200, percentiles: [] });
        this.afterLoad(scratch);
        warmWindow(scratch);
      },
      () => this.warmedByFiles(),
    );
  }

  /**
   * At once, before the page is ready: what the page asks right after a load (views, the
   * timeline, then time windows) on a small synthetic log, several times, so that a log chosen
   * the moment the page is ready does not run them in V8's interpreter (traced after a 24-hour
   * load: an order of magnitude slower cold than warm). Small, and in rounds that give way to requests.
   */
  private quick(): void {
    if (this.inFlight > 0) return;
    // A message to itself returns to the event loop at once (see warmUp).
    const channel = new MessageChannel();
    const waiting: (() => void)[] = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    const giveWay = () =>
      new Promise<void>((r) => {
        waiting.push(r);
        channel.port2.postMessage(0);
      });
    void (async () => {
      try {
        // The log is made a step at a time, giving way between steps: on the page as it opens,
        // the demo's load comes meanwhile and waits for a step, not for the whole log (its
        // encoding runs in V8's cold tiers).
        const steps = syntheticSteps(QUICK_WARM_LINES);
        let step = steps.next();
        while (!step.done) {
          await giveWay();
          if (this.inFlight > 0) return;
          step = steps.next();
        }
        const scratch = this.scratch();
        await scratch.load("warm-up.hlog", [step.value]);
        for (let k = 0; k < QUICK_WARM_QUERIES; k++) {
          // A round at a time, giving way to any request (the demo's load comes meanwhile).
          await new Promise((r) => setTimeout(r, 0));
          if (this.inFlight > 0) return;
          scratch.views();
          scratch.timeline({ t0: null, t1: null, columns: 1200, percentiles: [] });
          // Few columns for many intervals: the block-aligned path a long log takes.
          scratch.timeline({ t0: null, t1: null, columns: 4, percentiles: [] });
          this.afterLoad(scratch);
          // Time windows: a few intervals decoded at the edges only, and one over whole blocks
          // (the first window a person picked after a load was the slowest, several times the next
          // ones).
          scratch.views({ start: 10 + k, end: 20 + k });
          scratch.views({ start: 20 + k, end: 300 + k });
        }
      } catch {
        // Only a speed-up.
      } finally {
        channel.port1.close();
      }
    })();
  }

  /**
   * After a load, once nothing else has been asked for a moment, one throw-away time window
   * (warmWindow), so that the first window a person picks runs warm code. Any request
   * that comes meanwhile cancels it, so it never delays one; it takes a few ms when it runs.
   */
  private warmIfIdle(seq: number): void {
    if (this.received !== seq || !this.pending) return;
    this.pending = false;
    try {
      warmWindow(this.store);
    } catch {
      // Only a speed-up.
    }
  }
}
