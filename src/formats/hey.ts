// hey's per-request CSV (`hey -o csv`), as its printCSV writes it (requester/print.go):
//   response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset
//   0.0020,0.0005,0.0000,0.0001,0.0013,0.0001,200,0.0003
// Every time is in seconds with four decimals ("%4.4f"): response-time is the request's whole
// time, offset when it started, in seconds since the run began. Requests that failed before a
// response (a refused connection, a timeout) are not in the file; a status of 400 or more is
// counted as a failure, not recorded. Values are recorded in µs, exactly as written (hey's
// resolution is 0.1 ms). Offsets cut the run into intervals; the run's wall-clock start is not
// in the file, so the series has no start time.
//
// The generic samples reader read this file as milliseconds (a column named "response-time" with
// no unit), a factor of 1,000 off: hence a reader of its own, told by its exact header. hey's
// default output (its summary) is refused as statistics (statistics.ts).
import type { FormatReader, ParsedSource, SampleOptions } from "./source";
import { CollectingParser, readerOf } from "./support/parser";
import { parseNumericTime } from "./support/time";

const HEADER = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset";

class HeyParser extends CollectingParser {
  private header = false;

  constructor(file: string, options: SampleOptions) {
    super("hey", { file, unit: "us", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === "") return;
    if (t === HEADER) {
      this.header = true;
      return;
    }
    const f = t.split(",");
    if (f.length !== 8) {
      this.problems.line(lineNo, this.header ? `expected 8 fields (hey -o csv), found ${f.length}` : "not hey -o csv output (its header line is missing)");
      return;
    }
    const status = f[6]!.trim();
    if (!/^\d{1,3}$/.test(status)) {
      this.problems.line(lineNo, `status-code ${JSON.stringify(status.slice(0, 20))} is not a status`);
      return;
    }
    const at = parseNumericTime(f[7]!.trim(), "s");
    if (!at.ok) {
      this.problems.line(lineNo, `offset: ${at.reason}`);
      return;
    }
    this.latencySample("", Number(status) >= 400, f[0]!, at.at, lineNo, { scaleDigits: 6, unit: "us", what: "response-time" });
  }

  protected emptyReason(): string | null {
    return "no requests found in hey -o csv output";
  }

  finish(): ParsedSource {
    const p = super.finish();
    // Offsets count from the run's start, whose date hey does not write.
    for (const s of p.series) s.startTime = null;
    return p;
  }
}

export function heyContentMatch(head: string): boolean {
  return head
    .replace(/^\uFEFF/, "")
    .trimStart()
    .startsWith(HEADER);
}

export const heyReader: FormatReader = readerOf("hey", HeyParser, heyContentMatch);
