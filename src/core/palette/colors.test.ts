import { describe, expect, it } from "vitest";
import { lab } from "d3";
import { ColorSlots, PALETTE, stylesFor } from "./colors";
import { deltaE2000 } from "../../../tests/support/ciede2000";

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

describe("many series", () => {
  it("the 24 palette colours are pairwise distinguishable (CIEDE2000 ≥ 15) and readable on both themes", () => {
    expect(PALETTE.length).toBeGreaterThanOrEqual(24);
    let min = Infinity;
    for (let i = 0; i < 24; i++) for (let j = i + 1; j < 24; j++) min = Math.min(min, deltaE2000(PALETTE[i]!, PALETTE[j]!));
    expect(min).toBeGreaterThanOrEqual(15);
    for (const c of PALETTE) {
      expect(contrast(c, "#ffffff")).toBeGreaterThanOrEqual(2);
      expect(contrast(c, "#15181d")).toBeGreaterThanOrEqual(2);
    }
  });

  it("CIEDE2000 matches Sharma et al.'s published test pairs", () => {
    // Pairs 1, 7 and 17 of Sharma, Wu & Dalal's table (Lab → ΔE00).
    const pair = (l1: number, a1: number, b1: number, l2: number, a2: number, b2: number) => deltaE2000(lab(l1, a1, b1) as unknown as string, lab(l2, a2, b2) as unknown as string);
    expect(pair(50, 2.6772, -79.7751, 50, 0, -82.7485)).toBeCloseTo(2.0425, 3);
    expect(pair(50, 0, 0, 50, -1, 2)).toBeCloseTo(2.3669, 3);
    expect(pair(50, 2.5, 0, 73, 25, -18)).toBeCloseTo(27.1492, 3);
  });

  it("30 configurations: no two share both colour and dash", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, config: `c${i}`, throughput: null }));
    const looks = [...stylesFor(many).values()].map((s) => `${s.color}|${s.dash}`);
    expect(new Set(looks).size).toBe(30);
  });

  it("labels of one load-generator file get colours of their own; an interval log's tags follow the configuration", () => {
    const gatling = ["Home", "Search", "Get document"].map((t, i) => ({ id: `g${i}`, config: "simulation", throughput: null, tag: t, format: "gatling" }));
    expect(new Set([...stylesFor(gatling).values()].map((s) => s.color)).size).toBe(3);
  });

  it("adding files never recolours the series already loaded, and a removed configuration frees its colour", () => {
    const slots = new ColorSlots();
    const demo = ["sysA", "sysB"].flatMap((c) => [2000, 4000].map((t) => ({ id: `${c}${t}`, config: c, throughput: t })));
    const first = stylesFor(demo, "light", slots);
    // A new configuration sorting before both ("alpha") arrives with the next load.
    const more = [{ id: "x", config: "alpha", throughput: null }, ...demo];
    const second = stylesFor(more, "light", slots);
    for (const s of demo) expect(second.get(s.id)!.color).toBe(first.get(s.id)!.color);
    expect(second.get("x")!.color).not.toBe(first.get("sysA2000")!.color);
    const third = stylesFor(
      more.filter((s) => s.config !== "sysA"),
      "light",
      slots,
    );
    const back = stylesFor([...more.filter((s) => s.config !== "sysA"), { id: "n", config: "new", throughput: null }], "light", slots);
    expect(third.get("sysB4000")!.color).toBe(first.get("sysB4000")!.color);
    expect(back.get("n")!.configIndex).toBe(first.get("sysA4000")!.configIndex);
  });
});

describe("colours across a reload", () => {
  it("slots saved before a reload are taken up again, whatever order the files come back in", () => {
    const slots = new ColorSlots();
    stylesFor([{ id: "b", config: "sysB", throughput: null }], "light", slots);
    stylesFor(
      [
        { id: "b", config: "sysB", throughput: null },
        { id: "a", config: "sysA", throughput: null },
      ],
      "light",
      slots,
    );
    const kept = slots.entries();
    // The page starts empty (nothing is let go), then the session's files come back sorted.
    const again = new ColorSlots(kept);
    stylesFor([], "light", again);
    const back = stylesFor(
      [
        { id: "a", config: "sysA", throughput: null },
        { id: "b", config: "sysB", throughput: null },
      ],
      "light",
      again,
    );
    expect(back.get("b")!.configIndex).toBe(0);
    expect(back.get("a")!.configIndex).toBe(1);
  });
});
