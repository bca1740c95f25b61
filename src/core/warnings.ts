// What the page and the command line say about a series' data: the engine finds the facts
// (a median that climbs through the run, a cliff at the top of the spectrum), this words them.
import type { CoSuspicion } from "./co-detect";
import { coMessage } from "./co-message";
import { NANOS_PER_UNIT, type Unit } from "./types";

export type SeriesWarning =
  /** The median climbs steadily through the run: `rise` is the last quarter's over the first's. */
  | { kind: "saturation"; series: string; rise: number }
  /** The spectrum ends in a cliff (coordinated omission?); values in the series' recorded unit. */
  | { kind: "coordinated-omission"; series: string; unit: Unit; cliff: CoSuspicion }
  /** A histogram of buckets with no max (Prometheus): its top bucket (lowNs, highNs], highNs Infinity when open. */
  | { kind: "bucketed"; series: string; lowNs: number; highNs: number; detail: string };

/** A duration in ns, in the largest unit it reaches, to 4 significant digits ("12.5 ms"). */
export function formatNs(ns: number): string {
  const u = ns >= 1e9 ? "s" : ns >= 1e6 ? "ms" : ns >= 1e3 ? "µs" : "ns";
  const d = u === "s" ? 1e9 : u === "ms" ? 1e6 : u === "µs" ? 1e3 : 1;
  return `${Number((ns / d).toPrecision(4))} ${u}`;
}

export function warningText(w: SeriesWarning): string {
  if (w.kind === "saturation") {
    return `The median latency of ${w.series} climbs steadily through the run (${w.rise.toFixed(1)}× from the first to the last quarter): the system was past its capacity, requests queued for the whole run, and these percentiles describe the queue, not the service. Judge a lower throughput.`;
  }
  if (w.kind === "bucketed") {
    const top = Number.isFinite(w.highNs) ? `max within [${formatNs(w.lowNs)}, ${formatNs(w.highNs)}]` : `max above ${formatNs(w.lowNs)} (its top bucket has no upper bound)`;
    return `${w.series} is ${w.detail}: it keeps no max, so its spectrum ends in ${top}, the top bucket holding a value; every value is shown at its bucket's upper bound, never below what was observed.`;
  }
  return coMessage(w.series, w.cliff, (v) => formatNs(v * NANOS_PER_UNIT[w.unit]));
}
