// The spectrum's curves as SVG path data: the step curve of a spectrum's buckets on the
// plot's scales, thinned to what a screen pixel shows (per pixel column, then within half a
// pixel), written without a string or an array per point. Nothing here touches the DOM.
import type { ScaleContinuousNumeric } from "d3";
import { perColumn, simplify, SIMPLIFY_PX } from "./thin";

export { perColumn, simplify, SIMPLIFY_PX, simplifyPx } from "./thin";

export interface CurveInput {
  /** Highest equivalent value of each non-empty bucket, ascending (in the unit the y scale is given in). */
  values: ArrayLike<number>;
  /** Cumulative count up to and including each bucket. */
  cumulative: ArrayLike<number>;
  totalCount: number;
}

/** 1/(1-p) for a fraction p; capped where p reaches 1. */
export function inverseTail(p: number, cap: number): number {
  return p >= 1 ? cap : Math.min(cap, 1 / (1 - p));
}

/**
 * Points of the step curve: bucket i holds the percentiles in (cum[i-1]/N, cum[i]/N] and its
 * value is v[i]: a horizontal run at v[i], then a vertical rise to v[i+1]. The last bucket
 * reaches 100%, which is at infinity on this axis: it is drawn to the domain's end.
 * Runs narrower than a pixel are merged keeping their highest value (the envelope), so a
 * curve with many buckets stays light without hiding a spike; then, unless `columns` is false,
 * each pixel column keeps only its first, last, highest and lowest points (perColumn), and of
 * those, the ones a line needs to pass within half a pixel of all (simplify).
 */
export function stepPoints(c: CurveInput, x: Mapping, y: Mapping, xEnd: number, columns = true): [number, number][] {
  const n = stepPointsFlat(c, pixelMapOf(x), pixelMapOf(y), xEnd, columns);
  const pts: [number, number][] = [];
  for (let k = 0; k < n; k++) pts.push([flat[2 * k]!, flat[2 * k + 1]!]);
  return pts;
}

/**
 * The step curve as SVG path data: exactly the string d3's `line().digits(1)` makes of
 * stepPoints (each coordinate rounded to a tenth of a pixel, finer than a pixel shows), without
 * an array per point. A new time window on a long log redraws a curve of thousands of points;
 * the arrays and d3's path builder were most of that render, and of the garbage collected after
 * it. Rounded so, a curve that moved by less than a pixel shows is the same string, and React
 * leaves its element (and its raster) alone.
 */
export function stepPath(c: CurveInput, x: Mapping, y: Mapping, xEnd: number): string {
  const n = stepPointsFlat(c, pixelMapOf(x), pixelMapOf(y), xEnd);
  // Written as characters into a buffer kept between calls and read as one string: a run
  // followed live draws its changed curves twice a second, and a string per coordinate joined
  // into the path was most of the page's garbage.
  if (chars.length < n * MAX_POINT_CHARS) chars = new Uint8Array(Math.max(n * MAX_POINT_CHARS, 2 * chars.length));
  let at = 0;
  for (let k = 0; k < n; k++) {
    chars[at++] = k === 0 ? 77 : 76; // M, L
    at = putRounded(at, flat[2 * k]!);
    chars[at++] = 44; // ,
    at = putRounded(at, flat[2 * k + 1]!);
  }
  return ascii.decode(chars.subarray(0, at));
}

/**
 * The widest part of a curve drawn in parts (px): with the stroke's width its layer stays within
 * the 512 px square Chromium rasterises as one tile (stepPathParts).
 */
export const CURVE_PART_PX = 480;

/** Where to cut curves spanning `left` to `right` (px) into parts at most `most` wide: whole pixels, ascending; none for a narrow plot. */
export function curveSplits(left: number, right: number, most = CURVE_PART_PX): number[] {
  const k = Math.max(1, Math.ceil((right - left) / most));
  const out: number[] = [];
  for (let i = 1; i < k; i++) out.push(Math.round(left + ((right - left) * i) / k));
  return out;
}

/** A part of a curve drawn in parts (stepPathParts): its path data, and its length along the curve before it starts. */
export interface PathPart {
  d: string;
  offset: number;
}

