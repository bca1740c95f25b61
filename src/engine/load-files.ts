// Loading dropped files with every core: planLoad (load-plan.ts) decides which file is read how,
// and runLoad reads them so. Series are added to the store in the order of the files, whoever
// read them; the thread files of one pgbench run are then merged into one series (join-runs.ts).
import type { PayloadBytes } from "../core/series";
import type { SampleOptions } from "../formats/source";
import { BYTES_SNIFF_LENGTH, mayBeBinary } from "../formats/sniff";
import { fileBytes, fileChunks } from "./file-chunks";
import { joinThreadFiles } from "./join-runs";
import { ingest, ingestBytes, ingestHlogInParts, type HlogPart, type IngestResult, type ReadOptions } from "./ingest";
import type { EngineContext } from "./context";
import { readLogsOnDemand } from "./load-on-demand";
import { planLoad, type LoadPlan, type LoadStep } from "./load-plan";
import { readInPieces, type Pieces } from "./load-pieces";
import type { FileOutcome, FileProgress, Progress } from "./protocol";
import type { Store } from "./store";

export { cutsOfLog, MAX_LOG_BYTES, SPLIT_BYTES } from "./load-plan";

/** Helper workers that read (parts of) interval logs. */
export interface HelperWorkers {
  /** How many helpers: reads on different helpers run at once. */
  readonly count: number;
  /**
   * Reads on helper number `helper` (0 ≤ helper < count). `before`: the log's bytes before the
   * piece `blob` (none: a log from its start), whose intervals the helper counts so that the
   * part's blocks lie on the log's grid (piece-origins.ts).
   */
  read(helper: number, blob: Blob, name: string, onProgress: (bytes: number, intervals: number) => void, signal?: AbortSignal, before?: Blob): Promise<HlogPart>;
}

/**
 * Where interval logs' payloads are read back from when a query asks (the command line's files
 * on disk): such logs are read as parts that keep no payload text.
 */
export interface PayloadStore {
  /** Bytes [start, end) of `file` (one of the files being loaded), read when asked. */
  bytesOf(file: Blob, start: number, end: number): PayloadBytes;
}

/** How files are loaded. */
export interface LoadOptions {
  /** Interval logs from this size on are cut into pieces (load-plan.ts SPLIT_BYTES). */
  splitBytes?: number;
  /** Interval logs above this size are refused (load-plan.ts MAX_LOG_BYTES). */
  maxLogBytes?: number;
  /**
   * Whether interval logs keep their pre-merged blocks (default true; hlog-ingest.ts
   * ReadOptions): the command line's report of whole logs needs none.
   */
  keepBlocks?: boolean;
  /** Where the logs' payloads are read back from; without it, each log keeps its payloads. */
  payloads?: PayloadStore;
  /** The engine context the logs are read in (default: the store's). */
  context?: EngineContext;
}

/** No helpers: readInPieces then reads every piece on this thread. */
const NO_HELPERS: HelperWorkers = { count: 0, read: () => Promise.reject(new Error("no helper workers")) };

const CANCELLED = "cancelled: nothing of this file was loaded";

function formatMB(bytes: number): string {
  return `${Number((bytes / 1e6).toPrecision(3))} MB`;
}

function failed(name: string, e: unknown): IngestResult {
  const message = e instanceof Error ? e.message : String(e);
  return { series: [], problems: [{ file: name, line: null, reason: `could not be read: ${message}` }], lines: 0 };
}

export async function loadFiles(
  store: Store,
  files: readonly File[],
  progress: (p: Progress) => void,
  signal: AbortSignal | undefined,
  options: SampleOptions | undefined,
  helpers: HelperWorkers | null,
  load: LoadOptions = {},
): Promise<FileOutcome[]> {
  const plan = await planLoad(files, { helpers: helpers?.count ?? 0, payloadsOnDemand: load.payloads !== undefined, splitBytes: load.splitBytes, maxLogBytes: load.maxLogBytes });
  const results = await runLoad(files, plan, { progress, signal, options, helpers: helpers ?? NO_HELPERS, load: { ...load, context: load.context ?? store.context } });
  const outcomes = files.map((f, k) => ({ file: f.name, ...store.add(results[k]!) }));
  joinThreadFiles(store, outcomes);
  return outcomes;
}

