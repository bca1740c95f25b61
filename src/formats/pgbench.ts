// pgbench's per-transaction log (`pgbench --log`, PostgreSQL 15): no header, one line per
// transaction, space-separated (pgbench.c doLog):
//   client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries]
//   0 1 1871 0 1796516225 248928
// `time` is the transaction's latency in µs, or "skipped" (with --rate and --latency-limit: never
// run, it was already too late) or "failed" (15: with --failures-detailed "serialization" or
// "deadlock"). time_epoch and time_us give when it ended. With --rate, schedule_lag (µs) is how
// late it started, and `time` counts from its scheduled start, so the lag is already in the
// latency (no coordinated omission to correct). Skipped and failed transactions are counted as
// failed, not recorded; a note says how many were skipped.
//
// Each thread writes its own file: pgbench_log.PID (thread 0), pgbench_log.PID.1 … A file is
// one series named after its run (the name without its thread suffix), tagged with its thread;
// the threads' files of a run loaded together are merged into the run's series
// (engine/join-runs.ts). --aggregate-interval logs hold
// per-interval statistics and pgbench's stdout only averages: both are refused (statistics.ts).
import { fileBaseName } from "../core/naming";
import type { FormatReader, ParsedSource, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { CollectingParser, firstLinesMatch, readerOf } from "./support/parser";
import type { Instant } from "./support/time";

const LINE = /^(\d+) (\d+) (\d+|skipped|failed|serialization|deadlock) (\d+) (\d{9,11}) (\d{1,6})( \d+)?( \d+)?\s*$/;

/** The run and thread of a log file's name: "pgbench_log.4242.1" → run "pgbench_log.4242", thread 1. */
export function pgbenchRunOf(file: string): { run: string; thread: number } {
  const base = file.replace(/^.*[\\/]/, "");
  const m = /^(.*\.\d+)\.(\d+)$/.exec(base);
  return m ? { run: m[1]!, thread: Number(m[2]) } : { run: /\.\d+$/.test(base) ? base : fileBaseName(base), thread: 0 };
}

class PgbenchParser extends CollectingParser {
  private skipped = 0;

  constructor(
    private readonly file: string,
    options: SampleOptions,
  ) {
    super("pgbench", { file, unit: "us", intervalSec: options.intervalSec, expectedInterval: options.expectedInterval });
  }

  protected readLine(text: string, lineNo: number): void {
    if (text.trim() === "") return;
    const m = LINE.exec(text);
    if (!m) {
      this.problems.line(lineNo, `not a pgbench --log line (client, transaction, time µs, script, epoch s, µs): ${JSON.stringify(clip(text.trim(), 60))}`);
      return;
    }
    const at: Instant = { sec: Number(m[5]), ns: Number(m[6]) * 1000 };
    const time = m[3]!;
    if (time === "skipped") this.skipped++;
    this.latencySample("", !/^\d+$/.test(time), time, at, lineNo, { scaleDigits: 0, unit: "us", what: "time" });
  }

  protected emptyReason(): string | null {
    return "no transactions found in the pgbench log";
  }

  finish(): ParsedSource {
    const p = super.finish();
    const { run, thread } = pgbenchRunOf(this.file);
    for (const s of p.series) {
      s.name = `${run} [thread ${thread}]`;
      s.tag = `thread ${thread}`;
    }
    if (this.skipped > 0)
      p.problems.push({
        file: this.file,
        line: null,
        reason: `${this.skipped} transaction${this.skipped === 1 ? " was" : "s were"} skipped (--rate with --latency-limit: already too late to start): counted as failed, not recorded`,
        note: true,
      });
    return p;
  }
}

/** The first three non-empty lines are pgbench --log lines. */
export function pgbenchContentMatch(head: string): boolean {
  return firstLinesMatch(head, LINE);
}

export const pgbenchReader: FormatReader = readerOf("pgbench", PgbenchParser, pgbenchContentMatch);
