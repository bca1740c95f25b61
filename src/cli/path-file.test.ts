import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { FileBytes, nodeUtf8Decoder, PathFile } from "./path-file";

/** Bytes cut at the given points, decoded chunk by chunk and joined. */
function decodeInChunks(make: () => { decode(b?: Uint8Array, o?: { stream?: boolean }): string }, bytes: Uint8Array, cuts: number[]): string {
  const d = make();
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let out = "";
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out += d.decode(bytes.subarray(from, c), { stream: true });
    from = c;
  }
  return out + d.decode();
}

// Bytes like a log's (ASCII), with what TextDecoder treats specially: a byte-order mark, text
// beyond ASCII (2-, 3- and 4-byte sequences) and malformed bytes (stray continuation bytes,
// truncated sequences, overlongs, surrogates, bytes never valid in UTF-8).
const pieces = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => new TextEncoder().encode(s)),
  fc.constantFrom(...["é", "€", "𝄞", "µs", "\u00a0"].map((s) => new TextEncoder().encode(s))),
  fc
    .constantFrom([0xef, 0xbb, 0xbf], [0x80], [0xbf], [0xc3], [0xe2, 0x82], [0xf0, 0x9d, 0x84], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xfe], [0xf5, 0x80])
    .map((b) => Uint8Array.from(b)),
);
const text = fc.array(pieces, { maxLength: 40 }).map((ps) => Uint8Array.from(ps.flatMap((p) => [...p])));

describe("nodeUtf8Decoder", () => {
  it("decodes any bytes cut anywhere as TextDecoder('utf-8') does, a leading byte-order mark dropped", () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        expect(decodeInChunks(nodeUtf8Decoder, bytes, cuts)).toBe(decodeInChunks(() => new TextDecoder("utf-8"), bytes, cuts));
      }),
      { numRuns: 2000 },
    );
  });

  it("drops the byte-order mark only at the start, even when it arrives a byte at a time", () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xef, 0xbb, 0xbf, 0x62]);
    expect(decodeInChunks(nodeUtf8Decoder, bytes, [1, 2, 3, 5])).toBe("a\ufeffb");
  });
});

describe("FileBytes", () => {
  it("gives the bytes of any range of any slice, as the slice's own bytes would, reads cached or not", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-bytes-"));
    const file = path.join(dir, "f.bin");
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919 + (i >> 9)) & 255);
    writeFileSync(file, bytes);
    const whole = new PathFile(file);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(bytes.length),
        fc.nat(bytes.length),
        fc.array(fc.tuple(fc.integer({ min: -10, max: 310_000 }), fc.integer({ min: -10, max: 310_000 })), { maxLength: 6 }),
        async (x, y, ranges) => {
          const [a, b] = x <= y ? [x, y] : [y, x];
          const slice = whole.slice(a, b);
          const on = slice.bytesOnDemand();
          const own = new Uint8Array(await slice.arrayBuffer());
          expect(on.length).toBe(own.length);
          for (const [from, to] of ranges) {
            const got = on.subarray(from, to);
            const want = own.subarray(from, to);
            expect(got.length).toBe(want.length);
            expect(Buffer.from(got.buffer, got.byteOffset, got.length).equals(want), `[${from}, ${to}) of [${a}, ${b})`).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads the file when asked, never holding it: a file cut shorter meanwhile is an error naming it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hdr-spectrum-bytes-"));
    const file = path.join(dir, "g.bin");
    writeFileSync(file, "0123456789".repeat(20_000));
    const on = new FileBytes(file, 100_000, 200_000);
    expect(new TextDecoder().decode(on.subarray(5, 12))).toBe("5678901");
    writeFileSync(file, "abcdefghij".repeat(20_000));
    // Beyond what the last read brought in: read again, the file's bytes now.
    expect(new TextDecoder().decode(on.subarray(90_005, 90_008))).toBe("fgh");
    truncateSync(file, 150_000);
    expect(() => on.subarray(80_000, 80_010)).toThrow(`${file}: the file became shorter`);
  });
});