/**
 * The step curve as stepPath writes it, cut at each x of `splits` (ascending) into
 * `splits.length + 1` parts side by side: part k holds the points between splits[k - 1] and
 * splits[k], and a cut falls inside a segment, at a point both parts end and start at (so the
 * two butt ends meet on one straight line, and at a whole pixel no pixel is shared). A part with
 * no point is "". Each part's `offset` is the curve's length before it, for a dash pattern to
 * carry on across the cut. A wide plot draws its curves in parts of its own compositing layers:
 * a layer a few hundred pixels wide is rasterised as one tile, and each part is stroked once
 * instead of once for every tile the whole curve crosses.
 */
export function stepPathParts(c: CurveInput, x: Mapping, y: Mapping, xEnd: number, splits: readonly number[], tol = SIMPLIFY_PX): PathPart[] {
  const n = stepPointsFlat(c, pixelMapOf(x), pixelMapOf(y), xEnd, true, tol);
  const parts: PathPart[] = [];
  const most = (n + 2 * splits.length) * MAX_POINT_CHARS;
  if (chars.length < most) chars = new Uint8Array(Math.max(most, 2 * chars.length));
  // No closure over the running length or the position in `chars`: a number a closure writes
  // lives in its context as an object of its own, one per segment.
  let at = 0;
  let length = 0;
  let offset = 0;
  let px = NaN;
  let py = NaN;
  for (let k = 0; k < n; k++) {
    const qx = flat[2 * k]!;
    const qy = flat[2 * k + 1]!;
    if (k === 0) {
      // Parts wholly left of the curve's start are empty.
      while (parts.length < splits.length && qx >= splits[parts.length]!) {
        parts.push({ d: "", offset: length });
        offset = length;
      }
      at = putPoint(at, true, qx, qy);
    } else {
      // Each cut this segment crosses ends a part there and starts the next at the same point.
      while (parts.length < splits.length && px <= splits[parts.length]! && qx > splits[parts.length]!) {
        const sx = splits[parts.length]!;
        const sy = py + ((sx - px) / (qx - px)) * (qy - py);
        at = putPoint(at, false, sx, sy);
        length += Math.sqrt((sx - px) ** 2 + (sy - py) ** 2);
        parts.push({ d: ascii.decode(chars.subarray(0, at)), offset });
        offset = length;
        at = putPoint(0, true, sx, sy);
        px = sx;
        py = sy;
      }
      at = putPoint(at, false, qx, qy);
      length += Math.sqrt((qx - px) ** 2 + (qy - py) ** 2);
    }
    px = qx;
    py = qy;
  }
  parts.push({ d: ascii.decode(chars.subarray(0, at)), offset });
  while (parts.length < splits.length + 1) parts.push({ d: "", offset: length });
  return parts;
}

/** Writes a point (M or L, x, a comma, y) at `at` in `chars`; returns where it ends. */
function putPoint(at: number, move: boolean, px: number, py: number): number {
  chars[at++] = move ? 77 : 76; // M, L
  at = putRounded(at, px);
  chars[at++] = 44; // ,
  return putRounded(at, py);
}

/** A point's characters at most: a letter, a comma and two numbers, each as long as String writes one at most. */
const MAX_POINT_CHARS = 56;
let chars = new Uint8Array(1 << 15);
const ascii = new TextDecoder();

/**
 * Writes v rounded to 1 decimal as `String(Math.round(v * 10) / 10)` prints it (what d3-path
 * writes with digits(1)): the integer part, then the tenth unless it is 0. A number of up to 15
 * digits prints as that decimal exactly; anything else (not finite, huge) as String does.
 */
function putRounded(at: number, v: number): number {
  const r = Math.round(v * 10);
  if (!(Math.abs(r) < 1e15)) {
    const s = String(r / 10);
    for (let i = 0; i < s.length; i++) chars[at++] = s.charCodeAt(i);
    return at;
  }
  let a = r;
  if (a < 0) {
    chars[at++] = 45; // -
    a = -a;
  }
  const whole = Math.floor(a / 10);
  const frac = a - whole * 10;
  const first = at;
  let w = whole;
  do {
    chars[at++] = 48 + (w % 10);
    w = Math.floor(w / 10);
  } while (w > 0);
  for (let i = first, j = at - 1; i < j; i++, j--) {
    const t = chars[i]!;
    chars[i] = chars[j]!;
    chars[j] = t;
  }
  if (frac > 0) {
    chars[at++] = 46; // .
    chars[at++] = 48 + frac;
  }
  return at;
}

