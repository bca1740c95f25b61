// Files that hold only statistics of many requests (averages, extremes, a few percentiles), not
// one line per request: no spectrum can be rebuilt from them, so they are refused with what
// they are and what to load instead, rather than "not a recognised format" or, worse, read as
// samples of their first numeric column. Each kind is told by its own marks in the first few KB:
//
// - JMeter's summariser (jmeter.log, or the console of a non-GUI run): lines
//   `summary +    522 in 00:00:30 =   17.4/s Avg:   563 Min:    14 Max:  3081 Err: 0 (0.00%) …`
//   (older releases: `in   1.5s`).
// - Taurus' final-stats XML (`dump-xml`): a <FinalStatus> root with one <Group label=…> of KPIs
//   (avg_rt, perc/50.0 …) per label.
// - Iago (Finagle) stats: JSON with `client/request_latency_ms_average`, `_minimum`, `_maximum`,
//   `_p50` … keys.
// - k6's end-of-test summary (`--summary-export`, or handleSummary's JSON): a "metrics" object
//   with http_req_duration's avg, min, med, max, p(90), p(95).
// - k6's web-dashboard recording (`--out web-dashboard=record=…`, decompressed): JSON lines
//   {"event":"param"|"start"|"snapshot"|"cumulative"|"stop"|"metric",…} of aggregated metrics.
// - siege's log (`siege -l`, siege.log): one line per run, "Date & Time, Trans, Elap Time,
//   Data Trans, Resp Time, …", its average response time among them.
// - Gatling's report statistics (js/stats.json, global_stats.json): "percentiles1",
//   "meanResponseTime" … per request.
// - Vegeta's report (`vegeta report -type=json`): "latencies" {"mean", "50th", "99th", "max" …}.
// - autocannon's JSON result (`autocannon -j`): "latency" {"average", "p50", "p99" …}.
// Summary tables with a header (Locust's *_stats.csv, JMeter's aggregate report, ab -e) are told
// by their columns in samples.ts and refused with the same words.
import type { LoadProblem } from "../core/types";
import type { FormatReader, LineParser, ParsedSource } from "./source";

/** What to load instead, said after every refusal. */
export const SAMPLES_ADVICE =
  "no spectrum can be rebuilt from averages and a few percentiles: load the results with one line per request (a JMeter .jtl, a Gatling simulation.log, k6 JSON or CSV output, Vegeta, ghz JSON, siege -v output, ab -g output, a CSV of samples)";

/**
 * The reason given for a statistics file: `what` says what it is and what it holds, `instead`
 * what to load. The default, SAMPLES_ADVICE, names load generators' outputs: a reader of any other
 * producer (fio, JMH, a system tool) gives its own `instead`, or the advice would not fit the file.
 */
export function statisticsReason(what: string, instead = SAMPLES_ADVICE): string {
  return `statistics, not samples: ${what}; ${instead}`;
}

interface StatisticsKind {
  /** What the file is and holds, for the message. */
  what: string;
  /** What to produce instead, when the tool itself can write something the app reads. */
  instead?: string;
  /** The 1-based line of `lines` (the head's lines) that tells it, or -1. */
  find(lines: readonly string[], head: string): number;
}

const lineMatching =
  (re: RegExp) =>
  (lines: readonly string[]): number =>
    lines.findIndex((l) => re.test(l));

