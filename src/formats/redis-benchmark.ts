// redis-benchmark's default output (Redis 7, redis-benchmark.c showLatencyReport): per test, after
// "====== SET ======" and a few lines about the run, its HdrHistogram as a percentile spectrum
// with cumulative counts, then a coarser cumulative distribution and a summary:
//   Latency by percentile distribution:
//   0.000% <= 0.023 milliseconds (cumulative count 13)
//   50.000% <= 0.047 milliseconds (cumulative count 1104)
//   …
//   100.000% <= 0.391 milliseconds (cumulative count 2000)
//   Cumulative distribution of latencies:            (the same histogram at round values: unused)
//   …
//     latency summary (msec):
//             avg       min       p50       p95       p99       max
//           0.054     0.016     0.047     0.103     0.143     0.391
// Each spectrum row is one step of HdrHistogram's percentile iteration (half the remaining
// requests each time): the requests between two rows' cumulative counts were at most the upper
// row's value, which is recorded for them, so a percentile read back is never below the true one
// and the resolution is the steps' (said in a note). One request of the first row is recorded at
// the summary's min when it lies below that row, so the min and the max are redis-benchmark's own.
// Values are printed in ms with three decimals: recorded in µs. One series per test.
//
// Progress lines ("SET: rps=…", ended by carriage returns) and everything else are skipped;
// `--csv` and `-q` output hold only statistics and are refused (statistics.ts).
import { newHistogram, type Histogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedSeries, ParsedSource, SampleOptions } from "./source";
import { clip, maxLatencyIn, parseLatency } from "./support/decimals";
import { Problems } from "./support/problems";

const TEST = /^\s*====== (.+?) ======\s*$/;
const SPECTRUM = /^\s*Latency by percentile distribution:\s*$/;
const ROW = /^\s*(\d+(?:\.\d+)?)% <= (\d+(?:\.\d+)?) milliseconds \(cumulative count (\d{1,15})\)\s*$/;
const SUMMARY_HEADER = /^\s*avg\s+min\s+p50\s+p95\s+p99\s+max\s*$/;
const US = maxLatencyIn("us");

interface Test {
  name: string;
  rows: { value: number; count: number; line: number }[];
  min: number | null;
}

class RedisBenchmarkParser implements LineParser {
  private readonly problems: Problems;
  private readonly tests: Test[] = [];
  private state: "none" | "spectrum" | "summary" = "none";

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  line(text: string, lineNo: number): void {
    try {
      this.read(text, lineNo);
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  private read(text: string, lineNo: number): void {
    const test = TEST.exec(text);
    if (test) {
      this.tests.push({ name: test[1]!.trim(), rows: [], min: null });
      this.state = "none";
      return;
    }
    const cur = this.tests[this.tests.length - 1];
    if (!cur) return;
    if (SPECTRUM.test(text)) {
      this.state = "spectrum";
      return;
    }
    if (SUMMARY_HEADER.test(text)) {
      this.state = "summary";
      return;
    }
    if (this.state === "spectrum") {
      if (text.trim() === "") return;
      const m = ROW.exec(text);
      if (!m) {
        // A damaged row is named; anything else ends the spectrum.
        if (/^\s*[\d.]+% <=/.test(text)) this.problems.line(lineNo, `not a redis-benchmark percentile row: ${JSON.stringify(clip(text.trim(), 60))}`);
        else this.state = "none";
        return;
      }
      const v = parseLatency(m[2]!, 3, US, "latency");
      if (!v.ok) {
        this.problems.line(lineNo, v.reason);
        return;
      }
      const count = Number(m[3]);
      const prev = cur.rows[cur.rows.length - 1];
      if (prev && (count < prev.count || v.value < prev.value)) {
        this.problems.line(lineNo, `cumulative count ${count} at ${m[2]} ms is below the previous row's (${prev.count} at ${prev.value / 1000} ms): row skipped`);
        return;
      }
      cur.rows.push({ value: v.value, count, line: lineNo });
    } else if (this.state === "summary") {
      this.state = "none";
      const f = text.trim().split(/\s+/);
      if (f.length === 6) {
        const v = parseLatency(f[1]!, 3, US, "min");
        if (v.ok) cur.min = v.value;
      }
    }
  }

  finish(): ParsedSource {
    const series: ParsedSeries[] = [];
    const base = fileBaseName(this.file);
    try {
      const seen = new Map<string, number>();
      for (const t of this.tests) {
        if (t.rows.length === 0) continue;
        const h: Histogram = newHistogram();
        let before = 0;
        t.rows.forEach((r, i) => {
          let n = r.count - before;
          before = r.count;
          if (n <= 0) return;
          if (i === 0 && t.min !== null && t.min < r.value) {
            h.recordValue(t.min);
            n--;
          }
          if (n > 0) h.recordValueWithCount(r.value, n);
        });
        if (h.totalCount === 0) continue;
        const k = (seen.get(t.name) ?? 0) + 1;
        seen.set(t.name, k);
        const tag = k === 1 ? t.name : `${t.name} (${k})`;
        series.push({ name: `${base} [${tag}]`, tag, unit: "us", histogram: h, intervals: null, startTime: null, failures: 0 });
      }
      if (series.length === 0 && this.problems.skipped === 0)
        this.problems.once("empty", null, 'no "Latency by percentile distribution:" rows found (redis-benchmark 7 prints them by default; not with -q or --csv)');
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    const steps = Math.max(0, ...this.tests.map((t) => t.rows.length));
    const notes =
      series.length > 0
        ? [
            {
              file: this.file,
              line: null,
              reason: `read from redis-benchmark's percentile steps (up to ${steps} per test): the requests between two steps are recorded at the upper step's value, so percentiles between steps are upper bounds`,
              note: true as const,
            },
          ]
        : [];
    return { format: "redis-benchmark", series, problems: [...this.problems.list(), ...notes] };
  }
}

/** A "====== TEST ======" banner and a percentile-spectrum row in the head. */
export function redisBenchmarkContentMatch(head: string): boolean {
  return /^[^\S\r\n]*====== .+ ======[^\S\r\n]*$/m.test(head) && /^[^\S\r\n]*Latency by percentile distribution:[^\S\r\n]*$/m.test(head);
}

export const redisBenchmarkReader: FormatReader = {
  id: "redis-benchmark",
  detect: (_name, head) => redisBenchmarkContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new RedisBenchmarkParser(name),
};
