// A vs B comparison, pure: see compare.ts (the API), bootstrap.ts (the resampling), plan.ts
// (block length), verdict.ts (support and verdicts), sentence.ts, warnings.ts.
export { compareSides, compareSidesAsync, compareSteps, CompareCancelled, COMPARE_PERCENTILES, DEFAULT_RESAMPLES, DEFAULT_SEED, type Progress } from "./compare";
export { planBlocks, BLOCK_SECONDS, MIN_INTERVALS, type BlockPlan } from "./plan";
export { sumInto } from "./bootstrap";
export { verdictOf, supportLimit, curveGrid, MIN_ABOVE, DEFAULT_MARGIN } from "./verdict";
export { factor, pLabel, ratioText } from "./format";
export type * from "./types";
