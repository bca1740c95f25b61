// JMH results as JSON (`java -jar benchmarks.jar -rf json -rff result.json`, JMH 1.x; facts from
// JMH 1.37's JSONResultFormat, SampleTimeResult and util/SampleBuffer): a JSON array, one object
// per benchmark and parameter set:
//   {"jmhVersion": "1.37", "benchmark": "bench.Sleepy.park", "mode": "sample", "forks": 2,
//    "params": {"size": "128"}, "primaryMetric": {"score": …, "scorePercentiles": {"50.0": …},
//    "scoreUnit": "us/op", "rawDataHistogram": [[[[64.896, 1], [65.344, 3], …], …], …]}, …}
// rawDataHistogram (SampleTime mode only) holds, per fork and per iteration, [value, count] pairs
// of JMH's SampleBuffer: a sample of t ns goes to bin (t >> b) << b, b = max(0, bits(t) − 10),
// and the bin is printed as its lowest value times the unit's multiplier. So a bin is exact below
// 1,024 ns, then at most 0.2 % wide, and its values reach up to its printed value + 2^b − 1 ns.
// JMH times a sample of the invocations (and halves the counts when its buffer fills), not all
// of them. The other modes (thrpt, avgt, ss) keep one score per iteration: statistics.
//
// A histogram per benchmark and parameter set, every fork and iteration merged, in ns, each bin's
// values at its top. JMH's scorePercentiles interpolate between bins and are not used.
import { newHistogram } from "../core/histogram";
import type { Histogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedSource, SampleOptions } from "./source";
import { MAX_BUCKET_COUNT } from "./support/buckets";
import { clip, MAX_LATENCY_NS } from "./support/decimals";
import { feedLine, feedPiece, finishDocument, JsonStream, parseJsonLine, tooLongReason } from "./support/json-stream";
import { Problems } from "./support/problems";
import { statisticsReason } from "./statistics";

const NS_PER: Record<string, number> = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, min: 60e9 };

/**
 * Longest value held: a fork's rawDataHistogram, every iteration's [value, count] pairs (up to a
 * few thousand bins an iteration, ~20 characters a pair, hundreds of iterations: tens of MB).
 */
const MAX_FORK_CHARS = 256 * 1024 * 1024;

interface Bench {
  benchmark: string;
  mode: string;
  params: string;
  nsPer: number | null;
  unit: string;
  histogram: Histogram;
  samples: number;
  offGrid: number;
}

/** The top (ns) of the SampleBuffer bin whose printed lowest value is `low` ns. */
export function jmhBinTop(low: number): number {
  const bits = low === 0 ? 0 : Math.floor(Math.log2(low)) + 1;
  const b = Math.max(0, bits - 10);
  return low + 2 ** b - 1;
}

