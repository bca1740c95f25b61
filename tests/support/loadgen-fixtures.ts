// The project's own load-generator fixtures: from a list of known samples (start time, latency,
// label, success) write the text each tool writes (JMeter CSV/XML, Gatling 3.x simulation.log,
// k6 JSON lines and CSV, Vegeta CSV and JSON, plain values, CSV with a header). Tests parse the
// text back and compare with histograms built directly from the same samples.
//
// Every number is formatted from integers (no floating-point formatting of decimals), so what a
// reader should record is exactly known: see the *Value helpers.
//
// Also: a closed-loop (synchronous) client simulator, the textbook source of coordinated omission.
import { build, type Histogram } from "hdr-histogram-js";
import { LineSplitter, splitLines } from "../../src/core/lines";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "../../src/formats/source";
import { mulberry32, type Stall } from "./queue-sim";

export interface LoadSample {
  /** Request start, microseconds since the epoch (an integer). */
  startUs: number;
  /** Latency in nanoseconds (an integer). */
  latencyNs: number;
  label: string;
  success: boolean;
}

export interface GenerateConfig {
  seed: number;
  seconds: number;
  /** Requests per second (open loop: start times do not depend on latencies). */
  rate: number;
  labels: string[];
  medianMs: number;
  sigma: number;
  /** Fraction of failed requests. */
  failureRate: number;
  /** Requests started during a stall wait for its end. */
  stalls?: Stall[];
  /** Epoch µs of the first start (default 2026-01-02T03:04:05.250Z). */
  startUs?: number;
}

export const DEFAULT_START_US = Date.UTC(2026, 0, 2, 3, 4, 5, 250) * 1000;

/** Samples with lognormal latencies, random labels and failures; start times jittered, sorted. */
export function generateSamples(c: GenerateConfig): LoadSample[] {
  const rnd = mulberry32(c.seed);
  const t0 = c.startUs ?? DEFAULT_START_US;
  const n = Math.floor(c.seconds * c.rate);
  const gapUs = 1e6 / c.rate;
  const out: LoadSample[] = [];
  for (let k = 0; k < n; k++) {
    const startUs = t0 + Math.floor(k * gapUs + rnd() * gapUs * 0.9);
    const u = Math.max(1e-12, rnd());
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
    let latencyNs = Math.max(1, Math.round(c.medianMs * 1e6 * Math.exp(c.sigma * z)));
    const at = (startUs - t0) / 1e6;
    for (const s of c.stalls ?? []) {
      if (at >= s.at && at < s.at + s.duration) latencyNs += Math.round((s.at + s.duration - at) * 1e9);
    }
    const label = c.labels[Math.floor(rnd() * c.labels.length)] ?? "";
    out.push({ startUs, latencyNs, label, success: rnd() >= c.failureRate });
  }
  return out;
}

/** In the order tools write results: when each request completes. */
export function byCompletion(samples: readonly LoadSample[]): LoadSample[] {
  return [...samples].sort((a, b) => a.startUs * 1000 + a.latencyNs - (b.startUs * 1000 + b.latencyNs));
}

// ---------------------------------------------------------------------------------------------
// What readers should record

/** Round half up of n / d for non-negative integers. */
function divRound(n: number, d: number): number {
  return Math.floor((n + d / 2) / d);
}
/** JMeter elapsed and Gatling end − start: whole ms. */
export const msValue = (s: LoadSample) => divRound(s.latencyNs, 1e6);
/** k6 writes ms with 6 decimals (ns); the reader records µs. */
export const usValue = (s: LoadSample) => divRound(s.latencyNs, 1e3);
/** Vegeta: ns. */
export const nsValue = (s: LoadSample) => s.latencyNs;

/** An integer shown with `decimals` decimals of a `10^decimals` larger unit: 12345, 3 → "12.345". */
export function fixed(value: number, decimals: number): string {
  if (decimals === 0) return String(value);
  const d = 10 ** decimals;
  return `${Math.floor(value / d)}.${String(value % d).padStart(decimals, "0")}`;
}

