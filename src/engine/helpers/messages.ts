// Messages between a thread that loads and its helpers (pool.ts), the same for the page's helper
// workers and the command line's helper threads; and the page's setup messages around them.
import type { HlogPart } from "../hlog-ingest";
import type { MergedShare } from "../merge";
import type { TimeRange } from "../protocol";

/**
 * Bytes `start`–`end` of a file on disk, which a helper thread opens itself (the command line):
 * sent instead of a Blob, whose bytes a Node thread cannot pass on.
 */
export interface FileRange {
  path: string;
  start: number;
  end: number;
}

/** The bytes a helper reads: a Blob (the page) or a range of a file on disk (the command line). */
export type PieceRef = Blob | FileRange;

/**
 * `read`: read `piece` as a part of the log `name`, after counting the intervals in `before` (the
 * log's bytes ahead of it, piece-origins.ts; null: the log's start); `blocks`: whether the part
 * keeps its blocks (hlog-ingest.ts ReadOptions). `merge`: merge a share of files over a time
 * range (the command line's `--merge`, merge.ts). `cancel`: stop that request. `release`: a load
 * that reads no log has begun (a server's series): stop the idle warm-up, let go of the block
 * chunks it wrote ahead, and end once idle (the pool sends nothing more; it starts helpers anew
 * for the next log). Nothing answers it (its id is a fresh one, as every request's).
 */
export type HelperRequest =
  | { type: "read"; id: number; piece: PieceRef; name: string; before: PieceRef | null; blocks: boolean }
  | { type: "merge"; id: number; paths: readonly string[]; range: TimeRange }
  | { type: "cancel"; id: number }
  | { type: "release"; id: number };

export type HelperReply =
  | { id: number; type: "progress"; bytes: number; intervals: number }
  | { id: number; type: "done"; part: HlogPart }
  | { id: number; type: "merged"; share: MergedShare }
  | { id: number; type: "error"; message: string };

/** From the page to a helper it started: the port to the engine worker, where requests come from. */
export type HelperSetup = { type: "port"; port: MessagePort };

/**
 * From the page to the engine worker, before any request: how many helpers the engine may use,
 * and ports to those the page started (it starts the others itself).
 */
export type HelperPorts = { helperPorts: MessagePort[]; helperCount: number };

/** From the page to the engine worker: helper number `helperFailed` died (its worker's error event). */
export type HelperFailed = { helperFailed: number; message: string };