const JMETER_SUMMARY = /\bsummary [+=]\s+\d+\s+in\s+[\d:.]+s?\s*=\s*[\d.,]+\/s\s+Avg:\s+-?\d+\s+Min:\s+-?\d+\s+Max:\s+-?\d+/;
const K6_DASHBOARD = /^\s*\{\s*"event"\s*:\s*"(param|config|start|stop|snapshot|cumulative|metric)"/;
const SIEGE_LOG = /Date & Time,\s*Trans,\s*Elap Time,\s*Data Trans,\s*Resp Time/;
const IAGO = /"client\/request_latency_ms_(average|minimum|maximum|p\d+)"/;
const GATLING_STATS = /"percentiles1"\s*:/;
const VEGETA_REPORT = /"latencies"\s*:\s*\{[^}]*"(mean|50th|99th)"\s*:/;
const AUTOCANNON = /"latency"\s*:\s*\{[^}]*"(average|p50|p99|p97_5)"\s*:/;

// ---------------------------------------------------------------------------------------------
// Load generators' and system tools' own summaries (each tool can also write what the app reads:
// `instead` says how).
// - hey's summary (stdout without -o csv): "Summary:", "Requests/sec:", "Latency distribution:".
// - h2load's summary: "finished in 87.95ms, 568.50 req/s, …" and "time for request:".
// - pgbench's stdout: "transaction type:", "latency average = …", "tps = …".
// - pgbench --aggregate-interval logs: per interval "start count sum sum² min max …", 11 or more
//   integer columns after a 10-digit epoch (per-transaction logs have 6 to 8).
// - sysbench's output without --histogram: "Latency (ms):" min, avg, max, 95th percentile.
// - redis-benchmark -q: "SET: 86956.52 requests per second, p50=0.039 msec".
// - redis-benchmark --csv: "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms" ….
// - hyperfine --export-csv: command,mean,stddev,median,user,system,min,max.
// - siege's JSON summary (json_output, Debian's default): "transactions", "response_time", ….
// - sockperf's stdout without --full-log: "sockperf: ---> percentile 99.000 = …" lines.
// - Prometheus text exposition (a saved /metrics page): its histograms are cumulative counts at a
//   few bucket bounds (and a native histogram shows only +Inf, _sum and _count); refused rather
//   than read as the numbers of its lines.
// wrk's --latency output is HdrHistogram-looking text (wrk2 shares its banner): hgrm.ts refuses it.

const PGBENCH_AGGREGATE = /^\d{10}(\.\d+)? \d+ \d+ \d+ \d+ \d+( \d+(\.\d+)?){5,12}\s*$/;
const PROMETHEUS = /^[a-zA-Z_:][a-zA-Z0-9_:]*_(bucket\{[^}]*\ble="|count(\{[^}]*\})? |sum(\{[^}]*\})? )/;

/** Lines of the head that all match `re` (one at least, blank lines aside): the first one's index, or -1. */
function everyLine(re: RegExp) {
  return (lines: readonly string[]): number => {
    const full = lines.length > 1 ? lines.slice(0, -1) : lines; // the head's last line may be cut
    const body = full.filter((l) => l.trim() !== "");
    return body.length >= 1 && body.every((l) => re.test(l)) ? lines.findIndex((l) => l.trim() !== "") : -1;
  };
}

/** A line matching `re` when every one of `also` matches some line of the head too. */
function withAll(re: RegExp, also: RegExp[]) {
  return (lines: readonly string[], head: string): number => (also.every((a) => a.test(head)) ? lines.findIndex((l) => re.test(l)) : -1);
}

const LOADGEN_SUMMARIES: StatisticsKind[] = [
  {
    what: "hey's summary (its average, slowest, fastest, a coarse histogram and seven percentiles)",
    instead: "run hey with -o csv (one line per request, seconds) and load that",
    find: withAll(/^Summary:\s*$/, [/^[^\S\r\n]*Requests\/sec:/m, /^(Latency distribution|Response time histogram):/m]),
  },
  {
    what: "h2load's summary (min, max, mean and sd of the request times)",
    instead: "run h2load with --log-file=FILE (one line per request, µs) and load that file",
    find: withAll(/^finished in [\d.]+m?s, [\d.]+ req\/s/, [/^time for request:/m]),
  },
  {
    what: "pgbench's output (the latency average, stddev and tps of the run)",
    instead: "run pgbench with --log (one line per transaction, µs, a file per thread) and load the pgbench_log files",
    find: withAll(/^transaction type:/, [/^(latency average|tps) = /m]),
  },
  {
    what: "a pgbench --aggregate-interval log (per interval: a count, the sum, sum of squares, min and max of the latencies)",
    instead: "run pgbench with --log but without --aggregate-interval (one line per transaction) and load those files",
    find: everyLine(PGBENCH_AGGREGATE),
  },
  {
    what: "sysbench's statistics (min, avg, max and one percentile of the latency)",
    instead: "run sysbench with --histogram=on: its whole-run latency histogram is read",
    find: (lines, head) =>
      /^sysbench \d+\.\d+/m.test(head) && !/^[^\S\r\n]*Latency histogram \(values are in milliseconds\)/m.test(head) ? lines.findIndex((l) => /^Latency \(ms\):/.test(l)) : -1,
  },
  {
    what: "redis-benchmark -q output (requests per second and p50 per test)",
    instead: "save redis-benchmark's default output (without -q or --csv): its percentile spectrum per test is read",
    find: lineMatching(/^[A-Z][\w ()-]*: [\d.]+ requests per second, p50=[\d.]+ msec\s*$/),
  },
  {
    what: "redis-benchmark --csv output (per test: rps, average, min, p50, p95, p99 and max latency)",
    instead: "save redis-benchmark's default output (without --csv): its percentile spectrum per test is read",
    find: lineMatching(/^"test","rps","avg_latency_ms","min_latency_ms"/),
  },
  {
    what: "hyperfine's CSV export (mean, stddev, median, min and max per command)",
    instead: "run hyperfine with --export-json FILE (every run's time) and load that",
    find: lineMatching(/^command,mean,stddev,median,user,system,min,max/),
  },
  {
    what: "siege's JSON summary (transactions, average response time, longest and shortest transaction)",
    instead: "run siege with -v and json_output = false in its siegerc (one line per request) and save that output",
    find: withAll(/^\s*(?:\{\s*)?"transactions":/, [/"response_time":/, /"longest_transaction":/]),
  },
  {
    what: "sockperf's summary (a few percentiles of the run)",
    instead: "run sockperf with --full-log FILE (one line per message) and load that file",
    find: (lines, head) => (/^packet, txTime/m.test(head) ? -1 : lines.findIndex((l) => /^sockperf: ---> percentile \d/.test(l))),
  },
  {
    what: "a Prometheus text exposition (a /metrics page: each histogram is cumulative counts at a few bucket bounds, a native one only its count and sum)",
    instead:
      "no spectrum can be rebuilt from a few bucket bounds without making values up; for native histograms save the Prometheus HTTP API's JSON (query or query_range) instead",
    find: (lines, head) =>
      /^# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (histogram|summary|counter|gauge)[^\S\r\n]*$/m.test(head) || lines.filter((l) => PROMETHEUS.test(l)).length >= 2
        ? lines.findIndex((l) => PROMETHEUS.test(l) || /^# (TYPE|HELP) /.test(l))
        : -1,
  },
];

/** The JSON object opening a file (after white space), not a JSON line per request. */
function k6Summary(lines: readonly string[], head: string): number {
  if (!/^\s*\{/.test(head)) return -1;
  if (!/"metrics"\s*:/.test(head) || !/"(http_req_duration|iteration_duration|http_reqs)"\s*:/.test(head)) return -1;
  if (!/"(p\(\d+(\.\d+)?\)|med|avg)"\s*:/.test(head)) return -1;
  const at = lines.findIndex((l) => /"metrics"\s*:/.test(l));
  return at;
}

const KINDS: StatisticsKind[] = [
  { what: "a JMeter summariser log (summary + … Avg: … Min: … Max: … lines: a count, an average and the extremes per period)", find: lineMatching(JMETER_SUMMARY) },
  { what: "Taurus final-stats XML (<FinalStatus>: averages and a few percentiles per label)", find: lineMatching(/<FinalStatus\b/) },
  { what: "Iago (Finagle) stats (request_latency_ms average, minimum, maximum and a few percentiles)", find: lineMatching(IAGO) },
  { what: "a k6 end-of-test summary (--summary-export or handleSummary JSON: avg, min, med, max, p(90), p(95) per metric)", find: k6Summary },
  { what: "a k6 web-dashboard recording (snapshots of aggregated metrics every few seconds)", find: lineMatching(K6_DASHBOARD) },
  { what: "a siege log (siege -l: one line per run with its transaction count and average response time)", find: lineMatching(SIEGE_LOG) },
  {
    what: "Gatling's report statistics (stats.json: counts, means and four percentiles per request)",
    instead: "load the simulation.log in the same results folder (Gatling made this report from it: every request is there)",
    find: lineMatching(GATLING_STATS),
  },
  { what: "a Vegeta report (vegeta report -type=json: mean and a few percentiles of the latencies)", find: (lines) => lines.findIndex((l) => VEGETA_REPORT.test(l)) },
  { what: "an autocannon result (autocannon -j: average and percentiles of the latency)", find: (lines) => lines.findIndex((l) => AUTOCANNON.test(l)) },
  ...LOADGEN_SUMMARIES,
];

/** Which statistics file `head` (a file's first few KB) is, and the line that tells it; null when none. */
export function statisticsKind(head: string): { what: string; line: number; instead?: string } | null {
  const text = head.replace(/^\uFEFF/, "");
  const lines = text.split(/\r\n|\r|\n/);
  for (const k of KINDS) {
    const at = k.find(lines, text);
    if (at >= 0) return { what: k.what, line: at + 1, instead: k.instead };
  }
  return null;
}

/** Reads nothing: the file's first lines said what it is; finish() says why it is refused. */
class StatisticsRefusal implements LineParser {
  private head = "";
  private lines = 0;

  constructor(private readonly file: string) {}

  line(text: string): void {
    // The same head detection saw (its lines), to name the same kind and line.
    if (this.lines < 200 && this.head.length < 64 * 1024) {
      this.head += (this.lines > 0 ? "\n" : "") + text;
      this.lines++;
    }
  }

  finish(): ParsedSource {
    const kind = statisticsKind(this.head);
    const problem: LoadProblem = kind
      ? { file: this.file, line: kind.line, reason: statisticsReason(kind.what, kind.instead) }
      : { file: this.file, line: null, reason: statisticsReason("a file of aggregated statistics") };
    return { format: "statistics", series: [], problems: [problem] };
  }
}

/** Detected before every line reader: these files would otherwise be misread or called unknown. */
export const statisticsReader: FormatReader = {
  id: "statistics",
  detect: (_name, head) => statisticsKind(head) !== null,
  create: (name) => new StatisticsRefusal(name),
};