/** A reference histogram built directly with hdr-histogram-js (64-bit counts, 3 digits). */
export function referenceHistogram(values: Iterable<number>): Histogram {
  const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  for (const v of values) h.recordValue(v);
  return h;
}

// ---------------------------------------------------------------------------------------------
// Text helpers

export function csvField(s: string, delimiter = ","): string {
  return s.includes(delimiter) || s.includes('"') || s.includes("\n") || s.includes("\r") ? `"${s.replace(/"/g, '""')}"` : s;
}

function xmlAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, "0");
}

/** RFC 3339 with `fractionDigits` digits (trailing zeros trimmed when `trim`) at a fixed offset. */
export function rfc3339(epochNsText: { sec: number; ns: number }, offsetMin: number, fractionDigits = 9, trim = false): string {
  const local = new Date((epochNsText.sec + offsetMin * 60) * 1000);
  let frac = String(epochNsText.ns).padStart(9, "0").slice(0, fractionDigits);
  if (trim) frac = frac.replace(/0+$/, "");
  const sign = offsetMin < 0 ? "-" : "+";
  const off = Math.abs(offsetMin);
  const zone = offsetMin === 0 ? "Z" : `${sign}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (frac ? `.${frac}` : "") +
    zone
  );
}

export function instantOfUs(us: number): { sec: number; ns: number } {
  return { sec: Math.floor(us / 1e6), ns: (us % 1e6) * 1000 };
}

const FAIL_MESSAGE = "The operation lasted too long: It took 1,234 milliseconds, but should not have lasted longer than 1,000 milliseconds.";

// ---------------------------------------------------------------------------------------------
// JMeter

export const JMETER_HEADER =
  "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect";

/**
 * JMeter's default CSV .jtl (header, comma), or with another delimiter / without header, or
 * without some columns (`omit`: header names, as jmeter.save.saveservice.<field>=false leaves them out).
 */
export function jmeterCsv(samples: readonly LoadSample[], opts: { delimiter?: string; header?: boolean; omit?: string[] } = {}): string {
  const d = opts.delimiter ?? ",";
  const names = JMETER_HEADER.split(",");
  const keep = names.map((n) => !(opts.omit ?? []).includes(n));
  const lines: string[] = [];
  if (opts.header !== false) lines.push(names.filter((_, k) => keep[k]).join(d));
  samples.forEach((s, i) => {
    const elapsed = msValue(s);
    const fields = [
      String(Math.floor(s.startUs / 1000)),
      String(elapsed),
      s.label,
      s.success ? "200" : "500",
      s.success ? "OK" : "Internal Server Error",
      `Thread Group 1-${(i % 8) + 1}`,
      "text",
      s.success ? "true" : "false",
      s.success ? "" : FAIL_MESSAGE,
      String(1000 + (i % 500)),
      "120",
      "8",
      "8",
      `http://localhost:8080/${encodeURIComponent(s.label)}`,
      String(Math.max(0, elapsed - 1)),
      "0",
      String(i % 3),
    ];
    lines.push(
      fields
        .filter((_, k) => keep[k])
        .map((f) => csvField(f, d))
        .join(d),
    );
  });
  return lines.join("\n") + "\n";
}

