// Files that hold only statistics, written from known samples in the shapes the tools write:
// JMeter's summariser log, Taurus' final-stats XML, Iago's stats, k6's end-of-test summary and
// web-dashboard recording, siege's -l log, Gatling's stats.json. The app must refuse each as
// "statistics, not samples"; the numbers are computed from the samples so the files look real.
import { fixed, msValue, type LoadSample } from "./loadgen-fixtures";

function stats(samples: readonly LoadSample[]): { n: number; avg: number; min: number; max: number; pct: (p: number) => number; errors: number } {
  const v = samples.map(msValue).sort((a, b) => a - b);
  const n = v.length;
  const avg = n ? Math.round(v.reduce((a, b) => a + b, 0) / n) : 0;
  const pct = (p: number) => (n ? v[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]! : 0);
  return { n, avg, min: v[0] ?? 0, max: v[n - 1] ?? 0, pct, errors: samples.filter((s) => !s.success).length };
}

const pad = (s: string | number, w: number) => String(s).padStart(w);

/** jmeter.log with the summariser's lines every 30 s (after the log's start-up lines). */
export function jmeterSummariserLog(samples: readonly LoadSample[]): string {
  const lines = [
    "2026-01-02 03:04:00,123 INFO o.a.j.u.JMeterUtils: Setting Locale to en_US",
    "2026-01-02 03:04:00,456 INFO o.a.j.JMeter: Loading file: plan.jmx",
    "2026-01-02 03:04:01,001 INFO o.a.j.e.StandardJMeterEngine: Running the test!",
  ];
  const half = Math.floor(samples.length / 2);
  const part = (s: readonly LoadSample[], sign: "+" | "=", time: string) => {
    const x = stats(s);
    const errPct = x.n ? fixed(Math.round((x.errors * 10000) / x.n), 2) : "0.00";
    lines.push(
      `2026-01-02 03:04:31,002 INFO o.a.j.r.Summariser: summary ${sign} ${pad(x.n, 6)} in ${time} = ${pad("17.4", 6)}/s Avg: ${pad(x.avg, 5)} Min: ${pad(x.min, 5)} Max: ${pad(x.max, 5)} Err: ${pad(x.errors, 5)} (${errPct}%) Active: 10 Started: 10 Finished: 0`,
    );
  };
  part(samples.slice(0, half), "+", "00:00:30");
  part(samples.slice(half), "+", "00:00:30");
  part(samples, "=", "00:01:00");
  return lines.join("\n") + "\n";
}

/** Taurus' final-stats XML (`dump-xml`). */
export function taurusFinalStats(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  const kpi = (name: string, value: string | number, param?: string) => `    <${name.replace(/\/.*/, "")} name="${name}" value="${value}"${param ? ` param="${param}"` : ""}/>`;
  return [
    '<?xml version="1.0" ?>',
    "<FinalStatus>",
    "  <TestDuration>60.0</TestDuration>",
    '  <Group label="">',
    kpi("succ", x.n - x.errors),
    kpi("fail", x.errors),
    kpi("avg_rt", fixed(x.avg * 1000, 3)),
    ...[0, 50, 90, 95, 99, 99.9, 100].map((p) => kpi(`perc/${fixed(p * 10, 1)}`, fixed(x.pct(p) * 1000, 3), fixed(p * 10, 1))),
    "  </Group>",
    "</FinalStatus>",
    "",
  ].join("\n");
}

/** Iago's per-minute stats lines (Finagle metrics as JSON). */
export function iagoStats(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  const o = {
    "client/request_latency_ms_average": x.avg,
    "client/request_latency_ms_count": x.n,
    "client/request_latency_ms_maximum": x.max,
    "client/request_latency_ms_minimum": x.min,
    "client/request_latency_ms_p50": x.pct(50),
    "client/request_latency_ms_p90": x.pct(90),
    "client/request_latency_ms_p99": x.pct(99),
    "client/requests": x.n,
    "client/success": x.n - x.errors,
  };
  return `${JSON.stringify(o)}\n${JSON.stringify(o)}\n`;
}

/** k6's `--summary-export` JSON (pretty-printed, as k6 writes it). */
export function k6SummaryExport(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  return (
    JSON.stringify(
      {
        root_group: { name: "", path: "", id: "d41d8cd98f00b204e9800998ecf8427e", groups: {}, checks: {} },
        metrics: {
          http_reqs: { count: x.n, rate: 16.6 },
          http_req_duration: { avg: x.avg, min: x.min, med: x.pct(50), max: x.max, "p(90)": x.pct(90), "p(95)": x.pct(95) },
          iteration_duration: { avg: x.avg + 1, min: x.min + 1, med: x.pct(50) + 1, max: x.max + 1, "p(90)": x.pct(90) + 1, "p(95)": x.pct(95) + 1 },
        },
      },
      null,
      4,
    ) + "\n"
  );
}

