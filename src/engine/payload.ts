// One interval's payload, decoded for a query: by the WebAssembly kernel when it handles the
// payload, else by the JavaScript reader (the reference, which also words every error). The
// load takes the same two steps inline (hlog-ingest.ts).
import { decodeHistogramPayload, type DecodeResult } from "../formats/hlog-encoding";
import { decodePayloadFast } from "../wasm/kernel";

/** Transient, like decodeHistogramPayload(text, true): the arrays are valid until the next decode. */
export function decodePayload(text: string): DecodeResult {
  const d = decodePayloadFast(text);
  return d !== null ? { ok: true, value: d } : decodeHistogramPayload(text, true);
}