/** JMeter's XML .jtl. */
export function jmeterXml(samples: readonly LoadSample[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testResults version="1.2">'];
  samples.forEach((s, i) => {
    const elapsed = msValue(s);
    lines.push(
      `<httpSample t="${elapsed}" it="0" lt="${Math.max(0, elapsed - 1)}" ct="1" ts="${Math.floor(s.startUs / 1000)}" s="${s.success}" lb="${xmlAttr(s.label)}" rc="${s.success ? 200 : 500}" rm="${s.success ? "OK" : "Internal Server Error"}" tn="Thread Group 1-${(i % 8) + 1}" dt="text" by="1234" sby="120" ng="8" na="8">`,
    );
    if (!s.success)
      lines.push(
        `  <assertionResult><name>Duration Assertion</name><failure>true</failure><error>false</error><failureMessage>${xmlAttr(FAIL_MESSAGE)}</failureMessage></assertionResult>`,
      );
    lines.push(`  <java.net.URL>http://localhost:8080/${encodeURIComponent(s.label)}</java.net.URL>`, "</httpSample>");
  });
  lines.push("</testResults>");
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Gatling

/** The simulation.log layouts of Gatling's text log, by the versions that write them. */
export type GatlingLayout = "3.4" | "3.0" | "2.2" | "2.2-M" | "2.0";

export interface GatlingLogOptions {
  layout?: GatlingLayout;
  /** The RUN line's version field (default: one the layout's versions wrote). */
  version?: string;
  /** Leave the RUN line out (a log cut at its start). */
  runLine?: boolean;
  /**
   * Keep the message field of OK requests: a single space. false ends those lines right after
   * the status, as a file whose trailing white space was stripped does.
   */
  okMessage?: boolean;
  /** Puts a label in groups. */
  groupOf?: (label: string) => string[];
}

const GATLING_VERSION: Record<GatlingLayout, string> = { "3.4": "3.9.5", "3.0": "3.3.1", "2.2": "2.0", "2.2-M": "2.0", "2.0": "2.0" };

/**
 * Gatling's text simulation.log, as LogFileDataWriter (3.x) and FileDataWriter (2.x) write it.
 * REQUEST lines per layout ("3.4": 3.4 to 3.12, "3.0": 3.0 to 3.3, "2.2": 2.2 to 2.3,
 * "2.2-M": the 2.2 milestones, "2.0": 2.0 to 2.1):
 *   3.4   REQUEST groups name start end status message
 *   3.0   REQUEST userId groups name start end status message
 *   2.2   REQUEST scenario userId groups name start end status message
 *   2.2-M REQUEST scenario userId groups name requestStart requestEnd responseStart responseEnd status message
 *   2.0   scenario userId REQUEST groups name requestStart requestEnd responseStart responseEnd status message
 * A request's start is its sample's start (ms) and its end start + msValue: the response time
 * Gatling's reports use is end − start (2.0–2.1: responseEnd − requestStart). The four-time
 * layouts put the request's end and the response's start strictly inside, so a reader taking the
 * wrong pair reads other values.
 */
export function gatlingLog(samples: readonly LoadSample[], opts: GatlingLogOptions = {}): string {
  const layout = opts.layout ?? "3.4";
  const version = opts.version ?? GATLING_VERSION[layout];
  const runStart = samples.length > 0 ? Math.floor(samples.reduce((m, s) => Math.min(m, s.startUs), Infinity) / 1000) - 100 : 0;
  const run: Record<GatlingLayout, string> = {
    "3.4": `RUN\tcomputerdatabase.BasicSimulation\tbasicsimulation\t${runStart}\t \t${version}`,
    "3.0": `RUN\tcomputerdatabase.BasicSimulation\tbasicsimulation\t${runStart}\t \t${version}`,
    "2.2": `RUN\tcomputerdatabase.BasicSimulation\t\tbasicsimulation\t${runStart}\t \t${version}`,
    "2.2-M": `RUN\tcomputerdatabase.BasicSimulation\tbasicsimulation\t${runStart}\t \t${version}`,
    "2.0": `computerdatabase.BasicSimulation\tbasicsimulation\tRUN\t${runStart}\t \t${version}`,
  };
  const user = (event: "START" | "END", at: number): string => {
    if (layout === "3.4") return `USER\tUsers\t${event}\t${at}`;
    if (layout === "3.0" || layout === "2.2" || layout === "2.2-M") return `USER\tUsers\t1\t${event}\t${runStart + 5}\t${at}`;
    return `Users\t1\tUSER\t${event}\t${runStart + 5}\t${at}`;
  };
  const lines = layout.startsWith("3") ? ["ASSERTION\tAQEBAgECAwBkAA=="] : [];
  if (opts.runLine !== false) lines.push(run[layout]);
  lines.push(user("START", runStart + 5));
  samples.forEach((s, i) => {
    const start = Math.floor(s.startUs / 1000);
    const ms = msValue(s);
    const end = start + ms;
    // inside [start, end] and off both ends when the response time allows it
    const requestEnd = start + Math.min(1, Math.max(0, ms - 2));
    const responseStart = end - Math.min(1, Math.max(0, ms - 2));
    const groups = (opts.groupOf?.(s.label) ?? []).join(",");
    const status = s.success ? "OK" : "KO";
    const message = s.success ? (opts.okMessage === false ? [] : [" "]) : ["status.find.in([200, 209], 304), found 500"];
    const userId = String((i % 50) + 1);
    const four = [start, requestEnd, responseStart, end];
    const fields: Record<GatlingLayout, (string | number)[]> = {
      "3.4": ["REQUEST", groups, s.label, start, end, status],
      "3.0": ["REQUEST", userId, groups, s.label, start, end, status],
      "2.2": ["REQUEST", "Users", userId, groups, s.label, start, end, status],
      "2.2-M": ["REQUEST", "Users", userId, groups, s.label, ...four, status],
      "2.0": ["Users", userId, "REQUEST", groups, s.label, ...four, status],
    };
    lines.push([...fields[layout], ...message].join("\t"));
  });
  lines.push(user("END", runStart + 99999));
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// k6

function k6Tags(s: LoadSample, i: number): Record<string, string> {
  return {
    expected_response: String(s.success),
    group: "",
    method: "GET",
    name: s.label,
    proto: "HTTP/1.1",
    scenario: "default",
    status: s.success ? "200" : i % 2 === 0 ? "503" : "0",
    url: `http://localhost:8080/${encodeURIComponent(s.label)}?a=1&b=2`,
  };
}

/** k6 --out json: Metric declarations and Points of several metrics, times at +02:00 with ns. */
export function k6Json(samples: readonly LoadSample[]): string {
  const lines = [
    JSON.stringify({ type: "Metric", data: { name: "http_reqs", type: "counter", contains: "default", thresholds: [], submetrics: null }, metric: "http_reqs" }),
    JSON.stringify({ type: "Metric", data: { name: "http_req_duration", type: "trend", contains: "time", thresholds: [], submetrics: null }, metric: "http_req_duration" }),
  ];
  samples.forEach((s, i) => {
    const time = rfc3339(instantOfUs(s.startUs), 120, 9);
    const tags = k6Tags(s, i);
    lines.push(JSON.stringify({ metric: "http_reqs", type: "Point", data: { time, value: 1, tags } }));
    lines.push(JSON.stringify({ metric: "http_req_duration", type: "Point", data: { time, value: s.latencyNs / 1e6, tags } }));
    lines.push(JSON.stringify({ metric: "http_req_failed", type: "Point", data: { time, value: s.success ? 0 : 1, tags } }));
  });
  return lines.join("\n") + "\n";
}

export const K6_CSV_HEADER =
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata";

/** k6 --out csv (default time format: unix seconds; values "%f"). */
export function k6Csv(samples: readonly LoadSample[]): string {
  const lines = [K6_CSV_HEADER];
  samples.forEach((s, i) => {
    const t = k6Tags(s, i);
    const ts = String(Math.floor(s.startUs / 1e6));
    const row = (metric: string, value: string) =>
      [
        metric,
        ts,
        value,
        "",
        s.success ? "" : "request failed",
        s.success ? "" : "1500",
        t.expected_response,
        "",
        "GET",
        t.name,
        "HTTP/1.1",
        "default",
        "",
        t.status,
        "",
        "",
        t.url,
        "",
        "",
      ]
        .map((f) => csvField(f))
        .join(",");
    lines.push(row("http_reqs", "1.000000"));
    lines.push(row("http_req_duration", fixed(s.latencyNs, 6)));
    lines.push(row("http_req_blocked", "0.004000"));
  });
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Vegeta

function vegetaOutcome(s: LoadSample, i: number): { code: number; error: string } {
  if (s.success) return { code: 200, error: "" };
  return i % 2 === 0 ? { code: 500, error: "500 Internal Server Error" } : { code: 0, error: 'Get "http://127.0.0.1:8080/": dial tcp 127.0.0.1:8080: connect: connection refused' };
}

/** `vegeta encode -to csv`: no header, 12 columns (v12.8+), timestamps in epoch ns. */
export function vegetaCsv(samples: readonly LoadSample[], opts: { columns?: 9 | 12 } = {}): string {
  const lines: string[] = [];
  samples.forEach((s, i) => {
    const { code, error } = vegetaOutcome(s, i);
    const fields = [`${s.startUs}000`, String(code), String(s.latencyNs), "0", s.success ? "13" : "0", error, s.success ? "aGVsbG8sIHdvcmxkIQ==" : "", s.label, String(i)];
    if ((opts.columns ?? 12) === 12) fields.push("GET", "http://127.0.0.1:8080/", "Q29udGVudC1UeXBlOiB0ZXh0L3BsYWluDQoNCg==");
    lines.push(fields.map((f) => csvField(f)).join(","));
  });
  return lines.join("\n") + "\n";
}

/** `vegeta encode -to json`: one object per line, RFC 3339 timestamps (ns, zeros trimmed). */
export function vegetaJson(samples: readonly LoadSample[]): string {
  return (
    samples
      .map((s, i) => {
        const { code, error } = vegetaOutcome(s, i);
        return JSON.stringify({
          attack: s.label,
          seq: i,
          code,
          timestamp: rfc3339(instantOfUs(s.startUs), 60, 9, true),
          latency: s.latencyNs,
          bytes_out: 0,
          bytes_in: s.success ? 13 : 0,
          error,
          body: s.success ? "aGVsbG8sIHdvcmxkIQ==" : null,
          method: "GET",
          url: "http://127.0.0.1:8080/",
          headers: { "Content-Type": ["text/plain"] },
        });
      })
      .join("\n") + "\n"
  );
}

// ---------------------------------------------------------------------------------------------
// Raw samples

/** One value per line in ms with `decimals` (0, 3 or 6) decimals, after an optional header line. */
export function plainValues(samples: readonly LoadSample[], opts: { decimals?: 0 | 3 | 6; header?: string } = {}): string {
  const decimals = opts.decimals ?? 3;
  const lines = opts.header ? [opts.header] : [];
  for (const s of samples) lines.push(fixed(divRound(s.latencyNs, 10 ** (6 - decimals)), decimals));
  return lines.join("\n") + "\n";
}

/** A CSV/TSV table with a header: epoch-ms timestamp, latency in ms (3 decimals), label. */
export function samplesTable(samples: readonly LoadSample[], opts: { delimiter?: string; names?: [string, string, string] } = {}): string {
  const d = opts.delimiter ?? ",";
  const [tName, vName, lName] = opts.names ?? ["timestamp", "latency_ms", "label"];
  const lines = [[tName, vName, lName].join(d)];
  for (const s of samples) lines.push([String(Math.floor(s.startUs / 1000)), fixed(usValue(s), 3), csvField(s.label, d)].join(d));
  return lines.join("\n") + "\n";
}

/** ctime(3)'s text of an epoch second in UTC: "Wed Apr 15 18:54:11 2015" (day of month padded with a space). */
export function ctimeText(sec: number): string {
  const d = new Date(sec * 1000);
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()]!;
  const mon = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()]!;
  return `${day} ${mon} ${String(d.getUTCDate()).padStart(2, " ")} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/**
 * ApacheBench's `ab -g` output: a header `starttime seconds ctime dtime ttime wait`, then one
 * line per request sorted by ttime (as ab sorts before writing), tab-separated: the start as
 * ctime text and as epoch seconds, connect time, the rest, the total (msValue) and the wait, in
 * whole ms. Failures are not marked in this output: every sample is written.
 */
export function abGnuplot(samples: readonly LoadSample[]): string {
  const lines = ["starttime\tseconds\tctime\tdtime\tttime\twait"];
  const sorted = [...samples].sort((a, b) => msValue(a) - msValue(b) || a.startUs - b.startUs);
  for (const s of sorted) {
    const sec = Math.floor(s.startUs / 1e6);
    const total = msValue(s);
    const connect = Math.min(total, 1 + (s.startUs % 3));
    lines.push([ctimeText(sec), sec, connect, total - connect, total, Math.max(0, total - connect - 1)].join("\t"));
  }
  return lines.join("\n") + "\n";
}

/** The nearest-rank percentile of sorted values (what summaries print; only its shape matters here). */
function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Locust's `--csv` *_stats.csv: one row per endpoint and an "Aggregated" row, with the request
 * and failure counts, median, average, min, max, sizes, rates and percentiles (ms).
 */
export function locustStats(samples: readonly LoadSample[]): string {
  const pct = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100];
  const lines = [
    [
      "Type",
      "Name",
      "Request Count",
      "Failure Count",
      "Median Response Time",
      "Average Response Time",
      "Min Response Time",
      "Max Response Time",
      "Average Content Size",
      "Requests/s",
      "Failures/s",
      ...pct.map((p) => `${p}%`),
    ].join(","),
  ];
  const row = (type: string, name: string, mine: readonly LoadSample[]) => {
    const v = mine.map(msValue).sort((a, b) => a - b);
    const failures = mine.filter((s) => !s.success).length;
    const avg = v.length ? Math.round(v.reduce((a, b) => a + b, 0) / v.length) : 0;
    lines.push(
      [type, name, mine.length, failures, nearestRank(v, 50), avg, v[0] ?? 0, v[v.length - 1] ?? 0, 1234, mine.length, failures, ...pct.map((p) => nearestRank(v, p))]
        .map((x) => csvField(String(x)))
        .join(","),
    );
  };
  for (const label of [...new Set(samples.map((s) => s.label))].sort())
    row(
      "GET",
      `/${label}`,
      samples.filter((s) => s.label === label),
    );
  row("", "Aggregated", samples);
  return lines.join("\n") + "\n";
}

/** JMeter's Aggregate Report saved as CSV: one row per label and a TOTAL row. */
export function jmeterAggregate(samples: readonly LoadSample[]): string {
  const lines = ["Label,# Samples,Average,Median,90% Line,95% Line,99% Line,Min,Max,Error %,Throughput,Received KB/sec,Std. Dev."];
  const row = (name: string, mine: readonly LoadSample[]) => {
    const v = mine.map(msValue).sort((a, b) => a - b);
    const avg = v.length ? Math.round(v.reduce((a, b) => a + b, 0) / v.length) : 0;
    const err = mine.length ? `${fixed(Math.round((mine.filter((s) => !s.success).length * 10000) / mine.length), 2)}%` : "0.00%";
    lines.push(
      [name, mine.length, avg, nearestRank(v, 50), nearestRank(v, 90), nearestRank(v, 95), nearestRank(v, 99), v[0] ?? 0, v[v.length - 1] ?? 0, err, "12.5", "3.2", "4.1"]
        .map((x) => csvField(String(x)))
        .join(","),
    );
  };
  for (const label of [...new Set(samples.map((s) => s.label))].sort())
    row(
      label,
      samples.filter((s) => s.label === label),
    );
  row("TOTAL", samples);
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// Closed-loop client: coordinated omission

export interface ClosedLoopConfig {
  /** Connections, each with one request in flight at most. */
  connections: number;
  seconds: number;
  /** Each connection means to send one request per interval (its intended rate). */
  intervalSec: number;
  medianServiceSec: number;
  sigma: number;
  /** The server does nothing during a stall. */
  stalls: Stall[];
  seed: number;
}

export interface ClosedLoopResult {
  /** What a synchronous client records: from its (late) send to the reply, in ns. */
  measured: Histogram;
  /** The same values recorded with recordValueWithExpectedInterval(value, interval). */
  corrected: Histogram;
  requests: number;
}

/**
 * A synchronous client: each connection sends its next request only after the previous reply
 * (at the next scheduled slot, or at once when behind). During a stall each connection waits
 * on one request, so the stall is measured once per connection instead of once for every
 * request the schedule meant to send: coordinated omission.
 */
export function simulateClosedLoop(c: ClosedLoopConfig): ClosedLoopResult {
  const rnd = mulberry32(c.seed);
  const measured = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  const corrected = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  const stalls = [...c.stalls].sort((a, b) => a.at - b.at);
  const intervalNs = Math.round(c.intervalSec * 1e9);
  let requests = 0;
  for (let k = 0; k < c.connections; k++) {
    let t = (k * c.intervalSec) / c.connections;
    while (t < c.seconds) {
      let start = t;
      for (const s of stalls) if (start >= s.at && start < s.at + s.duration) start = s.at + s.duration;
      const u = Math.max(1e-12, rnd());
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
      let finish = start + c.medianServiceSec * Math.exp(c.sigma * z);
      for (const s of stalls) if (s.at > start && s.at < finish) finish += s.duration;
      const latencyNs = Math.max(1, Math.round((finish - t) * 1e9));
      measured.recordValue(latencyNs);
      corrected.recordValueWithExpectedInterval(latencyNs, intervalNs);
      requests++;
      t = Math.max(t + c.intervalSec, finish);
    }
  }
  return { measured, corrected, requests };
}

// ---------------------------------------------------------------------------------------------
// Feeding readers in tests

/** Parses `text` handing the reader one line at a time. */
export function parseByLines(reader: FormatReader, name: string, text: string, options?: SampleOptions): ParsedSource {
  return readLines(reader.create(name, options), splitLines(text));
}

/** Feeds `lines` to a reader's parser one by one (numbered from 1), then finishes it. */
export function readLines(p: LineParser, lines: readonly string[]): ParsedSource {
  lines.forEach((l, i) => p.line(l, i + 1));
  return p.finish();
}

/**
 * The lines of an indented template literal, as a producer printed them: the literal's first
 * (empty) line and last (indentation only) dropped, and the indentation the lines share. The
 * text is taken raw: a backslash stays a backslash.
 */
export function linesOf(strings: TemplateStringsArray): string[] {
  const lines = strings.raw.join("").split("\n").slice(1, -1);
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent));
}

/** Parses `text` streamed in chunks of the given sizes (cycled) through the project's line splitter. */
export function parseByChunks(reader: FormatReader, name: string, text: string, sizes: readonly number[], options?: SampleOptions): ParsedSource {
  const p = reader.create(name, options);
  const splitter = new LineSplitter({ line: (t, n) => p.line(t, n), overlong: () => {} });
  let at = 0;
  let k = 0;
  while (at < text.length) {
    const size = Math.max(1, sizes[k++ % sizes.length] ?? 1);
    splitter.push(text.slice(at, at + size));
    at += size;
  }
  splitter.end();
  return p.finish();
}

/**
 * Expected per-interval counts of successful samples, per label: intervals measured from the
 * time of the first line written (`first`), shifted so the earliest interval starts at 0.
 * `timeKey` gives a sample's time as an integer in units of 1/unitsPerSec s, as the format writes it.
 */
export function expectedIntervals(
  written: readonly LoadSample[],
  timeKey: (s: LoadSample) => number,
  unitsPerSec: number,
  intervalSec = 1,
): { byLabel: Map<string, Map<number, number>>; minIndex: number; t0: number } {
  const t0 = timeKey(written[0]!);
  const per = unitsPerSec * intervalSec;
  const byLabel = new Map<string, Map<number, number>>();
  let minIndex = Infinity;
  for (const s of written) {
    if (!s.success) continue;
    const idx = Math.floor((timeKey(s) - t0) / per);
    minIndex = Math.min(minIndex, idx);
    let m = byLabel.get(s.label);
    if (!m) byLabel.set(s.label, (m = new Map()));
    m.set(idx, (m.get(idx) ?? 0) + 1);
  }
  return { byLabel, minIndex, t0 };
}

/** What tests compare between a parsed spectrum and its reference: count, percentiles, max. */
export function spectrumSummary(h: Histogram): { total: number; p50: number; p90: number; p99: number; p999: number; max: number } {
  const js = h as unknown as { countsArrayLength: number; getCountAtIndex(i: number): number; valueFromIndex(i: number): number; highestEquivalentValue(v: number): number };
  let max = 0;
  for (let i = js.countsArrayLength - 1; i >= 0; i--) {
    if (js.getCountAtIndex(i) > 0) {
      max = js.highestEquivalentValue(js.valueFromIndex(i));
      break;
    }
  }
  const at = (p: number) => (h.totalCount === 0 ? 0 : h.getValueAtPercentile(p));
  return { total: h.totalCount, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max };
}

/** The comparable facts of one series: totals, spectrum, failures, per-interval counts. */
export interface SeriesFacts {
  tag: string;
  summary: ReturnType<typeof spectrumSummary>;
  failures: number;
  /** [interval index from the first written line's time, count], ascending. */
  intervals: [number, number][] | null;
}

/** Facts of parsed series; interval starts are turned back into indices with `minIndex`. */
export function factsOfParsed(p: ParsedSource, minIndex: number, intervalSec = 1): SeriesFacts[] {
  return p.series
    .map((s) => ({
      tag: s.tag,
      summary: spectrumSummary(s.histogram),
      failures: s.failures ?? 0,
      intervals: s.intervals ? s.intervals.map((iv): [number, number] => [Math.round(iv.start / intervalSec) + minIndex, iv.histogram.totalCount]) : null,
    }))
    .sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

/** Facts a reader should produce from `written` (in the order written). */
export function factsOfSamples(
  written: readonly LoadSample[],
  value: (s: LoadSample) => number,
  timeKey: ((s: LoadSample) => number) | null,
  unitsPerSec = 1,
  intervalSec = 1,
  labelOf: (s: LoadSample) => string = (s) => s.label,
): { facts: SeriesFacts[]; minIndex: number } {
  const relabelled = written.map((s) => ({ ...s, label: labelOf(s) }));
  const exp = timeKey ? expectedIntervals(relabelled, timeKey, unitsPerSec, intervalSec) : null;
  const labels = [...new Set(relabelled.map((s) => s.label))].sort();
  const facts = labels.map((tag) => {
    const mine = relabelled.filter((s) => s.label === tag);
    const ok = mine.filter((s) => s.success);
    return {
      tag,
      summary: spectrumSummary(referenceHistogram(ok.map(value))),
      failures: mine.length - ok.length,
      intervals: exp ? [...(exp.byLabel.get(tag) ?? new Map<number, number>()).entries()].sort((a, b) => a[0] - b[0]) : null,
    };
  });
  return { facts, minIndex: exp ? exp.minIndex : 0 };
}
