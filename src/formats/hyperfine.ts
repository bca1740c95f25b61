// hyperfine's JSON export (`hyperfine --export-json FILE`, hyperfine 1.15, src/export/json.rs):
//   {"results": [{"command": "true", "mean": …, "stddev": …, "median": …, "user": …,
//     "system": …, "min": …, "max": …, "times": [0.000635145, …], "exit_codes": [0, …]}, …]}
// "times" holds every timed run's wall-clock time in seconds (warm-up runs are not in it): read
// as samples, in ns, one series per command (named by it, or by its parameters when a
// --parameter-scan names them). Runs that exited non-zero (possible with -i) are timed by
// hyperfine and kept in its statistics, so they are recorded too, and a note says how many.
// hyperfine's CSV and Markdown exports hold only statistics and are refused (statistics.ts).
import { newHistogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { LoadProblem } from "../core/types";
import type { FormatReader, LineParser, ParsedSeries, ParsedSource, SampleOptions } from "./source";
import { maxLatencyIn, parseLatency } from "./support/decimals";
import { elementStream, feedLine, feedPiece, JsonStream, parseJsonLine } from "./support/json-stream";
import { Problems } from "./support/problems";

const NS = maxLatencyIn("ns");

/**
 * Longest result held: it lists every run's time and exit code, about 40 characters a run as
 * hyperfine pretty-prints them, so a million runs (--runs 1000000) is some 40 MB.
 */
const MAX_RESULT_CHARS = 128 * 1024 * 1024;
const RESULT_TOO_LONG = "its times and exit codes would be those of several million runs";

class HyperfineParser implements LineParser {
  private readonly problems: Problems;
  private readonly stream: JsonStream;
  private readonly series: ParsedSeries[] = [];
  private readonly names = new Map<string, number>();
  private nonZero = 0;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
    this.stream = elementStream(this.problems, ["results", "*"], (text, lineNo) => this.result(text, lineNo), MAX_RESULT_CHARS, "a result", RESULT_TOO_LONG);
  }

  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    feedLine(this.stream, this.problems, text, lineNo, (opened) => (opened ? "text after the end of the hyperfine export: ignored" : "not a hyperfine JSON export"));
  }

  private result(text: string, lineNo: number): void {
    const r = parseJsonLine(this.problems, lineNo, text, "a result that is not valid JSON: skipped");
    if (typeof r !== "object" || r === null) return;
    const o = r as { command?: unknown; times?: unknown; exit_codes?: unknown };
    if (typeof o.command !== "string" || !Array.isArray(o.times)) {
      this.problems.line(lineNo, 'a result without "command" and "times": skipped');
      return;
    }
    const h = newHistogram();
    let bad = 0;
    for (const t of o.times) {
      const v = typeof t === "number" ? parseLatency(String(t), 9, NS, "time") : ({ ok: false, reason: "" } as const);
      if (v.ok) h.recordValue(v.value);
      else bad++;
    }
    if (bad > 0) this.problems.line(lineNo, `${bad} time${bad === 1 ? "" : "s"} of ${JSON.stringify(o.command.slice(0, 60))} not a non-negative number of seconds: left out`);
    if (Array.isArray(o.exit_codes)) this.nonZero += o.exit_codes.filter((c) => c !== 0).length;
    const k = (this.names.get(o.command) ?? 0) + 1;
    this.names.set(o.command, k);
    const tag = k === 1 ? o.command : `${o.command} (${k})`;
    if (h.totalCount > 0) this.series.push({ name: `${fileBaseName(this.file)} [${tag}]`, tag, unit: "ns", histogram: h, intervals: null, startTime: null, failures: 0 });
  }

  finish(): ParsedSource {
    if (this.stream.unfinished) this.problems.once("unfinished", null, "the export ends before its closing brace: the file may be truncated");
    if (this.series.length === 0 && this.problems.skipped === 0) this.problems.once("empty", null, 'no "results" with "times" in the hyperfine export');
    const notes: LoadProblem[] =
      this.nonZero > 0
        ? [
            {
              file: this.file,
              line: null,
              reason: `${this.nonZero} run${this.nonZero === 1 ? "" : "s"} exited non-zero (hyperfine -i): timed and recorded, as in hyperfine's own statistics`,
              note: true,
            },
          ]
        : [];
    return { format: "hyperfine", series: this.series, problems: [...this.problems.list(), ...notes] };
  }
}

/** A JSON object whose "results" hold "command" and "times". */
export function hyperfineContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  return t.startsWith("{") && /"results"\s*:\s*\[/.test(t) && /"command"\s*:/.test(t) && /"(times|exit_codes|mean)"\s*:/.test(t);
}

export const hyperfineReader: FormatReader = {
  id: "hyperfine",
  detect: (_name, head) => hyperfineContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new HyperfineParser(name),
};
