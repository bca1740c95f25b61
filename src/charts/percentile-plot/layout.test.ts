import { describe, expect, it } from "vitest";
import { line, scaleLinear, scaleLog } from "d3";
import {
  bucketAt,
  curveSplits,
  fastScale,
  inverseTail,
  labelledMaxes,
  makeXScale,
  makeYScale,
  perColumn,
  percentileLabel,
  scaledInput,
  simplify,
  simplifyPx,
  SIMPLIFY_PX,
  stepPath,
  stepPathParts,
  stepPoints,
  xDomainEnd,
  xTicks,
} from "./layout";

/** The farthest a point of `pts` lies from the polyline through `line`. */
const farthestFrom = (pts: readonly (readonly [number, number])[], line: readonly (readonly [number, number])[]) => {
  let worst = 0;
  for (const [px, py] of pts) {
    let best = Infinity;
    for (let k = 1; k < line.length; k++) {
      const [ax, ay] = line[k - 1]!;
      const [bx, by] = line[k]!;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
      best = Math.min(best, Math.hypot(px - ax - t * dx, py - ay - t * dy));
    }
    worst = Math.max(worst, best);
  }
  return worst;
};

describe("percentile axis", () => {
  it("labels decades of 1/(1-p) as percentiles", () => {
    expect([0, 1, 2, 3, 4, 5].map(percentileLabel)).toEqual(["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]);
  });
  it("reaches the decade holding the last point below 100% (1/(1-p) = N)", () => {
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 48761 }])).toBe(100000);
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 100000 }])).toBe(100000);
    expect(xDomainEnd([{ values: [], cumulative: [], totalCount: 10 }])).toBe(1000);
    expect(xTicks(100000).map((t) => t.label)).toEqual(["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]);
  });
  it("inverseTail caps at 100%", () => {
    expect(inverseTail(0.99, 1e6)).toBeCloseTo(100, 9);
    expect(inverseTail(1, 1e6)).toBe(1e6);
  });
});

describe("step curve", () => {
  // Four values 10, 20, 30, 40 once each: bucket i covers percentiles (i/4, (i+1)/4].
  const c = { values: [10, 20, 30, 40], cumulative: [1, 2, 3, 4], totalCount: 4 };
  const x = makeXScale(1000, { width: 1000, height: 100 });
  const y = (v: number) => v;

  it("draws each bucket as a run to its cumulative percentile, the last one to the end", () => {
    const pts = stepPoints(c, x, y, 1000);
    expect(pts.length).toBe(8);
    expect(pts[1]![0]).toBeCloseTo(x(1 / (1 - 0.25)), 6);
    expect(pts[3]![0]).toBeCloseTo(x(2), 6);
    expect(pts[7]![0]).toBeCloseTo(x(1000), 6);
    expect(pts.map((p) => p[1])).toEqual([10, 10, 20, 20, 30, 30, 40, 40]);
  });

  it("hover finds the bucket holding the percentile", () => {
    expect(bucketAt(c, 1)).toMatchObject({ value: 10, countAtOrBelow: 1 });
    expect(bucketAt(c, 1 / (1 - 0.5))).toMatchObject({ value: 20, countAtOrBelow: 2 });
    expect(bucketAt(c, 1 / (1 - 0.51))).toMatchObject({ value: 30 });
    expect(bucketAt(c, 1e6)).toMatchObject({ value: 40, countAtOrBelow: 4 });
  });

  it("merges sub-pixel runs keeping the highest value (never hides a spike)", () => {
    const n = 5000;
    const values = Array.from({ length: n }, (_, i) => i + 1);
    const cumulative = values.map((_, i) => i + 1);
    const pts = stepPoints({ values, cumulative, totalCount: n }, x, y, 10000);
    expect(pts.length).toBeLessThan(2 * 1000);
    expect(Math.max(...pts.map((p) => p[1]))).toBe(n);
  });

  it("never steps back along x when it merges runs (the path only moves right or up/down)", () => {
    // Many buckets over a few pixels at the start (the bulk of a long log), then a tail.
    const n = 20000;
    const values = Array.from({ length: n }, (_, i) => 1 + i * 0.01 + (i % 7));
    const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.05 * 1e9));
    const pts = stepPoints({ values, cumulative, totalCount: cumulative[n - 1]! }, x, y, 1e9);
    for (let i = 1; i < pts.length; i++) expect(pts[i]![0]).toBeGreaterThanOrEqual(pts[i - 1]![0]);
    expect(pts[pts.length - 1]![0]).toBeCloseTo(x(1e9), 9);
  });
});

