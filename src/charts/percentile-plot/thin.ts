// A curve's points thinned to what a screen pixel shows: each pixel column's outline
// (perColumn), then the points a line needs to pass within half a pixel of all (simplify), in
// place, without an array per point.

/**
 * How far (px) a drawn curve may pass from a point of its pixel columns' outline (perColumn):
 * half a pixel, less than the 2 px stroke shows (the plot gives half a pixel of the screen:
 * simplifyPx). The steps of a dense spectrum are finer than that, and stroking each of them
 * was most of the cost of rasterising the charts a run followed live redraws twice a second.
 */
export const SIMPLIFY_PX = 0.5;

/** Half a pixel of a screen of `devicePixelRatio` device pixels per CSS pixel (at most SIMPLIFY_PX). */
export function simplifyPx(devicePixelRatio: number): number {
  return devicePixelRatio > 1 ? SIMPLIFY_PX / devicePixelRatio : SIMPLIFY_PX;
}

/** Scratch for simplify: which points stay, and the ranges still to look at. */
let kept = new Uint8Array(1024);
let ranges: Int32Array = new Int32Array(2048);

/**
 * Keeps, of the `n` points `f` holds (x, y in turn), those the polyline through them needs to
 * pass within `tol` px of every point (Douglas–Peucker: the point farthest from the chord of a
 * range stays when it is farther than `tol`, and splits the range), in their order; returns how
 * many are left. The first and last points, the highest (the max) and any point not finite
 * always stay, exactly where they were: nothing is moved or averaged, only points the line
 * through the others passes within `tol` of are left out.
 */
export function simplify(f: Float64Array, n: number, tol: number): number {
  if (n <= 2) return n;
  if (kept.length < n) kept = new Uint8Array(Math.max(n, 2 * kept.length));
  kept.fill(0, 0, n);
  let top = 0;
  for (let i = 0; i < n; i++) {
    if (f[2 * i + 1]! < f[2 * top + 1]!) top = i;
    if (!Number.isFinite(f[2 * i]!) || !Number.isFinite(f[2 * i + 1]!)) kept[i] = 1;
  }
  kept[0] = 1;
  kept[top] = 1;
  kept[n - 1] = 1;
  // The ranges between points that stay whatever, each looked at in turn.
  let sp = 0;
  let from = 0;
  for (let i = 1; i < n; i++) {
    if (!kept[i]) continue;
    if (i - from > 1) {
      if (ranges.length < sp + 2) ranges = grown(ranges, sp + 2);
      ranges[sp++] = from;
      ranges[sp++] = i;
    }
    from = i;
  }
  const tol2 = tol * tol;
  while (sp > 0) {
    const b = ranges[--sp]!;
    const a = ranges[--sp]!;
    const ax = f[2 * a]!;
    const ay = f[2 * a + 1]!;
    const dx = f[2 * b]! - ax;
    const dy = f[2 * b + 1]! - ay;
    const len2 = dx * dx + dy * dy;
    if (!Number.isFinite(len2)) {
      // No chord to measure from (an end not finite): every point between stays.
      kept.fill(1, a + 1, b);
      continue;
    }
    let far = -1;
    let farthest = tol2;
    for (let i = a + 1; i < b; i++) {
      const px = f[2 * i]! - ax;
      const py = f[2 * i + 1]! - ay;
      // The squared distance to the segment from a to b (to a itself when they coincide).
      const t = len2 > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len2)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 > farthest) {
        farthest = d2;
        far = i;
      }
    }
    if (far < 0) continue;
    kept[far] = 1;
    if (ranges.length < sp + 4) ranges = grown(ranges, sp + 4);
    if (far - a > 1) {
      ranges[sp++] = a;
      ranges[sp++] = far;
    }
    if (b - far > 1) {
      ranges[sp++] = far;
      ranges[sp++] = b;
    }
  }
  let out = 0;
  for (let i = 0; i < n; i++) {
    if (!kept[i]) continue;
    f[2 * out] = f[2 * i]!;
    f[2 * out + 1] = f[2 * i + 1]!;
    out++;
  }
  return out;
}

function grown(a: Int32Array, least: number): Int32Array {
  const b = new Int32Array(Math.max(least, 2 * a.length));
  b.set(a);
  return b;
}

/**
 * Keeps, of the points `f` holds (x, y in turn, x never decreasing) that fall in one pixel
 * column, the first, the last, the highest and the lowest, in their order; returns how many are
 * left. Every extreme stays exactly where it was (the max and the last point among them), only
 * points a pixel cannot tell apart from the line through the others go: a curve redrawn twice
 * a second while a run is followed is stroked, recorded and rasterised once per vertex.
 */
export function perColumn(f: Float64Array, n: number): number {
  let out = 0;
  // The index of the last point kept: each is kept once, in order (out never passes it).
  let last = -1;
  const keep = (k: number) => {
    if (k <= last) return;
    last = k;
    f[2 * out] = f[2 * k]!;
    f[2 * out + 1] = f[2 * k + 1]!;
    out++;
  };
  let i = 0;
  while (i < n) {
    const col = Math.floor(f[2 * i]!);
    let lo = i;
    let hi = i;
    let j = i + 1;
    for (; j < n && Math.floor(f[2 * j]!) === col; j++) {
      const v = f[2 * j + 1]!;
      if (v < f[2 * lo + 1]!) lo = j;
      if (v > f[2 * hi + 1]!) hi = j;
    }
    keep(i);
    keep(Math.min(lo, hi));
    keep(Math.max(lo, hi));
    keep(j - 1);
    i = j;
  }
  return out;
}
