// Pure layout of the latency heatmap: the colour scale (count per cell on a log scale, through
// cividis: perceptually uniform and readable with colour-vision deficiencies), the latency
// rows on a log axis, the one axis several lanes share (the page and the deck alike), and the
// pixels each engine column paints.
import type { HeatmapSeries } from "../../engine/query-types";
import { NANOS_PER_UNIT } from "../../core/types";

/**
 * Cividis (Nuñez, Anderton & Renslow, 2018) at t in [0, 1] as [r, g, b]: the polynomial fit
 * d3-scale-chromatic publishes for it, evaluated here so that the page does not carry that
 * whole package (it ships as one module) for one colour scale.
 */
export function cividis(t: number): [number, number, number] {
  const x = Math.max(0, Math.min(1, t));
  const c = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return [
    c(-4.54 - x * (35.34 - x * (2381.73 - x * (6402.7 - x * (7024.72 - x * 2710.57))))),
    c(32.49 + x * (170.73 + x * (52.82 - x * (131.46 - x * (176.58 - x * 67.37))))),
    c(81.24 + x * (442.36 - x * (2482.43 - x * (6167.24 - x * (6614.94 - x * 2475.67))))),
  ];
}

/** 256 colours from cividis as 0xAABBGGRR words (ImageData's byte order on little-endian machines). */
export const LUT: Uint32Array = (() => {
  const out = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    const [r, g, b] = cividis(i / 255);
    out[i] = ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
  }
  return out;
})();

/** CSS colour of LUT entry i (for the legend). */
export function lutCss(i: number): string {
  const c = LUT[Math.max(0, Math.min(255, Math.round(i)))]!;
  return `rgb(${c & 255}, ${(c >>> 8) & 255}, ${(c >>> 16) & 255})`;
}

/**
 * The first colour used on a dark background: cividis' darkest blues are nearly the page's own
 * dark, and the cells they would paint (one or two values: the tail) would vanish. From entry
 * 110 on, every colour stands at least 3:1 against the dark theme's backgrounds (page and panel).
 */
export const DARK_FLOOR = 110;

/** Colour index of a count on a log scale from 1 (`floor`) to maxCell (255); -1 for an empty cell. */
export function colourIndex(count: number, maxCell: number, floor = 0): number {
  if (!(count > 0)) return -1;
  if (maxCell <= 1) return 255;
  const t = Math.log(Math.max(1, count)) / Math.log(maxCell);
  return Math.max(floor, Math.min(255, Math.round(floor + t * (255 - floor))));
}

/** The value at the bottom of row r (r may be fractional; rows at the top edge): lo·(hi/lo)^(r/rows). */
export function rowValue(r: number, lo: number, hi: number, rows: number): number {
  return lo * Math.pow(hi / lo, r / rows);
}

/** Fractional row of a value (0 at lo, rows at hi). */
export function valueRow(v: number, lo: number, hi: number, rows: number): number {
  if (!(v > lo)) return 0;
  return (rows * Math.log(v / lo)) / Math.log(hi / lo);
}

/** Decades for the legend and axis ticks: 1, 10, 100, … up to max (and max itself when far from the last). */
export function logTicks(lo: number, hi: number, maxCount = 8): number[] {
  if (!(hi > 0) || !(lo > 0) || hi < lo) return [];
  const out: number[] = [];
  let step = 1;
  const decades = Math.log10(hi / lo);
  if (decades > maxCount) step = Math.ceil(decades / maxCount);
  for (let e = Math.ceil(Math.log10(lo)); 10 ** e <= hi * (1 + 1e-9); e += step) out.push(10 ** e);
  if (out.length < 2) {
    // Less than a decade: the ends, and 2 and 5 in between.
    for (const m of [2, 5]) for (let e = Math.floor(Math.log10(lo)); 10 ** e <= hi; e++) if (m * 10 ** e > lo && m * 10 ** e < hi) out.push(m * 10 ** e);
    out.sort((a, b) => a - b);
  }
  return out;
}

export interface HeatmapColumns {
  t0: ArrayLike<number>;
  t1: ArrayLike<number>;
  cells: ArrayLike<number>;
  rows: number;
  maxCell: number;
}

/**
 * The heatmap as pixels, `width` × rows (row 0 at the bottom): each engine column paints the
 * pixel columns its time span covers over [d0, d1] (at least one). Returns the words to put in
 * an ImageData (0 = transparent).
 */
export function paintColumns(c: HeatmapColumns, d0: number, d1: number, width: number, floor = 0, maxCell = c.maxCell): Uint32Array {
  const rows = c.rows;
  const px = new Uint32Array(width * rows);
  const n = c.t0.length;
  const k = width / (d1 - d0 || 1);
  for (let col = 0; col < n; col++) {
    let x0 = Math.floor((c.t0[col]! - d0) * k);
    let x1 = Math.ceil((c.t1[col]! - d0) * k);
    if (x1 <= x0) x1 = x0 + 1;
    if (x1 <= 0 || x0 >= width) continue;
    x0 = Math.max(0, x0);
    x1 = Math.min(width, x1);
    const base = col * rows;
    for (let r = 0; r < rows; r++) {
      const ci = colourIndex(c.cells[base + r]!, maxCell, floor);
      if (ci < 0) continue;
      const colour = LUT[ci]!;
      const line = (rows - 1 - r) * width;
      for (let x = x0; x < x1; x++) px[line + x] = colour;
    }
  }
  return px;
}

