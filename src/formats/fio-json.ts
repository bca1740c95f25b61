// fio's JSON output with its latency histograms (`fio --output-format=json+`, fio 3.x, stat.c
// show_thread_status_json and add_ddir_status_json): one JSON object whose "jobs" array holds a
// job each (one for all with group_reporting), and per direction ("read", "write", "trim",
// "sync") latency objects in ns:
//   "clat_ns": {"min": 20080, "max": 7611948, "mean": …, "stddev": …, "N": 34149,
//               "percentile": {"1.000000": 31104, …}, "bins": {"20096": 1, "24704": 1, …}}
// "bins" (json+ only) maps each non-empty bin of fio's 1,856-bin histogram (support/fio-bins.ts)
// to its count, keyed by the value fio prints for the bin (its middle). Completion latency
// (clat_ns) has bins by default; total latency (lat_ns) has them with lat_percentiles=1, and
// submission latency (slat_ns) with slat_percentiles=1. Plain `--output-format=json` has the
// percentiles but no bins: statistics, refused as such.
//
// Read like a percentile file: one series per job, direction and latency kind with bins, in ns,
// each bin's values at its upper bound, the exact min and max moved where they belong.
import { newHistogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedSeries, ParsedSource, SampleOptions } from "./source";
import { MAX_BUCKET_COUNT, recordBuckets, type CountedBucket } from "./support/buckets";
import { clip } from "./support/decimals";
import { fioBinHigh, fioBinLow, fioBinOf, fioResolutionNote } from "./support/fio-bins";
import { feedPiece, JsonStream, MAX_VALUE_CHARS, parseJsonLine, tooLongReason } from "./support/json-stream";
import { Problems } from "./support/problems";
import { statisticsReason } from "./statistics";

const DIRECTIONS = ["read", "write", "trim", "sync"] as const;
const KINDS = ["clat_ns", "lat_ns", "slat_ns"] as const;

/** Longest value held: a latency object holds at most 1,856 bins and 20 percentiles (~60 kB). */
const MAX_FIO_VALUE_CHARS = MAX_VALUE_CHARS;

interface Found {
  job: number;
  direction: string;
  kind: string;
  value: Record<string, unknown>;
  line: number;
}

