// Bundled on its own for the bench's baseline page (bench item 1c): the app's own base64
// decoding and inflating, and nothing else, over every payload of a log. What any reader of
// these payloads must do at least, at the app's speed. The app inflates with its WebAssembly
// kernel (src/wasm), which the browser's base64 decoder feeds; where the kernel cannot be
// compiled here, the JavaScript inflater the app falls back to is timed, and `engine` says so.
import { decodeBase64 } from "../../src/formats/hlog-encoding-base64";
import { inflateZlib } from "../../src/formats/inflate";
import { inflateFast, kernelAvailable } from "../../src/wasm/kernel";

export const engine = kernelAvailable ? "kernel" : "javascript";

/** Decodes and inflates each payload (compressed: cookie, length, zlib stream); returns the bytes produced. */
export function inflateAll(payloads: readonly string[]): number {
  let produced = 0;
  for (const p of payloads) {
    const b = decodeBase64(p);
    if (!b || b.length < 8) throw new Error("not a compressed payload");
    if (kernelAvailable) {
      const r = inflateFast(b, 8, b.length - 8, 65536);
      if (r === null) throw new Error("the kernel declined a payload");
      produced += r.length;
    } else {
      const r = inflateZlib(b, 8, b.length - 8, 1 << 20);
      if (typeof r === "string") throw new Error(r);
      produced += r.bytes.length;
    }
  }
  return produced;
}
