// Response time against service time: the gap between their p99s is the time requests waited
// in a queue. Told once per configuration, at the throughput where it is widest: a sweep of
// eight throughputs needs one line, not eight.
import { valueAtFromBuckets } from "../../core/bucket-lookup";
import { NANOS_PER_UNIT } from "../../core/types";
import type { SeriesRow } from "../panels/SeriesList";

export interface KindPair {
  response: SeriesRow;
  service: SeriesRow;
  /** p99 of each, ns. */
  responseP99: number;
  serviceP99: number;
  /** responseP99 ÷ serviceP99 (0 when the service p99 is 0). */
  gap: number;
}

export interface ConfigGap {
  config: string;
  /** Every paired run of the configuration, in the rows' order. */
  pairs: KindPair[];
  /** The pair with the widest gap (the first of equals). */
  worst: KindPair;
}

/** Each response-time run with its service-time partner: same configuration and throughput, same file preferred. */
export function kindPairs(rows: readonly SeriesRow[]): KindPair[] {
  const out: KindPair[] = [];
  for (const r of rows) {
    if (r.view.kind !== "response") continue;
    const same = (x: SeriesRow) => x.view.kind === "service" && x.view.config === r.view.config && x.view.throughput === r.view.throughput;
    const s = rows.find((x) => same(x) && x.view.source === r.view.source) ?? rows.find(same);
    if (!s) continue;
    const responseP99 = valueAtFromBuckets(r.view.spectrum, 99) * NANOS_PER_UNIT[r.view.recordedUnit];
    const serviceP99 = valueAtFromBuckets(s.view.spectrum, 99) * NANOS_PER_UNIT[s.view.recordedUnit];
    out.push({ response: r, service: s, responseP99, serviceP99, gap: serviceP99 > 0 ? responseP99 / serviceP99 : 0 });
  }
  return out;
}

/** The pairs grouped by configuration (in the order the rows first name it), each with its widest gap. */
export function gapsByConfig(rows: readonly SeriesRow[]): ConfigGap[] {
  const by = new Map<string, KindPair[]>();
  for (const p of kindPairs(rows)) {
    const c = p.response.view.config;
    let list = by.get(c);
    if (!list) by.set(c, (list = []));
    list.push(p);
  }
  return [...by].map(([config, pairs]) => ({ config, pairs, worst: pairs.reduce((w, p) => (p.gap > w.gap ? p : w)) }));
}
