// Adler-32 (RFC 1950 8.2), the checksum that ends a zlib stream: what inflate.ts checks the
// bytes it produced against.

/** The Adler-32 of `b[0, n)`. */
export function adler32(b: Uint8Array, n: number): number {
  let a = 1;
  let s = 0;
  let i = 0;
  while (i < n) {
    // Defer the modulo as long as the sums stay int32 (zlib's NMAX of 5552 is for uint32;
    // past 2^31 V8 would leave its integer fast path): 3800 bytes of 0xff keep s < 2^31.
    const stop = Math.min(i + 3800, n);
    for (; i + 4 <= stop; i += 4) {
      a += b[i];
      s += a;
      a += b[i + 1];
      s += a;
      a += b[i + 2];
      s += a;
      a += b[i + 3];
      s += a;
    }
    for (; i < stop; i++) {
      a += b[i];
      s += a;
    }
    a %= 65521;
    s %= 65521;
  }
  return ((s << 16) | a) >>> 0;
}