interface RunContext {
  progress: (p: Progress) => void;
  signal: AbortSignal | undefined;
  options: SampleOptions | undefined;
  helpers: HelperWorkers;
  load: LoadOptions;
}

/** Reads `files` as `plan` says: each file's result, in file order. */
export async function runLoad(files: readonly File[], plan: LoadPlan, ctx: RunContext): Promise<IngestResult[]> {
  return new LoadRun(files, ctx, plan.logs).run(plan.steps);
}

/** One load's reading: every file's result and progress. */
class LoadRun {
  readonly results: IngestResult[];
  /** Every file's own progress; each message carries all of them. */
  private readonly states: FileProgress[];
  private lastPost = 0;
  private readonly read: ReadOptions;

  constructor(
    private readonly files: readonly File[],
    private readonly ctx: RunContext,
    /** Whether each file is an interval log (load-plan.ts). */
    private readonly logs: readonly boolean[],
  ) {
    this.results = new Array<IngestResult>(files.length);
    this.states = files.map((f) => ({ file: f.name, bytes: 0, totalBytes: f.size, intervals: 0, done: false }));
    this.read = { keepBlocks: ctx.load.keepBlocks, context: ctx.load.context };
  }

  async run(steps: readonly LoadStep[]): Promise<IngestResult[]> {
    for (const step of steps) {
      switch (step.read) {
        case "refused":
          this.refuse(step.file, step.size, step.cap);
          break;
        case "here":
          await (this.logs[step.file] ? this.readLogHere(step.file) : this.readHere(step.file));
          break;
        case "pieces":
          await this.readInParts(step.file, { cuts: step.cuts, owners: step.owners }, this.ctx.helpers);
          break;
        case "shared":
          await this.share(step.here, step.logs);
          break;
        case "on-demand":
          await this.readOnDemand(step.logs);
          break;
      }
    }
    return this.results;
  }

  /** Throttled: 100 small files finishing at once would otherwise post 100 snapshots. */
  private update(i: number, bytes: number, intervals: number, done = false): void {
    const st = this.states[i]!;
    st.bytes = Math.max(st.bytes, bytes);
    st.intervals = Math.max(st.intervals, intervals);
    st.done ||= done;
    const now = performance.now();
    if (!done && now - this.lastPost < 50) return;
    this.lastPost = now;
    const many = this.files.length > 1 ? this.states.map((x) => ({ ...x })) : undefined;
    this.ctx.progress({ file: st.file, bytes: st.bytes, totalBytes: st.totalBytes, intervals: st.intervals, files: many });
  }

  private cancelledOr(i: number, e: unknown): IngestResult {
    return failed(this.files[i]!.name, this.ctx.signal?.aborted ? new Error(CANCELLED) : e);
  }

  private refuse(i: number, size: number, cap: number): void {
    const reason = `this interval log is ${formatMB(size)}; the app reads logs up to ${formatMB(cap)}, all held in the browser's memory. Cut it to the time you need first: it is text in time order, so keep its # header lines and a range of interval lines`;
    this.results[i] = { series: [], problems: [{ file: this.files[i]!.name, line: null, reason }], lines: 0 };
    this.update(i, size, 0, true);
  }

