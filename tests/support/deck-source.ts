// What the deck's tests build their sources from: a deck with nothing in it but what a test
// gives, and a series' spectrum of 100 values up to a known max.
import { newHistogram } from "../../src/core/histogram";
import { spectrumOf } from "../../src/core/spectrum";
import type { DeckRow, DeckSource } from "../../src/pptx/deck-model";

/** A deck source with no rows, requirement, timeline or heatmap, and `over` on top. */
export function deckSource(over: Partial<DeckSource>): DeckSource {
  return {
    headline: null,
    pair: null,
    rows: [],
    requirement: null,
    sentence: null,
    sustainable: [],
    unit: "ms",
    yLog: true,
    timeline: null,
    heatmap: null,
    compare: null,
    notes: [],
    ...over,
  };
}

/** A spectrum of 100 values evenly up to `max` (its max exactly `max`: what lane and line choices read). */
export function spectrumUpTo(max: number): DeckRow["view"]["spectrum"] {
  const h = newHistogram();
  for (let i = 1; i <= 100; i++) h.recordValue(Math.max(1, Math.round((max * i) / 100)));
  return { ...spectrumOf(h), max };
}
