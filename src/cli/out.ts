// What `--out DIR` writes: the charts (percentile plot, max over time, one ratio chart per
// compared pair), one .hgrm per series, the Markdown, the JSON and the deck (deck.pptx).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Requirement } from "../core/requirements";
import type { Unit } from "../core/types";
import type { Store, TimeRange } from "../engine/store";
import type { ComparedPair } from "./compare";
import { CliError } from "./errors";
import type { Row } from "./report";
import type { LogAxis } from "./svg";

export interface OutInput {
  store: Store;
  rows: Row[];
  requirement: Requirement | null;
  unit: Unit;
  /** The range each .hgrm covers. */
  hgrmRange: TimeRange;
  baseline: string | null;
  pairs: ComparedPair[];
  logAxis: LogAxis;
  markdown: string;
  jsonText: string;
}

/** The --log-axis value: auto (a log axis where the data spans more than two decades), on or off. */
export function logAxisOf(v: string | null): LogAxis {
  if (v === null || v === "auto" || v === "on" || v === "off") return v ?? "auto";
  throw new CliError(2, `--log-axis ${v}: expected auto, on or off`);
}

/** A file name from a series name: without characters file systems refuse, unique among `taken`. */
export function safeName(name: string, taken: Set<string>): string {
  // Control characters are among what file systems refuse in names.
  // eslint-disable-next-line no-control-regex -- the class names them on purpose
  const refused = /[\\/:*?"<>|\u0000-\u001f]+/g;
  const base = name.replace(refused, "_").replace(/^\.+/, "_").slice(0, 120) || "series";
  let n = base;
  for (let k = 2; taken.has(n); k++) n = `${base}-${k}`;
  taken.add(n);
  return n;
}

export async function writeOut(dir: string, o: OutInput): Promise<void> {
  // The charts' code (React, D3) is loaded only when charts are written: most runs never need it.
  const { percentilePlotSvg, ratioSvg, timelineColumns, timelineSvg } = await import("./svg");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "percentile-plot.svg"), percentilePlotSvg(o.rows, o.requirement, o.unit, 960, 480, o.logAxis));
  const width = 960;
  const tl = o.store.timeline({ t0: null, t1: null, columns: timelineColumns(width), percentiles: [] });
  writeFileSync(join(dir, "max-over-time.svg"), timelineSvg(tl, o.rows, o.unit, width, 300, o.logAxis));
  const taken = new Set<string>();
  for (const r of o.rows) writeFileSync(join(dir, `${safeName(r.view.name, taken)}.hgrm`), o.store.exportHgrm(r.view.id, o.hgrmRange, o.unit));
  const ratios = new Set<string>();
  for (const p of o.pairs) {
    const base = o.baseline ?? p.result.base.label;
    writeFileSync(join(dir, `ratio-${safeName(`${base}-vs-${p.candidate}`, ratios)}.svg`), ratioSvg(p.result, p.headline));
  }
  writeFileSync(join(dir, "summary.md"), o.markdown);
  writeFileSync(join(dir, "report.json"), o.jsonText);
  // The deck's builder (pptxgenjs) is loaded only here, like the charts.
  const { writeDeck } = await import("./deck");
  await writeDeck(dir, o);
}
