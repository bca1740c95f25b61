// The fuzz properties at a modest number of cases (the whole folder runs in well under 30 s).
// Longer runs: `npm run fuzz -- --count 20000 [--seed N] [--only name]`. FUZZ_SEED=N reproduces
// a failure printed here; FUZZ_RUNS=N overrides every property's case count.
import fc from "fast-check";
import { describe, it } from "vitest";
import { PROPERTIES } from "./properties";

const seed = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : undefined;
const runs = process.env.FUZZ_RUNS !== undefined ? Number(process.env.FUZZ_RUNS) : undefined;

describe("fuzz properties (quick)", () => {
  for (const p of PROPERTIES) {
    it(`${p.name}: ${p.description}`, async () => {
      await fc.assert(p.build(), { numRuns: runs ?? p.quickRuns, seed, verbose: 1 });
    }, 120_000);
  }
});