describe("points per pixel column", () => {
  /** Per pixel column (x floored): the first point, the last, the lowest y and the highest y. */
  const columnsOf = (pts: readonly (readonly [number, number])[]) => {
    const out = new Map<number, { first: [number, number]; last: [number, number]; lo: number; hi: number }>();
    for (const [x, y] of pts) {
      const c = Math.floor(x);
      const k = out.get(c);
      if (!k) out.set(c, { first: [x, y], last: [x, y], lo: y, hi: y });
      else {
        k.last = [x, y];
        k.lo = Math.min(k.lo, y);
        k.hi = Math.max(k.hi, y);
      }
    }
    return out;
  };

  it("keeps each column's first, last, lowest and highest point, in order, and nothing else", () => {
    // Points whose x never decreases, several to a column, y going up and down.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pts: [number, number][] = [];
    let x = 3.2;
    for (let i = 0; i < 3000; i++) {
      x += rnd() < 0.05 ? rnd() * 3 : rnd() * 0.05;
      pts.push([x, Math.round(rnd() * 400) / 4]);
    }
    const f = new Float64Array(pts.flat());
    const n = perColumn(f, pts.length);
    const kept: [number, number][] = [];
    for (let k = 0; k < n; k++) kept.push([f[2 * k]!, f[2 * k + 1]!]);
    expect(n).toBeLessThan(pts.length / 3);
    expect(n).toBeLessThanOrEqual(4 * columnsOf(pts).size);
    // Every kept point is one of the originals, in their order.
    let at = 0;
    for (const p of kept) {
      while (at < pts.length && (pts[at]![0] !== p[0] || pts[at]![1] !== p[1])) at++;
      expect(at).toBeLessThan(pts.length);
      at++;
    }
    expect([...columnsOf(kept)]).toEqual([...columnsOf(pts)]);
  });

  it("passes within half a pixel of every extreme of every column, its max and last point exactly where they were", () => {
    // A long log's shape: thousands of buckets, most of them in the first pixels, then a tail with a spike.
    const n = 9000;
    const values = Array.from({ length: n }, (_, i) => 1000 + i * 37 + (i % 11) * 3 + (i === n - 2 ? 4e6 : 0));
    const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.02 * 5e6));
    const cv = { values, cumulative, totalCount: cumulative[n - 1]! };
    for (const log of [false, true]) {
      const xs = makeXScale(1e7, { width: 992, height: 464 });
      const ys = makeYScale(Math.max(...values), 900, log, { width: 992, height: 464 });
      const full = stepPoints(cv, xs, ys, 1e7, false);
      // Each column's first, last, highest and lowest point (perColumn, tested above).
      const f = new Float64Array(full.flat());
      const outline: [number, number][] = [];
      for (let k = 0, m = perColumn(f, full.length); k < m; k++) outline.push([f[2 * k]!, f[2 * k + 1]!]);
      const drawn = stepPoints(cv, xs, ys, 1e7);
      expect(drawn.length).toBeLessThan(outline.length);
      // Drawn points are points of the outline, in its order: none moved, none made up.
      let at = 0;
      for (const p of drawn) {
        while (at < outline.length && (outline[at]![0] !== p[0] || outline[at]![1] !== p[1])) at++;
        expect(at).toBeLessThan(outline.length);
        at++;
      }
      expect(farthestFrom(outline, drawn)).toBeLessThanOrEqual(SIMPLIFY_PX + 1e-9);
      // The highest point (the max's spike) and the last one, at the domain's end, are the same numbers.
      const top = (ps: [number, number][]) => ps.reduce((a, p) => (p[1] < a[1] ? p : a));
      expect(top(drawn)).toEqual(top(full));
      expect(top(drawn)[1]).toBe(ys(values[n - 2]!));
      expect(drawn.at(-1)).toEqual(full.at(-1));
      expect(drawn.at(-1)![0]).toBeCloseTo(xs(1e7), 9);
    }
  });
});

