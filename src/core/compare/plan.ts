// How a run's intervals are cut for the moving-block bootstrap.
//
// Latency intervals are not independent: a stall fills the queue, and the intervals after it
// drain that queue. Resampling single intervals would scatter a stall and its queue over the
// resample and make the tail look better known than it is. So whole blocks of consecutive
// intervals are resampled, and a block must be long enough to hold a stall and the queue it
// leaves: at least BLOCK_SECONDS, and at least ceil(√n) intervals (the usual order of block
// length for the moving-block bootstrap, growing with the run so longer dependence is kept
// in long runs). A block never exceeds a quarter of the run, so a resample draws from at least
// four of them.
//
// Blocks start on a grid: the run is cut into sub-blocks of `stride` intervals (about half a
// block; a multiple of 64 when that large, so sub-blocks are the store's pre-merged blocks and
// nothing is decoded), and a bootstrap block is `span` consecutive sub-blocks starting at any
// sub-block. (A finer grid, a quarter of a block, cost twice the time and memory for 24-hour
// logs and changed no interval by more than its own resampling noise.)

/** A stall and the queue behind it: what one bootstrap block must be able to hold. */
export const BLOCK_SECONDS = 30;
/** Fewer intervals than this: the run's counts are resampled instead (see RunData "counts"). */
export const MIN_INTERVALS = 20;
/** The store's smallest pre-merged block (core/blocks.ts BLOCK_SIZES[0]). */
const PREMERGED = 64;

export interface BlockPlan {
  /** Intervals in the run (the window's). */
  intervals: number;
  /** Intervals per sub-block (the last may hold fewer). */
  stride: number;
  /** Sub-blocks per bootstrap block. */
  span: number;
  /** Intervals per bootstrap block: stride × span. */
  length: number;
}

export function planBlocks(intervals: number, intervalSeconds: number): BlockPlan {
  const n = Math.max(1, Math.floor(intervals));
  const secs = intervalSeconds > 0 && Number.isFinite(intervalSeconds) ? intervalSeconds : 1;
  let want = Math.max(Math.ceil(Math.sqrt(n)), Math.ceil(BLOCK_SECONDS / secs));
  want = Math.max(1, Math.min(want, Math.floor(n / 4)));
  let stride = Math.max(1, Math.floor(want / 2));
  if (stride >= PREMERGED) stride = PREMERGED * Math.floor(stride / PREMERGED);
  const span = Math.max(1, Math.ceil(want / stride));
  return { intervals: n, stride, span, length: stride * span };
}
