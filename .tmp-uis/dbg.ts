import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { PercentilePlot } from "../src/charts/percentile-plot/PercentilePlot";
import { jhiccupIntervals } from "../scripts/lib/many-series-fixture";
import { newHistogram, addInto } from "../src/core/histogram";
import { spectrumOf } from "../src/core/spectrum";
const h = newHistogram();
for (const iv of jhiccupIntervals()) addInto(h as never, iv.histogram as never);
const s = spectrumOf(h);
console.log(Array.from(s.values).slice(0, 5), Array.from(s.cumulative).slice(0, 5), s.totalCount, s.min);
const html = renderToStaticMarkup(createElement(PercentilePlot, { series: [{ id: "a", name: "a", color: "#000", dash: "", recordedUnit: "ns", values: s.values, cumulative: s.cumulative, totalCount: s.totalCount, max: s.max, min: s.min }], unit: "ms", yLog: true, width: 900, height: 440 }));
console.log(/<path d="([^"]{0,200})/.exec(html)![1]);
const g = newHistogram(); for (let v = 1200; v < 5e6; v *= 1.1) g.recordValue(Math.round(v));
const gs = spectrumOf(g);
const html2 = renderToStaticMarkup(createElement(PercentilePlot, { series: [
  { id: "a", name: "a", color: "#000", dash: "", recordedUnit: "ns", values: s.values, cumulative: s.cumulative, totalCount: s.totalCount, max: s.max, min: s.min },
  { id: "b", name: "b", color: "#000", dash: "", recordedUnit: "ns", values: gs.values, cumulative: gs.cumulative, totalCount: gs.totalCount, max: gs.max, min: gs.min }], unit: "ms", yLog: true, width: 900, height: 440 }));
console.log(/<path d="([^"]{0,120})/.exec(html2)![1]);
console.log([...html2.matchAll(/<text x="66" y="([\d.]+)"[^>]*>([^<]*)/g)].map(m=>m[1]+":"+m[2]).join(" "));