describe("simplify", () => {
  it("keeps the points a line needs to pass within the tolerance of every point, first, last and highest included", () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // A staircase of sub-pixel steps, then a spike, then a flat run, with noise.
    const pts: [number, number][] = [];
    let y = 400;
    for (let x = 0; x < 600; x += 0.5) {
      y -= rnd() * 0.3;
      pts.push([x, x > 450 && x < 452 ? 20 : x > 500 ? 150 + rnd() * 0.2 : y]);
    }
    for (const tol of [0.1, 0.5, 2]) {
      const f = new Float64Array(pts.flat());
      const n = simplify(f, pts.length, tol);
      const kept: [number, number][] = [];
      for (let k = 0; k < n; k++) kept.push([f[2 * k]!, f[2 * k + 1]!]);
      expect(n).toBeLessThan(pts.length);
      expect(farthestFrom(pts, kept)).toBeLessThanOrEqual(tol + 1e-9);
      expect(kept[0]).toEqual(pts[0]);
      expect(kept.at(-1)).toEqual(pts.at(-1));
      expect(Math.min(...kept.map((p) => p[1]))).toBe(20);
      // In order, each one of the originals.
      const xsKept = kept.map((p) => p[0]);
      expect(xsKept).toEqual([...xsKept].sort((a, b) => a - b));
      for (const p of kept) expect(pts.some((q) => q[0] === p[0] && q[1] === p[1])).toBe(true);
    }
    // Fewer points at a wider tolerance, and two points stay two.
    const count = (tol: number) => simplify(new Float64Array(pts.flat()), pts.length, tol);
    expect(count(2)).toBeLessThan(count(0.5));
    expect(count(0.5)).toBeLessThan(count(0.1));
    expect(simplify(new Float64Array([0, 0, 5, 5]), 2, 1)).toBe(2);
  });

  it("gives half a pixel of the screen: finer on a screen of more device pixels", () => {
    expect(simplifyPx(1)).toBe(0.5);
    expect(simplifyPx(2)).toBe(0.25);
    expect(simplifyPx(3)).toBeCloseTo(1 / 6, 12);
    expect(simplifyPx(0.5)).toBe(0.5);
  });

  it("keeps points that are not finite", () => {
    // Between points not finite there is no line to measure from: everything stays.
    const pts = [0, 0, 1, Infinity, 2, 0, 3, NaN, 4, 0, 5, 0, 6, 0];
    const f = new Float64Array(pts);
    expect(simplify(f, 7, 1)).toBe(7);
    expect(Array.from(f)).toEqual(pts);
    // From the highest point after them on, points on the line between their neighbours go.
    const g = new Float64Array([0, 0, 1, Infinity, 2, 0, 3, NaN, 4, 0, 5, -5, 6, -5, 7, -5, 8, -5]);
    expect(simplify(g, 9, 1)).toBe(7);
    expect(Array.from(g.subarray(0, 14))).toEqual([0, 0, 1, Infinity, 2, 0, 3, NaN, 4, 0, 5, -5, 8, -5]);
  });
});

