// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), and a dash
// pattern per series so lines differ by more than hue.
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "12 4", "4 2 1 2"];

export function colorOf(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

export function dashOf(index: number): string {
  return DASHES[index % DASHES.length]!;
}
