// The fuzz properties at a modest number of cases (the whole folder runs in well under 30 s).
// Each property runs from a fixed seed (derived from its name), so this suite, which gates CI,
// gives the same verdict on every run: unrelated work must not be refused because a random
// seed found an old bug that day (it once was). Exploring new seeds is `npm run fuzz
// -- --count 20000 [--seed N] [--only name]`, which starts from the clock; what it finds goes
// into found.test.ts. FUZZ_SEED=N runs every property from seed N (FUZZ_SEED=random: from a
// random one, printed on failure); FUZZ_RUNS=N overrides every property's case count.
import fc from "fast-check";
import { describe, it } from "vitest";
import { PROPERTIES } from "./properties";

/** A stable 31-bit seed per property name (FNV-1a). */
function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 2 ** 31;
}
// With FUZZ_SEED set, src/test-setup.ts has configured fast-check's seed (or left it random).
const seedFor = (name: string): number | undefined => (process.env.FUZZ_SEED !== undefined ? undefined : seedOf(name));
const runs = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : undefined;

describe("fuzz properties (quick)", () => {
  for (const p of PROPERTIES) {
    it(`${p.name}: ${p.description}`, async () => {
      await fc.assert(p.build(), { numRuns: runs ?? p.quickRuns, seed: seedFor(p.name), verbose: 1 });
    }, 120_000);
  }
});
