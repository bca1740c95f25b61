// "Download PowerPoint": the deck the page shows, written by the deck builder the command line
// uses too (src/pptx). pptxgenjs is loaded only when a deck is asked for, so the page's
// start-up script does not carry it.
import type { DeckSource } from "../../pptx/deck-model";
import { downloadBlob } from "./download";

const PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

/** A file name from the subject: "B-vs-A" for a comparison, else "latency". */
export function deckFileName(pair: [string, string] | null): string {
  return pair ? `${pair[1]}-vs-${pair[0]}` : "latency";
}

export async function downloadPptx(source: DeckSource): Promise<void> {
  const [{ deckModel }, { pptxBytes }] = await Promise.all([import("../../pptx/deck-model"), import("../../pptx/build")]);
  const bytes = await pptxBytes(deckModel(source));
  downloadBlob(`${deckFileName(source.pair)}.pptx`, new Blob([bytes as BlobPart], { type: PPTX_TYPE }));
}
