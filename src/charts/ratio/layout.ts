// Pure layout of the ratio chart (candidate ÷ baseline at every percentile): the x axis is the
// percentile plot's own (1/(1−p), log), y is the ratio on a log scale centred on 1, so 2× slower
// and 2× faster are equally far from the middle. Nothing here touches the DOM.
import { area, line, scaleLog, type ScaleLogarithmic } from "d3";
import { inverseTail, makeXScale, MARGIN, xTicks, type Size } from "../percentile-plot/layout";

export interface RatioCurvePoint {
  percentile: number;
  ratio: number;
  low: number | null;
  high: number | null;
  supported: boolean;
  baseSpread: [number, number] | null;
  candSpread: [number, number] | null;
}

export interface RatioLayoutInput {
  curve: readonly RatioCurvePoint[];
  /** Ratio of the maxes: a point, never a band. */
  maxRatio: number;
  margin: number;
  size: Size;
}

export interface RatioTick {
  value: number;
  label: string;
}

export interface RatioLayout {
  x: ScaleLogarithmic<number, number>;
  y: ScaleLogarithmic<number, number>;
  xEnd: number;
  xTicks: { value: number; label: string }[];
  yTicks: RatioTick[];
  ratioPath: string;
  bandPath: string;
  baseSpreadPath: string;
  candSpreadPath: string;
  /** y of the margin band's edges (1 + m and 1 ÷ (1 + m)). */
  marginTop: number;
  marginBottom: number;
  /** Where the data stops supporting the curve (x pixel), null when it never does inside the axis. */
  stopX: number | null;
  maxPoint: { cx: number; cy: number } | null;
  /** Points drawn (for markers). */
  dots: { cx: number; cy: number; percentile: number }[];
}

/** Ratios a y axis may end at, each side of 1. */
const LIMITS = [1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 1000, 1e4, 1e5, 1e6];

/** Half the y axis, as a factor: the smallest of LIMITS holding every ratio, interval and spread (both ways). */
export function yLimit(values: readonly number[], margin: number): number {
  let f = (1 + margin) * 1.3;
  for (const v of values) if (v > 0 && Number.isFinite(v)) f = Math.max(f, v, 1 / v);
  return LIMITS.find((l) => l >= f * 1.02) ?? LIMITS[LIMITS.length - 1]!;
}

function factorLabel(f: number): string {
  return `${Number(f.toPrecision(3))}`;
}

/**
 * Ticks at 1 and symmetric factors, at least a quarter of the half-axis apart: "×2" above
 * (B slower), "÷2" below (B faster). Short, so they fit the spectrum's left margin.
 */
export function ratioTicks(limit: number): RatioTick[] {
  const steps = [1.05, 1.1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100, 1000, 1e4, 1e5, 1e6].filter((s) => s <= limit * 1.0001);
  const gap = Math.log(limit) / 4;
  const chosen: number[] = [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    const last = chosen[chosen.length - 1];
    if (Math.log(s) >= gap * 0.999 && (last === undefined || Math.log(last / s) >= gap * 0.999)) chosen.push(s);
  }
  const out: RatioTick[] = [{ value: 1, label: "1" }];
  for (const s of chosen) {
    out.push({ value: s, label: `×${factorLabel(s)}` });
    out.push({ value: 1 / s, label: `÷${factorLabel(s)}` });
  }
  return out.sort((a, b) => a.value - b.value);
}

/** x end: the decade holding the deepest percentile the data supports. */
export function ratioXEnd(curve: readonly RatioCurvePoint[]): number {
  let deepest = 100;
  for (const p of curve) if (p.supported) deepest = Math.max(deepest, inverseTail(p.percentile / 100, 1e15));
  return 10 ** Math.ceil(Math.log10(deepest) - 1e-9);
}

export function ratioLayout(input: RatioLayoutInput): RatioLayout {
  const { curve, size, margin } = input;
  const ok = curve.filter((p) => p.supported && Number.isFinite(p.ratio) && p.ratio > 0);
  const xEnd = ratioXEnd(curve);
  const x = makeXScale(xEnd, size);
  const values: number[] = [input.maxRatio];
  for (const p of ok) {
    values.push(p.ratio, p.low ?? p.ratio, p.high ?? p.ratio);
    for (const s of [p.baseSpread, p.candSpread]) if (s) values.push(s[0], s[1]);
  }
  const limit = yLimit(values, margin);
  const y = scaleLog()
    .domain([1 / limit, limit])
    .range([size.height - MARGIN.bottom, MARGIN.top]);
  const clampY = (v: number) => y(Math.min(limit, Math.max(1 / limit, v)));
  const px = (p: RatioCurvePoint) => x(inverseTail(p.percentile / 100, xEnd));
  const ratioPath =
    line<RatioCurvePoint>()
      .x(px)
      .y((p) => clampY(p.ratio))(ok) ?? "";
  const bandPath =
    area<RatioCurvePoint>()
      .x(px)
      .y0((p) => clampY(p.low!))
      .y1((p) => clampY(p.high!))(ok.filter((p) => p.low !== null && p.high !== null)) ?? "";
  const spread = (pick: (p: RatioCurvePoint) => [number, number] | null) => {
    const pts = ok.filter((p) => pick(p) !== null);
    return (
      area<RatioCurvePoint>()
        .x(px)
        .y0((p) => clampY(pick(p)![0]))
        .y1((p) => clampY(pick(p)![1]))(pts) ?? ""
    );
  };
  const last = ok[ok.length - 1];
  const stop = last ? px(last) : null;
  const maxOk = Number.isFinite(input.maxRatio) && input.maxRatio > 0;
  return {
    x,
    y,
    xEnd,
    xTicks: xTicks(xEnd),
    yTicks: ratioTicks(limit),
    ratioPath,
    bandPath,
    baseSpreadPath: spread((p) => p.baseSpread),
    candSpreadPath: spread((p) => p.candSpread),
    marginTop: y(1 + margin),
    marginBottom: y(1 / (1 + margin)),
    stopX: stop !== null && stop < size.width - MARGIN.right - 1 ? stop : null,
    maxPoint: maxOk ? { cx: size.width - MARGIN.right, cy: clampY(input.maxRatio) } : null,
    dots: ok.map((p) => ({ cx: px(p), cy: clampY(p.ratio), percentile: p.percentile })),
  };
}
