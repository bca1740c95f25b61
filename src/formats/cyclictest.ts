// cyclictest's histogram (`cyclictest -h N`, rt-tests 2.x src/cyclictest/cyclictest.c
// print_hist): after "# Histogram", one row per microsecond 0 … N−1, the bucket then one count per
// thread (tab-separated after the first), then per-thread summary lines:
//   # Histogram
//   000043 000012	000009
//   # Total: 000001000 000000998
//   # Min Latencies: 00020 00032
//   # Avg Latencies: 00063 00069
//   # Max Latencies: 00141 03519
//   # Histogram Overflows: 00000 00002
//   # Histogram Overflow at cycle number:
//   # Thread 1: 00298 00359
// cyclictest measures whole microseconds (it truncates), so bucket i holds latencies of i µs, as
// its own Min and Max are written: each count is recorded at i µs. Latencies of N µs or more
// are not in the rows but counted as overflows: each is recorded at that thread's Max, the most
// it can be (never below), and a note says how many. With --histofall (-H) a last column sums
// the threads: it is left out (the threads are read). One series per thread.
import { newHistogram, type Histogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import type { LoadProblem } from "../core/types";
import { clip, maxLatencyIn } from "./support/decimals";
import { Problems } from "./support/problems";

const ROW = /^(\d{6,})((?:\s+\d+)+)\s*$/;
const US = maxLatencyIn("us");
const STAT = /^#\s*(Total|Min Latencies|Avg Latencies|Max Latencies|Histogram Overflows):((?:\s+\d+)+)\s*$/;

class CyclictestParser implements LineParser {
  private readonly problems: Problems;
  private inHistogram = false;
  private readonly counts: { bucket: number; counts: number[] }[] = [];
  private readonly stats = new Map<string, number[]>();
  private columns = -1;
  private total = 0;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === "") return;
    if (/^#\s*Histogram\s*$/.test(t)) {
      this.inHistogram = true;
      return;
    }
    const s = STAT.exec(t);
    if (s) {
      this.stats.set(s[1]!, s[2]!.trim().split(/\s+/).map(Number));
      return;
    }
    if (t.startsWith("#") || !this.inHistogram) return;
    const m = ROW.exec(t);
    if (!m) {
      this.problems.line(lineNo, `not a cyclictest histogram row: ${JSON.stringify(clip(t, 60))}`);
      return;
    }
    const counts = m[2]!.trim().split(/\s+/).map(Number);
    const bucket = Number(m[1]);
    const sum = counts.reduce((a, b) => a + b, 0);
    if (!(bucket <= US) || !(this.total + sum <= Number.MAX_SAFE_INTEGER)) {
      this.problems.line(lineNo, bucket <= US ? "counts too large (they would add up past 2^53)" : `bucket ${clip(m[1]!)} µs is beyond an hour`);
      return;
    }
    if (this.columns < 0) this.columns = counts.length;
    if (counts.length !== this.columns) {
      this.problems.line(lineNo, `expected ${this.columns} count${this.columns === 1 ? "" : "s"}, found ${counts.length}`);
      return;
    }
    this.total += sum;
    this.counts.push({ bucket, counts });
  }

  finish(): ParsedSource {
    const notes: LoadProblem[] = [];
    const series: ParsedSource["series"] = [];
    try {
      const max = this.stats.get("Max Latencies") ?? [];
      const overflows = this.stats.get("Histogram Overflows") ?? [];
      // --histofall adds a column that sums the threads: as many threads as the summary lines name.
      const threads = max.length > 0 && this.columns === max.length + 1 ? max.length : Math.max(0, this.columns);
      const base = fileBaseName(this.file);
      let overflowTotal = 0;
      for (let t = 0; t < threads; t++) {
        const h: Histogram = newHistogram();
        for (const r of this.counts) if (r.counts[t]! > 0) h.recordValueWithCount(r.bucket, r.counts[t]!);
        const over = overflows[t] ?? 0;
        if (over > 0) {
          const top = max[t];
          if (top !== undefined && (!(top <= US) || !(h.totalCount + over <= Number.MAX_SAFE_INTEGER))) {
            this.problems.once("overflow-size", null, `the overflows or max of thread ${t} are too large to record: left out`);
          } else if (top !== undefined) {
            h.recordValueWithCount(top, over);
            overflowTotal += over;
          } else this.problems.once("overflow", null, `${over} overflows of thread ${t} left out: no Max Latencies line to place them`);
        }
        if (h.totalCount === 0) continue;
        const tag = threads > 1 ? `thread ${t}` : "";
        series.push({ name: tag ? `${base} [${tag}]` : base, tag, unit: "us", histogram: h, intervals: null, startTime: null, failures: 0 });
      }
      if (overflowTotal > 0) {
        const size = this.counts.length > 0 ? this.counts[this.counts.length - 1]!.bucket + 1 : 0;
        notes.push({
          file: this.file,
          line: null,
          reason: `${overflowTotal} latenc${overflowTotal === 1 ? "y" : "ies"} of ${size} µs or more overflowed the histogram (-h ${size}): recorded at their thread's max, so the spectrum above ${size} µs is an upper bound; run with a larger -h to see it`,
          note: true,
        });
      }
      if (series.length === 0 && this.problems.skipped === 0) this.problems.once("empty", null, "no cyclictest histogram rows found (run cyclictest with -h N)");
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    return { format: "cyclictest", series, problems: [...this.problems.list(), ...notes] };
  }
}

/** "# Histogram" followed by a six-digit bucket row. */
export function cyclictestContentMatch(head: string): boolean {
  return /^#[^\S\r\n]*Histogram[^\S\r\n]*(?:\r\n|\r|\n)(#[^\r\n]*(?:\r\n|\r|\n))*\d{6,}[ \t]+\d+/m.test(head);
}

export const cyclictestReader: FormatReader = {
  id: "cyclictest",
  detect: (_name, head) => cyclictestContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new CyclictestParser(name),
};
