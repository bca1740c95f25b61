// Bundled on its own for the bench's baseline page (bench item 1c): the app's own base64
// decoder and inflater, and nothing else, over every payload of a log. What any reader of
// these payloads must do at least, at the app's speed.
import { decodeBase64 } from "../../src/formats/hlog-encoding-base64";
import { inflateZlib } from "../../src/formats/inflate";

/** Decodes and inflates each payload (compressed: cookie, length, zlib stream); returns the bytes produced. */
export function inflateAll(payloads: readonly string[]): number {
  let produced = 0;
  for (const p of payloads) {
    const b = decodeBase64(p);
    if (!b || b.length < 8) throw new Error("not a compressed payload");
    const r = inflateZlib(b, 8, b.length - 8, 1 << 20);
    if (typeof r === "string") throw new Error(r);
    produced += r.bytes.length;
  }
  return produced;
}