/** k6's web-dashboard recording, decompressed: one event a line. */
export function k6DashboardRecording(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  const snapshot = { http_req_duration: { avg: x.avg, max: x.max, min: x.min, med: x.pct(50), "p(90)": x.pct(90), "p(95)": x.pct(95), "p(99)": x.pct(99) } };
  return [
    { event: "param", data: { thresholds: {}, scenarios: ["default"], period: 10000 } },
    { event: "metric", data: { http_req_duration: { type: "trend", contains: "time" } } },
    { event: "start", data: snapshot },
    { event: "snapshot", data: snapshot },
    { event: "cumulative", data: snapshot },
    { event: "stop", data: snapshot },
  ]
    .map((e) => JSON.stringify(e))
    .join("\n")
    .concat("\n");
}

/** siege's log (`siege -l`): a header and one line per run. */
export function siegeLog(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  return [
    "      Date & Time,  Trans,  Elap Time,  Data Trans,  Resp Time,  Trans Rate,  Throughput,  Concurrent,    OKAY,   Failed",
    `2026-01-02 03:04:05, ${pad(x.n, 6)}, ${pad("60.00", 10)}, ${pad(1, 11)}, ${pad(fixed(Math.round(x.avg / 10), 2), 10)}, ${pad("16.60", 11)}, ${pad("0.02", 11)}, ${pad("2.99", 11)}, ${pad(x.n - x.errors, 7)}, ${pad(x.errors, 8)}`,
    "",
  ].join("\n");
}

/** Gatling's js/stats.json (one entry shown). */
export function gatlingStatsJson(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  const s = {
    name: "All Requests",
    numberOfRequests: { total: x.n, ok: x.n - x.errors, ko: x.errors },
    minResponseTime: { total: x.min, ok: x.min, ko: 0 },
    maxResponseTime: { total: x.max, ok: x.max, ko: 0 },
    meanResponseTime: { total: x.avg, ok: x.avg, ko: 0 },
    percentiles1: { total: x.pct(50), ok: x.pct(50), ko: 0 },
    percentiles2: { total: x.pct(75), ok: x.pct(75), ko: 0 },
  };
  return JSON.stringify({ type: "GROUP", name: "All Requests", path: "", pathFormatted: "group_missing-name-b06d1", stats: s }, null, 2) + "\n";
}

/** `vegeta report -type=json` (one line; latencies in ns). */
export function vegetaReport(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  const ns = (ms: number) => ms * 1e6;
  return (
    JSON.stringify({
      latencies: {
        total: ns(x.avg * x.n),
        mean: ns(x.avg),
        "50th": ns(x.pct(50)),
        "90th": ns(x.pct(90)),
        "95th": ns(x.pct(95)),
        "99th": ns(x.pct(99)),
        max: ns(x.max),
        min: ns(x.min),
      },
      bytes_in: { total: 13 * x.n, mean: 13 },
      bytes_out: { total: 0, mean: 0 },
      earliest: "2026-01-02T03:04:05.25Z",
      latest: "2026-01-02T03:04:25.25Z",
      duration: 20e9,
      requests: x.n,
      rate: x.n / 20,
      success: (x.n - x.errors) / x.n,
      status_codes: { "200": x.n - x.errors, "500": x.errors },
      errors: x.errors ? ["500 Internal Server Error"] : [],
    }) + "\n"
  );
}

/** `autocannon -j` (one line; latency in ms). */
export function autocannonJson(samples: readonly LoadSample[]): string {
  const x = stats(samples);
  return (
    JSON.stringify({
      title: "run",
      url: "http://127.0.0.1:3000",
      connections: 10,
      duration: 20.01,
      latency: { average: x.avg, mean: x.avg, stddev: 1.7, min: x.min, max: x.max, p2_5: x.pct(2.5), p50: x.pct(50), p97_5: x.pct(97.5), p99: x.pct(99) },
      requests: { average: x.n / 20, total: x.n, sent: x.n },
      errors: x.errors,
      non2xx: x.errors,
    }) + "\n"
  );
}

/** Every statistics file above: its name, its writer, what the refusal must call it, and the line that tells it (its first line matching `at`). */
export const STATISTICS_FILES: { name: string; write: (s: readonly LoadSample[]) => string; what: RegExp; at: RegExp }[] = [
  { name: "jmeter.log", write: jmeterSummariserLog, what: /JMeter summariser log/, at: /summary \+/ },
  { name: "final-stats.xml", write: taurusFinalStats, what: /Taurus final-stats XML/, at: /<FinalStatus>/ },
  { name: "iago-stats.log", write: iagoStats, what: /Iago/, at: /request_latency_ms/ },
  { name: "summary.json", write: k6SummaryExport, what: /k6 end-of-test summary/, at: /"metrics"/ },
  { name: "dashboard.json", write: k6DashboardRecording, what: /k6 web-dashboard recording/, at: /"event"/ },
  { name: "siege.log", write: siegeLog, what: /siege log/, at: /Date & Time/ },
  { name: "stats.json", write: gatlingStatsJson, what: /Gatling's report statistics/, at: /percentiles1/ },
  { name: "report.json", write: vegetaReport, what: /a Vegeta report/, at: /latencies/ },
  { name: "autocannon.json", write: autocannonJson, what: /an autocannon result/, at: /"latency"/ },
];
