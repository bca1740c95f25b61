// fio's per-I/O latency logs (`fio --write_lat_log=PREFIX`, fio 3.x, iolog.c flush_samples):
// PREFIX_lat.N.log (total latency), PREFIX_clat.N.log (completion), PREFIX_slat.N.log
// (submission), a line per I/O:
//   4, 3900507, 0, 4096, 0
// the time in ms since the job started, the latency in ns, the direction (0 read, 1 write,
// 2 trim), the block size in bytes, then the offset (with log_offset=1) and the I/O's priority.
// With log_avg_msec=M fio writes instead, every M ms and per direction, the average (or with
// log_max_value=1 the max) of the window's latencies, with block size 0 (__add_stat_to_log):
// statistics, refused as such. PREFIX_bw.N.log and PREFIX_iops.N.log have the same layout but
// hold bandwidth and IOPS, not latencies: refused by their names.
//
// Samples in ns, one series per direction, cut into intervals by their times.
import type { FormatReader, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser } from "./support/parser";
import { parseNumericTime } from "./support/time";
import { statisticsReason } from "./statistics";

const DIRECTION_NAMES = ["read", "write", "trim"] as const;
const LINE = /^(\d{1,15}), (\S+), (\S+), (\d{1,15})(, \d{1,20}){0,2}$/;

class FioLatParser extends CollectingParser {
  private readonly notLatency: string | null;
  private averaged = 0;
  private perIo = 0;

  constructor(file: string, options: SampleOptions) {
    super("fio-lat", { file, unit: "ns", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
    const m = /_(bw|iops)(\.\d+)?\.log$/i.exec(file);
    this.notLatency = m ? (m[1]!.toLowerCase() === "bw" ? "bandwidth" : "IOPS") : null;
  }

  protected readLine(text: string, lineNo: number): void {
    if (this.notLatency !== null) return;
    const t = text.trim();
    if (t === "") return;
    const m = LINE.exec(t);
    if (!m) {
      this.problems.line(lineNo, `${JSON.stringify(clip(t))} is not a fio log line (time ms, latency ns, direction, block size[, offset][, priority])`);
      return;
    }
    const dir = m[3]!;
    if (!/^[0-2]$/.test(dir)) {
      this.problems.line(lineNo, `direction ${JSON.stringify(clip(dir))} is not 0 (read), 1 (write) or 2 (trim)`);
      return;
    }
    if (m[4] === "0") {
      // A window's average or max (log_avg_msec), not an I/O.
      this.averaged++;
      return;
    }
    this.perIo++;
    const at = parseNumericTime(m[1]!, "ms");
    this.latencySample(DIRECTION_NAMES[Number(dir)]!, false, m[2]!, at.ok ? at.at : null, lineNo, { scaleDigits: 0, unit: "ns", what: "latency" });
  }

  protected finishRecords(): void {
    if (this.notLatency !== null) {
      this.problems.once(
        "not-latency",
        null,
        `a fio ${this.notLatency} log (--write_${this.notLatency === "bandwidth" ? "bw" : "iops"}_log): it holds ${this.notLatency}, not latencies; load the latency log (--write_lat_log makes PREFIX_clat.N.log) or the histogram log (--write_hist_log)`,
      );
    } else if (this.averaged > 0 && this.perIo === 0) {
      this.problems.once(
        "averaged",
        null,
        statisticsReason(
          "a fio latency log averaged over log_avg_msec windows (block size 0 on every line: one average or max per window and direction)",
          "run fio without --log_avg_msec for a line per I/O, or with --write_hist_log for its latency histograms, and load that",
        ),
      );
    } else if (this.averaged > 0) {
      this.problems.once("averaged", null, `${this.averaged} lines with block size 0 (averages over log_avg_msec windows, not I/Os): skipped`);
    }
  }

  protected emptyReason(): string | null {
    if (this.notLatency !== null || this.averaged > 0) return null;
    return "no I/O lines in the fio latency log";
  }
}

/** The first lines are fio log lines: time, value, direction 0–2, block size[, offset][, priority]. */
export function fioLatContentMatch(head: string): boolean {
  const lines = head
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .slice(0, 20)
    .filter((l) => l.trim() !== "");
  // The head's last line may be cut short: judge the complete ones when there are several.
  const whole = lines.length > 1 ? lines.slice(0, -1) : lines;
  return whole.length > 0 && whole.every((l) => /^\d{1,15}, \d{1,15}, [0-2], \d{1,15}(, \d{1,20}){0,2}$/.test(l.trim()));
}

export const fioLatReader: FormatReader = {
  id: "fio-lat",
  detect: (_name, head) => fioLatContentMatch(head),
  create: (name: string, options?: SampleOptions) => new FioLatParser(name, options ?? {}),
};
