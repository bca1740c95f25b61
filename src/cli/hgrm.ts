// `hgrm`: HdrHistogram's HistogramLogProcessor (no -csv, no -o) over one interval log, with the
// page's own reader (formats/hlog.ts), payload decoder and .hgrm formatter. What the processor
// does, read from its source (HistogramLogProcessor, HistogramLogReader, 2.2.x):
//
// - the range is in seconds since the log's StartTime (or its first interval's timestamp when
//   it has none); an interval counts when its start is within [start, end];
// - intervals that start before -start are skipped; the first interval (of any tag) that starts
//   after -end ends the reading, whatever follows it;
// - -tag T takes only lines tagged T; without -tag only untagged lines are taken;
// - the lines are added into a copy of the first taken interval's histogram (its precision,
//   auto-resizing) and printed with outputPercentileDistribution(5 ticks, ratio), after a
//   "#[StartTime: …]" line when the StartTime known at the first taken interval is not 0.
//
// Where the processor crashes or stops silently (no interval taken: a NullPointerException and
// an empty output; a damaged payload: it stops reading there) this command says so and exits 2.
import { formatPercentileDistribution, javaFixed } from "../core/hgrm-export";
import { newHistogram, type Histogram } from "../core/histogram";
import { LineSplitter, type LineSink } from "../core/lines";
import { HlogReader } from "../formats/hlog";
import { addDecodedInto } from "../formats/hlog-encoding";
import { decodePayload } from "../engine/intervals";
import { CliError } from "./errors";

export interface HgrmOptions {
  tag: string | null;
  start: number | null;
  end: number | null;
  /** outputValueUnitRatio: recorded values are divided by it (default 1e6: ns shown as ms). */
  ratio: number;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** java.util.Date#toString in this process's time zone: "Wed Sep 09 15:24:39 UTC 2015". */
export function javaDateString(ms: number): string {
  const d = new Date(ms);
  const p2 = (n: number) => String(n).padStart(2, "0");
  const zone = new Intl.DateTimeFormat("en-US", { timeZoneName: "short" }).formatToParts(d).find((x) => x.type === "timeZoneName")?.value ?? "UTC";
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())} ${zone} ${d.getFullYear()}`;
}

class Processor implements LineSink {
  readonly reader: HlogReader;
  histogram: Histogram | null = null;
  startTimeLine: string | null = null;
  done = false;
  taken = 0;
  problem: { line: number | null; reason: string } | null = null;
  private readonly lo: number;
  private readonly hi: number;

  constructor(
    file: string,
    private readonly o: HgrmOptions,
  ) {
    this.reader = new HlogReader(file);
    this.lo = o.start ?? 0;
    this.hi = o.end ?? Number.MAX_VALUE;
  }

  overlong(lineNo: number): void {
    this.stop(lineNo, "line too long to be a log line");
  }

  private stop(line: number | null, reason: string): void {
    if (!this.done) this.problem = { line, reason };
    this.done = true;
  }

  line(text: string, lineNo: number): void {
    if (this.done) return;
    const before = this.reader.problems.length;
    const iv = this.reader.readLine(text, lineNo);
    if (this.reader.problems.length > before) {
      const p = this.reader.problems[this.reader.problems.length - 1]!;
      this.stop(p.line, p.reason);
      return;
    }
    if (!iv) return;
    const offset = this.reader.offsetOf(iv.rawStart);
    if (offset < this.lo) return;
    if (offset > this.hi) {
      this.done = true;
      return;
    }
    if ((this.o.tag ?? "") !== iv.tag) return;
    const d = decodePayload(iv.payload);
    if (!d.ok) {
      this.stop(lineNo, `histogram payload: ${d.reason}`);
      return;
    }
    if (!this.histogram) {
      const v = d.value;
      this.histogram = newHistogram(v.numberOfSignificantValueDigits, v.lowestDiscernibleValue, v.highestTrackableValue);
      const start = this.reader.startTime() ?? 0;
      if (start !== 0) this.startTimeLine = `#[StartTime: ${javaFixed(start, 3)} (seconds since epoch), ${javaDateString(Math.trunc(start * 1000))}]\n`;
    }
    addDecodedInto(this.histogram, d.value);
    this.taken++;
  }
}

/** The processor's output for a log streamed in as text chunks. */
export async function hgrmOf(file: string, chunks: AsyncIterable<string> | Iterable<string>, o: HgrmOptions): Promise<string> {
  const p = new Processor(file, o);
  const split = new LineSplitter(p);
  for await (const c of chunks) {
    split.push(c);
    if (p.done) break;
  }
  if (!p.done) split.end();
  if (p.problem) throw new CliError(2, `${file}${p.problem.line !== null ? `:${p.problem.line}` : ""}: ${p.problem.reason}`);
  if (!p.histogram) {
    const which = o.tag === null ? "untagged intervals" : `intervals tagged ${JSON.stringify(o.tag)}`;
    const range = o.start !== null || o.end !== null ? ` starting in the window (--start ${o.start ?? "none"}, --end ${o.end ?? "none"}; seconds since StartTime)` : "";
    throw new CliError(2, `${file}: no ${which}${range} (HistogramLogProcessor would fail here with an empty output)`);
  }
  return (p.startTimeLine ?? "") + formatPercentileDistribution(p.histogram, o.ratio);
}
