// The deck model (deck-model.ts) as a PowerPoint file, with pptxgenjs: slide 1 the answer as
// editable text, then one slide per chart (native charts a manager can restyle; the heatmap
// as a sharp image), the method in the speaker notes. The same code runs in the page (loaded
// only when a deck is asked for) and in the command line.
import PptxGenJS from "pptxgenjs";
import type { DeckChart, DeckLine, DeckModel } from "./deck-model";

/** 13.33 × 7.5 inches: PowerPoint's widescreen slide. */
const W = 13.333;
const H = 7.5;
const FONT = "Calibri";
const FG = "1F2328";
const MUTED = "59636E";
const PASS = "1A7F37";
const FAIL = "C62828";
const FALLBACK = ["1F77B4", "FF7F0E", "2CA02C", "D62728", "9467BD", "8C564B", "E377C2", "7F7F7F", "BCBD22", "17BECF"];

function hex(color: string, i: number): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(color.trim());
  if (m) return m[1]!.toUpperCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color.trim());
  if (short) return `${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toUpperCase();
  return FALLBACK[i % FALLBACK.length]!;
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function heading(slide: PptxGenJS.Slide, title: string, subtitle: string): void {
  slide.addText(title, { x: 0.5, y: 0.3, w: W - 1, h: 0.7, fontFace: FONT, fontSize: 28, bold: true, color: FG });
  if (subtitle) slide.addText(subtitle, { x: 0.5, y: 0.95, w: W - 1, h: 0.55, fontFace: FONT, fontSize: 14, color: MUTED, valign: "top" });
}

function chartSlide(pptx: PptxGenJS, c: DeckChart): void {
  const slide = pptx.addSlide();
  heading(slide, c.title, c.subtitle);
  slide.addNotes(c.notes);
  const area = { x: 0.5, y: 1.55, w: W - 1, h: H - 1.85 };
  const axisText = { fontFace: FONT, fontSize: 12, color: MUTED } as const;
  if (c.kind === "line") {
    const data = (l: DeckLine) => ({ name: l.name, labels: c.categories, values: l.values as number[] });
    const solid = c.lines.every((l) => (l.dash ?? "solid") === "solid");
    // A chart's dash is one for all its lines, so dashed lines go in as one line chart each, on
    // the same axes (the legend still lists every line in order).
    const lines = solid
      ? { type: "line" as const, data: c.lines.map(data) }
      : c.lines.map((l, i) => ({ type: "line" as const, data: [data(l)], options: { chartColors: [hex(l.color, i)], lineDash: l.dash ?? "solid" } }));
    const options: PptxGenJS.IChartOpts = {
      ...area,
      chartColors: c.lines.map((l, i) => hex(l.color, i)),
      lineSize: 2,
      lineDataSymbol: "none",
      displayBlanksAs: "gap",
      showLegend: true,
      legendPos: "b",
      legendFontSize: 12,
      legendFontFace: FONT,
      catAxisLabelFrequency: String(c.labelEvery),
      catAxisLabelFontSize: 12,
      catAxisLabelColor: MUTED,
      catAxisLabelFontFace: FONT,
      catAxisTitle: c.xTitle,
      showCatAxisTitle: true,
      catAxisTitleFontSize: 12,
      catAxisTitleColor: MUTED,
      catAxisMajorTickMark: "none",
      valAxisLogScaleBase: c.yLog ? 10 : undefined,
      valAxisLabelFontSize: 12,
      valAxisLabelColor: MUTED,
      valAxisLabelFontFace: FONT,
      valAxisTitle: c.yTitle,
      showValAxisTitle: true,
      valAxisTitleFontSize: 12,
      valAxisTitleColor: MUTED,
      valGridLine: { color: "E3E6EA", size: 0.75 },
    };
    // pptxgenjs reads a combination's options from the second argument (its typings say data).
    if (Array.isArray(lines)) slide.addChart(lines, options as unknown as unknown[]);
    else slide.addChart(lines.type, lines.data, options);
  } else if (c.kind === "bar") {
    slide.addChart(pptx.ChartType.bar, [{ name: c.yTitle, labels: c.categories, values: c.values }], {
      ...area,
      barDir: "col",
      chartColors: ["2B6CB0"],
      showValue: true,
      dataLabelFontSize: 14,
      dataLabelFontFace: FONT,
      catAxisLabelFontSize: 14,
      catAxisLabelFontFace: FONT,
      valAxisTitle: c.yTitle,
      showValAxisTitle: true,
      valAxisTitleFontSize: 12,
      valAxisLabelFontSize: 12,
      valGridLine: { color: "E3E6EA", size: 0.75 },
      ...axisText,
    });
  } else {
    const labelW = 1.2;
    const gap = 0.1;
    // The latency axis' title, once for all lanes, along the left edge.
    const titleW = 0.3;
    slide.addText(c.yTitle, {
      x: area.x - area.h / 2 + titleW / 2 - 0.2,
      y: area.y + area.h / 2 - titleW / 2,
      w: area.h,
      h: titleW,
      rotate: 270,
      align: "center",
      fontFace: FONT,
      fontSize: 12,
      color: MUTED,
      margin: 0,
    });
    // The series left out, named on a line under the lanes (the subtitle has no room for them).
    const moreH = c.more ? 0.35 : 0;
    if (c.more) slide.addText(c.more, { x: area.x + labelW, y: area.y + area.h - 0.3, w: area.w - labelW, h: 0.3, fontFace: FONT, fontSize: 12, color: MUTED, margin: 0 });
    const laneH = (area.h - moreH - gap * (c.lanes.length - 1)) / c.lanes.length;
    c.lanes.forEach((lane, i) => {
      const y = area.y + i * (laneH + gap);
      const nameH = 0.3;
      const imgH = laneH - nameH;
      slide.addText(lane.name, { x: area.x + labelW, y, w: area.w - labelW, h: nameH, fontFace: FONT, fontSize: 12, bold: true, color: FG, margin: 0 });
      slide.addImage({ data: `image/png;base64,${base64(lane.png)}`, x: area.x + labelW, y: y + nameH, w: area.w - labelW, h: imgH, altText: `Heatmap of ${lane.name}` });
      slide.addShape(pptx.ShapeType.rect, {
        x: area.x + labelW,
        y: y + nameH,
        w: area.w - labelW,
        h: imgH,
        line: { color: "C9CED4", width: 0.75 },
        fill: { type: "none" } as never,
      });
      for (const t of lane.ticks) {
        slide.addText(t.label, {
          x: area.x,
          y: y + nameH + imgH * (1 - t.at) - 0.13,
          w: labelW - 0.08,
          h: 0.26,
          fontFace: FONT,
          fontSize: 11,
          color: MUTED,
          align: "right",
          margin: 0,
        });
      }
    });
  }
}

/** The deck as a .pptx file's bytes. */
export async function pptxBytes(m: DeckModel): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.layout = "LAYOUT_WIDE";
  pptx.title = m.title;
  pptx.company = "hdr-spectrum";
  const first = pptx.addSlide();
  // Laid out from the top: a long headline takes more lines in smaller type, the sides share
  // what is left above the context line (renderers differ in shrinking text to fit a box).
  const long = m.title.length > 180;
  const perLine = long ? 80 : 60;
  const titleH = Math.min(2.6, 0.55 * Math.ceil(m.title.length / perLine) * (long ? 0.8 : 1) + 0.2);
  first.addText(m.title, { x: 0.6, y: 0.5, w: W - 1.2, h: titleH, fontFace: FONT, fontSize: long ? 24 : 32, bold: true, color: FG, valign: "top", fit: "shrink" });
  let y = 0.5 + titleH + 0.2;
  const contextTop = H - 1.1;
  if (m.requirement) {
    // A long requirement takes two lines.
    const reqH = m.requirement.length > 70 ? 0.8 : 0.45;
    first.addText(m.requirement, { x: 0.6, y, w: W - 1.2, h: reqH, fontFace: FONT, fontSize: 18, color: FG, valign: "top" });
    y += reqH + 0.05;
    const sideH = Math.min(0.5, (contextTop - 0.1 - y) / Math.max(1, m.sides.length));
    const size = sideH >= 0.45 ? 20 : sideH >= 0.33 ? 16 : 12;
    for (const s of m.sides) {
      const mark = s.pass === null ? "·" : s.pass ? "✓" : "✗";
      const color = s.pass === null ? MUTED : s.pass ? PASS : FAIL;
      first.addText(
        [
          { text: `${mark} `, options: { color, bold: true } },
          { text: s.name, options: { bold: true, color: FG } },
          { text: ` ${s.text}`, options: { color: FG } },
        ],
        { x: 0.9, y, w: W - 1.5, h: sideH, fontFace: FONT, fontSize: size, margin: 0 },
      );
      y += sideH;
    }
  }
  first.addText(m.context, { x: 0.6, y: contextTop, w: W - 1.2, h: 0.7, fontFace: FONT, fontSize: 14, color: MUTED, valign: "top" });
  first.addNotes(m.method);
  for (const c of m.charts) chartSlide(pptx, c);
  const out = await pptx.write({ outputType: "uint8array", compression: true });
  return out as Uint8Array;
}
