// Memory map (bytes). Tables first, then the buffers the JS wrapper reads or writes.

export const LIT_TABLE: usize = 0; // i32 × (1024 + 286·32): root 10 + the inflate.ts bound on sub-tables
export const DIST_TABLE: usize = 40704; // i32 × (256 + 30·128)
export const CL_TABLE: usize = 57088; // i32 × 128
export const FIXED_LIT: usize = 57600; // i32 × 512
export const FIXED_DIST: usize = 59648; // i32 × 32
export const LIT_TEMPLATE: usize = 59776; // i32 × 288
export const DIST_TEMPLATE: usize = 60928; // i32 × 32
export const CL_TEMPLATE: usize = 61056; // i32 × 19 (+ pad)
export const REVERSE: usize = 61136; // u8 × 256
export const CL_COUNT: usize = 61392; // i32 × 16
export const LEN_COUNT: usize = 61456; // i32 × 32: literal/length counts, then distance counts
export const DIST_COUNT: usize = LEN_COUNT + 64;
export const SORT_OFFSET: usize = 61584; // i32 × 16
export const SORTED: usize = 61648; // u16 × 288
export const CODED: usize = 62224; // u16 × 320
export const LENS: usize = 62864; // u8 × 336: 316 lengths, and room for 8-byte stores past the last
export const B64: usize = 63200; // u8 × 256: sextet, or 0xff for a character outside the alphabet
export const RESULT: usize = 63456; // f64 lowest, f64 highest, f64 total, i32 digits, i32 median index
export const ONE_BYTE: usize = 63488; // u32 × 128: what a one-byte ZigZag value does (decodeV2)
export const ONE_BYTE_COUNT: usize = 64000; // f64 × 128: the count it stores
export const OUT: usize = 65536; // inflated bytes
export const OUT_BYTES: i32 = 65536;
export const INDICES: usize = 131072; // i32 × 65536
export const COUNTS: usize = 393216; // f64 × 65536
export const INPUT: usize = 917504; // the payload's characters, then (in place) its bytes
export const INPUT_BYTES: i32 = 262144;
// Where the wrapper finds things (exported as globals, read once).
export const inputAddress: i32 = <i32>INPUT;
// Nothing reads past the end of the text (the fast loop's word reads stop 8 bytes short).
export const inputCapacity: i32 = INPUT_BYTES;
export const outputAddress: i32 = <i32>OUT;
export const indicesAddress: i32 = <i32>INDICES;
export const countsAddress: i32 = <i32>COUNTS;
export const resultAddress: i32 = <i32>RESULT;

// Why a payload was declined (for tests; the wrapper only sees "negative").
export const NOT_BASE64: i32 = -1;
export const NOT_V2_COMPRESSED: i32 = -2;
export const BAD_LENGTH: i32 = -3;
export const INFLATE_FAILED: i32 = -4;
export const INFLATE_UNFINISHED: i32 = -5;
export const BAD_HEADER: i32 = -6;
export const BAD_COUNTS: i32 = -7;
