// `--compare BASELINE`: every other loaded series against the baseline, with the page's own
// comparison (engine/compare-query.ts over core/compare): the same bootstrap, seed, margin,
// verdicts, sentence and Markdown as the page's A vs B panel.
import { basename } from "node:path";
import { compareMarkdown } from "../core/compare/markdown";
import { gateOf, notJudgedText } from "../core/compare/gate";
import { pLabel } from "../core/compare/format";
import type { Unit } from "../core/types";
import { compareQuery, type CompareAnswer } from "../engine/compare-query";
import type { Store, TimeRange } from "../engine/store";
import { CliError } from "./errors";

export interface CompareRequest {
  store: Store;
  /** The file or series name given with --compare. */
  baseline: string;
  range: TimeRange;
  unit: Unit;
  /** Margin of practical equivalence (0.05 = ±5 %); the page's default when absent. */
  margin?: number;
}

export interface ComparedPair {
  candidate: string;
  result: CompareAnswer;
}

/** The series --compare names: a series name, else the series of that file (it must be one). */
function baselineId(store: Store, name: string): string {
  const byName = store.series.filter((s) => s.name === name);
  if (byName.length === 1) return byName[0]!.id;
  const file = basename(name);
  const byFile = store.series.filter((s) => s.source === file || s.source === name);
  if (byFile.length === 1) return byFile[0]!.id;
  const known = store.series.map((s) => s.name).join(", ");
  if (byFile.length > 1) throw new CliError(2, `--compare ${name}: the file holds ${byFile.length} series; name one of them (${byFile.map((s) => s.name).join(", ")})`);
  throw new CliError(2, `--compare ${name}: no such series or file among the input (series: ${known})`);
}

/** Each other series against the baseline, in the store's order (configuration, throughput, name). */
export async function compareRuns(req: CompareRequest): Promise<{ markdown: string; json: unknown; pairs: ComparedPair[] }> {
  const { store } = req;
  const base = baselineId(store, req.baseline);
  const others = store.series.filter((s) => s.id !== base);
  if (others.length === 0) throw new CliError(2, `--compare ${req.baseline}: no other series to compare with it`);
  const pairs: ComparedPair[] = [];
  for (const s of others) {
    // Repeats are pooled as in the page; a candidate that is a repeat of the baseline is
    // compared run against run (compareInputs decides).
    const result = await compareQuery(store, { baseline: base, candidate: s.id, range: req.range, margin: req.margin });
    pairs.push({ candidate: s.name, result });
  }
  const baseName = store.get(base).name;
  const markdown = pairs.map((p) => compareMarkdown(p.result, req.unit)).join("\n");
  const json = {
    baseline: baseName,
    margin: pairs[0]!.result.margin,
    level: pairs[0]!.result.level,
    resamples: pairs[0]!.result.resamples,
    pairs: pairs.map((p) => ({
      candidate: p.candidate,
      sentence: p.result.sentence,
      supportedTo: p.result.supportedTo,
      points: p.result.points.map((x) => ({
        percentile: x.percentile,
        ratio: x.ratio,
        low: x.supported ? x.low : null,
        high: x.supported ? x.high : null,
        verdict: x.supported ? x.verdict : "unknown",
        judged: x.judged ?? x.supported,
        reason: x.reason ?? null,
        events: x.events ?? null,
      })),
      max: p.result.max,
      warnings: p.result.warnings.map((w) => w.message),
      worse: worsePercentiles(p.result),
      notJudged: gateOf(p.result).notJudged,
    })),
  };
  return { markdown, json, pairs };
}

/** The judged percentiles where the candidate is worse than the baseline (what `check` fails on). */
export function worsePercentiles(r: CompareAnswer): number[] {
  return gateOf(r).worse;
}

/** check --compare's lines for one candidate: WORSE / NOT JUDGED / not worse, the sentence, and what was not judged. */
export function compareCheckLines(x: ComparedPair, strict: boolean): string {
  const g = gateOf(x.result, { strict });
  const where = g.worse.map(pLabel).join(", ");
  const head = g.worse.length > 0 ? `WORSE ${x.candidate} at ${where}` : g.pass ? `not worse ${x.candidate}` : `NOT JUDGED ${x.candidate} (--strict)`;
  const lines = [`${head}: ${x.result.sentence}`];
  if (g.notJudged.length) lines.push(`  not judged: ${notJudgedText(g)}`);
  return lines.join("\n");
}
