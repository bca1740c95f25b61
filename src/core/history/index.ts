// A history of runs, pure: run order (order.ts), per-run summaries (types.ts), change points
// per series and percentile (detect.ts for one sequence, changes.ts for a history), the words
// for them (sentence.ts).
export * from "./types";
export { orderRuns, compareRunNames } from "./order";
export { detectSplits, runToRunVariance, DEFAULT_DETECT, type Observation, type Split, type DetectOptions } from "./detect";
export { detectChanges, stableStretch, seriesNames, observations, runToRunSd, judgedPercentiles } from "./changes";
export { seriesSentence, changeText, pName } from "./sentence";
export { summarizeSide, seOfInterval } from "./summary";
export { judgeNewRun, type GatePoint, type GateResult } from "./gate";
