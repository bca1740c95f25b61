// Gatling's own report for the fixture's run (js/stats.js, kept as fixtures/producers/gatling/stats.js.txt):
// per request, its OK and KO numbers, an independent reference for what the app reads.
import { readFileSync } from "node:fs";

export const GATLING_FIXTURE = "fixtures/producers/gatling";

export interface GatlingStats {
  name: string;
  type: string;
  stats: Record<string, { total: string; ok: string; ko: string } | string>;
  contents?: Record<string, GatlingStats>;
}

/** Each request of the report by its group path and name ("checkout / pay"). */
export function gatlingReport(dir = GATLING_FIXTURE): Map<string, GatlingStats> {
  const src = readFileSync(`${dir}/stats.js.txt`, "utf8");
  // stats.js is the report's script: `var stats = {…}` in JavaScript (unquoted keys), then functions.
  const stats = new Function(`${src}; return stats;`)() as GatlingStats;
  const out = new Map<string, GatlingStats>();
  const walk = (n: GatlingStats, path: string[]) => {
    const here = n.name === "All Requests" ? [] : [...path, n.name];
    if (n.type === "REQUEST") out.set(here.join(" / "), n);
    for (const c of Object.values(n.contents ?? {})) walk(c, n.type === "GROUP" ? here : path);
  };
  walk(stats, []);
  return out;
}

/** A request's number of requests in the report: total, OK and KO. */
export function gatlingCounts(s: GatlingStats): { total: number; ok: number; ko: number } {
  const n = s.stats["numberOfRequests"] as { total: string; ok: string; ko: string };
  return { total: Number(n.total), ok: Number(n.ok), ko: Number(n.ko) };
}
