// ioping's per-request lines (ioping 1.3, ioping.c):
//   4 KiB <<< . (ext4 /dev/vda 252.0 GiB): request=2 time=156.9 us
//   4 KiB <<< . (ext4 /dev/vda 252.0 GiB): request=1 time=72.8 us (warmup)
//   4 KiB >>> /dev/sda (device 10 GiB): request=9 time=1.02 ms (slow)
// The time is printed with its unit on each line, which changes as it grows (ns, us, ms, s,
// min): read per line and recorded in ns. The first request is a warm-up that ioping leaves
// out of its statistics: it is left out too, and a note says so. The closing statistics are
// skipped. No timestamps: one series with no time axis.
import type { FormatReader, ParsedSource, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, readerOf } from "./support/parser";

/** Decimal digits from a time unit to ns ("ms" → 6). */
export function timeUnitScale(unit: string): number {
  switch (unit) {
    case "ns":
      return 0;
    case "us":
    case "µs":
    case "μs":
      return 3;
    case "ms":
      return 6;
    default:
      return 9;
  }
}

const REQUEST = /^\d+(?:\.\d+)? [KMGT]?i?B (<<<|>>>) .*: request=(\d+) time=(\d+(?:\.\d+)?) (ns|us|µs|ms|s|min)\b(.*)$/;
const CHATTER = /^(--- .* ioping statistics ---|\d+ requests completed|generated \d+ requests|min\/avg\/max\/mdev)/;

class IopingParser extends CollectingParser {
  private warmups = 0;

  constructor(
    private readonly file: string,
    options: SampleOptions,
  ) {
    super("ioping", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === "" || CHATTER.test(t)) return;
    const m = REQUEST.exec(t);
    if (!m) {
      this.problems.line(lineNo, `not an ioping request line: ${JSON.stringify(clip(t, 60))}`);
      return;
    }
    if (/\(warmup\)/.test(m[5]!)) {
      this.warmups++;
      return;
    }
    // Minutes: the whole number of seconds they stand for (ioping prints "1.5 min").
    const unit = m[4]!;
    const value = unit === "min" ? String(Number(m[3]) * 60) : m[3]!;
    this.latencySample("", false, value, null, lineNo, { scaleDigits: timeUnitScale(unit), unit: "ns", what: "time" });
  }

  protected emptyReason(): string | null {
    return "no ioping requests found";
  }

  finish(): ParsedSource {
    const p = super.finish();
    if (this.warmups > 0)
      p.problems.push({
        file: this.file,
        line: null,
        reason: `${this.warmups} warm-up request${this.warmups === 1 ? "" : "s"} left out, as ioping leaves ${this.warmups === 1 ? "it" : "them"} out of its statistics`,
        note: true,
      });
    return p;
  }
}

export function iopingContentMatch(head: string): boolean {
  return head.split(/\r\n|\r|\n/, 20).some((l) => REQUEST.test(l.trim()));
}

export const iopingReader: FormatReader = readerOf("ioping", IopingParser, iopingContentMatch);
