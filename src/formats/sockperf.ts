// sockperf's full log (`sockperf ping-pong … --full-log FILE`, sockperf 3.7): its summary (in
// colour codes) then one CSV line per message measured:
//   sockperf: ---> percentile 50.000 =   25.973
//   …
//   packet, txTime(sec), rxTime(sec), latency(usec)
//   0, 2.403066597, 2.403118555, 25.979
// latency is half the round trip, (rxTime − txTime) / 2, in µs with three decimals, as sockperf
// reports it: recorded in ns, and a note says it is half the round trip. txTime (seconds on a
// monotonic clock, not a date) cuts the run into intervals; the series has no start time.
// The summary lines, colour codes and separators are skipped. sockperf's stdout alone (its few
// percentiles) is refused as statistics (statistics.ts).
import type { FormatReader, ParsedSource, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";
import { parseNumericTime } from "./support/time";

// eslint-disable-next-line no-control-regex -- ANSI escape sequences are what is removed
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const HEADER = /^packet, txTime\(sec\), rxTime\(sec\), latency\(usec\)\s*$/;
const ROW = /^(\d+), *(\d+\.\d+), *(\d+\.\d+), *(\d+(?:\.\d+)?)\s*$/;

class SockperfParser extends CollectingParser {
  private header = false;

  constructor(
    private readonly file: string,
    options: SampleOptions,
  ) {
    super("sockperf", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(raw: string, lineNo: number): void {
    const text = raw.indexOf("\u001b") >= 0 ? raw.replace(ANSI, "") : raw;
    const t = text.trim();
    if (t === "") return;
    if (HEADER.test(t)) {
      this.header = true;
      return;
    }
    if (!this.header || /^(sockperf:|-{5,}|test was performed)/.test(t)) return;
    const m = ROW.exec(t);
    if (!m) {
      this.problems.line(lineNo, `not a sockperf --full-log line (packet, txTime, rxTime, latency): ${JSON.stringify(clip(t, 60))}`);
      return;
    }
    const at = parseNumericTime(m[2]!, "s");
    if (!at.ok) {
      this.problems.line(lineNo, `txTime: ${at.reason}`);
      return;
    }
    this.latencySample("", false, m[4]!, at.at, lineNo, { scaleDigits: 3, unit: "ns", what: "latency" });
  }

  protected emptyReason(): string | null {
    return this.header ? "no messages found in the sockperf --full-log file" : 'no "packet, txTime(sec), rxTime(sec), latency(usec)" header: not a sockperf --full-log file';
  }

  finish(): ParsedSource {
    const p = super.finish();
    for (const s of p.series) s.startTime = null;
    if (p.series.length > 0)
      p.problems.push({ file: this.file, line: null, reason: "sockperf's latency is half the round trip ((rxTime − txTime) / 2), as sockperf reports it", note: true });
    return p;
  }
}

export function sockperfContentMatch(head: string): boolean {
  return /^packet, txTime\(sec\), rxTime\(sec\), latency\(usec\)[^\S\r\n]*$/m.test(head);
}

export const sockperfReader: FormatReader = readerOf("sockperf", SockperfParser, sockperfContentMatch);