describe("stepPath", () => {
  it("is the path d3's line().digits(1) draws through stepPoints, to the character", () => {
    const xs = makeXScale(1e7, { width: 1100, height: 440 });
    const ys = makeYScale(3e6, 0, false, { width: 1100, height: 440 });
    const curves = [
      { values: [], cumulative: [], totalCount: 0 },
      { values: [5], cumulative: [3], totalCount: 3 },
      { values: [10, 20, 30, 40], cumulative: [1, 2, 3, 4], totalCount: 4 },
      // A long log's shape: thousands of buckets, most of them in the first pixels.
      (() => {
        const n = 9000;
        const values = Array.from({ length: n }, (_, i) => 1000 + i * 37 + (i % 11) * 3);
        const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.02 * 5e6));
        return { values, cumulative, totalCount: cumulative[n - 1]! };
      })(),
    ];
    for (const cv of curves) {
      for (const ys2 of [ys, makeYScale(3e6, 900, true, { width: 1100, height: 440 })]) {
        const want = line().digits(1)(stepPoints(cv, xs, ys2, 1e7)) ?? "";
        expect(stepPath(cv, xs, ys2, 1e7)).toBe(want);
        expect(stepPath(cv, fastScale(xs), fastScale(ys2), 1e7)).toBe(want);
      }
    }
  });

  it("prints negative, tiny, whole and huge coordinates as d3's line() does", () => {
    const n = 400;
    const values = Array.from({ length: n }, (_, i) => i * 0.0137 - 2.5);
    const cumulative = values.map((_, i) => i + 1);
    const cv = { values, cumulative, totalCount: n };
    // x: from about -700 to far right, through whole numbers; y: around zero (a -0 among them), then huge.
    const xf = (v: number) => (Math.log(v) - 3) * 250.0005;
    for (const yf of [(v: number) => -v / 7 + 0.0004, (v: number) => Math.round(v * 100) / 4, (v: number) => v * 1e14, (v: number) => (v > 2 ? Infinity : v)]) {
      expect(stepPath(cv, xf, yf, 1e4)).toBe(line().digits(1)(stepPoints(cv, xf, yf, 1e4)) ?? "");
    }
  });
});

describe("a curve mapped by numbers (fastScale's, inline)", () => {
  it("draws the same path as d3's scales through a function, unit factor and log floor included", () => {
    const n = 9000;
    // In µs, drawn on a scale in ns, with zeros below a log axis' floor.
    const values = Array.from({ length: n }, (_, i) => (i < 40 ? 0 : 1 + i * 0.037 + (i % 11) * 0.003 + (i === n - 2 ? 4e3 : 0)));
    const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.02 * 5e6));
    const cv = { values, cumulative, totalCount: cumulative[n - 1]! };
    const xs = makeXScale(1e7, { width: 992, height: 464 });
    for (const log of [false, true]) {
      const ys = makeYScale(5e6, 900, log, { width: 992, height: 464 });
      const floor = log ? ys.domain()[0]! : -Infinity;
      const viaD3 = (v: number) => ys(Math.max(v * 1000, floor));
      const splits = curveSplits(72, 882);
      const want = stepPathParts(cv, xs, viaD3, 1e7, splits);
      expect(stepPathParts(cv, fastScale(xs), scaledInput(fastScale(ys), 1000, floor), 1e7, splits)).toEqual(want);
      // A function fastScale did not make is called as it is.
      expect(
        stepPathParts(
          cv,
          (v) => xs(v),
          scaledInput((v) => ys(v), 1000, floor),
          1e7,
          splits,
        ),
      ).toEqual(want);
      // The max's spike is the highest point drawn, at its own pixel.
      const top = Math.min(
        ...want.flatMap((p) =>
          p.d === ""
            ? []
            : p.d
                .slice(1)
                .split(/[ML]/)
                .map((q) => Number(q.split(",")[1])),
        ),
      );
      expect(top).toBe(Math.round(ys(values[n - 2]! * 1000) * 10) / 10);
    }
  });
});

describe("a dense spectrum's columns", () => {
  it("are merged as they are bucket by bucket, without the end of every bucket computed", () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const n of [2, 50, 4000, 20000]) {
      // Counts of every size, dense buckets first, a long tail, values ascending.
      const values: number[] = [];
      const cumulative: number[] = [];
      let v = 100;
      let c = 0;
      for (let i = 0; i < n; i++) {
        v += rnd() < 0.9 ? 1 + Math.floor(rnd() * 3) : Math.floor(rnd() * 5000);
        c += i < n * 0.8 ? 1 + Math.floor(rnd() * 400) : 1 + Math.floor(rnd() * 3);
        values.push(v);
        cumulative.push(c);
      }
      const cv = { values, cumulative, totalCount: c };
      const xEnd = xDomainEnd([cv]);
      for (const width of [300, 992, 1890]) {
        const xs = fastScale(makeXScale(xEnd, { width, height: 440 }));
        for (const log of [false, true]) {
          const ys = fastScale(makeYScale(v, 100, log, { width, height: 440 }));
          // The same arithmetic through plain functions: every bucket's end computed.
          const each = stepPoints(
            cv,
            (q) => xs(q),
            (q) => ys(q),
            xEnd,
            false,
          );
          expect(stepPoints(cv, xs, ys, xEnd, false)).toEqual(each);
          expect(stepPath(cv, xs, ys, xEnd)).toBe(
            stepPath(
              cv,
              (q) => xs(q),
              (q) => ys(q),
              xEnd,
            ),
          );
        }
      }
    }
  });
});

