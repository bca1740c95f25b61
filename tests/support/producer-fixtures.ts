// More producers' outputs written from known samples, shaped as the tools write them: ghz's JSON
// report, Fortio's JSON result (its DurationHistogram, built with Fortio's own buckets) and
// siege's verbose per-request lines (ANSI colours included). Tests read them back and compare
// with histograms built directly from the samples (or from what the tool keeps of them).
import { build, type Histogram } from "hdr-histogram-js";
import { fixed, instantOfUs, rfc3339, type LoadSample } from "./loadgen-fixtures";

// ---------------------------------------------------------------------------------------------
// ghz

const GHZ_ERROR = 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial tcp 127.0.0.1:50051: connect: connection refused"';

/** A ghz report (`-O json`, or `-O pretty` when `pretty`), every call in "details" in the order given. */
export function ghzJson(samples: readonly LoadSample[], opts: { pretty?: boolean; count?: number } = {}): string {
  const ok = samples.filter((s) => s.success).map((s) => s.latencyNs);
  const statusDist: Record<string, number> = {};
  for (const s of samples) statusDist[s.success ? "OK" : "Unavailable"] = (statusDist[s.success ? "OK" : "Unavailable"] ?? 0) + 1;
  const sorted = [...ok].sort((a, b) => a - b);
  const report = {
    name: "Greeter",
    endReason: "normal",
    options: {
      host: "127.0.0.1:50051",
      proto: "greeter.proto",
      call: "helloworld.Greeter.SayHello",
      insecure: true,
      total: samples.length,
      concurrency: 10,
      connections: 1,
      timeout: 20000000000,
      "dial-timeout": 10000000000,
      data: { name: "Bob" },
      binary: false,
      CPUs: 2,
    },
    date: "2026-01-02T03:04:25Z",
    count: opts.count ?? samples.length,
    total: 20_000_000_000,
    average: ok.length ? Math.round(ok.reduce((a, b) => a + b, 0) / ok.length) : 0,
    fastest: sorted[0] ?? 0,
    slowest: sorted[sorted.length - 1] ?? 0,
    rps: samples.length / 20,
    errorDistribution: samples.some((s) => !s.success) ? { [GHZ_ERROR]: samples.filter((s) => !s.success).length } : {},
    statusCodeDistribution: statusDist,
    latencyDistribution: [10, 25, 50, 75, 90, 95, 99].map((p) => ({ percentage: p, latency: sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0 })),
    histogram: [{ mark: (sorted[0] ?? 0) / 1e9, count: ok.length, frequency: 1 }],
    details: samples.map((s) => ({
      timestamp: rfc3339(instantOfUs(s.startUs), 0, 9, true),
      latency: s.latencyNs,
      error: s.success ? "" : GHZ_ERROR,
      status: s.success ? "OK" : "Unavailable",
    })),
  };
  return opts.pretty ? JSON.stringify(report, null, 2) : JSON.stringify(report);
}

// ---------------------------------------------------------------------------------------------
// Fortio

/** Fortio's bucket bounds (stats.go histogramBucketValues), in units of the divider (1 ms for HTTP). */
const FORTIO_BOUNDS = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 90, 100, 120, 140, 160, 180, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900,
  1000, 2000, 3000, 4000, 5000, 7500, 10000, 20000, 30000, 40000, 50000, 75000, 100000,
];
const FORTIO_DIVIDER = 0.001;

/** Fortio's bucket index of a value in seconds: ]prev, cur], the first for ≤ 0, one past the last for the rest. */
function fortioIndex(v: number): number {
  const scaled = v / FORTIO_DIVIDER - 0.0001;
  if (scaled <= FORTIO_BOUNDS[0]!) return 0;
  if (scaled > FORTIO_BOUNDS[FORTIO_BOUNDS.length - 1]!) return FORTIO_BOUNDS.length;
  let i = 0;
  while (Math.floor(scaled) >= FORTIO_BOUNDS[i]!) i++;
  return i;
}

export interface FortioBucket {
  Start: number;
  End: number;
  Percent: number;
  Count: number;
}

/** DurationHistogram of the successful and failed calls alike (Fortio records every call's duration), in seconds. */
export function fortioHistogram(samples: readonly LoadSample[]): {
  Count: number;
  Min: number;
  Max: number;
  Sum: number;
  Avg: number;
  StdDev: number;
  Data: FortioBucket[];
  Percentiles: { Percentile: number; Value: number }[];
} {
  const secs = samples.map((s) => s.latencyNs / 1e9);
  const counts = new Array<number>(FORTIO_BOUNDS.length + 1).fill(0);
  for (const v of secs) counts[fortioIndex(v)]!++;
  const min = Math.min(...secs);
  const max = Math.max(...secs);
  const sum = secs.reduce((a, b) => a + b, 0);
  const data: FortioBucket[] = [];
  let prev = FORTIO_BOUNDS[0]!;
  let total = 0;
  let last = counts.length - 1;
  while (last > 0 && counts[last] === 0) last--;
  for (let i = 0; i <= last; i++) {
    if (counts[i] === 0) {
      if (i < FORTIO_BOUNDS.length) prev = FORTIO_BOUNDS[i]!;
      continue;
    }
    total += counts[i]!;
    const b: FortioBucket = { Start: data.length === 0 ? min : FORTIO_DIVIDER * prev, End: 0, Percent: (100 * total) / secs.length, Count: counts[i]! };
    if (i < FORTIO_BOUNDS.length) {
      b.End = FORTIO_DIVIDER * FORTIO_BOUNDS[i]!;
      prev = FORTIO_BOUNDS[i]!;
    } else {
      b.Start = FORTIO_DIVIDER * prev;
      b.End = max;
    }
    data.push(b);
  }
  data[data.length - 1]!.End = max;
  const mean = sum / secs.length;
  const std = Math.sqrt(secs.reduce((a, v) => a + (v - mean) ** 2, 0) / secs.length);
  const pct = (p: number) => {
    for (const b of data) if (p <= b.Percent) return b.End;
    return max;
  };
  return {
    Count: secs.length,
    Min: min,
    Max: max,
    Sum: sum,
    Avg: mean,
    StdDev: std,
    Data: data,
    Percentiles: [50, 75, 90, 99, 99.9].map((p) => ({ Percentile: p, Value: pct(p) })),
  };
}

