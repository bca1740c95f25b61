// The blocks' workspace of this thread (core/blocks.ts BlockWorkspace): the chunks the warm-up
// writes ahead and the accumulators ranges are summed in, shared by every reader's blocks on
// the thread. One object made here, so that an engine context can own it in its place.
import { BlockWorkspace } from "../core/blocks";

const thread = new BlockWorkspace();

/** This thread's workspace: the one every reader's blocks are given. */
export function threadBlockWorkspace(): BlockWorkspace {
  return thread;
}
