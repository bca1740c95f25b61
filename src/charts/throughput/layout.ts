// Pure layout of the throughput chart: x = throughput, y = latency (log) at the requirement's
// percentiles, one line per configuration and percentile.
import { scaleLinear, scaleLog } from "d3";

export const TP_MARGIN = { top: 14, right: 130, bottom: 40, left: 72 };

export interface TpPoint {
  throughput: number;
  value: number; // display unit
  pass: boolean;
}

export interface TpLine {
  config: string;
  percentile: number;
  color: string;
  dash: string;
  points: TpPoint[]; // ascending throughput
}

export function tpScales(lines: readonly TpLine[], limits: readonly number[], width: number, height: number) {
  let maxX = 0;
  let lo = Infinity;
  let hi = 0;
  for (const l of lines) {
    for (const p of l.points) {
      maxX = Math.max(maxX, p.throughput);
      if (p.value > 0) {
        lo = Math.min(lo, p.value);
        hi = Math.max(hi, p.value);
      }
    }
  }
  for (const v of limits) {
    if (v > 0) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (!Number.isFinite(lo)) {
    lo = 1;
    hi = 10;
  }
  const x = scaleLinear()
    .domain([0, maxX > 0 ? maxX * 1.08 : 1])
    .range([TP_MARGIN.left, width - TP_MARGIN.right])
    .nice();
  const y = scaleLog()
    .domain([lo / 1.5, Math.max(hi * 1.5, lo * 10)])
    .range([height - TP_MARGIN.bottom, TP_MARGIN.top])
    .nice();
  return { x, y };
}

/**
 * Label positions that do not overlap: each label as near its wanted y as it can be, at least
 * `gap` px from the next, within [top, bottom] (pushed down in order, then back up from the
 * bottom when the column overflows). Returned in the order given.
 */
export function spreadLabels(wanted: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = wanted.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y || a.i - b.i);
  const ys = order.map((o) => Math.min(bottom, Math.max(top, o.y)));
  for (let k = 1; k < ys.length; k++) ys[k] = Math.max(ys[k]!, ys[k - 1]! + gap);
  if (ys.length > 0 && ys[ys.length - 1]! > bottom) {
    ys[ys.length - 1] = bottom;
    for (let k = ys.length - 2; k >= 0; k--) ys[k] = Math.min(ys[k]!, ys[k + 1]! - gap);
  }
  const out = new Array<number>(wanted.length);
  order.forEach((o, k) => (out[o.i] = ys[k]!));
  return out;
}
