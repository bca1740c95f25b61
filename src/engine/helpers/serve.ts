// A helper's side of the pool (pool.ts): reads each piece asked for, or merges a share of files,
// and sends the answer back with its arrays transferred. The page's helper workers
// (part-worker.ts) and the command line's helper threads run this same loop; only how a piece's
// bytes are reached and what is kept differ (HelperSide).
import { fileBytes } from "../file-chunks";
import { ingestHlogPart, transferablesOf } from "../hlog-ingest";
import type { EngineContext } from "../context";
import type { MergedShare } from "../merge";
import { addCounts, intervalsBefore, partCounts } from "../piece-origins";
import type { TimeRange } from "../protocol";
import type { HelperReply, HelperRequest, PieceRef } from "./messages";

export interface HelperSide {
  /** The bytes a request names, as a Blob (a Blob as it came, or a file on disk opened here). */
  blobOf(ref: PieceRef, name: string): Blob;
  /**
   * Whether a part keeps the bytes it was read from (transferred with it: the engine cuts its
   * payloads out of them), or none (the command line reads its payloads back from the file).
   */
  keepsBytes: boolean;
  /** Whether reads report their progress (at most every 100 ms). */
  progress: boolean;
  /** Merges a share of files (the command line's helpers only), with the arrays to transfer. */
  merge?(paths: readonly string[], range: TimeRange): Promise<{ share: MergedShare; transfer: ArrayBuffer[] }>;
  /** The helper thread's engine context, which the reader runs in (default: the thread's). */
  context?: EngineContext;
  /** A load that reads no log has begun: stop the idle warm-up and let go of what it holds. */
  release?(): void;
  /** Ends this helper, once the requests before a `release` are done (the pool sends it nothing more). */
  end?(): void;
  /** Runs as a read starts, and after it ends. */
  started?(): void;
  finished?(): void;
}

/** What a helper does with the requests from one endpoint; returns the function that takes each. */
export function serveHelper(post: (r: HelperReply, transfer?: Transferable[]) => void, side: HelperSide): (m: HelperRequest) => void {
  const running = new Map<number, AbortController>();
  /** Requests cancelled before they started (they wait their turn in the queue). */
  const cancelled = new Set<number>();
  // One request at a time, in the order asked: the loader asks for the next piece while this
  // one is read, and reading them interleaved would only delay the first.
  let queue = Promise.resolve();
  // The piece read last and, per tag, the intervals up to its end. The loader asks for a
  // helper's next piece ahead, before it knows where the last one ends in intervals; when it
  // follows this one (the same log, starting where it ended), its origin is known here and
  // nothing is counted again. Were it another log of the same name and sizes, only speed would
  // suffer: sums are exact whatever a part's origin (core/blocks.ts).
  let lastPiece: { name: string; end: number; counts: Map<string, number> } | null = null;
  return (m) => {
    if (m.type === "release") {
      side.release?.();
      queue = queue.then(() => side.end?.());
      return;
    }
    if (m.type === "cancel") {
      const control = running.get(m.id);
      if (control) control.abort();
      else cancelled.add(m.id);
      return;
    }
    queue = queue.then(() => run(m));
  };

  async function run(m: Exclude<HelperRequest, { type: "cancel" | "release" }>): Promise<void> {
    if (cancelled.delete(m.id)) {
      post({ id: m.id, type: "error", message: "cancelled" });
      return;
    }
    const control = new AbortController();
    running.set(m.id, control);
    side.started?.();
    try {
      if (m.type === "merge") {
        if (!side.merge) throw new Error("this helper does not merge");
        const { share, transfer } = await side.merge(m.paths, m.range);
        post({ id: m.id, type: "merged", share }, transfer);
        return;
      }
      const blob = side.blobOf(m.piece, m.name);
      // The intervals ahead of the piece, counted, lay its blocks on the log's grid.
      const before = m.before ? side.blobOf(m.before, m.name) : null;
      const follows = before !== null && lastPiece !== null && lastPiece.name === m.name && lastPiece.end === before.size;
      const origins = follows ? lastPiece!.counts : before ? await intervalsBefore(before, control.signal) : undefined;
      lastPiece = null;
      const source = side.keepsBytes ? new Uint8Array(blob.size) : null;
      let bytes = 0;
      let last = 0;
      const part = await ingestHlogPart(
        m.name,
        fileBytes(blob, (b) => (bytes = b), control.signal, source ?? undefined),
        side.progress
          ? (p) => {
              // Progress at most every 100 ms: a message per chunk would cost more than it tells.
              const now = performance.now();
              if (now - last < 100) return;
              last = now;
              post({ id: m.id, type: "progress", bytes, intervals: p.intervals });
            }
          : undefined,
        source,
        { keepBlocks: m.blocks, origins, context: side.context },
      );
      if (origins && before) lastPiece = { name: m.name, end: before.size + blob.size, counts: addCounts(origins, partCounts(part)) };
      post({ id: m.id, type: "done", part }, transferablesOf(part));
    } catch (e) {
      post({ id: m.id, type: "error", message: e instanceof Error ? e.message : String(e) });
    } finally {
      running.delete(m.id);
      side.finished?.();
    }
  }
}