/** Scratch for stepPointsFlat: x, y of each point in turn (grown as needed, never shrunk). */
let flat = new Float64Array(4096);

/** stepPoints into `flat`, the points of a pixel column but its extremes left out unless `columns` is false; returns the number of points. */
function stepPointsFlat(c: CurveInput, x: PixelMap, y: PixelMap, xEnd: number, columns = true, tol = SIMPLIFY_PX): number {
  const n = c.values.length;
  const total = c.totalCount;
  if (n === 0 || total <= 0) return 0;
  // At most two points per bucket.
  if (flat.length < 4 * n) flat = new Float64Array(Math.max(4 * n, 2 * flat.length));
  const f = flat;
  const cum = c.cumulative;
  let m = 0; // points written
  // The axis' end as a value the optimiser knows is a number: with the argument itself, Node's
  // V8 boxed every inverseTail in the loop (a heap number per bucket).
  const cap = xEnd * 1;
  let prevX = pixelAt(x, 1);
  let lastPx = -Infinity;
  const endOfAxis = pixelAt(x, cap);
  // Whether the last run written is half a pixel wide or more: narrow runs after it start a
  // column of their own instead of raising it (a wide run of zeros followed by a narrow run
  // of 20 µs was drawn at 20 µs over its whole width).
  let lastWide = false;
  // Below this cumulative count a run surely ends within the column being merged (see
  // mergedBelow): its end is only computed for the last run merged, when the column ends.
  let below = -Infinity;
  let unplaced = -1;
  // A mapping of plain arithmetic is monotone: the highest point of the runs merged into a
  // column is at one of their ends, so only those are mapped (a dense spectrum merges most of
  // its buckets, and drawing a followed run maps every bucket of every curve each redraw).
  const monotone = y.fn === null;
  let firstUnplaced = -1;
  for (let i = 0; i < n; i++) {
    const merged = cum[i]! < below && i !== n - 1 && m > 0 && !lastWide;
    if (merged && monotone) {
      if (unplaced < 0) firstUnplaced = i;
      unplaced = i;
      continue;
    }
    const py = pixelAt(y, c.values[i]!);
    if (merged) {
      const top = Math.min(f[2 * m - 1]!, py);
      f[2 * m - 1] = top;
      if (m > 1) f[2 * m - 3] = top;
      unplaced = i;
      continue;
    }
    if (unplaced >= 0) {
      if (monotone) {
        const top = Math.min(f[2 * m - 1]!, pixelAt(y, c.values[firstUnplaced]!), pixelAt(y, c.values[unplaced]!));
        f[2 * m - 1] = top;
        if (m > 1) f[2 * m - 3] = top;
      }
      const ex = pixelAt(x, inverseTail(cum[unplaced]! / total, cap));
      f[2 * m - 2] = ex;
      prevX = ex;
      unplaced = -1;
    }
    const endX = i === n - 1 ? endOfAxis : pixelAt(x, inverseTail(cum[i]! / total, cap));
    if (m > 0 && !lastWide && endX - lastPx < 0.5 && i !== n - 1) {
      // Same pixel column: keep the highest value (smallest py) of the merged runs.
      const top = Math.min(f[2 * m - 1]!, py);
      f[2 * m - 2] = endX;
      f[2 * m - 1] = top;
      if (m > 1) f[2 * m - 3] = top;
      // The next run starts where the merged one now ends (it started at the end of the
      // first run of the column: the path stepped back by up to half a pixel).
      prevX = endX;
      continue;
    }
    f[2 * m] = prevX;
    f[2 * m + 1] = py;
    f[2 * m + 2] = endX;
    f[2 * m + 3] = py;
    m += 2;
    lastWide = endX - prevX >= 0.5;
    prevX = endX;
    lastPx = endX;
    below = lastWide ? -Infinity : mergedBelow(x, lastPx + 0.5, total);
  }
  return columns ? simplify(f, perColumn(f, m), tol) : m;
}

/**
 * A cumulative count below which a run's end (at 1/(1-count/total) on a log x scale) surely
 * lies left of `px`, by a millionth of a pixel, far more than the rounding of either way of
 * computing it: the runs of a column being merged are told apart from the next column's without
 * a logarithm each (a dense spectrum has dozens of buckets a pixel). -Infinity when the scale
 * is not one whose arithmetic this inverts (a function, a linear or decreasing scale).
 */
