// `--compare BASELINE`: every other loaded series against the baseline, with the page's own
// comparison (engine/compare-query.ts over core/compare): the same bootstrap, seed, margin,
// verdicts, sentence and Markdown as the page's A vs B panel.
import { basename } from "node:path";
import { compareMarkdown } from "../core/compare/markdown";
import { buildHeadline, headlineExtras, headlineJson, headlineLine, spectrumValueAt, type Headline } from "../core/compare/headline";
import { gateOf, notJudgedText } from "../core/compare/gate";
import { pLabel } from "../core/compare/format";
import type { Unit } from "../core/types";
import { compareQuery, type CompareAnswer } from "../engine/compare-query";
import type { SeriesView, Store, TimeRange } from "../engine/store";
import { CliError } from "./errors";

export interface CompareRequest {
  store: Store;
  /** The file or series name given with --compare. */
  baseline: string;
  range: TimeRange;
  unit: Unit;
  /** Margin of practical equivalence (0.05 = ±5 %); the page's default when absent. */
  margin?: number;
  /** The requirement's percentiles: the headline is stated at the highest the data supports (else p99). */
  requirementPercentiles?: number[] | null;
  /** A percentile to state the headline at instead (the page's "Headline at"). */
  headlineAt?: number | null;
  /** The series' views (the table's values) for the headline; absent: the comparison's values. */
  views?: SeriesView[];
}

export interface ComparedPair {
  candidate: string;
  result: CompareAnswer;
  headline: Headline | null;
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
export async function compareRuns(req: CompareRequest): Promise<{ markdown: string; json: unknown; pairs: ComparedPair[]; baseName: string }> {
  const { store } = req;
  const base = baselineId(store, req.baseline);
  const others = store.series.filter((s) => s.id !== base);
  if (others.length === 0) throw new CliError(2, `--compare ${req.baseline}: no other series to compare with it`);
  const pairs: ComparedPair[] = [];
  for (const s of others) {
    // Repeats are pooled as in the page; a candidate that is a repeat of the baseline is
    // compared run against run (compareInputs decides).
    const extraPercentiles = headlineExtras(req.requirementPercentiles ?? null);
    const result = await compareQuery(store, { baseline: base, candidate: s.id, range: req.range, margin: req.margin, extraPercentiles });
    // The same builder as the page's panel, with the same inputs: the same headline.
    const own = (ids: string[]) => {
      const v = ids.length === 1 ? req.views?.find((x) => x.id === ids[0]) : undefined;
      return v ? (p: number) => spectrumValueAt(v.spectrum, p) : () => null;
    };
    const b = own(result.baseIds);
    const c = own(result.candIds);
    const headline = buildHeadline(result, {
      baseUnit: store.get(result.baseIds[0]!).recordedUnit,
      candUnit: store.get(result.candIds[0]!).recordedUnit,
      valuesAt: (p) => ({ base: b(p), cand: c(p) }),
      displayUnit: req.unit,
      requirementPercentiles: req.requirementPercentiles ?? null,
      chosen: req.headlineAt ?? null,
    });
    pairs.push({ candidate: s.name, result, headline });
  }
  const baseName = store.get(base).name;
  // One pair: its headline leads the whole summary (headlinesOf); several: each section leads with its own.
  const markdown = pairs.map((p) => compareMarkdown(p.result, req.unit, pairs.length > 1 && p.headline ? headlineLine(p.headline) : null, p.headline?.sentence ?? null)).join("\n");
  const json = {
    baseline: baseName,
    margin: pairs[0]!.result.margin,
    level: pairs[0]!.result.level,
    resamples: pairs[0]!.result.resamples,
    pairs: pairs.map((p) => ({
      candidate: p.candidate,
      headline: p.headline ? headlineJson(p.headline) : null,
      headlineText: p.headline ? headlineLine(p.headline) : null,
      sentence: p.headline?.sentence ?? p.result.sentence,
      notes: p.result.notes ?? [],
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
        basis: x.basis ?? null,
      })),
      max: p.result.max,
      warnings: p.result.warnings.map((w) => w.message),
      worse: worsePercentiles(p.result),
      notJudged: gateOf(p.result).notJudged,
    })),
  };
  return { markdown, json, pairs, baseName };
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
  const lines = [`${head}: ${x.headline ? `${x.headline.text}. ` : ""}${x.headline?.sentence ?? x.result.sentence}`];
  if (g.notJudged.length) lines.push(`  not judged: ${notJudgedText(g)}`);
  return lines.join("\n");
}

/** The line the summary leads with: the headline when there is one pair. */
export function headlinesOf(pairs: ComparedPair[]): string | null {
  return pairs.length === 1 && pairs[0]!.headline ? headlineLine(pairs[0]!.headline) : null;
}
