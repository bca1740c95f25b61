// WebAssembly fast path for one interval-log payload: base64 → zlib inflate → V2 header →
// ZigZag LEB128 counts, in one call. Compiled by scripts/build-wasm.mjs (AssemblyScript).
//
// It is a fast path only: for any input it either produces exactly what the JS reader
// (src/formats/hlog-encoding.ts, decodeHistogramPayload) produces, or declines with a negative
// code and the caller runs the JS reader, which gives the verdict and its message. So every
// check of the JS path is here (or something stricter that declines), and everything unusual
// (V0/V1, uncompressed, DoubleHistogram, output above 64 KiB, non-ASCII text) is declined.
//
// The inflater is a port of src/formats/inflate.ts (same tables, same checks, so the same
// verdicts as pako), with a 64-bit bit buffer refilled a whole word at a time in its fast loop.
//
// No allocator, no managed objects: everything lives at fixed addresses of linear memory
// (the first 1152 KiB; build-wasm.mjs puts the compiler's own static data above them with
// --memoryBase), so every access is a plain load or store with a constant offset.

// The source is in modules, each a part of the above: layout.ts (the memory map), tables.ts and
// inflate.ts (the inflater), decode.ts (one payload), slots.ts (block accumulators), lines.ts
// (interval lines). This file is the entry: what it exports is what the wrapper (../kernel.ts)
// sees.
export { inputAddress, inputCapacity, outputAddress, indicesAddress, countsAddress, resultAddress } from "./layout";
export { inflateAt } from "./inflate";
export { decode, decodeBytes } from "./decode";
export { takeBuffer, slotAlloc, slotAdd, slotAddDecoded, slotTake, slotEmpty, slotSpan } from "./slots";
export { linesBuffer, linesStopReason, readLines } from "./lines";