function mergedBelow(x: PixelMap, px: number, total: number): number {
  if (x.fn !== null || !x.log || x.mul !== 1 || x.floor !== -Infinity || !(x.r1 > x.r0)) return -Infinity;
  const t = (px - 1e-6 - x.r0) / (x.r1 - x.r0);
  const atOrAbove = Math.exp(x.a + t * x.span);
  if (!(atOrAbove > 1) || !Number.isFinite(atOrAbove)) return -Infinity;
  return total * (1 - 1 / atOrAbove);
}

/** A value-to-pixel mapping: a function, or a PixelMap (fastScale's, or pixelMapOf's). */
export type Mapping = ((v: number) => number) | PixelMap;

/**
 * A value-to-pixel mapping the curves' hot loop computes inline (pixelAt): a d3 linear or log
 * scale's arithmetic as plain numbers (fastScale), applied to max(v × mul, floor), or else a
 * function. Called through a closure, each pixel came back as a number object of its own:
 * while a run is followed live that was most of what the page allocated.
 */
export interface PixelMap {
  fn: ((v: number) => number) | null;
  log: boolean;
  a: number;
  span: number;
  r0: number;
  r1: number;
  mul: number;
  floor: number;
}

function pixelMap(fn: ((v: number) => number) | null, log: boolean, a: number, span: number, r0: number, r1: number, mul: number, floor: number): PixelMap {
  return { fn, log, a, span, r0, r1, mul, floor };
}

const MAPS = new WeakMap<(v: number) => number, PixelMap>();

/** The PixelMap of a mapping: the numbers of a function fastScale made, else one that calls the function. */
export function pixelMapOf(m: Mapping): PixelMap {
  if (typeof m !== "function") return m;
  return MAPS.get(m) ?? pixelMap(m, false, 0, 1, 0, 1, 1, -Infinity);
}

/** The mapping of max(v × mul, floor) through `m` (the curves' values are in their recorded unit, the scale in ns). */
export function scaledInput(m: Mapping, mul: number, floor: number): PixelMap {
  const p = pixelMapOf(m);
  return pixelMap(p.fn, p.log, p.a, p.span, p.r0, p.r1, p.mul * mul, Math.max(p.floor, floor));
}

/**
 * The pixel of v: the same arithmetic as fastScale's function (and d3's), inline. A kept
 * function's result is made a number: merged as it was (of any type) with the arithmetic's,
 * it made the optimised curve loop box every pixel it computed (a heap number each).
 */
function pixelAt(m: PixelMap, v: number): number {
  const w = Math.max(v * m.mul, m.floor);
  if (m.fn !== null) return +m.fn(w);
  const t = ((m.log ? Math.log(w) : w) - m.a) / m.span;
  return m.r0 * (1 - t) + m.r1 * t;
}

/**
 * The same mapping as a d3 linear or log scale (unclamped, two-value domain and range), as one
 * plain function: d3's own call goes through several closures and checks per value, and the
 * step curve of a long log maps ~10,000 buckets per series on every new time window. Same
 * arithmetic as d3 (normalise the transformed value, then interpolate the range), so the
 * same numbers. Any other scale is returned as it is. Its numbers are kept (pixelMapOf) for
 * the curves' loop to compute inline.
 */
export function fastScale(s: ScaleContinuousNumeric<number, number>): (v: number) => number {
  const domain = s.domain();
  const range = s.range();
  const isLog = typeof (s as unknown as { base?: unknown }).base === "function";
  if (domain.length !== 2 || range.length !== 2 || s.clamp() || (isLog && !(domain[0]! > 0 && domain[1]! > 0))) return s;
  let a = isLog ? Math.log(domain[0]!) : +domain[0]!;
  let b = isLog ? Math.log(domain[1]!) : +domain[1]!;
  let r0 = +range[0]!;
  let r1 = +range[1]!;
  if (b < a) {
    [a, b] = [b, a];
    [r0, r1] = [r1, r0];
  }
  const span = b - a;
  if (!span || !Number.isFinite(span)) return s;
  const fn = isLog
    ? (v: number) => {
        const t = (Math.log(v) - a) / span;
        return r0 * (1 - t) + r1 * t;
      }
    : (v: number) => {
        const t = (v - a) / span;
        return r0 * (1 - t) + r1 * t;
      };
  MAPS.set(fn, pixelMap(null, isLog, a, span, r0, r1, 1, -Infinity));
  return fn;
}
