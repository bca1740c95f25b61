// ping's per-reply lines (iputils ping; BusyBox and macOS print the same shape):
//   64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.255 ms
//   [1796516210.259207] 64 bytes from …: icmp_seq=1 ttl=64 time=0.014 ms      (ping -D)
// The round-trip time is printed with fewer decimals as it grows ("0.255", "12.3", "123") and its
// unit is read on each line (iputils writes ms; others may write s or µs): recorded in ns, as
// written. With -D each reply has its epoch time, which cuts the run into intervals. Lost
// replies ("no answer yet for icmp_seq=N" with -O, "Destination Host Unreachable", "Request
// timeout") are counted as failed. The header ("PING …") and the closing statistics are skipped.
import type { FormatReader, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";
import { parseNumericTime, type Instant } from "./support/time";
import { timeUnitScale } from "./ioping";

const REPLY = /^(?:\[(\d+\.\d+)\]\s*)?\d+ bytes from .*\btime[=<]\s*(\d+(?:\.\d+)?)\s*(ns|us|µs|μs|ms|s)\b/;
const LOST = /^(?:\[(\d+\.\d+)\]\s*)?(no answer yet for icmp_seq=|Request timeout for icmp_seq|From .*(Unreachable|Time to live exceeded))/;
const CHATTER = /^(PING |--- .* ping statistics ---|\d+ packets transmitted|rtt |round-trip |Warning:|WARNING:)/;

class PingParser extends CollectingParser {
  constructor(file: string, options: SampleOptions) {
    super("ping", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === "" || CHATTER.test(t)) return;
    const m = REPLY.exec(t);
    const lost = m ? null : LOST.exec(t);
    if (!m && !lost) {
      this.problems.line(lineNo, `not a ping reply line: ${JSON.stringify(clip(t, 60))}`);
      return;
    }
    const stamp = m ? m[1] : lost![1];
    let at: Instant | null = null;
    if (stamp !== undefined) {
      const r = parseNumericTime(stamp, "s");
      if (!r.ok) {
        this.problems.line(lineNo, r.reason);
        return;
      }
      at = r.at;
    }
    if (!m) {
      this.fail("", at, lineNo);
      return;
    }
    this.latencySample("", false, m[2]!, at, lineNo, { scaleDigits: timeUnitScale(m[3]!), unit: "ns", what: "time" });
  }

  protected emptyReason(): string | null {
    return "no ping replies found";
  }
}

export function pingContentMatch(head: string): boolean {
  const lines = head.split(/\r\n|\r|\n/, 40);
  return lines.some((l) => /^PING \S+ \(/.test(l)) || lines.filter((l) => REPLY.test(l.trim())).length >= 2;
}

export const pingReader: FormatReader = readerOf("ping", PingParser, pingContentMatch);
