// One interval's payload, decoded for the load and for queries: by the WebAssembly kernel when
// it handles the payload (compressed V2, up to 64 KiB inflated), else by the JavaScript reader
// (the reference, which also words every error).
import { decodeHistogramPayload, type DecodeResult } from "../formats/hlog-encoding";
import { decodePayloadFast } from "../wasm/kernel";

/** Transient, like decodeHistogramPayload(text, true): the arrays are valid until the next decode. */
export function decodePayload(text: string): DecodeResult {
  const d = decodePayloadFast(text);
  return d !== null ? { ok: true, value: d } : decodeHistogramPayload(text, true);
}
