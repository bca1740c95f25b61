// A history as a link: the runs' summaries as numbers (no histogram: the chart, the strip and
// the change points are all computed from them), in its own fragment, `#history=1.<data>`,
// data = base64url(zlib(JSON)). The page's share links (`#s=`, schema.ts) are another form.
import type { RunSummary, SeriesSummary } from "../core/history/types";
import { HISTORY_PERCENTILES, SUMMARY_PERCENTILES } from "../core/history/types";
import { HISTORY_PREFIX } from "./history-prefix";
import { base64urlDecode, base64urlEncode, zlibDeflate, zlibInflateBounded } from "./bytes";

export const HISTORY_LINK_VERSION = 1;
export { HISTORY_PREFIX } from "./history-prefix";
/** Limits a link must keep (a hostile link is refused with a reason, never a crash). */
export const HISTORY_LIMITS = { runs: 5000, series: 32, name: 200, inflated: 16 << 20, fragment: 4 << 20 } as const;

const UNITS = ["ns", "us", "ms", "s"];

/** [series index, unit index, count, 7 percentile values, 5 standard errors (−1: none)] */
type PackedSeries = [number, number, number, number[], number[]];
interface Packed {
  v: number;
  s: string[];
  r: [string, number | null, PackedSeries[]][];
}

export function historyFragment(runs: readonly RunSummary[]): string {
  const names: string[] = [];
  const idx = (n: string) => {
    let i = names.indexOf(n);
    if (i < 0) i = names.push(n) - 1;
    return i;
  };
  const packed: Packed = {
    v: HISTORY_LINK_VERSION,
    s: names,
    r: runs.map((r) => [
      r.id,
      r.start,
      r.series.map((s): PackedSeries => [
        idx(s.name),
        Math.max(0, UNITS.indexOf(s.unit)),
        s.count,
        SUMMARY_PERCENTILES.map((p) => s.percentiles[String(p)] ?? 0),
        HISTORY_PERCENTILES.map((p) => s.se[String(p)] ?? -1),
      ]),
    ]),
  };
  const bytes = zlibDeflate(new TextEncoder().encode(JSON.stringify(packed)));
  return `${HISTORY_PREFIX}${HISTORY_LINK_VERSION}.${base64urlEncode(bytes)}`;
}

export type OpenedHistory = { ok: true; runs: RunSummary[] } | { ok: false; reason: string };

const isNum = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const isStr = (x: unknown, max: number): x is string => typeof x === "string" && x.length > 0 && x.length <= max;

export function openHistoryFragment(hash: string): OpenedHistory {
  if (!hash.startsWith(HISTORY_PREFIX)) return { ok: false, reason: "not a history link" };
  if (hash.length > HISTORY_LIMITS.fragment) return { ok: false, reason: "the history link is too long" };
  const body = hash.slice(HISTORY_PREFIX.length);
  const dot = body.indexOf(".");
  const version = Number(body.slice(0, dot));
  if (dot < 0 || !Number.isInteger(version)) return { ok: false, reason: "the history link has no version" };
  if (version > HISTORY_LINK_VERSION) return { ok: false, reason: `the history link is of version ${version}, newer than this page reads (${HISTORY_LINK_VERSION})` };
  let doc: Packed;
  try {
    doc = JSON.parse(new TextDecoder().decode(zlibInflateBounded(base64urlDecode(body.slice(dot + 1)), HISTORY_LIMITS.inflated))) as Packed;
  } catch (e) {
    return { ok: false, reason: `the history link's data is corrupt (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!doc || !Array.isArray(doc.s) || !Array.isArray(doc.r)) return { ok: false, reason: "the history link holds no runs" };
  if (doc.r.length > HISTORY_LIMITS.runs || doc.s.length > HISTORY_LIMITS.series) return { ok: false, reason: "the history link holds more runs or series than a link may" };
  if (!doc.s.every((n) => isStr(n, HISTORY_LIMITS.name))) return { ok: false, reason: "a series name in the history link is not valid" };
  const runs: RunSummary[] = [];
  for (const r of doc.r) {
    if (!Array.isArray(r) || !isStr(r[0], HISTORY_LIMITS.name) || !(r[1] === null || isNum(r[1])) || !Array.isArray(r[2]) || r[2].length > HISTORY_LIMITS.series)
      return { ok: false, reason: "a run in the history link is not valid" };
    const series: SeriesSummary[] = [];
    for (const s of r[2]) {
      if (
        !Array.isArray(s) ||
        !doc.s[s[0]] ||
        !UNITS[s[1]] ||
        !isNum(s[2]) ||
        !Array.isArray(s[3]) ||
        !Array.isArray(s[4]) ||
        s[3].length !== SUMMARY_PERCENTILES.length ||
        s[4].length !== HISTORY_PERCENTILES.length ||
        ![...s[3], ...s[4]].every(isNum)
      )
        return { ok: false, reason: `run ${r[0]} in the history link has a series that is not valid` };
      series.push({
        name: doc.s[s[0]]!,
        unit: UNITS[s[1]]!,
        count: s[2],
        percentiles: Object.fromEntries(SUMMARY_PERCENTILES.map((p, i) => [String(p), s[3][i]!])),
        se: Object.fromEntries(HISTORY_PERCENTILES.map((p, i) => [String(p), s[4][i]! < 0 ? null : s[4][i]!])),
      });
    }
    runs.push({ id: r[0], start: r[1], series });
  }
  return { ok: true, runs };
}
