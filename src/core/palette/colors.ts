// Series colours. The first seven are Okabe–Ito's (distinguishable with the common colour-vision
// deficiencies); the other seventeen were chosen greedily, each the farthest (CIEDE2000) from
// those before it among colours with a contrast of at least 2.2 on both themes' backgrounds,
// so 24 series stay apart by colour (colors.test.ts checks the minimum pairwise ΔE). Past 24,
// colours repeat with a dash pattern of their own. A colour says a configuration (or a label
// of one, such as a Gatling request); within a configuration, lower throughputs are lighter
// shades and each throughput has its own dash, so lines differ by more than hue.
//
// Colours are stable: a configuration keeps its slot while any of its series is loaded
// (ColorSlots), so loading more files never recolours what is on screen.
import { interpolateRgb } from "d3";

export const PALETTE = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#999933",
  "#7a15be",
  "#385903",
  "#aa1d3c",
  "#9876ff",
  "#765208",
  "#36c505",
  "#db9b89",
  "#026655",
  "#85527b",
  "#fa4264",
  "#454e7e",
  "#2c8e98",
  "#cf1ecb",
  "#b9a2d9",
  "#9a390f",
  "#9c7b50",
  "#91b581",
] as const;
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "12 4", "4 2 1 2"];
/** Dashes of the second, third … round of the palette (slot ≥ 24). */
const ROUND_DASHES = ["", "10 3", "3 2", "10 2 2 2", "1 2"];

export type Theme = "light" | "dark";

/** The page backgrounds (styles.css): lower throughputs fade toward them. */
const BACKGROUND: Record<Theme, string> = { light: "#ffffff", dark: "#15181d" };

export function colorOf(index: number, _theme: Theme = "light"): string {
  return PALETTE[index % PALETTE.length]!;
}

export function dashOf(index: number): string {
  return DASHES[index % DASHES.length]!;
}

/** The dash of a colour slot past the palette's first round ("" within it). */
export function slotDash(slot: number): string {
  return ROUND_DASHES[Math.floor(slot / PALETTE.length) % ROUND_DASHES.length]!;
}

export interface StyleInput {
  id: string;
  config: string;
  throughput: number | null;
  /** A label within the configuration (a load generator's request name): its own colour. */
  tag?: string;
  format?: string;
  /** A derived copy (the coordinated-omission-corrected view): same colour, its own dash. */
  correctedFrom?: string | null;
}

const CORRECTED_DASH = "1 3";

export interface SeriesStyle {
  color: string;
  dash: string;
  /** The colour slot (stable while the configuration is loaded). */
  configIndex: number;
}

/**
 * What a colour stands for: the configuration, and the label for series a load generator's
 * file holds one per request (those share a configuration, yet are different things). An
 * interval log's Tag= is already part of its configuration.
 */
export function colorKey(s: StyleInput): string {
  const label = s.tag && s.format !== "hlog" && s.format !== "merged" ? s.tag : "";
  return label ? `${s.config}\u0000${label}` : s.config;
}

/**
 * Colour slots that stay put: a key seen for the first time takes the lowest slot free, and
 * keeps it while it is among the keys passed; a key gone frees its slot.
 */
export class ColorSlots {
  private readonly slots: Map<string, number>;

  /** `kept`: slots saved before a reload (keys and slots), taken up again as they were. */
  constructor(kept: readonly (readonly [string, number])[] = []) {
    this.slots = new Map(kept.filter(([k, v]) => typeof k === "string" && Number.isInteger(v) && v >= 0));
  }

  /** The slots held, to save across a reload. */
  entries(): [string, number][] {
    return [...this.slots];
  }

  assign(keys: readonly string[]): Map<string, number> {
    const live = new Set(keys);
    // With nothing loaded (a page starting, before its session is back) nothing is let go.
    if (keys.length > 0) for (const k of [...this.slots.keys()]) if (!live.has(k)) this.slots.delete(k);
    const used = new Set(this.slots.values());
    let next = 0;
    for (const k of keys) {
      if (this.slots.has(k)) continue;
      while (used.has(next)) next++;
      this.slots.set(k, next);
      used.add(next);
    }
    return new Map(this.slots);
  }
}

// Loops and module-level functions, not closures made per call: V8 drops the optimised code of
// short-lived closures at every major collection, and styles are worked out on every update.
const keyIndex = (k: string, i: number): [string, number] => [k, i];
const descending = (a: number, b: number) => b - a;

/**
 * Colour by configuration (slot from `slots`, else order of first appearance), shade and dash
 * by throughput rank within it (highest = strongest and solid; lower ones fade toward the
 * page's background, so the ordering reads the same in the dark theme).
 */
export function stylesFor(series: readonly StyleInput[], theme: Theme = "light", slots?: ColorSlots): Map<string, SeriesStyle> {
  const keySet = new Set<string>();
  for (const s of series) if (!s.correctedFrom) keySet.add(colorKey(s));
  const keys = [...keySet];
  const slotOf = slots ? slots.assign(keys) : new Map(keys.map(keyIndex));
  const out = new Map<string, SeriesStyle>();
  for (const key of keys) {
    const ci = slotOf.get(key)!;
    const members: StyleInput[] = [];
    const rateSet = new Set<number>();
    for (const s of series) {
      if (s.correctedFrom || colorKey(s) !== key) continue;
      members.push(s);
      rateSet.add(s.throughput ?? -1);
    }
    const rates = [...rateSet].sort(descending);
    const base = colorOf(ci, theme);
    for (const [k, s] of members.entries()) {
      const rank = rates.length > 1 ? rates.indexOf(s.throughput ?? -1) : k;
      const lighten = rates.length > 1 ? (rank / rates.length) * 0.55 : 0;
      out.set(s.id, { color: lighten > 0 ? interpolateRgb(base, BACKGROUND[theme])(lighten) : base, dash: dashOf(rank) || slotDash(ci), configIndex: ci });
    }
  }
  for (const s of series) {
    const base = s.correctedFrom ? out.get(s.correctedFrom) : undefined;
    if (s.correctedFrom) out.set(s.id, { color: base?.color ?? colorOf(0, theme), dash: CORRECTED_DASH, configIndex: base?.configIndex ?? 0 });
  }
  return out;
}
