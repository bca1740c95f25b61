// ghz (gRPC benchmarking) reports written with `-O json` (one line) or `-O pretty` (indented):
// one JSON object (runner/reporter.go Report) whose "details" array holds every call
// (ResultDetail), up to ghz's cap of a million:
//   {"name":…,"endReason":…,"options":{…},"date":"2026-…","count":200,"total":…,"average":…,
//    "fastest":…,"slowest":…,"rps":…,"errorDistribution":{…},"statusCodeDistribution":{"OK":198,…},
//    "latencyDistribution":[…],"histogram":[…],
//    "details":[{"timestamp":"2026-01-02T03:04:05.123456789Z","latency":1234567,"error":"","status":"OK"},…]}
// latency is a Go time.Duration (ns), timestamp an RFC 3339 time with ns, status the gRPC code's
// name. A call failed when it has an error (ghz's own report leaves such calls out of its
// latencies) or a status other than OK; failures are counted, not recorded. Latencies are
// recorded in ns, one series for the file. `count` is the number of calls made: when it exceeds
// the details (ghz keeps at most a million), a note says how many were read.
//
// The report is one JSON document: it is scanned a line at a time (support/json-stream.ts) and
// only each call's object is parsed, so a report of any size is read in bounded memory. A
// compact (-O json) report is one line, longer than any line the app holds: it is taken in
// pieces as it streams in (LineSink.piece).
import type { FormatReader, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { JsonStream, MAX_VALUE_CHARS, parseJsonLine, tooLongReason } from "./support/json-stream";
import { CollectingParser, readerOf } from "./support/parser";

/** Longest call object held: ghz writes ~100 characters for one, its error message included. */
const MAX_CALL_CHARS = MAX_VALUE_CHARS;

class GhzParser extends CollectingParser {
  private readonly stream = new JsonStream(
    [["details", "*"], ["count"]],
    (path, text, lineNo) => (path === "count" ? this.count(text) : this.call(text, lineNo)),
    MAX_CALL_CHARS,
    (v) => this.problems.line(v.line, tooLongReason(v.path === "count" ? '"count"' : "a call", v, "ghz writes about 100 characters for one")),
  );
  private declared: number | null = null;
  private calls = 0;

  constructor(file: string, options: SampleOptions) {
    super("ghz", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  piece(text: string, lineNo: number): void {
    try {
      this.stream.piece(text, lineNo);
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  protected readLine(text: string, lineNo: number): void {
    this.stream.line(text, lineNo);
    if (this.stream.trailing === lineNo)
      this.problems.line(lineNo, this.stream.opened ? "text after the end of the ghz report: ignored" : "not a ghz JSON report (it starts with a JSON object)");
  }

  private count(text: string): void {
    const n = Number(text);
    if (Number.isSafeInteger(n) && n >= 0) this.declared = n;
  }

  private call(text: string, lineNo: number): void {
    this.calls++;
    const o = parseJsonLine(this.problems, lineNo, text, () => `call ${JSON.stringify(clip(text))} is not valid JSON`);
    if (o === undefined) return;
    const record = this.timestampedObject(o, lineNo, "call is not a JSON object", "call without a timestamp");
    if (!record) return;
    const { r, at } = record;
    if (typeof r.latency !== "number" || !Number.isInteger(r.latency)) {
      this.problems.line(lineNo, `latency ${clip(String(JSON.stringify(r.latency)))} is not a whole number of ns`);
      return;
    }
    const error = typeof r.error === "string" ? r.error : "";
    const status = typeof r.status === "string" ? r.status : "";
    this.latencySample("", error !== "" || (status !== "" && status !== "OK"), String(r.latency), at, lineNo, { scaleDigits: 0, unit: "ns", what: "latency" });
  }

  protected finishRecords(): void {
    if (this.stream.unfinished) this.problems.once("unfinished", null, "the report ends before its closing brace: the file may be truncated (the calls read are kept)");
    // A call too long to read was listed all the same (and named where it is).
    const listed = this.calls + this.stream.tooLong;
    if (!this.stream.unfinished && this.declared !== null && this.declared > listed && listed > 0) {
      this.problems.once("capped", null, `the report made ${this.declared} calls and lists ${listed} in "details" (ghz keeps at most a million): the others are not read`);
    }
  }

  protected emptyReason(): string | null {
    return 'no calls in the ghz report\'s "details" (write it with -O json or -O pretty)';
  }
}

/** The start of a ghz report: a JSON object with ghz's summary keys. */
export function ghzContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  if (!t.startsWith("{")) return false;
  const keys = ["fastest", "slowest", "rps", "statusCodeDistribution", "latencyDistribution", "errorDistribution", "endReason"].filter((k) => new RegExp(`"${k}"\\s*:`).test(t));
  return keys.length >= 3 || (/"details"\s*:\s*\[/.test(t) && /"status"\s*:\s*"/.test(t) && /"latency"\s*:\s*\d/.test(t));
}

export const ghzReader: FormatReader = readerOf("ghz", GhzParser, ghzContentMatch);
