/**
 * Time limits of the complexity guards in unit tests (inputs that once took seconds to minutes:
 * backtracking regexes, quadratic scans). They guard the order of growth, not speed, so a limit
 * is given as what the input takes on an idle machine and widened here by a fixed factor: CI and
 * developers' machines run other work at the same time, and a guard must not fail on load.
 * Speed itself is measured by `npm run bench`, never by a unit test.
 */
export const BUDGET_FACTOR = Number(process.env.TIME_BUDGET_FACTOR || 10);

export function budgetMs(ms: number): number {
  return ms * BUDGET_FACTOR;
}
