// h2load's per-request log (`h2load --log-file=FILE`, nghttp2's h2load.cc): one line per request,
// tab-separated, no header:
//   1796516129608783	200	6200
// the request's start in µs since the epoch, its HTTP status, its duration in µs. A request that
// got no response (a reset stream, a timeout) is logged with status -1 or 0 (nghttp2 writes the
// status it has): a status below 100 or of 400 and more is counted as failed, not recorded. The
// durations are recorded in µs, intervals cut by the start times. h2load's stdout summary (min,
// max, mean, sd) is refused as statistics (statistics.ts).
import type { FormatReader, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, firstLinesMatch, readerOf } from "./support/parser";
import { parseNumericTime } from "./support/time";

const LINE = /^(\d{13,17})\t(-?\d{1,3})\t(\d+)\s*$/;

class H2loadParser extends CollectingParser {
  constructor(file: string, options: SampleOptions) {
    super("h2load", { file, unit: "us", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    if (text.trim() === "") return;
    const m = LINE.exec(text);
    if (!m) {
      this.problems.line(lineNo, `not an h2load --log-file line (start µs, status, duration µs, tab-separated): ${JSON.stringify(clip(text.trim(), 60))}`);
      return;
    }
    const at = parseNumericTime(m[1]!, "us");
    if (!at.ok) {
      this.problems.line(lineNo, at.reason);
      return;
    }
    const status = Number(m[2]);
    this.latencySample("", status < 100 || status >= 400, m[3]!, at.at, lineNo, { scaleDigits: 0, unit: "us", what: "duration" });
  }

  protected emptyReason(): string | null {
    return "no requests found in the h2load --log-file output";
  }
}

/** Tab-separated lines of a µs epoch, a status and a duration (the first three non-empty lines). */
export function h2loadContentMatch(head: string): boolean {
  return firstLinesMatch(head, LINE);
}

export const h2loadReader: FormatReader = readerOf("h2load", H2loadParser, h2loadContentMatch);