  /** Reads one file here in one piece, whatever its format (the path every file took before helpers). */
  private async readHere(i: number): Promise<void> {
    const file = this.files[i]!;
    let bytes = 0;
    try {
      // A binary format (Gatling 3.13's simulation.log) is read from its bytes, not as text. The
      // registry of readers is loaded for a file whose first bytes may be one only.
      const head = new Uint8Array(await file.slice(0, BYTES_SNIFF_LENGTH).arrayBuffer());
      const binary = mayBeBinary(head) ? (await import("../formats/detect")).pickBytesReader(file.name, head) : null;
      if (binary)
        this.results[i] = await ingestBytes(
          file.name,
          binary,
          fileBytes(file, (b) => this.update(i, (bytes = b), 0), this.ctx.signal),
          this.ctx.options,
        );
      else
        this.results[i] = await ingest(
          file.name,
          fileChunks(file, (b) => (bytes = b), this.ctx.signal),
          (p) => this.update(i, bytes, p.intervals),
          this.ctx.options,
          this.read,
        );
    } catch (e) {
      this.results[i] = failed(file.name, e);
    }
    this.update(i, file.size, 0, true);
  }

  /**
   * Reads one interval log here from its bytes, kept whole (load-pieces.ts, one piece): lines of
   * the usual shape are read without being decoded to text (hlog/bytes.ts); on any failure, the
   * text way (readHere).
   */
  private readLogHere(i: number): Promise<void> {
    return this.readInParts(i, { cuts: [], owners: [0] }, NO_HELPERS);
  }

  /** Reads one interval log on a helper; joined here (an empty first part). */
  private async readOnHelper(i: number, helper: number): Promise<void> {
    const file = this.files[i]!;
    try {
      const part = this.ctx.helpers.read(helper, file, file.name, (bytes, intervals) => this.update(i, bytes, intervals), this.ctx.signal);
      this.results[i] = await ingestHlogInParts(file.name, [], [part], undefined, this.read);
      this.update(i, file.size, 0, true);
    } catch {
      if (this.ctx.signal?.aborted) this.results[i] = failed(file.name, new Error(CANCELLED));
      else await this.readHere(i); // a helper that failed (or a part that cannot be joined): read it here
    }
  }

  /** Reads one big interval log in pieces, here and on every helper at once (load-pieces.ts). */
  private async readInParts(i: number, pieces: Pieces, by: HelperWorkers): Promise<void> {
    const file = this.files[i]!;
    try {
      this.results[i] = await readInPieces(file, file.name, pieces, by, (bytes, intervals) => this.update(i, bytes, intervals), this.ctx.signal, this.read);
    } catch {
      // Cancelling is the only failure not worth a second try; otherwise the log in one piece.
      if (this.ctx.signal?.aborted) this.results[i] = failed(file.name, new Error(CANCELLED));
      else await this.readHere(i);
    }
    this.update(i, file.size, 0, true);
  }

  /** Small files: logs to whoever is free (helpers and this thread), other formats here. */
  private async share(here: readonly number[], logs: readonly number[]): Promise<void> {
    const hereOnly = [...here];
    const shared = [...logs];
    const run = async (helper: number | null) => {
      for (;;) {
        const k = helper === null ? (hereOnly.shift() ?? shared.shift()) : shared.shift();
        if (k === undefined) return;
        if (helper === null) await (this.logs[k] ? this.readLogHere(k) : this.readHere(k));
        else await this.readOnHelper(k, helper);
      }
    };
    await Promise.all([run(null), ...Array.from({ length: this.ctx.helpers.count }, (_, h) => run(h))]);
  }

  /** Interval logs whose payloads are read back from the store when asked (load-on-demand.ts). */
  private async readOnDemand(logs: readonly { file: number; cuts: readonly number[] }[]): Promise<void> {
    const helpers = this.ctx.helpers.count > 0 ? this.ctx.helpers : null;
    const out = await readLogsOnDemand(
      logs.map((l) => ({ file: this.files[l.file]!, cuts: l.cuts })),
      this.ctx.load.payloads!,
      helpers,
      (n, bytes, intervals) => this.update(logs[n]!.file, bytes, intervals),
      this.ctx.signal,
      this.read,
    );
    out.forEach((r, n) => {
      const i = logs[n]!.file;
      this.results[i] = r.status === "fulfilled" ? r.value : this.cancelledOr(i, r.reason);
      this.update(i, this.files[i]!.size, 0, true);
    });
  }
}
