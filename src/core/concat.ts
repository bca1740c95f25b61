// Arrays of numbers joined end to end into one typed array (a PNG's chunks, a tag's start
// times read in segments).

/** The parts one after another, in the array `make` gives for their total length. */
export function concatArrays<T extends { set(array: ArrayLike<number>, offset?: number): void }>(parts: readonly ArrayLike<number>[], make: (length: number) => T): T {
  const out = make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