describe("a curve in parts", () => {
  const xs = makeXScale(1e7, { width: 1100, height: 440 });
  const n = 9000;
  const values = Array.from({ length: n }, (_, i) => 1000 + i * 37 + (i % 11) * 3);
  const cumulative = values.map((_, i) => Math.round(((i + 1) / n) ** 0.02 * 5e6));
  const cv = { values, cumulative, totalCount: cumulative[n - 1]! };
  const pointsOf = (d: string) =>
    d === ""
      ? []
      : d
          .slice(1)
          .split(/[ML]/)
          .map((p) => p.split(",").map(Number) as [number, number]);
  /** The curve's length from its start to x (the unrounded points, followed to x on the segment crossing it). */
  const lengthTo = (pts: [number, number][], x: number) => {
    let len = 0;
    for (let k = 1; k < pts.length; k++) {
      const [ax, ay] = pts[k - 1]!;
      const [bx, by] = pts[k]!;
      if (bx <= x) len += Math.hypot(bx - ax, by - ay);
      else {
        if (ax < x) len += Math.hypot(x - ax, ((x - ax) / (bx - ax)) * (by - ay));
        break;
      }
    }
    return len;
  };

  it("cuts at whole pixels into parts at most 480 px wide, none for a narrow plot", () => {
    expect(curveSplits(72, 882)).toEqual([477]);
    expect(curveSplits(72, 374)).toEqual([]);
    expect(curveSplits(72, 1890)).toEqual([527, 981, 1436]);
  });

  it("is the whole path when nothing cuts it", () => {
    for (const log of [false, true]) {
      const ys = makeYScale(3e6, 900, log, { width: 1100, height: 440 });
      expect(stepPathParts(cv, xs, ys, 1e7, [])).toEqual([{ d: stepPath(cv, xs, ys, 1e7), offset: 0 }]);
    }
  });

  it("draws the same points, each part ending where the next starts, at the cut, with the length before it", () => {
    for (const log of [false, true]) {
      const ys = makeYScale(3e6, 900, log, { width: 1100, height: 440 });
      const whole = pointsOf(stepPath(cv, xs, ys, 1e7));
      const unrounded = stepPoints(cv, xs, ys, 1e7);
      // Cuts in the steep start (many points a pixel), in the middle and in the flat tail.
      const splits = [curveSplits(72, 990)[0]!, Math.round(xs(3)), Math.round(xs(1e5))].sort((a, b) => a - b);
      const parts = stepPathParts(cv, xs, ys, 1e7, splits);
      expect(parts.length).toBe(splits.length + 1);
      const joined: [number, number][] = [];
      parts.forEach((p, k) => {
        const pts = pointsOf(p.d);
        expect(pts.length).toBeGreaterThan(1);
        for (const [x] of pts) {
          if (k > 0) expect(x).toBeGreaterThanOrEqual(splits[k - 1]!);
          if (k < splits.length) expect(x).toBeLessThanOrEqual(splits[k]!);
        }
        if (k > 0) {
          expect(pts[0]).toEqual(joined.at(-1));
          expect(pts[0]![0]).toBe(splits[k - 1]);
          expect(p.offset).toBeCloseTo(lengthTo(unrounded, splits[k - 1]!), 6);
        } else expect(p.offset).toBe(0);
        joined.push(...(k > 0 ? pts.slice(1) : pts));
      });
      // Without the points added at the cuts, the whole path's points.
      const added = new Set(parts.slice(1).map((p) => p.d.slice(1).split("L")[0]));
      expect(joined.filter(([x, y]) => !(splits.includes(x) && added.has(`${x},${y}`)))).toEqual(whole);
    }
  });

  it("leaves parts before the curve's start or after its end empty", () => {
    const ys = makeYScale(3e6, 900, false, { width: 1100, height: 440 });
    const unrounded = stepPoints(cv, xs, ys, 1e7);
    const parts = stepPathParts(cv, xs, ys, 1e7, [10, 2000]);
    expect(parts.map((p) => p.d === "")).toEqual([true, false, true]);
    expect(parts[1]!.d).toBe(stepPath(cv, xs, ys, 1e7));
    expect(parts[2]!.offset).toBeCloseTo(lengthTo(unrounded, Infinity), 6);
    expect(stepPathParts({ values: [], cumulative: [], totalCount: 0 }, xs, ys, 1e7, [500])).toEqual([
      { d: "", offset: 0 },
      { d: "", offset: 0 },
    ]);
  });
});

