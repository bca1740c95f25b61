// fio's latency histogram logs (`fio --write_hist_log=PREFIX [--log_hist_msec=1000]
// [--log_hist_coarseness=C]`, fio 3.x, iolog.c flush_hist_samples): PREFIX_clat_hist.N.log, a
// line per direction every log_hist_msec:
//   1003, 0, 4096, 0, 0, …, 12, 3, …, 0
// the time in ms since the job started, the direction (0 read, 1 write, 2 trim), the block size,
// then fio's 1,856 latency bins (support/fio-bins.ts), each the number of I/Os that completed
// since the previous line of that direction (hist_sum of the bins' difference between two
// snapshots). With log_hist_coarseness C, 2^C neighbouring bins are summed into one: 1856 / 2^C
// counts per line.
//
// Read as intervals: one series per direction, a line the interval since the direction's
// previous line (the first since the job's start), each bin's I/Os at the bin's upper bound.
import type { Histogram } from "../core/histogram";
import { newHistogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedInterval, ParsedSeries, ParsedSource, SampleOptions } from "./source";
import { recordBuckets, type CountedBucket } from "./support/buckets";
import { clip } from "./support/decimals";
import { FIO_PLAT_NR, fioBinHigh, fioBinLow, fioResolutionNote } from "./support/fio-bins";
import { Problems } from "./support/problems";

const DIRECTION_NAMES = ["read", "write", "trim"] as const;

/** Bins per line for log_hist_coarseness 0 … 6. */
const WIDTHS = [0, 1, 2, 3, 4, 5, 6].map((c) => FIO_PLAT_NR >> c);

interface Direction {
  lastMs: number;
  total: Histogram;
  intervals: ParsedInterval[];
}

class FioHistParser implements LineParser {
  private readonly problems: Problems;
  private readonly directions = new Map<number, Direction>();
  private stride = 0;
  private buckets: { lower: number; upper: number }[] = [];
  private unbounded = 0;
  private lines = 0;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  line(raw: string, lineNo: number): void {
    try {
      this.read(lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw, lineNo);
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  private read(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === "") return;
    const f = t.split(",");
    const bins = f.length - 3;
    if (!WIDTHS.includes(bins)) {
      this.problems.line(
        lineNo,
        `${f.length} fields: a fio histogram log line has the time, the direction, the block size and ${FIO_PLAT_NR} bins (or ${FIO_PLAT_NR} / 2^C with log_hist_coarseness C)`,
      );
      return;
    }
    const stride = FIO_PLAT_NR / bins;
    if (this.stride === 0) {
      this.stride = stride;
      this.buckets = Array.from({ length: bins }, (_, j) => ({ lower: fioBinLow(j * stride), upper: fioBinHigh(j * stride + stride - 1) }));
    } else if (stride !== this.stride) {
      this.problems.line(lineNo, `${bins} bins where the first line had ${FIO_PLAT_NR / this.stride}: skipped`);
      return;
    }
    const timeText = f[0]!.trim();
    const dirText = f[1]!.trim();
    if (!/^\d{1,15}$/.test(timeText)) {
      this.problems.line(lineNo, `time ${JSON.stringify(clip(timeText))} is not a whole number of milliseconds`);
      return;
    }
    if (!/^[0-2]$/.test(dirText)) {
      this.problems.line(lineNo, `direction ${JSON.stringify(clip(dirText))} is not 0 (read), 1 (write) or 2 (trim)`);
      return;
    }
    const counts: CountedBucket[] = [];
    for (let j = 0; j < bins; j++) {
      const c = f[3 + j]!.trim();
      if (c === "0") continue;
      if (!/^\d{1,12}$/.test(c)) {
        this.problems.line(lineNo, `bin ${j + 1}: ${JSON.stringify(clip(c))} is not a count (at most 12 digits)`);
        return;
      }
      counts.push({ ...this.buckets[j]!, count: Number(c) });
    }
    const ms = Number(timeText);
    const dir = Number(dirText);
    let d = this.directions.get(dir);
    if (!d) {
      d = { lastMs: 0, total: newHistogram(), intervals: [] };
      this.directions.set(dir, d);
    }
    if (ms < d.lastMs) {
      this.problems.line(lineNo, `time ${ms} ms is before the previous ${DIRECTION_NAMES[dir]} line's (${d.lastMs} ms): skipped`);
      return;
    }
    const h = newHistogram();
    const r = recordBuckets(h, counts);
    this.unbounded += r.unbounded;
    d.intervals.push({ start: d.lastMs / 1000, length: (ms - d.lastMs) / 1000, histogram: h });
    d.total.add(h);
    d.lastMs = ms;
    this.lines++;
  }

  finish(): ParsedSource {
    const series: ParsedSeries[] = [];
    try {
      const base = fileBaseName(this.file);
      for (const dir of [...this.directions.keys()].sort()) {
        const d = this.directions.get(dir)!;
        const tag = DIRECTION_NAMES[dir]!;
        series.push({ name: `${base} [${tag}]`, tag, unit: "ns", histogram: d.total, intervals: d.intervals, startTime: null });
      }
      if (this.unbounded > 0)
        this.problems.once(
          "unbounded",
          null,
          `${this.unbounded} I/Os in fio's last bin (${fioBinLow(FIO_PLAT_NR - 1)} ns or more): recorded at the bin's start, below their true latencies`,
        );
      if (this.lines === 0 && this.problems.skipped === 0) this.problems.once("empty", null, "no histogram lines in the fio log");
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    const notes = series.length > 0 ? [{ file: this.file, line: null, reason: fioResolutionNote(this.stride), note: true as const }] : [];
    return { format: "fio-hist", series, problems: [...this.problems.list(), ...notes] };
  }
}

/** A line of fio's histogram log: time, direction, block size and 1856 / 2^C bins, ", "-separated. */
export function fioHistContentMatch(head: string): boolean {
  const first = head
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/, 1)[0]!
    .trim();
  if (!/^\d+, [0-2], \d+, \d+, \d+/.test(first)) return false;
  // The head may end inside the first line (1,856 bins are ~4 KB): count what it holds.
  const fields = first.split(",").length;
  return WIDTHS.includes(fields - 3) || (fields > 200 && !/\r|\n/.test(head.replace(/^\uFEFF/, "").trim()));
}

/** fio's own name for it: PREFIX_clat_hist.N.log (or PREFIX_clat_hist.log with per_job_logs=0). */
export function fioHistNameMatch(name: string): boolean {
  return /_(c?lat)_hist(\.\d+)?\.log$/i.test(name);
}

export const fioHistReader: FormatReader = {
  id: "fio-hist",
  nameMatch: fioHistNameMatch,
  detect: (name, head) => fioHistNameMatch(name) || fioHistContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new FioHistParser(name),
};
