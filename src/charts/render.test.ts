// Render tests: each chart drawn from fixed inputs to static SVG markup and compared with a
// committed golden file (src/charts/__golden__/*.svg), so a change in what a chart draws (an
// axis, a tick, a curve's path, a label) shows up as a diff to look at, not only as a passing
// layout test. The markup is the server renderer's (no DOM, no effects: the timeline's lines,
// drawn on a canvas in an effect, are not in it; its axes, lanes and window are).
//
// UPDATE_GOLDEN=1 npx vitest run src/charts/render.test.ts rewrites the goldens; look at them
// (a browser opens the .svg files) and commit them with the change that moved them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../tests/support/queue-sim";
import { newHistogram } from "../core/histogram";
import { spectrumOf } from "../core/spectrum";
import type { Unit } from "../core/types";
import type { TimelineSeries } from "../engine/store";
import { PercentilePlot, type PlotSeries, type PlotStep } from "./percentile-plot/PercentilePlot";
import { ThroughputChart } from "./throughput/ThroughputChart";
import type { TpLine } from "./throughput/layout";
import { Timeline, type TimelineLine } from "./timeline/Timeline";

const GOLDEN = path.join(__dirname, "__golden__");
const update = process.env.UPDATE_GOLDEN === "1";

/**
 * Markup a diff can be read in: numbers rounded to 2 decimals (the last digits of a float vary
 * with the order of operations, not with what is drawn), one element per line, and the SVG
 * namespace so the file opens in a browser.
 */
export function normalise(markup: string): string {
  const svg = markup.slice(markup.indexOf("<svg"), markup.lastIndexOf("</svg>") + "</svg>".length);
  return (
    svg
      .replace(/^<svg /, '<svg xmlns="http://www.w3.org/2000/svg" ')
      .replace(/-?\d+\.\d+(?:e[-+]?\d+)?/g, (n) => {
        const r = Number(Number(n).toFixed(2));
        return String(Object.is(r, -0) ? 0 : r);
      })
      .replace(/></g, ">\n<")
      // An element with nothing inside stays on one line.
      .replace(/(<([a-z]+)\b[^>]*>)\n(<\/\2>)/g, "$1$3") + "\n"
  );
}

function matchGolden(name: string, element: ReactElement): void {
  const actual = normalise(renderToStaticMarkup(element));
  const file = path.join(GOLDEN, `${name}.svg`);
  if (update) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file))
    throw new Error(`no golden file ${path.relative(process.cwd(), file)}: run UPDATE_GOLDEN=1 npx vitest run src/charts/render.test.ts, look at it and commit it`);
  expect(actual, `${name}.svg differs from its golden file (UPDATE_GOLDEN=1 rewrites it once the change is meant)`).toBe(readFileSync(file, "utf8"));
}

/** A series from values recorded into a histogram: what the app plots after a load. */
function series(id: string, values: number[], color: string, dash = "", recordedUnit: Unit = "us"): PlotSeries {
  const h = newHistogram();
  for (const v of values) h.recordValue(v);
  const s = spectrumOf(h);
  return { id, name: id, color, dash, recordedUnit, values: s.values, cumulative: s.cumulative, totalCount: s.totalCount, max: s.max, min: s.min };
}

/** 20,000 log-normal latencies around a median (µs), and (when given) a stall's back-filled values down from its length. */
function latencies(seed: number, medianUs: number, stallUs = 0): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < 20000; i++) {
    // Box-Muller: one normal from two uniforms.
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    out.push(Math.max(1, Math.round(medianUs * Math.exp(0.45 * z))));
  }
  for (let v = stallUs; v > medianUs * 4; v -= 1000) out.push(v);
  return out;
}

const plotSeries = [series("sysA_4k", latencies(1, 800, 120_000), "#1f77b4"), series("sysB_4k", latencies(2, 650), "#d62728", "6 3")];
const requirement: PlotStep[] = [
  { from: 0, to: 50, limitNs: 1e6, label: "1 ms" },
  { from: 50, to: 99, limitNs: 5e6, label: "5 ms" },
  { from: 99, to: 100, limitNs: 50e6, label: "50 ms" },
];

describe("percentile plot", () => {
  it("two series on a log axis, with a requirement", () => {
    matchGolden("percentile-plot", createElement(PercentilePlot, { series: plotSeries, requirement, unit: "ms", yLog: true, width: 760, height: 420 }));
  });

  it("a linear axis, in microseconds, titled", () => {
    matchGolden("percentile-plot-linear", createElement(PercentilePlot, { series: plotSeries, unit: "us", yLog: false, width: 560, height: 340, title: "sysA vs sysB" }));
  });
});

