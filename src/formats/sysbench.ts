// sysbench 1.0's latency histogram (`sysbench … --histogram=on run`), as sb_histogram_print
// writes it at the end of a run:
//   Latency histogram (values are in milliseconds)
//          value  ------------- distribution ------------- count
//          0.022 |**************************************** 41904
//          0.022 |                                         495
// sysbench's histogram (sb_histogram.c, sysbench.c) has 1024 log-scale cells from 0.001 ms to
// 100,000 ms: a latency v goes to cell i = floor((ln v − ln 0.001)·m + 0.5), m = 1023 / ln(10^8),
// and a row prints exp(i/m + ln 0.001) with three decimals for each non-empty cell, in order. So
// at small values several cells print the same label: the rows are matched to cells by their
// order, never by their label alone. A cell holds latencies up to exp((i + 0.5)/m + ln 0.001)
// (1.8% wide): each row's count is recorded at that upper bound, in ns (rounded up), so no
// percentile read back is below what sysbench measured. When k rows share a label that several
// cells print, they are given the top k of those cells (the only choice that is never below).
// The histogram covers the whole run: one series, no time axis. The rest of sysbench's output
// (its statistics) is skipped.
import { newHistogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { Problems } from "./support/problems";

export const SYSBENCH_CELLS = 1024;
const LN_MIN = Math.log(0.001);
const MULT = (SYSBENCH_CELLS - 1) / (Math.log(100000) - LN_MIN);

/** The label sysbench prints for cell i ("%12.3f" of its value, trimmed). */
export function sysbenchLabel(i: number): string {
  return Math.exp(i / MULT + LN_MIN).toFixed(3);
}

/** The upper bound of cell i, in ms. */
export function sysbenchCellTop(i: number): number {
  return Math.exp((i + 0.5) / MULT + LN_MIN);
}

/** The cells (first and last index) that print `label`, or null. */
function cellsOf(label: string): [number, number] | null {
  const v = Number(label);
  if (!(v > 0)) return null;
  const guess = Math.round((Math.log(v) - LN_MIN) * MULT);
  let lo = -1;
  let hi = -1;
  for (let i = Math.max(0, guess - 40); i <= Math.min(SYSBENCH_CELLS - 1, guess + 40); i++) {
    if (sysbenchLabel(i) === label) {
      if (lo < 0) lo = i;
      hi = i;
    }
  }
  return lo < 0 ? null : [lo, hi];
}

const TITLE = /^\s*Latency histogram \(values are in milliseconds\)\s*$/;
const HEADER = /^\s*value\s+-+ distribution -+ count\s*$/;
const ROW = /^\s*(\d+\.\d{3}) \|\**\s* (\d+)\s*$/;
/** Largest count a histogram holds in all (its total must stay an exact integer). */
const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

class SysbenchParser implements LineParser {
  private readonly problems: Problems;
  private state: "before" | "title" | "rows" | "after" = "before";
  private readonly rows: { label: string; count: number; line: number }[] = [];
  private total = 0;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  line(text: string, lineNo: number): void {
    if (this.state === "before") {
      if (TITLE.test(text)) this.state = "title";
      return;
    }
    if (this.state === "title") {
      if (HEADER.test(text)) this.state = "rows";
      return;
    }
    if (this.state !== "rows") return;
    const m = ROW.exec(text);
    if (!m) {
      if (text.trim() === "") this.state = "after";
      else this.problems.line(lineNo, `not a sysbench histogram row: ${JSON.stringify(clip(text.trim(), 60))}`);
      return;
    }
    const count = Number(m[2]);
    if (!(this.total + count <= MAX_TOTAL)) {
      this.problems.line(lineNo, `count ${clip(m[2]!)} is too large (the counts would add up past ${MAX_TOTAL})`);
      return;
    }
    this.total += count;
    this.rows.push({ label: m[1]!, count, line: lineNo });
  }

  finish(): ParsedSource {
    const h = newHistogram();
    try {
      // Runs of rows with the same label take the top cells that print it, in order.
      let prevCell = -1;
      for (let i = 0; i < this.rows.length;) {
        let j = i;
        while (j < this.rows.length && this.rows[j]!.label === this.rows[i]!.label) j++;
        const k = j - i;
        const cells = cellsOf(this.rows[i]!.label);
        if (!cells || cells[1] - cells[0] + 1 < k || cells[1] - k + 1 <= prevCell) {
          for (let r = i; r < j; r++)
            this.problems.line(this.rows[r]!.line, `${this.rows[r]!.label} ms is not a value sysbench's histogram prints here (1024 cells from 0.001 to 100000 ms, in order)`);
        } else {
          for (let r = 0; r < k; r++) {
            const cell = cells[1] - k + 1 + r;
            const count = this.rows[i + r]!.count;
            if (count > 0) h.recordValueWithCount(Math.ceil(sysbenchCellTop(cell) * 1e6), count);
          }
          prevCell = cells[1];
        }
        i = j;
      }
      if (this.state === "before" || this.state === "title") this.problems.once("empty", null, "no sysbench latency histogram found (run sysbench with --histogram=on)");
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    const problems = this.problems.list();
    if (h.totalCount > 0)
      problems.push({
        file: this.file,
        line: null,
        reason:
          "sysbench's histogram has log-scale cells 1.8% wide: each count is recorded at its cell's upper bound, so percentiles are within 1.8% above sysbench's measurements",
        note: true,
      });
    return {
      format: "sysbench",
      series: h.totalCount > 0 ? [{ name: fileBaseName(this.file), tag: "", unit: "ns", histogram: h, intervals: null, startTime: null, failures: 0 }] : [],
      problems,
    };
  }
}

export function sysbenchContentMatch(head: string): boolean {
  return /^[^\S\r\n]*Latency histogram \(values are in milliseconds\)[^\S\r\n]*$/m.test(head);
}

export const sysbenchReader: FormatReader = {
  id: "sysbench",
  detect: (_name, head) => sysbenchContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new SysbenchParser(name),
};
