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
// Summary tables with a header (Locust's *_stats.csv, JMeter's aggregate report, ab -e) are told
// by their columns in samples.ts and refused with the same words.
import type { LoadProblem } from "../core/types";
import type { FormatReader, LineParser, ParsedSource } from "./source";

/** What to load instead, said after every refusal. */
export const SAMPLES_ADVICE =
  "no spectrum can be rebuilt from averages and a few percentiles: load the results with one line per request (a JMeter .jtl, a Gatling simulation.log, k6 JSON or CSV output, Vegeta, ghz JSON, siege -v output, ab -g output, a CSV of samples)";

/** The reason given for a statistics file: `what` says what it is and what it holds. */
export function statisticsReason(what: string): string {
  return `statistics, not samples: ${what}; ${SAMPLES_ADVICE}`;
}

interface StatisticsKind {
  /** What the file is and holds, for the message. */
  what: string;
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
  { what: "Gatling's report statistics (stats.json: counts, means and four percentiles per request)", find: lineMatching(GATLING_STATS) },
];

/** Which statistics file `head` (a file's first few KB) is, and the line that tells it; null when none. */
export function statisticsKind(head: string): { what: string; line: number } | null {
  const text = head.replace(/^\uFEFF/, "");
  const lines = text.split(/\r\n|\r|\n/);
  for (const k of KINDS) {
    const at = k.find(lines, text);
    if (at >= 0) return { what: k.what, line: at + 1 };
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
      ? { file: this.file, line: kind.line, reason: statisticsReason(kind.what) }
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
