// View defaults the page and the command line share: a link the command line makes must open
// with the view the page would show, so the defaults live here rather than in a component.

export interface TimelineSettings {
  percentiles: number[];
  perLane: boolean;
  wallClock: boolean;
  /** The latency axis as drawn. */
  log: boolean;
  /** The axis follows the data (log past two decades, core/log-axis.ts) until the user picks one. */
  logAuto: boolean;
  /** Zoomed window (s since StartTime); null shows everything. */
  domain: [number, number] | null;
}

export const DEFAULT_TIMELINE: TimelineSettings = { percentiles: [], perLane: false, wallClock: false, log: false, logAuto: true, domain: null };
