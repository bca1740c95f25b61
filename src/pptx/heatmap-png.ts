// The heatmap as a PNG the deck can hold, painted from the engine's cells with the page's own
// colours (charts/heatmap/layout.ts) and encoded here, so the command line needs no canvas:
// the same pixels in Node and in the browser. Each cell is a block of whole pixels at twice
// the slide's resolution, so it stays sharp on a projector.
// @ts-expect-error -- pako 1.x ships no type declarations
import * as pakoDeflate from "pako/lib/deflate.js";
import { logTicks, onAxis, paintColumns, valueRow } from "../charts/heatmap/layout";
import { concatArrays } from "../core/concat";
import { formatValue } from "../core/format";
import { NANOS_PER_UNIT, unitFactor, type Unit } from "../core/types";
import type { HeatmapSeries } from "../engine/query-types";

const deflate = (pakoDeflate as { deflate(data: Uint8Array): Uint8Array }).deflate;

export interface DeckImage {
  name: string;
  png: Uint8Array;
  width: number;
  height: number;
  /** Latency labels: text and height from the bottom (0–1). */
  ticks: { label: string; at: number }[];
  /** The latency axis drawn, bottom to top, in ns. */
  axisNs: [number, number];
}

/** Pixel width of a lane: 2× a 12-inch-wide chart at 72 dpi is ~1700. */
const WIDTH = 1600;
/** Pixel height of all lanes together. */
const HEIGHT = 760;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** An RGBA image (bytes in row order, top row first) as a PNG file. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) before each row.
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  const head = new Uint8Array(13);
  const hv = new DataView(head.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  head.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", head), chunk("IDAT", deflate(raw)), chunk("IEND", new Uint8Array(0))];
  return concatArrays(parts, (n) => new Uint8Array(n));
}

/** Pixel rows (top row first) as RGBA bytes, each of `rows` rows repeated `repeat` times. */
function rgbaOf(px: Uint32Array, rows: number, repeat: number): Uint8Array {
  // The painted words are RGBA in memory order; empty cells (0) stay transparent.
  const src = new Uint8Array(px.buffer, px.byteOffset, px.byteLength);
  const rgba = new Uint8Array(WIDTH * rows * repeat * 4);
  for (let r = 0; r < rows; r++) {
    const line = src.subarray(r * WIDTH * 4, (r + 1) * WIDTH * 4);
    for (let k = 0; k < repeat; k++) rgba.set(line, (r * repeat + k) * WIDTH * 4);
  }
  return rgba;
}

/**
 * One series' heatmap over `domain` as a PNG. With `axisNs` (the lanes' one latency axis, ns,
 * charts/heatmap/layout.ts heatmapAxisNs, as the page draws them), drawn on it with its ticks in
 * the display unit; without, on the series' own axis, each of its rows repeated to fill its share
 * of the height. `maxCell` is the brightest colour's count: the lanes' highest, as on the page,
 * so that a colour is the same count in every lane.
 */
export function heatmapImage(
  name: string,
  d: HeatmapSeries,
  domain: [number, number],
  unit: Unit,
  lanes: number,
  axisNs: [number, number] | null = null,
  maxCell = d.maxCell,
): DeckImage {
  if (axisNs) {
    const height = Math.max(1, Math.floor(HEIGHT / lanes));
    const toRecorded = NANOS_PER_UNIT[d.recordedUnit];
    const px = paintColumns(onAxis(d, axisNs[0] / toRecorded, axisNs[1] / toRecorded, height), domain[0], domain[1], WIDTH, 0, maxCell);
    const [lo, hi] = [axisNs[0] / NANOS_PER_UNIT[unit], axisNs[1] / NANOS_PER_UNIT[unit]];
    const ticks = logTicks(lo, hi, 5).map((v) => ({ label: formatValue(v, unit), at: Math.min(1, valueRow(v, lo, hi, 1)) }));
    return { name, png: encodePng(rgbaOf(px, height, 1), WIDTH, height), width: WIDTH, height, ticks, axisNs };
  }
  const px = paintColumns(d, domain[0], domain[1], WIDTH, 0, maxCell);
  const repeat = Math.max(1, Math.floor(HEIGHT / lanes / Math.max(1, d.rows)));
  const height = d.rows * repeat;
  const f = unitFactor(d.recordedUnit, unit);
  const ticks = d.hi > d.lo && d.lo > 0 ? logTicks(d.lo, d.hi, 5).map((v) => ({ label: formatValue(v * f, unit), at: Math.min(1, valueRow(v, d.lo, d.hi, d.rows) / d.rows) })) : [];
  const own: [number, number] = [d.lo * NANOS_PER_UNIT[d.recordedUnit], d.hi * NANOS_PER_UNIT[d.recordedUnit]];
  return { name, png: encodePng(rgbaOf(px, d.rows, repeat), WIDTH, height), width: WIDTH, height, ticks, axisNs: own };
}
