import { describe, expect, it } from "vitest";
import { stylesFor } from "./colors";

/** WCAG relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex) ?? /^rgb\((\d+), (\d+), (\d+)\)$/.exec(hex);
  if (!m) throw new Error(`not a colour: ${hex}`);
  const [r, g, b] = [1, 2, 3]
    .map((i) => (m[0]!.startsWith("rgb") ? Number(m[i]) : Number.parseInt(m[i]!, 16)) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

describe("series colours", () => {
  const eight = Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, config: `c${i}`, throughput: null }));
  it.each([
    ["light", "#ffffff"],
    ["dark", "#15181d"],
  ] as const)("every configuration's colour stands out from the %s background (contrast ≥ 2)", (theme, bg) => {
    for (const st of stylesFor(eight, theme).values()) expect(contrast(st.color, bg)).toBeGreaterThanOrEqual(2);
  });

  it("lower throughputs of a configuration fade toward the background, in both themes", () => {
    const runs = [1000, 2000, 4000].map((t) => ({ id: `r${t}`, config: "A", throughput: t }));
    for (const [theme, bg] of [
      ["light", "#ffffff"],
      ["dark", "#15181d"],
    ] as const) {
      const s = stylesFor(runs, theme);
      const c = [4000, 2000, 1000].map((t) => contrast(s.get(`r${t}`)!.color, bg));
      expect(c[0]!).toBeGreaterThan(c[1]!);
      expect(c[1]!).toBeGreaterThan(c[2]!);
    }
  });
});
