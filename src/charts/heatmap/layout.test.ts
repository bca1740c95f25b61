import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { colourIndex, DARK_FLOOR, LUT, lutCss, paintColumns } from "./layout";

/** WCAG relative luminance and contrast ratio, for "can one tell this cell from the page". */
function luminance([r, g, b]: number[]): number {
  const f = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
}
const contrast = (a: number[], b: number[]) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};
const rgb = (css: string) => css.match(/\d+/g)!.map(Number);
const hex = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

describe("heatmap colours", () => {
  const css = readFileSync(join(__dirname, "../../styles.css"), "utf8");
  const dark = css.slice(css.indexOf('[data-theme="dark"] {'));
  const darkColours = ["--bg", "--panel"].map((v) => hex(new RegExp(`${v}:\\s*(#[0-9a-f]{6})`).exec(dark)![1]!));

  it("paints one value, the tail, at least 3:1 against the dark theme's backgrounds", () => {
    const one = rgb(lutCss(colourIndex(1, 50_000, DARK_FLOOR)));
    for (const bg of darkColours) expect(contrast(one, bg)).toBeGreaterThanOrEqual(3);
    // Without the floor it would not be: the reason for it.
    expect(contrast(rgb(lutCss(colourIndex(1, 50_000))), darkColours[0]!)).toBeLessThan(1.5);
  });
  it("keeps more values brighter (towards yellow) on either background", () => {
    for (const floor of [0, DARK_FLOOR]) {
      const idx = [1, 2, 10, 1000, 50_000].map((c) => colourIndex(c, 50_000, floor));
      expect(idx[0]).toBe(floor);
      expect(idx[4]).toBe(255);
      for (let i = 1; i < idx.length; i++) expect(idx[i]!).toBeGreaterThan(idx[i - 1]!);
      const lum = idx.map((i) => luminance(rgb(lutCss(i))));
      for (let i = 1; i < lum.length; i++) expect(lum[i]!).toBeGreaterThan(lum[i - 1]!);
    }
  });
  it("paints every lane on the legend's one scale: a quieter lane's busiest cell is not the legend's top colour", () => {
    const quiet = { t0: [0], t1: [1], cells: [10, 1], rows: 2, maxCell: 10 };
    const own = paintColumns(quiet, 0, 1, 1);
    const shared = paintColumns(quiet, 0, 1, 1, 0, 1000);
    expect(own[1]).toBe(LUT[255]); // row 0 (10 values) is the bottom pixel row, the last word
    expect(shared[1]).toBe(LUT[colourIndex(10, 1000)]);
    expect(shared[1]).not.toBe(LUT[255]);
  });
});