/** A 60-interval timeline whose max climbs from `base` and jumps during a stall at 20–22 s. */
function timelineSeries(id: string, base: number, stall: number): TimelineSeries {
  const n = 60;
  const t0 = new Float64Array(n);
  const t1 = new Float64Array(n);
  const max = new Float64Array(n);
  const count = new Float64Array(n);
  const p99 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    t0[i] = i;
    t1[i] = i + 1;
    max[i] = i >= 20 && i < 22 ? stall : base * (1 + i / 60);
    count[i] = 4000;
    p99[i] = max[i]! / 3;
  }
  return { id, recordedUnit: "us", startTime: null, t0, t1, max, count, percentiles: { "99": p99 } };
}

const timelineLines: TimelineLine[] = [
  { id: "sysA_4k", name: "sysA_4k", color: "#1f77b4", dash: "", data: timelineSeries("sysA_4k", 3000, 120_000) },
  { id: "sysB_4k", name: "sysB_4k", color: "#d62728", dash: "6 3", data: timelineSeries("sysB_4k", 2500, 2500) },
];
const none = () => {};

describe("timeline", () => {
  it("overlaid series with a selected window", () => {
    matchGolden(
      "timeline",
      createElement(Timeline, {
        lines: timelineLines,
        unit: "ms",
        percentiles: [99],
        perLane: false,
        wallClock: false,
        yLog: true,
        domain: [0, 60],
        range: { start: 15, end: 30 },
        width: 760,
        height: 220,
        onBrush: none,
        onZoom: none,
      }),
    );
  });

  it("one lane per series, linear", () => {
    matchGolden(
      "timeline-lanes",
      createElement(Timeline, {
        lines: timelineLines,
        unit: "us",
        percentiles: [],
        perLane: true,
        wallClock: false,
        yLog: false,
        domain: [0, 60],
        range: { start: null, end: null },
        width: 760,
        height: 300,
        onBrush: none,
        onZoom: none,
      }),
    );
  });
});

describe("timeline time ticks", () => {
  it("a label at the right edge of a day ends at its tick instead of running past the drawing", () => {
    const day = (id: string): TimelineLine => {
      const data = timelineSeries(id, 3000, 9000);
      const k = 86_400 / 60;
      return { id, name: id, color: "#1f77b4", dash: "", data: { ...data, t0: data.t0.map((v) => v * k), t1: data.t1.map((v) => v * k) } };
    };
    const svg = renderToStaticMarkup(
      createElement(Timeline, {
        lines: [day("sysA")],
        unit: "ms",
        percentiles: [],
        perLane: false,
        wallClock: false,
        yLog: false,
        domain: [0, 86_400],
        range: { start: null, end: null },
        width: 760,
        height: 220,
        onBrush: none,
        onZoom: none,
      }),
    );
    const ticks = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)">([^<]+)<\/text>/g)].map((m) => ({ x: Number(m[1]), anchor: m[2]!, label: m[3]! }));
    const last = ticks.find((t) => t.label === "1d 0:00:00");
    expect(last).toBeDefined();
    expect(last!.anchor).toBe("end");
    expect(last!.x).toBeLessThanOrEqual(760);
    // Ticks inside keep their labels centred.
    expect(ticks.find((t) => t.label === "12:00:00")?.anchor).toBe("middle");
  });
});

describe("throughput chart", () => {
  it("two configurations at three throughputs against two limits", () => {
    const lines: TpLine[] = [
      {
        config: "sysA",
        percentile: 99,
        color: "#1f77b4",
        dash: "",
        points: [
          { throughput: 2000, value: 3.1, pass: true },
          { throughput: 4000, value: 12.5, pass: false },
          { throughput: 8000, value: 180, pass: false },
        ],
      },
      {
        config: "sysB",
        percentile: 99,
        color: "#d62728",
        dash: "",
        points: [
          { throughput: 2000, value: 1.2, pass: true },
          { throughput: 4000, value: 1.6, pass: true },
          { throughput: 8000, value: 4.4, pass: true },
        ],
      },
      {
        config: "sysB",
        percentile: 100,
        color: "#d62728",
        dash: "6 3",
        points: [
          { throughput: 2000, value: 9, pass: true },
          { throughput: 4000, value: 14, pass: true },
          { throughput: 8000, value: 61, pass: false },
        ],
      },
    ];
    const limits = [
      { percentile: 99, limit: 5, label: "p99 ≤ 5 ms" },
      { percentile: 100, limit: 50, label: "max ≤ 50 ms" },
    ];
    matchGolden("throughput", createElement(ThroughputChart, { lines, limits, unit: "ms", width: 760, height: 360 }));
  });
});

describe("normalise", () => {
  it("rounds to 2 decimals, keeps integers and labels, puts one element per line", () => {
    expect(normalise('<div><svg width="10"><path d="M1.23456,-0.001L3e-7,2"></path><text>99.9%</text></svg></div>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10">\n<path d="M1.23,0L3e-7,2"></path>\n<text>99.9%</text>\n</svg>\n',
    );
  });
});
