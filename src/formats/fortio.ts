// Fortio results (`fortio load -json FILE`, or saved from its UI): one indented JSON object
// (HTTPRunnerResults, GRPCRunnerResults …) whose "DurationHistogram" (stats.go HistogramData) is
// a real histogram of every call's duration, in seconds:
//   "DurationHistogram": {"Count": 1000, "Min": 0.000512, "Max": 0.0934, "Sum": …, "Avg": …,
//     "StdDev": …, "Data": [{"Start": 0.000512, "End": 0.001, "Percent": 12.3, "Count": 123}, …],
//     "Percentiles": [{"Percentile": 50, "Value": 0.0021}, …]}
// A bucket holds the calls in ]Start, End] (Fortio's bounds: 1 ms steps up to 11 ms, then coarser,
// 10 s steps past 10 s); the first starts at the exact Min, the last ends at the exact Max.
//
// Read like a percentile file: no time axis, the spectrum rebuilt from the buckets, in ns. Each
// bucket's calls are recorded at its End (a percentile read back is never below the true one, and
// at most one bucket width above), except one call at the Min in the first bucket, so that the
// min and the max are exact. The Percentiles list is Fortio's own interpolation and is not used.
// Fortio records failed calls' durations too; "RetCodes" counts calls by status ("200", or
// "SERVING" for gRPC): the others are reported as failures, already inside the histogram.
//
// Envoy's Nighthawk writes the same result (`nighthawk_client --output-format fortio`, its
// FortioOutputFormatterImpl, through protobuf's JSON mapping): the 64-bit counts ("Count" of the
// histogram and of each bucket, the RetCodes) are strings, "Labels" is "Nighthawk", and its
// buckets come from HdrHistogram's percentile iteration: the first is Start = End = Min with one
// call, and buckets with "Count": "0" repeat the previous End. Each bucket's calls are still at
// most its End.
import { newHistogram } from "../core/histogram";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import { clip, maxLatencyIn, parseLatency } from "./support/decimals";
import { feedLine, feedPiece, JsonStream, MAX_VALUE_CHARS, tooLongReason } from "./support/json-stream";
import { Problems } from "./support/problems";
import { fileBaseName } from "../core/naming";

/** How far above a bucket's End Fortio may file a value into it (see value()). */
const FORTIO_ROUNDING_NS = 100;

/** Longest value held: a bucket is ~100 characters, the labels and return codes a line or two. */
const MAX_FORTIO_VALUE_CHARS = MAX_VALUE_CHARS;

const NS = maxLatencyIn("ns");

/** A number's text in a JSON object's text (the digits as written, not a float's; a string's digits too, as Nighthawk writes its counts). */
function numberText(obj: string, key: string): string | null {
  const m = new RegExp(`"${key}"\\s*:\\s*("?)(-?[0-9][0-9.eE+-]*)\\1\\s*[,}\\s]`).exec(obj + " ");
  return m ? m[2]! : null;
}

/** A count as Fortio (a number) or Nighthawk (a string of digits) writes it. */
function countOf(v: unknown): number | null {
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? v : null;
  if (typeof v === "string" && /^\d{1,15}$/.test(v)) return Number(v);
  return null;
}