/**
 * The lanes' one latency axis in ns, [smallest lo, largest hi], when their ranges overlap (taken
 * together they leave no gap), so that the same height means the same latency in every lane;
 * null when they are apart (one lane in µs, another in seconds would each be squeezed thin).
 */
export function sharedAxisNs(lanes: readonly Pick<HeatmapSeries, "lo" | "hi" | "recordedUnit">[]): [number, number] | null {
  if (lanes.length === 0) return null;
  const ranges = lanes.map((l) => [l.lo * NANOS_PER_UNIT[l.recordedUnit], l.hi * NANOS_PER_UNIT[l.recordedUnit]] as const).sort((a, b) => a[0] - b[0]);
  let hi = ranges[0]![1];
  for (const [l, h] of ranges.slice(1)) {
    if (l > hi) return null;
    hi = Math.max(hi, h);
  }
  return [ranges[0]![0], hi];
}

/**
 * A lane's cells on another log latency axis [lo, hi) (the lane's recorded unit) of `rows` rows,
 * for lanes drawn on one shared axis: each row shows the largest count of the lane's own rows it
 * overlaps (a lone value in a thin row is not lost), empty outside the lane's own range. The
 * lane's bottom row keeps what lies below its axis, as on its own axis.
 */
export function onAxis(d: HeatmapSeries, lo: number, hi: number, rows: number): HeatmapColumns {
  const n = d.t0.length;
  const cells = new Float64Array(n * rows);
  let maxCell = 0;
  for (let j = 0; j < rows; j++) {
    const below = rowValue(j, lo, hi, rows);
    const above = rowValue(j + 1, lo, hi, rows);
    if (above <= d.lo * (1 + 1e-12) || below >= d.hi * (1 - 1e-12)) continue;
    const r0 = Math.max(0, Math.floor(valueRow(below, d.lo, d.hi, d.rows)));
    const r1 = Math.max(r0, Math.min(d.rows - 1, Math.ceil(valueRow(above, d.lo, d.hi, d.rows)) - 1));
    for (let c = 0; c < n; c++) {
      let m = 0;
      for (let r = r0; r <= r1; r++) m = Math.max(m, d.cells[c * d.rows + r]!);
      cells[c * rows + j] = m;
      if (m > maxCell) maxCell = m;
    }
  }
  return { t0: d.t0, t1: d.t1, cells, rows, maxCell };
}

const hasAxis = (l: Pick<HeatmapSeries, "lo" | "hi" | "rows">) => l.hi > l.lo && l.lo > 0 && l.rows > 0;

/** The axis the lanes share (ns), or null when each keeps its own: one lane, or ranges apart. */
export function heatmapAxisNs(lanes: readonly Pick<HeatmapSeries, "lo" | "hi" | "rows" | "recordedUnit">[]): [number, number] | null {
  const drawable = lanes.filter(hasAxis);
  return drawable.length > 1 ? sharedAxisNs(drawable) : null;
}

/**
 * Rows of the shared axis [loNs, hiNs] so that none is wider than a row of any lane's own axis,
 * at most `maxRows` (a lane's height in px: a thinner row could be skipped when the bitmap is
 * scaled down, a lone value with it; wider rows keep it, each the largest count it covers).
 */
function sharedRows(lanes: readonly HeatmapSeries[], [loNs, hiNs]: [number, number], maxRows: number): number {
  let rows = 1;
  for (const l of lanes) {
    const own = Math.log(l.hi / l.lo);
    if (own > 0 && l.rows > 0) rows = Math.max(rows, Math.ceil((l.rows * Math.log(hiNs / loNs)) / own - 1e-9));
  }
  return Math.max(1, Math.min(Math.floor(maxRows), rows));
}

/**
 * The lanes as the page and the deck draw them: two or more whose ranges overlap are each drawn
 * on their one shared axis (`axisNs`), so the same height is the same latency in every lane and
 * a slide comparing A and B compares rows; apart, each keeps its own axis (axisNs null). A lane
 * on the shared axis is its cells re-binned there (onAxis) on as many rows as make none wider
 * than a row of the lanes' own, at most `maxRows` (the lane's height in px), its lo and hi the
 * axis' in its recorded unit; `original` is the lane as the engine gave it, whose cells a
 * pointer reads.
 */
export function lanesOnAxis(lanes: readonly HeatmapSeries[], maxRows = 1024): { axisNs: [number, number] | null; lanes: { data: HeatmapSeries; original: HeatmapSeries }[] } {
  const drawable = lanes.filter(hasAxis);
  const axisNs = heatmapAxisNs(lanes);
  if (!axisNs) return { axisNs: null, lanes: lanes.map((l) => ({ data: l, original: l })) };
  const n = sharedRows(drawable, axisNs, maxRows);
  return {
    axisNs,
    lanes: lanes.map((l) => {
      if (!drawable.includes(l)) return { data: l, original: l };
      const perNs = NANOS_PER_UNIT[l.recordedUnit];
      const [lo, hi] = [axisNs[0] / perNs, axisNs[1] / perNs];
      const c = onAxis(l, lo, hi, n);
      return { data: { ...l, lo, hi, rows: n, cells: c.cells as Float64Array, maxCell: c.maxCell }, original: l };
    }),
  };
}
