// siege's verbose output (`siege -v`, the default in siegerc), one line per request as its
// browser.c __display_result prints it, each in ANSI colour codes when colour is on (ESC[0;34m …
// ESC[0m: blue 2xx, cyan 3xx, magenta 4xx, red 5xx):
//   HTTP/1.1 200     0.03 secs:     612 bytes ==> GET  /index.html
//   [Sat, 2026-01-02 03:04:05] HTTP/1.1 200     0.03 secs: …      (with timestamps: local time)
//      3) HTTP/1.1 200     0.03 secs: …                            (with the client id, -D)
//   HTTP/1.1,200,  0.03,    612,/index.html,1,2026-01-02 03:04:05  (the CSV form)
// between its banner ("** SIEGE 4.1.6", "The server is now under siege...") and its closing
// summary ("Transactions: … hits"), which are skipped. The colour codes are stripped (they made
// such files look binary). The elapsed time is seconds with 2 decimals: recorded in ms, exactly
// as printed (siege measures no finer than 10 ms in this output). A status of 400 or more fails
// (siege's own count); "[error] …" lines (a socket error, a timeout) are failed transactions
// with no time. Failures are counted, not recorded. Stamped lines are cut into intervals by
// their time (the request's completion, to the second). One series for the file.
//
// siege's log file (`siege -l`, siege.log) holds one line of averages per run: it is refused as
// statistics (statistics.ts).
import type { FormatReader, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";
import { parseDateTime, type Instant } from "./support/time";

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are what is removed
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const STAMP = String.raw`(?:\[(?:[A-Z][a-z]{2}, )?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\]\s*)?`;
// Both match a trimmed line: a leading `\s*` and the CSV form's `[^,]*` would both take a run
// of white space, in quadratic time on a long one.
const VERBOSE = new RegExp(String.raw`^${STAMP}(?:\d+\)\s+)?(HTTP/[\d.]+|HTTPS?|FTP/\d+|UNSPPRTD)\s+(?:(\d{3})\s*)?(?:\(C\))?\s*(\d+\.\d+)\s+secs:\s+(\d+)\s+bytes\s+==>\s+(.*)$`);
const CSV = new RegExp(String.raw`^${STAMP}(?:[^,]*,)?(?:\s*\d+,)?(HTTP/[\d.]+|HTTPS?),(\d{3}),\s*(\d+\.\d+),\s*(\d+),(.*),\d+,(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}|n/a)\s*$`);
/** siege's banner, its closing summary and its notices: not requests. */
const CHATTER =
  /^\s*(\*\*|The server is now under siege|Lifting the server siege|Transactions:|Availability:|Elapsed time:|Data transferred:|Response time:|Transaction rate:|Throughput:|Concurrency:|Successful transactions:|Failed transactions:|Longest transaction:|Shortest transaction:|siege aborted|done\.|\[(alert|info|warning)\]|Script (started|done) on )/;
const ERROR = /^\s*\[(error|fatal)\]/;

class SiegeParser extends CollectingParser {
  constructor(file: string, options: SampleOptions) {
    super("siege", { file, unit: "ms", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(raw: string, lineNo: number): void {
    const text = (raw.indexOf("\u001b") >= 0 ? raw.replace(ANSI, "") : raw).trim();
    if (text === "") return;
    let m = VERBOSE.exec(text);
    let stamp: string | undefined;
    let protocol: string;
    let code: string | undefined;
    let secs: string;
    if (m) {
      [, stamp, protocol, code, secs] = m as unknown as [string, string | undefined, string, string | undefined, string];
      if (code === undefined) code = /^FTP\/(\d+)$/.exec(protocol)?.[1];
    } else if ((m = CSV.exec(text))) {
      [, stamp, protocol, code, secs] = m as unknown as [string, string | undefined, string, string, string];
      const at = m[7];
      if (stamp === undefined && at !== undefined && at !== "n/a") stamp = at;
    } else {
      if (ERROR.test(text)) this.fail("", null, lineNo);
      else if (!CHATTER.test(text)) this.problems.line(lineNo, `not a siege request line: ${JSON.stringify(clip(text.trim(), 60))}`);
      return;
    }
    let at: Instant | null = null;
    if (stamp !== undefined) {
      const t = parseDateTime(stamp);
      if (!t.ok) {
        this.problems.line(lineNo, t.reason);
        return;
      }
      at = t.at;
    }
    const status = code === undefined ? 0 : Number(code);
    void protocol;
    this.latencySample("", status >= 400 || status === 0, secs, at, lineNo, { scaleDigits: 3, unit: "ms", what: "elapsed time" });
  }

  protected emptyReason(): string | null {
    return "no siege request lines found (run siege with -v, the default, and save its output)";
  }
}

/** siege's banner, or a verbose request line (after its colour codes). */
export function siegeContentMatch(head: string): boolean {
  const text = head.replace(ANSI, "");
  if (/^\*\* SIEGE \d/m.test(text)) return true;
  const lines = text.split(/\r\n|\r|\n/, 20);
  return lines.some((l) => VERBOSE.test(l.trim()) && /secs:/.test(l));
}

export const siegeReader: FormatReader = readerOf("siege", SiegeParser, siegeContentMatch);
