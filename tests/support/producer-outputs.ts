// Outputs of real producers kept as fixtures (fixtures/producers/structured, each made by a script in
// scripts/producers), and references written from the producers' own source, for the readers' tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PRODUCER_FIXTURES = path.resolve(HERE, "../../fixtures/producers/structured");

export function producerFixture(name: string): string {
  return readFileSync(path.join(PRODUCER_FIXTURES, name), "utf8");
}

/**
 * fio's plat_val_to_idx (stat.c), transcribed on 64-bit integers: the bin of a value in ns.
 * Bits 6 (FIO_IO_U_PLAT_BITS), 64 bins a group, 1,856 bins (29 groups).
 */
export function fioPlatValToIdx(value: bigint): number {
  if (value < 0n) throw new Error("negative");
  const msb = value === 0n ? 0 : value.toString(2).length - 1;
  if (msb <= 6) return Number(value);
  const errorBits = msb - 6;
  const base = (errorBits + 1) << 6;
  const offset = Number((value >> BigInt(errorBits)) & 63n);
  return Math.min(base + offset, 1855);
}

/** The largest value (ns) fio's plat_val_to_idx puts in the same bin as `value`, by search on the transcription. */
export function fioBinTopByC(value: bigint): bigint {
  const idx = fioPlatValToIdx(value);
  let lo = value;
  let hi = value * 2n + 2n;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (fioPlatValToIdx(mid) === idx) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}
