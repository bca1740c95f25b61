// The reference inflater: bounded, synchronous zlib inflate on pako's zlib port, with the
// contract of the app's inflater (src/formats/inflate.ts, inflateZlib). Test support, never part
// of the app: inflate.test.ts checks inflateZlib's bytes and verdicts against it, and
// scripts/inflate-bench.ts times the two payload by payload.
//
// pako.inflate() would inflate whatever it is given, however large, and allocates a fresh
// stream state and output chunks on every call. Here one stream state is reused, the output goes
// into one reused buffer, and the caller says how many bytes it is prepared to receive:
// inflating stops there.

// pako 1.x ships no type declarations for its zlib internals; the shapes used are below.
// @ts-expect-error -- untyped CommonJS module
import * as zlib from "pako/lib/zlib/inflate.js";
// @ts-expect-error -- untyped CommonJS module
import ZStreamModule from "pako/lib/zlib/zstream.js";
import type { Inflated } from "../../src/formats/inflate";

interface InflateState {
  mode: number;
  last: number;
  havedict: number;
  dmax: number;
  head: unknown;
  hold: number;
  bits: number;
  wrap: number;
  total: number;
  lencode: unknown;
  distcode: unknown;
  lendyn: unknown;
  distdyn: unknown;
  sane: number;
  back: number;
  wsize: number;
  whave: number;
  wnext: number;
  window: Uint8Array | null;
}
interface ZStream {
  input: Uint8Array | null;
  next_in: number;
  avail_in: number;
  total_in: number;
  output: Uint8Array | null;
  next_out: number;
  avail_out: number;
  total_out: number;
  msg: string;
  adler: number;
  state: InflateState | null;
}
interface ZlibInflate {
  inflateInit2(strm: ZStream, windowBits: number): number;
  inflateReset(strm: ZStream): number;
  inflate(strm: ZStream, flush: number): number;
}

const Z_FINISH = 4;
const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_NEED_DICT = 2;
const Z_DATA_ERROR = -3;
const Z_BUF_ERROR = -5;

const inflater = zlib as unknown as ZlibInflate;
const ZStreamCtor = ZStreamModule as unknown as new () => ZStream;

/** Buffers bigger than this are dropped after use instead of kept for the next call. */
const KEEP_OUTPUT_BYTES = 1 << 20;

let stream: ZStream | null = null;
/** state.mode right after init (pako's HEAD; its value differs between pako versions). */
let headMode = 0;
/** Whether the state looks like pako 1.x's, so that fastReset can be used. */
let canFastReset = false;

/**
 * inflateReset without its allocations. pako's inflateResetKeep allocates fresh dynamic
 * Huffman tables (about 6 KB, zero-filled) on every reset, which costs several times more
 * than inflating a typical 100-byte payload. Those tables are rebuilt from offset 0 whenever
 * a dynamic block starts (as C zlib reuses state->codes), so keeping them is safe. The other
 * fields are set as inflateReset + inflateResetKeep set them.
 */
function fastReset(strm: ZStream, st: InflateState): void {
  st.wsize = 0;
  st.whave = 0;
  st.wnext = 0;
  strm.total_in = strm.total_out = st.total = 0;
  strm.msg = "";
  if (st.wrap) strm.adler = st.wrap & 1;
  st.mode = headMode;
  st.last = 0;
  st.havedict = 0;
  st.dmax = 32768;
  st.head = null;
  st.hold = 0;
  st.bits = 0;
  st.lencode = st.lendyn;
  st.distcode = st.distdyn;
  st.sane = 1;
  st.back = -1;
}

function looksLikePako1State(st: InflateState): boolean {
  const fields = ["mode", "last", "havedict", "dmax", "hold", "bits", "wrap", "total", "sane", "back", "wsize", "whave", "wnext"] as const;
  for (const f of fields) if (typeof st[f] !== "number") return false;
  return st.lendyn instanceof Int32Array && st.distdyn instanceof Int32Array && "head" in st && "window" in st;
}
let output = new Uint8Array(64 * 1024);

/**
 * Inflates the zlib stream in `input[offset, offset + length)`, producing at most `limit`
 * bytes. When the limit is reached before the stream ends, returns what fits with
 * `ended: false`. Returns a reason string when the data is not a valid zlib stream or
 * ends before the stream does.
 */
export function inflateBounded(input: Uint8Array, offset: number, length: number, limit: number): Inflated | string {
  try {
    if (output.length < limit || (output.length > KEEP_OUTPUT_BYTES && limit <= KEEP_OUTPUT_BYTES)) {
      output = new Uint8Array(Math.max(limit, 64 * 1024));
    }
    let strm = stream;
    if (strm === null || strm.state === null) {
      strm = new ZStreamCtor();
      if (inflater.inflateInit2(strm, 15) !== Z_OK || strm.state === null) return "could not start zlib inflate";
      headMode = strm.state.mode;
      canFastReset = looksLikePako1State(strm.state);
      stream = strm;
    } else if (canFastReset) {
      fastReset(strm, strm.state);
    } else if (inflater.inflateReset(strm) !== Z_OK) {
      stream = null;
      return "could not restart zlib inflate";
    }
    // pako 1.x's reset keeps an allocated window but zeroes its size; drop it so a later
    // multi-call stream would allocate a proper one. Single-call inflation never needs it.
    strm.state!.window = null;
    strm.input = input;
    strm.next_in = offset;
    strm.avail_in = length;
    strm.output = output;
    strm.next_out = 0;
    strm.avail_out = limit;
    const status = inflater.inflate(strm, Z_FINISH);
    const produced = strm.next_out;
    const availIn = strm.avail_in;
    const availOut = strm.avail_out;
    const msg = strm.msg;
    // Do not keep the caller's input alive.
    strm.input = null;
    strm.output = null;
    if (status === Z_STREAM_END) return { bytes: output.subarray(0, produced), ended: true };
    if (status === Z_BUF_ERROR) {
      if (availOut === 0) return { bytes: output.subarray(0, produced), ended: false };
      if (availIn === 0) return "compressed payload is truncated (the zlib stream ends early)";
      return "compressed payload is corrupt";
    }
    if (status === Z_NEED_DICT) return "compressed payload needs a zlib preset dictionary, which histograms never use";
    if (status === Z_DATA_ERROR) return `compressed payload is corrupt (zlib: ${msg || "data error"})`;
    return `compressed payload is corrupt (zlib status ${status})`;
  } catch {
    // A throw inside pako leaves the shared stream in an unknown state.
    stream = null;
    return "compressed payload is corrupt (inflate failed)";
  }
}