class JmhParser implements LineParser {
  private readonly problems: Problems;
  private readonly stream: JsonStream;
  private readonly benches: Bench[] = [];
  private current: Bench | null = null;
  private otherModes = new Set<string>();

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
    this.stream = new JsonStream(
      [
        ["*", "benchmark"],
        ["*", "mode"],
        ["*", "params"],
        ["*", "primaryMetric", "scoreUnit"],
        ["*", "primaryMetric", "rawDataHistogram", "*"],
      ],
      (path, text, lineNo) => this.value(path, text, lineNo),
      MAX_FORK_CHARS,
      (v) =>
        this.problems.line(
          v.line,
          tooLongReason(v.path.endsWith("/*") ? "a fork's rawDataHistogram" : `"${v.path.split("/").pop()}"`, v, "more than a fork's iterations of JMH's bins would hold"),
        ),
    );
  }

  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    feedLine(this.stream, this.problems, text, lineNo, (opened) => (opened ? "text after the end of the JMH results: ignored" : "not JMH JSON results (they start with [)"));
  }

  private parse(text: string, lineNo: number, what: string): unknown {
    return parseJsonLine(this.problems, lineNo, text, () => `${what} is not valid JSON (a truncated file?)`);
  }

  private value(path: string, text: string, lineNo: number): void {
    const v = this.parse(text, lineNo, path.slice(2));
    if (v === undefined) return;
    if (path === "*/benchmark") {
      this.current = { benchmark: typeof v === "string" ? v : String(v), mode: "", params: "", nsPer: null, unit: "", histogram: newHistogram(), samples: 0, offGrid: 0 };
      this.benches.push(this.current);
      return;
    }
    const b = this.current;
    if (!b) return;
    if (path === "*/mode") b.mode = typeof v === "string" ? v : "";
    else if (path === "*/params") {
      if (typeof v === "object" && v !== null)
        b.params = Object.entries(v as Record<string, unknown>)
          .map(([k, x]) => `${k}=${String(x)}`)
          .join(",");
    } else if (path === "*/primaryMetric/scoreUnit") {
      b.unit = typeof v === "string" ? v : "";
      const m = /^(ns|us|µs|ms|s|min)\/op$/.exec(b.unit);
      b.nsPer = m ? NS_PER[m[1] === "µs" ? "us" : m[1]!]! : null;
    } else this.fork(b, v, lineNo);
  }

  /** One fork's iterations: arrays of [value, count] pairs. */
  private fork(b: Bench, v: unknown, lineNo: number): void {
    if (b.nsPer === null) {
      this.problems.once(`unit-${b.benchmark}`, lineNo, `${b.benchmark}: score unit ${JSON.stringify(clip(b.unit))} is not a time per operation: skipped`);
      return;
    }
    if (!Array.isArray(v)) return;
    for (const iteration of v) {
      if (!Array.isArray(iteration)) continue;
      for (const pair of iteration) {
        if (
          !Array.isArray(pair) ||
          typeof pair[0] !== "number" ||
          typeof pair[1] !== "number" ||
          !(pair[0] >= 0) ||
          !Number.isSafeInteger(pair[1]) ||
          pair[1] < 0 ||
          pair[1] > MAX_BUCKET_COUNT
        ) {
          this.problems.line(lineNo, `${b.benchmark}: ${clip(JSON.stringify(pair))} is not a [value, count] pair: skipped`);
          continue;
        }
        const ns = pair[0] * b.nsPer;
        const low = Math.round(ns);
        let at: number;
        if (Math.abs(ns - low) <= 1e-6 * Math.max(1, ns)) at = jmhBinTop(low);
        else {
          // @OperationsPerInvocation divides the bins: not on JMH's grid, the value itself, rounded up.
          at = Math.ceil(ns);
          b.offGrid += pair[1];
        }
        if (at > MAX_LATENCY_NS) {
          this.problems.line(lineNo, `${b.benchmark}: ${pair[0]} ${b.unit} is too large (limit 1 hour): skipped`);
          continue;
        }
        if (pair[1] > 0) b.histogram.recordValueWithCount(at, pair[1]);
        b.samples += pair[1];
      }
    }
  }

  finish(): ParsedSource {
    return finishDocument("jmh", this.file, this.stream, this.problems, "the JMH results end before their closing bracket", (series, notes) => {
      const base = fileBaseName(this.file);
      for (const b of this.benches) {
        if (b.mode !== "sample") {
          this.otherModes.add(b.mode || "(none)");
          continue;
        }
        if (b.samples === 0) continue;
        const tag = `${b.benchmark.split(".").slice(-2).join(".")}${b.params ? ` {${b.params}}` : ""}`;
        series.push({ name: `${base} [${tag}]`, tag, unit: "ns", histogram: b.histogram, intervals: null, startTime: null });
        if (b.offGrid > 0) notes.push(`${tag}: ${b.offGrid} samples are not on JMH's bins (@OperationsPerInvocation divides them): read at their own value, rounded up to the ns`);
      }
      if (series.length > 0)
        notes.push(
          "JMH SampleTime: each sample is read at the top of JMH's bin (exact below 1,024 ns, then bins up to 0.2 % wide), every fork and iteration merged; JMH times a sample of the invocations, not every one",
        );
      if (series.length === 0 && this.otherModes.size > 0)
        this.problems.once(
          "statistics",
          null,
          statisticsReason(
            `JMH results in ${[...this.otherModes].join(", ")} mode (one score per iteration: an average or a throughput)`,
            "run the benchmarks in SampleTime mode (-bm sample) with -rf json for their spectrum, and load that",
          ),
        );
      else if (this.otherModes.size > 0) notes.push(`benchmarks in ${[...this.otherModes].join(", ")} mode hold one score per iteration, not samples: left out`);
      else if (series.length === 0 && this.problems.skipped === 0) this.problems.once("empty", null, "no SampleTime samples in the JMH results");
    });
  }
}

/** JMH's JSON results: an array whose first object starts with "jmhVersion" (or "benchmark" and "mode"). */
export function jmhContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  return /^\[\s*\{\s*"(jmhVersion|benchmark)"\s*:/.test(t) && /"primaryMetric"\s*:|"mode"\s*:\s*"(sample|thrpt|avgt|ss)"/.test(t);
}

export const jmhReader: FormatReader = {
  id: "jmh",
  detect: (_name, head) => jmhContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new JmhParser(name),
};
