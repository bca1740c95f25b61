// The timeline's y scales, from the extent of the lines it draws.
import { NANOS_PER_UNIT } from "../../core/types";
import type { TimelineSeries } from "../../engine/store";
import { yScaleFor, type Lane } from "./layout";

const extents = new WeakMap<TimelineSeries, { key: string; hi: number; lo: number }>();

/** A line's extent, kept with its data: hiding one series of fifty rescans none of the others. */
function lineExtent(d: TimelineSeries, percentiles: readonly number[]): [number, number] {
  const key = percentiles.join(",");
  const known = extents.get(d);
  if (known && known.key === key) return [known.hi, known.lo];
  const f = NANOS_PER_UNIT[d.recordedUnit];
  let hi = 0;
  let lo = Infinity;
  for (let i = 0; i < d.max.length; i++) {
    hi = Math.max(hi, d.max[i]! * f);
    if (d.max[i]! > 0) lo = Math.min(lo, d.max[i]! * f);
  }
  for (const p of percentiles) {
    const arr = d.percentiles[String(p)];
    if (arr) for (let i = 0; i < arr.length; i++) if (arr[i]! > 0) lo = Math.min(lo, arr[i]! * f);
  }
  extents.set(d, { key, hi, lo });
  return [hi, lo];
}

/** The highest and lowest values the lines draw (lowest 0 when none is above 0). */
function linesExtent(ls: readonly { data: TimelineSeries }[], percentiles: readonly number[]): readonly [number, number] {
  let hi = 0;
  let lo = Infinity;
  for (const l of ls) {
    const [h, o] = lineExtent(l.data, percentiles);
    hi = Math.max(hi, h);
    lo = Math.min(lo, o);
  }
  return [hi, Number.isFinite(lo) ? lo : 0] as const;
}

/**
 * Each line's y scale: one for all in one lane, else one per lane (shared or its own extent).
 * Module-level, not in the memo's factory: a closure made per render loses its optimised code at
 * every major collection, and a followed run renders a few times a second.
 */
export function yScalesOf(
  lines: readonly { data: TimelineSeries }[],
  percentiles: readonly number[],
  perLane: boolean,
  yLog: boolean,
  laneList: readonly Lane[],
  sharedScale: boolean,
) {
  if (!perLane) {
    const [hi, lo] = linesExtent(lines, percentiles);
    const s = yScaleFor(hi, lo, yLog, laneList[0]!);
    return new Array<typeof s>(lines.length).fill(s);
  }
  const all = sharedScale ? linesExtent(lines, percentiles) : null;
  const out: ReturnType<typeof yScaleFor>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const [hi, lo] = all ?? linesExtent([lines[i]!], percentiles);
    out.push(yScaleFor(hi, lo, yLog, laneList[i]!));
  }
  return out;
}