class FioJsonParser implements LineParser {
  private readonly problems: Problems;
  private stream: JsonStream = this.restart();
  private readonly jobNames = new Map<number, string>();
  private readonly found: Found[] = [];
  private jobIndex = -1;
  private before = 0;

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    try {
      this.stream.line(text, lineNo);
      if (this.stream.trailing === lineNo) {
        // fio prints notes ("note: both iodepth >= 1 and synchronous I/O engine …") on stdout
        // before the JSON when --output is not given.
        if (!this.stream.opened) {
          this.before++;
          this.stream = this.restart();
        } else this.problems.line(lineNo, "text after the end of the fio JSON output: ignored");
      }
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  private restart(): JsonStream {
    const paths: string[][] = [["jobs", "*", "jobname"]];
    for (const d of DIRECTIONS) for (const k of KINDS) paths.push(["jobs", "*", d, k]);
    return new JsonStream(
      paths,
      (path, text, lineNo) => this.value(path, text, lineNo),
      MAX_FIO_VALUE_CHARS,
      (v) =>
        this.problems.line(
          v.line,
          tooLongReason(v.path.endsWith("jobname") ? "a job name" : `job ${v.path.split("/").slice(2).join(" ")}`, v, "fio writes its bins and percentiles in far less"),
        ),
    );
  }

  private value(path: string, text: string, lineNo: number): void {
    const parts = path.split("/");
    if (parts[2] === "jobname") {
      // Each job's object starts with its name: it numbers the jobs.
      this.jobIndex++;
      try {
        const s = JSON.parse(text) as unknown;
        this.jobNames.set(this.jobIndex, typeof s === "string" ? s : String(this.jobIndex));
      } catch {
        this.jobNames.set(this.jobIndex, String(this.jobIndex));
      }
      return;
    }
    const o = parseJsonLine(this.problems, lineNo, text, () => `${parts[2]} ${parts[3]} is not valid JSON (a truncated file?)`);
    if (o === undefined) return;
    if (typeof o !== "object" || o === null || Array.isArray(o)) {
      this.problems.line(lineNo, `${parts[2]} ${parts[3]} is not a JSON object`);
      return;
    }
    this.found.push({ job: Math.max(0, this.jobIndex), direction: parts[2]!, kind: parts[3]!, value: o as Record<string, unknown>, line: lineNo });
  }

  private series(f: Found, name: string): ParsedSeries | null {
    const bins = f.value.bins;
    if (typeof bins !== "object" || bins === null || Array.isArray(bins)) return null;
    const counts = new Map<number, number>();
    for (const [key, n] of Object.entries(bins as Record<string, unknown>)) {
      if (!/^\d{1,15}$/.test(key) || typeof n !== "number" || !Number.isSafeInteger(n) || n < 0 || n > MAX_BUCKET_COUNT) {
        this.problems.line(f.line, `${f.direction} ${f.kind} bin ${JSON.stringify(clip(key))}: ${JSON.stringify(n)} is not a count of a bin: skipped`);
        continue;
      }
      const idx = fioBinOf(Number(key));
      counts.set(idx, (counts.get(idx) ?? 0) + n);
    }
    const buckets: CountedBucket[] = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([i, count]) => ({ lower: fioBinLow(i), upper: fioBinHigh(i), count }));
    const num = (k: string): number | null => {
      const v = f.value[k];
      return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : null;
    };
    const histogram = newHistogram();
    const min = num("min");
    const max = num("max");
    const r = recordBuckets(histogram, buckets, min, max);
    const stated = num("N");
    if (stated !== null && stated !== r.total) this.problems.once(`n-${name}`, f.line, `${name}: N ${stated} differs from its bins' total ${r.total}`);
    if (r.unbounded > 0)
      this.problems.once(
        `over-${name}`,
        f.line,
        `${name}: ${r.unbounded} values in fio's last bin (${r.unboundedFrom} ns or more) with no max stated: recorded at the bin's start, below their true values`,
      );
    if (r.total === 0) return null;
    const tag = `${name} ${f.direction} ${f.kind.replace(/_ns$/, "")}`;
    return { name: `${fileBaseName(this.file)} [${tag}]`, tag, unit: "ns", histogram, intervals: null, startTime: null };
  }

  finish(): ParsedSource {
    const series: ParsedSeries[] = [];
    try {
      if (this.stream.unfinished) this.problems.once("unfinished", null, "the fio output ends before its closing brace: the file may be truncated");
      const names = [...this.jobNames.values()];
      const jobName = (i: number): string => {
        const n = this.jobNames.get(i) ?? String(i);
        return names.filter((x) => x === n).length > 1 ? `${n}#${i}` : n;
      };
      let withoutBins = 0;
      for (const f of this.found) {
        const s = this.series(f, jobName(f.job));
        if (s) series.push(s);
        else if (f.value.bins === undefined && typeof f.value.N === "number" && f.value.N > 0 && f.value.percentile !== undefined) withoutBins++;
      }
      if (series.length === 0 && withoutBins > 0)
        this.problems.once(
          "statistics",
          null,
          statisticsReason(
            "fio's JSON output without its histograms (--output-format=json: a mean and a few percentiles per job)",
            "run fio with --output-format=json+, which adds every latency bin, and load that",
          ),
        );
      else if (series.length === 0 && this.problems.skipped === 0) this.problems.once("empty", null, "no latency bins in the fio output (no job did any I/O?)");
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    const notes = series.length > 0 ? [{ file: this.file, line: null, reason: fioResolutionNote(1), note: true as const }] : [];
    if (this.before > 0 && series.length > 0)
      notes.push({ file: this.file, line: null, reason: `${this.before} lines of fio's notes before its JSON output were passed over`, note: true as const });
    return { format: "fio-json", series, problems: [...this.problems.list(), ...notes] };
  }
}

/** fio's JSON output: its "fio version" key near the top (after any notes fio printed first). */
export function fioJsonContentMatch(head: string): boolean {
  // No `\s*` after a multiline `^`: it would rescan runs of blank lines from every line start.
  const at = head.search(/(^|\n)[ \t]*"fio version"[ \t]*:[ \t]*"fio-/);
  const open = head.indexOf("{");
  return at >= 0 && open >= 0 && open < at + 1;
}

export const fioJsonReader: FormatReader = {
  id: "fio-json",
  detect: (_name, head) => fioJsonContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new FioJsonParser(name),
};
