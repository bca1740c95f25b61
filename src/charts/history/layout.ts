// The history chart's geometry, pure: runs across, latency up (log), a line per percentile with
// each run's interval, the changes marked, and a strip of the whole spectrum per run coloured
// by its ratio to the stable stretch before it.
import { scaleLinear, scaleLog } from "d3";
import { HISTORY_MIN_ABOVE } from "../../core/history/summary";
import { HISTORY_PERCENTILES, SUMMARY_PERCENTILES, type Change, type RunSummary } from "../../core/history/types";

export const HISTORY_COLORS: Record<string, string> = {
  "50": "#2f7fc1",
  "90": "#2a9d5c",
  "99": "#d98a00",
  "99.9": "#d1453b",
  "99.99": "#8e5bbf",
  "100": "#7a7a7a",
};
/** Rows of the strip: the spectrum up to p99.999 (the max, one value, is too noisy to colour). */
export const STRIP_PERCENTILES: readonly number[] = SUMMARY_PERCENTILES.filter((p) => p < 100);
/** Percentiles drawn as lines (the max dashed, never judged). */
export const LINE_PERCENTILES: readonly number[] = [...HISTORY_PERCENTILES, 100];

export interface HistoryLayoutInput {
  runs: readonly RunSummary[];
  series: string;
  changes: readonly Change[];
  width: number;
  /** Display unit ÷ recorded unit: values are multiplied by this to be drawn. */
  scale: number;
  margin: number;
}

export interface HistoryLayout {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  /** x of run i's centre, and the width of its column. */
  xs: number[];
  column: number;
  lines: { percentile: number; color: string; dash: string; d: string }[];
  bars: { percentile: number; x: number; y1: number; y2: number; color: string }[];
  yTicks: { y: number; value: number }[];
  xLabels: { x: number; text: string }[];
  markers: { change: Change; x: number; y: number }[];
  strip: { top: number; rowHeight: number; cells: { run: number; percentile: number; x: number; y: number; ratio: number | null; fill: string }[] };
}

const Z = 1.96;

/** The run's stable stretch before it: from the last change of the series before it. */
export function stretchBefore(run: number, changes: readonly Change[], series: string): [number, number] {
  let from = 0;
  for (const c of changes) if (c.series === series && c.index < run && c.index > from) from = c.index;
  return [from, run];
}

function ratioFill(ratio: number | null, margin: number): string {
  if (ratio === null || !Number.isFinite(ratio)) return "var(--history-none, #bbb)";
  const l = Math.log(ratio);
  if (Math.abs(l) <= Math.log(1 + margin)) return "var(--history-same, #d9d9d9)";
  // Red for slower, blue for faster; full colour at ×1.5.
  const t = Math.min(1, (Math.abs(l) - Math.log(1 + margin)) / (Math.log(1.5) - Math.log(1 + margin)));
  const light = Math.round(85 - 40 * t);
  return l > 0 ? `hsl(4 75% ${light}%)` : `hsl(212 70% ${light}%)`;
}

export function historyLayout(o: HistoryLayoutInput): HistoryLayout {
  const n = o.runs.length;
  const plot = { left: 64, top: 12, right: o.width - 16, bottom: 250 };
  const stripRows = STRIP_PERCENTILES.length;
  const rowHeight = 11;
  const stripTop = plot.bottom + 34;
  const height = stripTop + stripRows * rowHeight + 8;
  const x = scaleLinear()
    .domain([-0.5, Math.max(0.5, n - 0.5)])
    .range([plot.left, plot.right]);
  const xs = o.runs.map((_, i) => x(i));
  const column = n > 0 ? (plot.right - plot.left) / n : 0;
  const own = o.runs.map((r) => r.series.find((s) => s.name === o.series) ?? null);
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of own) {
    if (!s) continue;
    for (const p of LINE_PERCENTILES) {
      const v = s.percentiles[String(p)]! * o.scale;
      if (v > 0) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
    }
  }
  if (!(lo < hi)) [lo, hi] = lo > 0 && Number.isFinite(lo) ? [lo / 2, lo * 2] : [1, 10];
  const y = scaleLog()
    .domain([lo / 1.2, hi * 1.2])
    .range([plot.bottom, plot.top]);
  const lines: HistoryLayout["lines"] = [];
  const bars: HistoryLayout["bars"] = [];
  for (const p of LINE_PERCENTILES) {
    const key = String(p);
    let d = "";
    let pen = false;
    own.forEach((s, i) => {
      const v = s ? s.percentiles[key]! * o.scale : 0;
      const supported = s && v > 0 && (p === 100 || s.se[key] !== null);
      if (!supported) {
        pen = false;
        return;
      }
      d += `${pen ? "L" : "M"}${xs[i]!.toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
      const se = p === 100 ? null : s.se[key];
      if (se) bars.push({ percentile: p, x: xs[i]!, y1: y(v * Math.exp(Z * se)), y2: y(v * Math.exp(-Z * se)), color: HISTORY_COLORS[key]! });
    });
    lines.push({ percentile: p, color: HISTORY_COLORS[key]!, dash: p === 100 ? "4 3" : "", d });
  }
  // 1, 2 and 5 of each decade (all nine crowd each other), fewer when the range is wide.
  const decades = Math.log10(y.domain()[1]! / y.domain()[0]!);
  const keep = decades > 3 ? [1] : decades > 1.5 ? [1, 3] : [1, 2, 5];
  const yTicks = y
    .ticks(10)
    .filter((v) => keep.includes(Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9))))
    .map((value) => ({ y: y(value), value }));
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor((plot.right - plot.left) / 90))));
  const xLabels = o.runs.flatMap((r, i) => (i % every === 0 ? [{ x: xs[i]!, text: r.id }] : []));
  const markers = o.changes.filter((c) => c.series === o.series).map((c) => ({ change: c, x: x(c.index - 0.5), y: y(c.after * o.scale) }));
  const cells: HistoryLayout["strip"]["cells"] = [];
  own.forEach((s, i) => {
    const [from, to] = stretchBefore(i, o.changes, o.series);
    STRIP_PERCENTILES.forEach((p, row) => {
      const key = String(p);
      let ratio: number | null = null;
      // Coloured only where the run holds enough values above p, as the change points need.
      const enough = s !== null && s.count * (1 - p / 100) >= HISTORY_MIN_ABOVE;
      if (s && enough && to > from) {
        let sum = 0;
        let k = 0;
        for (let j = from; j < to; j++) {
          const v = own[j]?.percentiles[key];
          if (v && v > 0) {
            sum += Math.log(v);
            k++;
          }
        }
        if (k > 0 && s.percentiles[key]! > 0) ratio = s.percentiles[key]! / Math.exp(sum / k);
      }
      cells.push({ run: i, percentile: p, x: xs[i]! - column / 2, y: stripTop + (stripRows - 1 - row) * rowHeight, ratio, fill: ratioFill(ratio, o.margin) });
    });
  });
  return { width: o.width, height, plot, xs, column, lines, bars, yTicks, xLabels, markers, strip: { top: stripTop, rowHeight, cells } };
}
