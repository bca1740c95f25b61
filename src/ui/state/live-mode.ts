// Whether `serve` served this page: it adds a mark to the page's head, read here without a
// request, so that a page hosted anywhere else never asks for a live stream, and a served page
// neither opens the demo nor restores a saved session (its files come from the server).
export function servedLive(): boolean {
  return typeof document !== "undefined" && document.querySelector('meta[name="hdr-spectrum-live"]') !== null;
}