class FortioParser implements LineParser {
  private readonly problems: Problems;
  private readonly stream: JsonStream;
  private readonly buckets: { start: number; end: number; count: number; line: number }[] = [];
  private readonly stated: Partial<Record<"Count" | "Min" | "Max", { value: number; line: number }>> = {};
  private retCodes: Record<string, unknown> | null = null;
  private labels = "";
  private startTime: number | null = null;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
    const h = "DurationHistogram";
    this.stream = new JsonStream(
      [[h, "Data", "*"], [h, "Count"], [h, "Min"], [h, "Max"], ["RetCodes"], ["Labels"], ["StartTime"]],
      (path, text, lineNo) => this.value(path, text, lineNo),
      MAX_FORTIO_VALUE_CHARS,
      (v) =>
        this.problems.line(v.line, tooLongReason(v.path.endsWith("/*") ? "a histogram bucket" : `"${v.path.split("/").pop()}"`, v, "Fortio and Nighthawk write far less for one")),
    );
  }

  /** Part of a one-line result longer than a line the app holds (the line's end comes through `line`). */
  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    feedLine(this.stream, this.problems, text, lineNo, (opened) =>
      opened ? "text after the end of the Fortio result: ignored" : "not a Fortio JSON result (it starts with a JSON object)",
    );
  }

  private ns(text: string, what: string, lineNo: number): number | null {
    const v = parseLatency(text, 9, NS, what);
    if (!v.ok) {
      this.problems.line(lineNo, v.reason);
      return null;
    }
    return v.value;
  }

  private value(path: string, text: string, lineNo: number): void {
    if (path === "DurationHistogram/Data/*") {
      const start = numberText(text, "Start");
      const end = numberText(text, "End");
      const count = numberText(text, "Count");
      if (start === null || end === null || count === null) {
        this.problems.line(lineNo, `bucket ${JSON.stringify(clip(text.replace(/\s+/g, " ")))} lacks Start, End or Count`);
        return;
      }
      if (!/^\d{1,15}$/.test(count)) {
        this.problems.line(lineNo, `bucket count ${clip(count)} is not a non-negative integer`);
        return;
      }
      const s = this.ns(start, "bucket Start", lineNo);
      let e = this.ns(end, "bucket End", lineNo);
      if (s === null || e === null) return;
      // Fortio files a value up to 0.0001 of its divider (0.1 µs at the default 1 ms) above a
      // bucket's End into that bucket, so the first bucket, which starts at the run's Min, can end
      // just below it: its values then stand at the Start, never below what was recorded.
      if (e < s && s - e <= FORTIO_ROUNDING_NS) e = s;
      if (e < s) {
        this.problems.line(lineNo, `bucket End ${end} is below its Start ${start}`);
        return;
      }
      const prev = this.buckets[this.buckets.length - 1];
      if (prev && e < prev.end && prev.end - e <= FORTIO_ROUNDING_NS) e = prev.end;
      if (prev && e < prev.end) {
        this.problems.line(lineNo, `bucket End ${end} is below the previous bucket's: bucket skipped`);
        return;
      }
      this.buckets.push({ start: s, end: e, count: Number(count), line: lineNo });
    } else if (path === "DurationHistogram/Count") {
      const n = /^"?(\d{1,15})"?$/.exec(text);
      if (n) this.stated.Count = { value: Number(n[1]), line: lineNo };
    } else if (path === "DurationHistogram/Min" || path === "DurationHistogram/Max") {
      const v = this.ns(text, path.slice(18), lineNo);
      if (v !== null) this.stated[path === "DurationHistogram/Min" ? "Min" : "Max"] = { value: v, line: lineNo };
    } else if (path === "RetCodes") {
      try {
        const o = JSON.parse(text) as unknown;
        if (typeof o === "object" && o !== null && !Array.isArray(o)) this.retCodes = o as Record<string, unknown>;
      } catch {
        this.problems.line(lineNo, "RetCodes is not a JSON object");
      }
    } else if (path === "Labels") {
      try {
        const s = JSON.parse(text) as unknown;
        if (typeof s === "string") this.labels = s;
      } catch {
        /* a label is only a name */
      }
    } else if (path === "StartTime") {
      const ms = Date.parse(text.replace(/^"|"$/g, ""));
      if (Number.isFinite(ms) && ms > 0) this.startTime = ms / 1000;
    }
  }

  finish(): ParsedSource {
    const histogram = newHistogram();
    try {
      if (this.stream.unfinished) this.problems.once("unfinished", null, "the result ends before its closing brace: the file may be truncated");
      const min = this.stated.Min?.value;
      const max = this.stated.Max?.value;
      let total = 0;
      this.buckets.forEach((b, i) => {
        if (b.count === 0) return;
        let n = b.count;
        // The first bucket starts at the smallest call; the last ends at the largest.
        if (i === 0) {
          histogram.recordValue(min !== undefined && min <= b.end ? min : b.start);
          n--;
        }
        if (n > 0) histogram.recordValueWithCount(i === this.buckets.length - 1 && max !== undefined && max >= b.start ? max : b.end, n);
        total += b.count;
      });
      const stated = this.stated.Count;
      if (stated && stated.value !== total) this.problems.once("count", stated.line, `DurationHistogram Count ${stated.value} differs from its buckets' total ${total}`);
      if (this.buckets.length === 0 && this.problems.skipped === 0) this.problems.once("empty", null, 'no DurationHistogram "Data" buckets in the Fortio result');
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    let failures = 0;
    if (this.retCodes)
      for (const [code, n] of Object.entries(this.retCodes)) {
        const c = countOf(n);
        if (code !== "200" && code !== "SERVING" && c !== null && c > 0) failures += c;
      }

    const base = fileBaseName(this.file);
    return {
      format: "fortio",
      series:
        histogram.totalCount > 0
          ? [{ name: this.labels ? `${base} [${this.labels}]` : base, tag: this.labels, unit: "ns", histogram, intervals: null, startTime: this.startTime, failures }]
          : [],
      // Nothing is lost: a note (the command line judges all the same).
      problems: [
        ...this.problems.list(),
        ...(failures > 0
          ? [
              {
                file: this.file,
                line: null,
                reason: `${failures} calls failed (RetCodes): Fortio's histogram holds their durations too, so they are in the spectrum`,
                note: true as const,
              },
            ]
          : []),
      ],
    };
  }
}

/** A JSON object with Fortio's result keys: a DurationHistogram and RunType or RetCodes. */
export function fortioContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  return t.startsWith("{") && /"DurationHistogram"\s*:/.test(t) && /"(RunType|RetCodes|ActualQPS|NumThreads)"\s*:/.test(t);
}

export const fortioReader: FormatReader = {
  id: "fortio",
  detect: (_name, head) => fortioContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new FortioParser(name),
};
