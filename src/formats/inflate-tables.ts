// The Huffman decoding tables of the zlib inflater (inflate.ts): how an entry packs a symbol,
// the RFC 1951 length and distance bases, the canonical-code table builder, the fixed code's
// tables built once, and the reused scratch the dynamic block header fills. Kept apart from the
// decoder because it is the part that knows how codes become table entries; the decoder only
// looks entries up.

// Table entries
//
// A decoding table maps the next `root` input bits (LSB first, as deflate sends Huffman codes
// bit-reversed) to an Int32 entry:
//   bits 0-3    how many bits this entry's code takes (beyond the root bits, in a sub-table)
//   bits 4-7    extra bits that follow the code (length/distance), or a sub-table's index bits
//   bits 8-9    kind, for everything but literals: value / sub-table link / end of block / invalid
//   bits 16-30  value: length or distance base, code-length symbol, or a sub-table's offset
//   bit 31      literal; its byte is in bits 16-23, so `entry >> 16` stored into a Uint8Array
//               is the byte (the sign bits fall off), and `entry < 0` is the literal test.
// Literals are by far the most frequent symbol, so they get the cheapest test.

export const KIND_MASK = 0x300;
export const KIND_VALUE = 0x000;
export const KIND_LINK = 0x100;
export const KIND_EOB = 0x200;
export const KIND_BAD = 0x300;
const LITERAL = 1 << 31;

/** The RFC 1951 length symbols 257-285: base lengths and extra bits. */
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
/** Distance symbols 0-29. */
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** The order in which a dynamic block sends its code-length code's lengths. */
export const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

// Per-symbol entries without the code length (which the table builder ORs in). Symbols 286-287
// and distances 30-31 exist only in the fixed code, where decoding one is an error.
export const LITLEN_TEMPLATE = new Int32Array(288);
for (let s = 0; s < 288; s++) {
  if (s < 256) LITLEN_TEMPLATE[s] = LITERAL | (s << 16);
  else if (s === 256) LITLEN_TEMPLATE[s] = KIND_EOB;
  else if (s < 286) LITLEN_TEMPLATE[s] = KIND_VALUE | (LENGTH_BASE[s - 257] << 16) | (LENGTH_EXTRA[s - 257] << 4);
  else LITLEN_TEMPLATE[s] = KIND_BAD;
}
export const DIST_TEMPLATE = new Int32Array(32);
for (let s = 0; s < 32; s++) DIST_TEMPLATE[s] = s < 30 ? KIND_VALUE | (DIST_BASE[s] << 16) | (DIST_EXTRA[s] << 4) : KIND_BAD;
export const CODE_LENGTH_TEMPLATE = new Int32Array(19);
for (let s = 0; s < 19; s++) CODE_LENGTH_TEMPLATE[s] = s << 16;

/** Bit reversal of a byte, for turning canonical (MSB-first) codes into table indexes. */
const REVERSE_BYTE = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
  let r = 0;
  for (let b = 0; b < 8; b++) if (i & (1 << b)) r |= 0x80 >> b;
  REVERSE_BYTE[i] = r;
}

// Root table sizes. A bigger root means fewer sub-table lookups but more entries to fill for
// every dynamic block; these payloads build a fresh pair of tables for every ~1 KB of output,
// so filling is a real share of the time. Tuned on the bench's payloads.
export const LITLEN_ROOT = 10;
export const DIST_ROOT = 8;
export const CODE_LENGTH_ROOT = 7; // code-length codes are at most 7 bits long: never a sub-table

// Room for the root table plus sub-tables. A sub-table hangs under a root entry and is only as
// big as the longest code sharing that root prefix needs, so sub-tables never hold more than
// (number of codes longer than root) * 2^(15 - root) entries: a loose but safe bound.
export const litlenTable = new Int32Array((1 << LITLEN_ROOT) + 286 * (1 << (15 - LITLEN_ROOT)));
export const distTable = new Int32Array((1 << DIST_ROOT) + 30 * (1 << (15 - DIST_ROOT)));
export const codeLengthTable = new Int32Array(1 << CODE_LENGTH_ROOT);
export const fixedLitlenTable = new Int32Array(1 << 9);
export const fixedDistTable = new Int32Array(1 << 5);

// Scratch for the builder and the dynamic header: no allocation per call.
/** How many codes of each length (index 0 unused): code-length, literal/length, distance. */
export const codeLengthCount = new Int32Array(16);
// Literal/length counts then distance counts, in one array: the header reader counts into it at
// one place whichever code a length belongs to, so no path of it goes without V8 type feedback
// after a warm-up (a repeat running on into the distance lengths is rare, and its own counting
// statement threw the optimised inflater away the first time a real log had one).
export const lengthCount = new Int32Array(32);
export const litlenCount = lengthCount.subarray(0, 16);
export const distCount = lengthCount.subarray(16, 32);
const sortOffset = new Int32Array(16);
const sortedSymbols = new Uint16Array(288);
/** Positions in codeLengths of the nonzero lengths, ascending: what buildTable sorts. */
export const codedPositions = new Uint16Array(320);
/** Literal/length then distance code lengths of a dynamic block (at most 286 + 30). */
export const codeLengths = new Uint8Array(320);

