// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies). A series'
// colour says its configuration; within a configuration, lower throughputs are lighter shades
// and each throughput has its own dash, so lines differ by more than hue.
import { interpolateRgb } from "d3";

const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "12 4", "4 2 1 2"];

export type Theme = "light" | "dark";

/** The page backgrounds (styles.css): lower throughputs fade toward them. */
const BACKGROUND: Record<Theme, string> = { light: "#ffffff", dark: "#15181d" };

export function colorOf(index: number, theme: Theme = "light"): string {
  const c = PALETTE[index % PALETTE.length]!;
  // Okabe–Ito's black vanishes on the dark background; its place there is a light grey.
  return theme === "dark" && c === "#000000" ? "#E0E0E0" : c;
}

export function dashOf(index: number): string {
  return DASHES[index % DASHES.length]!;
}

export interface StyleInput {
  id: string;
  config: string;
  throughput: number | null;
  /** A derived copy (the coordinated-omission-corrected view): same colour, its own dash. */
  correctedFrom?: string | null;
}

const CORRECTED_DASH = "1 3";

export interface SeriesStyle {
  color: string;
  dash: string;
  /** Index of the configuration (order of first appearance). */
  configIndex: number;
}

/**
 * Colour by configuration, shade and dash by throughput rank within it (highest = strongest and
 * solid; lower ones fade toward the page's background, so the ordering reads the same in the
 * dark theme).
 */
export function stylesFor(series: readonly StyleInput[], theme: Theme = "light"): Map<string, SeriesStyle> {
  const configs = [...new Set(series.map((s) => s.config))];
  const out = new Map<string, SeriesStyle>();
  for (const [ci, config] of configs.entries()) {
    const members = series.filter((s) => s.config === config && !s.correctedFrom);
    const rates = [...new Set(members.map((s) => s.throughput ?? -1))].sort((a, b) => b - a);
    const base = colorOf(ci, theme);
    for (const [k, s] of members.entries()) {
      const rank = rates.length > 1 ? rates.indexOf(s.throughput ?? -1) : k;
      const lighten = rates.length > 1 ? (rank / rates.length) * 0.55 : 0;
      out.set(s.id, { color: lighten > 0 ? interpolateRgb(base, BACKGROUND[theme])(lighten) : base, dash: dashOf(rank), configIndex: ci });
    }
  }
  for (const s of series) {
    const base = s.correctedFrom ? out.get(s.correctedFrom) : undefined;
    if (s.correctedFrom) out.set(s.id, { color: base?.color ?? colorOf(0, theme), dash: CORRECTED_DASH, configIndex: base?.configIndex ?? 0 });
  }
  return out;
}