/** A Fortio HTTP result (`fortio load -json FILE`, indented as Fortio writes it). */
export function fortioJson(samples: readonly LoadSample[]): string {
  const codes: Record<string, number> = {};
  for (const s of samples) codes[s.success ? "200" : "503"] = (codes[s.success ? "200" : "503"] ?? 0) + 1;
  const result = {
    RunType: "HTTP",
    Labels: "sysA",
    StartTime: "2026-01-02T03:04:05.25Z",
    RequestedQPS: "1000",
    RequestedDuration: "20s",
    ActualQPS: samples.length / 20,
    ActualDuration: 20_000_000_000,
    NumThreads: 8,
    Version: "1.63.0",
    DurationHistogram: fortioHistogram(samples),
    Exactly: 0,
    Jitter: false,
    RetCodes: codes,
    Sizes: { Count: samples.length, Min: 120, Max: 120, Sum: 120 * samples.length, Avg: 120, StdDev: 0, Data: [{ Start: 120, End: 120, Percent: 100, Count: samples.length }] },
    URL: "http://127.0.0.1:8080/",
    SocketCount: 8,
    AbortOn: 0,
  };
  return JSON.stringify(result, null, 2) + "\n";
}

/**
 * What the app should hold for a Fortio result: each call's duration (ns) moved where the reader
 * puts its bucket's calls: one call at the exact Min (the first bucket starts there), the max at
 * the exact Max (the last bucket ends there), every other call at its bucket's End.
 */
export function fortioExpected(samples: readonly LoadSample[]): Histogram {
  const h = fortioHistogram(samples);
  const ns = (s: number) => Math.round(s * 1e9);
  const ref = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  h.Data.forEach((b, i) => {
    let n = b.Count;
    if (i === 0) {
      ref.recordValue(ns(h.Min));
      n--;
    }
    if (n > 0) ref.recordValueWithCount(ns(i === h.Data.length - 1 ? h.Max : b.End), n);
  });
  return ref;
}

// ---------------------------------------------------------------------------------------------
// siege

const ESC = "\u001b";

/** siege's elapsed time as printed ("%5.2f" seconds) for a latency in ns: hundredths, half up. */
export const siegeCentis = (s: LoadSample) => Math.floor((s.latencyNs + 5e6) / 1e7);
/** What the reader records for a siege line: ms. */
export const siegeMs = (s: LoadSample) => siegeCentis(s) * 10;

/**
 * siege's verbose output (`siege -v`, colour on: each line in ESC[0;34m … ESC[0m, red for 5xx),
 * with its banner and closing summary; `timestamps` adds siege's "[Sat, 2026-01-02 03:04:05] "
 * stamps (the request's completion, local time).
 */
export function siegeVerbose(samples: readonly LoadSample[], opts: { timestamps?: boolean; color?: boolean } = {}): string {
  const color = opts.color ?? true;
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const lines = ["** SIEGE 4.1.6", "** Preparing 10 concurrent users for battle.", "The server is now under siege..."];
  for (const s of samples) {
    const code = s.success ? 200 : 503;
    let stamp = "";
    if (opts.timestamps) {
      const d = new Date(Math.floor((s.startUs + s.latencyNs / 1000) / 1e6) * 1000);
      const p2 = (n: number) => String(n).padStart(2, "0");
      stamp = `[${days[d.getUTCDay()]}, ${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}] `;
    }
    const body = `${stamp}HTTP/1.1 ${code}   ${fixed(siegeCentis(s), 2).padStart(5)} secs: ${String(s.success ? 612 : 0).padStart(7)} bytes ==> GET  /${s.label}`;
    lines.push(color ? `${ESC}[0;${s.success ? 34 : 31}m${body}${ESC}[0m` : body);
  }
  lines.push(
    "",
    "Lifting the server siege...",
    `Transactions:\t\t      ${samples.filter((s) => s.success).length} hits`,
    "Availability:\t\t       99.50 %",
    "Elapsed time:\t\t       20.01 secs",
    "Response time:\t\t        0.01 secs",
    `Failed transactions:\t           ${samples.filter((s) => !s.success).length}`,
    "Longest transaction:\t        0.09",
    "Shortest transaction:\t        0.00",
    "",
  );
  return lines.join("\n");
}