/**
 * Builds a decoding table for the canonical Huffman code whose symbol s has code length
 * `lengths[offset + s]`. Only the symbols with a code are visited: `coded[from, to)` lists
 * their positions in `lengths`, ascending, and `count` how many codes there are of each length
 * (the dynamic header collects both as it reads the lengths, which saves passes over the
 * mostly-zero lengths; `count` is used up here). Returns the root bits, 0 when no symbol has a code (the
 * caller decides what that means), or -1 when the lengths do not make a valid code: over-
 * subscribed, or incomplete unless `incompleteSingle` allows the one incomplete code zlib
 * accepts, a single code of length 1 (its other half decodes as invalid).
 */
export function buildTable(
  lengths: Uint8Array,
  offset: number,
  coded: Uint16Array,
  from: number,
  to: number,
  count: Int32Array,
  template: Int32Array,
  table: Int32Array,
  rootMax: number,
  incompleteSingle: boolean,
): number {
  let max = 15;
  while (max > 0 && count[max] === 0) max--;
  if (max === 0) return 0;
  let min = 1;
  while (count[min] === 0) min++;
  // Kraft: `left` is how many codes of the current length are still unassigned.
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - count[l];
    if (left < 0) return -1;
  }
  if (left > 0 && !(incompleteSingle && max === 1)) return -1;

  // A root smaller than the shortest code would only make every lookup a two-step one.
  let root = rootMax;
  if (root > max) root = max;
  if (root < min) root = min;
  const size = 1 << root;
  // Only the single-code case is incomplete: its table has 2 entries, one of them unused.
  if (left > 0) table[0] = table[1] = KIND_BAD | 1;

  // Counting sort of the symbols into canonical order (by length, then symbol).
  let codes = 0;
  for (let l = 1; l <= 15; l++) {
    sortOffset[l] = codes;
    codes += count[l];
  }
  const sorted = sortedSymbols;
  for (let j = from; j < to; j++) {
    const p = coded[j];
    sorted[sortOffset[lengths[p]]++] = p - offset;
  }

  // Codes that fit the root: each fills every root entry whose low `l` bits are its reversed
  // code (deflate sends codes MSB first, and the table is indexed LSB first). In canonical
  // order, every length's inner loop runs the same number of times: predictable.
  let k = 0;
  let code = 0;
  let l = min;
  for (; l <= root; l++) {
    const step = 1 << l;
    for (let j = count[l]; j > 0; j--) {
      const entry = template[sorted[k++]] | l;
      for (let i = ((REVERSE_BYTE[code & 0xff] << 8) | REVERSE_BYTE[code >>> 8]) >>> (16 - l); i < size; i += step) table[i] = entry;
      code++;
    }
    code <<= 1;
  }
  if (max <= root) return root;

  // Longer codes go to sub-tables, one per root prefix; in canonical order, codes sharing a
  // prefix are consecutive.
  let nextFree = size;
  let prefix = -1;
  let subBase = 0;
  let subBits = 0;
  for (; l <= max; l++) {
    for (let j = count[l]; j > 0; j--) {
      const r = ((REVERSE_BYTE[code & 0xff] << 8) | REVERSE_BYTE[code >>> 8]) >>> (16 - l);
      const low = r & (size - 1);
      if (low !== prefix) {
        // New prefix: its sub-table must hold the codes under it. Those are the next codes
        // in canonical order, and the code is complete, so they exactly fill a subtree: grow
        // it a length at a time until the codes still to place at each length use it up
        // (count[] holds the codes not placed yet).
        prefix = low;
        subBits = l - root;
        let room = 1 << subBits;
        for (;;) {
          room -= count[root + subBits];
          if (room <= 0 || root + subBits >= max) break;
          subBits++;
          room <<= 1;
        }
        subBase = nextFree;
        nextFree += 1 << subBits;
        table[low] = KIND_LINK | (subBase << 16) | (subBits << 4) | root;
      }
      count[l]--;
      const entry = template[sorted[k++]] | (l - root);
      const step = 1 << (l - root);
      const end = subBase + (1 << subBits);
      for (let i = subBase + (r >>> root); i < end; i += step) table[i] = entry;
      code++;
    }
    code <<= 1;
  }
  return root;
}

// The fixed code of block type 1 (RFC 1951 3.2.6), built once.
{
  const lengths = new Uint8Array(288);
  for (let s = 0; s < 288; s++) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
  const count = new Int32Array(16);
  count[7] = 24;
  count[8] = 152;
  count[9] = 112;
  const all = new Uint16Array(288);
  for (let s = 0; s < 288; s++) all[s] = s;
  buildTable(lengths, 0, all, 0, 288, count, LITLEN_TEMPLATE, fixedLitlenTable, 9, false);
  lengths.fill(5, 0, 32);
  count.fill(0);
  count[5] = 32;
  buildTable(lengths, 0, all, 0, 32, count, DIST_TEMPLATE, fixedDistTable, 5, false);
}
