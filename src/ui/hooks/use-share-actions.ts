// What the share panel makes: a link (the view and the series as shown) and the Markdown summary.
// Stable identities (they read the latest state when called) so the share panel is skipped. The
// Markdown's builders are a chunk of their own (share-markdown.ts), fetched on the first copy.
import { useRef } from "react";
import { headlineLine, type Headline } from "../../core/compare/headline";
import type { Unit } from "../../core/types";
import type { CompareAnswer } from "../../engine/compare-query";
import type { EngineClient } from "../../engine/client";
import type { TimeRange } from "../../engine/store";
import type { SeriesRow } from "../panels/SeriesList";
import { sharedSeriesTimes, type TimeInfo } from "../state/time-state";
import { useStableCallback } from "./use-stable-callback";
import { shareOfView, type ViewState } from "../state/view-state";
import { linkAddress } from "../state/link-base";

interface Inputs {
  view: ViewState;
  rows: SeriesRow[];
  visibleRows: SeriesRow[];
  sentence: string | null;
  timeInfo: TimeInfo;
  notes: string[];
  compare: CompareAnswer | null;
  headline?: Headline | null;
  /** A new answer is being computed: the one held is not the view's (it is not carried). */
  compareBusy?: boolean;
}

export function useShareActions(engine: EngineClient, p: Inputs) {
  const shareUrl = useRef<string | null>(null);
  const unit: Unit = p.view.unit;
  const range: TimeRange = p.view.range;
  /** `base`: the address the link is for (ui/state/link-base.ts); empty: the page's own. */
  const makeLink = useStableCallback(async (fullPrecision: boolean, base: string = "") => {
    const at = linkAddress(base, window.location);
    if ("error" in at) return { error: at.error };
    try {
      const times = sharedSeriesTimes(p.timeInfo);
      const looks = p.rows
        .filter((r) => !r.view.correctedFrom)
        .map((r) => ({ id: r.view.id, color: r.color, visible: r.visible, ...(times.has(r.view.id) ? { time: times.get(r.view.id) } : {}) }));
      // The answer on screen travels with the link, so that it opens with the same numbers.
      const answer = p.view.compare && !p.compareBusy ? p.compare : null;
      const enc = await engine.share(shareOfView(p.view), looks, range, fullPrecision, answer);
      const url = `${at.address}#${enc.fragment}`;
      shareUrl.current = url;
      return { url, lossy: enc.lossy, length: url.length };
    } catch (e) {
      return { error: `Could not make a link: ${e instanceof Error ? e.message : String(e)}` };
    }
  });
  const makeMarkdown = useStableCallback(async () => {
    // The state as clicked, read before the chunk is fetched.
    const input = {
      rows: p.visibleRows,
      unit,
      requirement: p.view.requirement,
      sentence: p.sentence,
      headline: p.compare && p.headline ? headlineLine(p.headline) : null,
      shareUrl: shareUrl.current,
      range,
      notes: p.notes,
      compare: p.compare,
    };
    const { shareMarkdown } = await import("../export/share-markdown");
    return shareMarkdown(input);
  });
  return { makeLink, makeMarkdown };
}
