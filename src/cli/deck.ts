// `report --out DIR`'s deck.pptx: the page's deck builder (src/pptx) fed with the command
// line's rows, comparison, max over time and heatmap, computed by the same engine.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { judgeRows } from "../core/judge";
import { heatmapQuery } from "../engine/time-queries";
import { deckModel, type DeckSource } from "../pptx/deck-model";
import { pptxBytes } from "../pptx/build";
import type { OutInput } from "./out";
import { spectrumSpan, timelineColumns, wantsLogAxis } from "./svg";

/** The heatmap's resolution: as the page asks for a chart of its width. */
const HEATMAP = { columns: 800, rows: 110 };

export function cliDeckSource(o: OutInput): DeckSource {
  const { sustainable, sentence } = judgeRows(o.rows, o.requirement);
  const first = o.pairs[0] ?? null;
  const ids = o.rows.map((r) => r.view.id);
  const hm = heatmapQuery(o.store.series, { ids, t0: null, t1: null, ...HEATMAP });
  const names = new Map(o.rows.map((r) => [r.view.id, r.view.name]));
  const timeline = o.store.timeline({ t0: null, t1: null, columns: timelineColumns(960), percentiles: [] });
  return {
    headline: first?.headline ?? null,
    pair: first && o.baseline !== null ? [o.baseline, first.candidate] : null,
    rows: o.rows,
    requirement: o.requirement,
    sentence,
    sustainable,
    unit: o.unit,
    yLog: wantsLogAxis(o.logAxis, ...spectrumSpan(o.rows)),
    timeline: timeline.series.length ? timeline : null,
    heatmap: hm.series.length ? { lanes: hm.series.map((s) => ({ name: names.get(s.id) ?? s.id, data: s })), domain: hm.domain } : null,
    compare: first ? { sentence: first.result.sentence, level: first.result.level, resamples: first.result.resamples, margin: first.result.margin } : null,
    notes: [],
  };
}

export async function writeDeck(dir: string, o: OutInput): Promise<void> {
  writeFileSync(join(dir, "deck.pptx"), await pptxBytes(deckModel(cliDeckSource(o))));
}
