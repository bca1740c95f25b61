// A folder of 24 series shaped like a real investigation, for the page at scale: a jHiccup log
// whose hiccups are mostly 0 µs, a Gatling simulation with eight requests (one configuration,
// eight labels), two files with the same stem, two nightly runs on different days, and eleven
// sweep logs of six systems (the highest max in sysA_4k). Written by the project's own code.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newHistogram } from "../../src/core/histogram";
import { PRODUCER_HEADERS, writeHlog } from "./hlog-fixture";
import { gatlingLog, generateSamples } from "./loadgen-fixtures";
import { mulberry32, simulateQueue, type SimInterval } from "./queue-sim";

const DAY1_MS = Date.UTC(2026, 10, 1, 23, 30, 0);
const DAY2_MS = DAY1_MS + 24 * 3600 * 1000;

export const GATLING_REQUESTS = ["Home", "Search", "Get document with breadcrumb", "Get document", "Login", "Logout", "Upload attachment", "List folders"];

/** jHiccup's shape: most hiccups 0 µs (ns values), some tens of µs, one pause of 48 ms at 30 s. */
export function jhiccupIntervals(seconds = 60, seed = 7): SimInterval[] {
  const rand = mulberry32(seed);
  const out: SimInterval[] = [];
  for (let i = 0; i < seconds; i++) {
    const h = newHistogram();
    for (let k = 0; k < 1000; k++) {
      const r = rand();
      h.recordValue(r < 0.8 ? 0 : r < 0.998 ? Math.round(20000 + rand() * 80000) : Math.round(1e6 + rand() * 4e6));
    }
    if (i === 30) h.recordValue(48e6);
    out.push({ start: i, length: 1, histogram: h });
  }
  return out;
}

/** Writes the 24 series' files into `dir` (two batches: the sweep, then the rest) and returns their paths. */
export function writeManySeries(dir: string): { sweep: string[]; rest: string[] } {
  const put = (rel: string, text: string) => {
    const p = join(dir, rel);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  const sweep: string[] = [];
  let seed = 1;
  for (const sys of ["A", "B", "C", "D", "E", "F"])
    for (const rate of sys === "F" ? [2000] : [2000, 4000]) {
      const stalls = sys === "A" && rate === 4000 ? [{ at: 20.3, duration: 0.4 }] : sys === "A" ? [{ at: 12.1, duration: 0.08 }] : [];
      const ivs = simulateQueue({ rate, seconds: 30, medianServiceSec: 60e-6 * (1 + "ABCDEF".indexOf(sys) * 0.3), sigma: 0.5, stalls, seed: seed++ });
      sweep.push(put(`sweep/sys${sys}_${rate / 1000}k.response.hlog`, writeHlog(ivs, { ...PRODUCER_HEADERS.demo, maxRatio: 1e6 })));
    }
  const rest: string[] = [];
  rest.push(put("jhiccup/hiccup.hlog", writeHlog(jhiccupIntervals(), { ...PRODUCER_HEADERS.jhiccup, maxRatio: 1e6 })));
  const samples = generateSamples({ seed: 5, seconds: 20, rate: 200, labels: GATLING_REQUESTS, medianMs: 15, sigma: 0.6, failureRate: 0.01 });
  rest.push(put("gatling/simulation.log", gatlingLog(samples)));
  for (const run of ["run1", "run2"]) {
    const ivs = simulateQueue({ rate: 1000, seconds: 20, medianServiceSec: 90e-6, sigma: 0.5, stalls: [], seed: seed++ });
    rest.push(put(`${run}/latency.hlog`, writeHlog(ivs, { ...PRODUCER_HEADERS.demo, maxRatio: 1e6 })));
  }
  for (const [day, ms] of [
    ["2026-11-01", DAY1_MS],
    ["2026-11-02", DAY2_MS],
  ] as const) {
    const ivs = simulateQueue({ rate: 1000, seconds: 600, medianServiceSec: 70e-6, sigma: 0.5, stalls: [], seed: seed++, intervalSec: 10 });
    rest.push(put(`nightly/nightly_${day}.hlog`, writeHlog(ivs, { ...PRODUCER_HEADERS.demo, maxRatio: 1e6, startMs: ms })));
  }
  return { sweep, rest };
}
