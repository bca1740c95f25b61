// fio's completion-latency histogram (stat.h, stat.c in fio 3.x): 1,856 bins of nanoseconds,
// FIO_IO_U_PLAT_BITS = 6, FIO_IO_U_PLAT_VAL = 64, FIO_IO_U_PLAT_GROUP_NR = 29. Values below 128
// have a bin each; above, group g ≥ 1 starts at 2^(g+6) and is cut into 64 bins of 2^g ns, so a
// bin is at most 1/64 (1.6 %) of its values wide. plat_val_to_idx puts every value of 2^34 ns
// (17.2 s) or more into the last bin, which therefore has no upper bound.
// The bin of index i holds the values v with plat_val_to_idx(v) = i; fio prints a bin (json+
// "bins" keys) and its percentiles as plat_idx_to_val(i), the bin's middle, truncated.

export const FIO_PLAT_BITS = 6;
export const FIO_PLAT_VAL = 1 << FIO_PLAT_BITS;
export const FIO_PLAT_NR = 29 * FIO_PLAT_VAL;

/** plat_val_to_idx: the bin of a value in ns. */
export function fioBinOf(value: number): number {
  if (value < FIO_PLAT_VAL * 2) return Math.max(0, Math.floor(value));
  const msb = Math.floor(Math.log2(value));
  // log2 of a float can round up at a power of two's neighbour: correct it on the integer.
  const m = 2 ** msb > value ? msb - 1 : 2 ** (msb + 1) <= value ? msb + 1 : msb;
  const errorBits = m - FIO_PLAT_BITS;
  const base = (errorBits + 1) << FIO_PLAT_BITS;
  const offset = Math.floor(value / 2 ** errorBits) % FIO_PLAT_VAL;
  return Math.min(base + offset, FIO_PLAT_NR - 1);
}

/** The lowest value (ns) of bin `idx`. */
export function fioBinLow(idx: number): number {
  if (idx < FIO_PLAT_VAL * 2) return idx;
  const errorBits = (idx >> FIO_PLAT_BITS) - 1;
  return 2 ** (errorBits + FIO_PLAT_BITS) + (idx % FIO_PLAT_VAL) * 2 ** errorBits;
}

/** The highest value (ns) of bin `idx`; Infinity for the last bin, which takes everything above. */
export function fioBinHigh(idx: number): number {
  if (idx >= FIO_PLAT_NR - 1) return Infinity;
  return fioBinLow(idx + 1) - 1;
}

/** plat_idx_to_val: the value fio prints for bin `idx` (its middle, truncated to an integer). */
export function fioBinValue(idx: number): number {
  if (idx < FIO_PLAT_VAL * 2) return idx;
  const errorBits = (idx >> FIO_PLAT_BITS) - 1;
  return Math.floor(2 ** (errorBits + FIO_PLAT_BITS) + ((idx % FIO_PLAT_VAL) + 0.5) * 2 ** errorBits);
}

/** The 1,856 bins' relative width at most: 1/64. */
export const FIO_BIN_WIDTH = 1 / FIO_PLAT_VAL;

/** What a fio histogram's reading says about its resolution. */
export function fioResolutionNote(stride: number): string {
  const bins =
    stride === 1
      ? "exact below 128 ns, then bins up to 1.6 % wide"
      : `${stride} of fio's bins merged by log_hist_coarseness: ${stride} ns wide below ${128 * stride} ns, then up to ${((100 * stride) / FIO_PLAT_VAL).toPrecision(2)} %`;
  return `fio's latency histogram: each value is read at its bin's upper bound (${bins}), never below what fio recorded`;
}