describe("fastScale", () => {
  const probes = [0, 1e-9, 0.3, 1, 1.5, 7, 99.99, 1234.5, 1e6, 3.7e9, -5];
  it("gives d3's numbers for the plot's linear and log scales, niced or not, either range direction", () => {
    const scales = [
      makeXScale(1e8, { width: 1100, height: 440 }),
      makeXScale(1000, { width: 320, height: 440 }),
      makeYScale(1.8e9, 1e5, false, { width: 900, height: 440 }),
      makeYScale(1.8e9, 1e5, true, { width: 900, height: 440 }),
      scaleLinear().domain([5, -3]).range([0, 100]),
      scaleLog().domain([1000, 1]).range([10, 500]),
    ];
    for (const s of scales) {
      const f = fastScale(s);
      for (const v of probes) {
        const want = s(v);
        if (Number.isFinite(want)) expect(f(v)).toBeCloseTo(want, 9);
        else expect(f(v)).toEqual(want);
      }
    }
  });
  it("hands back scales it does not reproduce (clamped, degenerate)", () => {
    const clamped = scaleLinear().domain([0, 1]).range([0, 10]).clamp(true);
    expect(fastScale(clamped)).toBe(clamped);
    const flat = scaleLinear().domain([2, 2]).range([0, 10]);
    expect(fastScale(flat)).toBe(flat);
  });
});

describe("labelledTicks", () => {
  it("labels never overlap, the deepest percentile is always labelled, wide plots label every decade", async () => {
    const { labelledTicks } = await import("./layout");
    for (const decades of [2, 5, 7, 9, 10, 12]) {
      const labels = xTicks(10 ** decades).map((t) => t.label);
      for (const width of [300, 500, 700, 1000, 1400]) {
        const spacing = width / decades;
        const on = labelledTicks(labels, spacing);
        expect(on[on.length - 1]).toBe(true);
        // Neighbouring labels (centred on their ticks) leave room for the longer one.
        const shown = on.map((v, i) => (v ? i : -1)).filter((i) => i >= 0);
        for (let k = 1; k < shown.length; k++) {
          const gap = (shown[k]! - shown[k - 1]!) * spacing;
          const half = (labels[shown[k]!]!.length + labels[shown[k - 1]!]!.length) * 6.8 * 0.5;
          expect(gap).toBeGreaterThanOrEqual(half);
        }
      }
    }
    expect(
      labelledTicks(
        xTicks(1e5).map((t) => t.label),
        200,
      ).every(Boolean),
    ).toBe(true);
  });
});

describe("labelledMaxes", () => {
  it("keeps the highest max's label where labels collide, whatever the series order", () => {
    // Pixel rows: 100 is the highest marker (smallest y); 105 collides with it, 300 does not.
    expect(labelledMaxes([105, 100, 300])).toEqual([false, true, true]);
    expect(labelledMaxes([300, 105, 100])).toEqual([true, false, true]);
  });
  it("gives no label, and takes no room, for a series left out", () => {
    expect(labelledMaxes([100, 105], 13, [true, false])).toEqual([false, true]);
  });
});
