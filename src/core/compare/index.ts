// A vs B comparison, pure: see compare.ts (the API), bootstrap.ts (the resampling), plan.ts
// (sub-blocks), dependence.ts (block length from the data, drift, events), judge.ts (the
// simultaneous band and why a percentile is not judged), buckets.ts (a histogram of buckets is
// judged only where both sides resolve), verdict.ts, gate.ts (check's decision), sentence.ts,
// warnings.ts.
export { compareSides, compareSidesAsync, compareSteps, CompareCancelled, COMPARE_PERCENTILES, DEFAULT_RESAMPLES, DEFAULT_SEED, type Progress } from "./compare";
export { planBlocks, BLOCK_SECONDS, MIN_INTERVALS, type BlockPlan } from "./plan";
export { sumInto } from "./resampled-runs";
export { verdictOf, supportLimit, curveGrid, MIN_ABOVE, DEFAULT_MARGIN } from "./verdict";
export { factor, pLabel, ratioText } from "./format";
export type * from "./types";
export { gateOf, notJudgedText, type GateOptions, type GateResult } from "./gate";
export { MIN_EVENTS } from "./judge";
export { schemaFactor } from "./buckets";
