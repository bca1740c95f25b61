// Prometheus' HTTP API answers (/api/v1/query and /api/v1/query_range, Prometheus 2.40 and later),
// saved to a file: {"status": "success", "data": {"resultType": "matrix" | "vector", "result": […]}}.
// A result holds a label set ("metric") and
// - for a native histogram, "histograms": [[t, h], …] (matrix) or "histogram": [t, h] (vector),
//   h = {"count": "900", "sum": "…", "buckets": [[rule, "lower", "upper", "count"], …]}: each
//   bucket's own count (as a string), rule saying which ends it includes (0: (lower, upper],
//   1: [lower, upper), 2: (lower, upper), 3: [lower, upper], the zero bucket);
// - for anything else, "values": [[t, "v"], …] or "value": [t, "v"]: a classic histogram is one
//   such series per bucket, name_bucket{le="0.005"} …, le="+Inf", counts cumulative over buckets.
// The series themselves are counters: each point holds everything observed since the process
// started. What was observed between two points is their increase, never their sum; a count that
// goes down is a counter reset, after which the point counts in full (as Prometheus' increase()
// takes it). A saved range has no point before its first one: the first point counts in full
// (everything observed up to it), in an interval one step long. Counts that are not whole numbers
// are the result of rate() or increase(), which the file does not say: refused.
//
// The unit comes from the metric's name (Prometheus names carry their base unit: _seconds);
// values at each bucket's upper bound, in ns. Classic buckets are known only at their bounds,
// and that is said.
//
// readPrometheusData reads a parsed answer's "data": the live query form reads the same way.
import type { FormatReader, LineParser, ParsedSeries, ParsedSource, SampleOptions } from "./source";
import { clip } from "./support/decimals";
import { feedLine, feedPiece, JsonStream, parseJsonLine, type TooLongValue } from "./support/json-stream";
import { Problems } from "./support/problems";
import type { FloatBucket, Snapshot } from "./support/snapshots";
import { readSeries, seriesOf, type ReadSeries } from "./prometheus-series";
import { ResultPoints, wholeCount } from "./prometheus-points";

export { resolutionOf, sparseRowHistogram } from "./prometheus-series";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export interface PrometheusReadOptions {
  /** Names the series' source (a file name, or "prometheus:" and the query). */
  source: string;
  /**
   * "whole": the first point counts in full (a saved range); "baseline": it is only the count
   * the next point's increase is taken from (a live range fetched from a point before its start).
   */
  firstPoint: "whole" | "baseline";
  /**
   * With "baseline": the time of the point asked for as the baseline (the range's start). A
   * series whose first point comes later appeared within the range (no sample in the lookback
   * before it): that point counts in full, as after a counter reset.
   */
  baselineAt?: number;
  /** The step the points were asked at (a live range); else read off the first two points. */
  step?: number;
  /**
   * What each point holds: "cumulative" (the default: counters, differenced), "increase" (an
   * increase() per step, taken as given) or "rate" (per second, times the step).
   */
  perStep?: "cumulative" | "increase" | "rate";
  /** The query asked (a live answer): its metric's name says the unit of results that lost their __name__ (a sum). */
  query?: string;
  /** The series' name from its labels' text (default: the source's base name and the tag). */
  name?: (tag: string) => string;
  /** Longest part of one result read whole (default MAX_RESULT_CHARS; tests ask less). */
  maxResultChars?: number;
  /** Told as each result has been read (a live answer's progress). */
  onResult?: () => void;
}

/** ns per unit, from the unit word at the end of a metric's name. */
const NAME_UNITS: [RegExp, number, string][] = [
  [/_(seconds|s)(_bucket)?$/, 1e9, "s"],
  [/_(milliseconds|ms)(_bucket)?$/, 1e6, "ms"],
  [/_(microseconds|us)(_bucket)?$/, 1e3, "us"],
  [/_(nanoseconds|ns)(_bucket)?$/, 1, "ns"],
];
const NOT_DURATION = /_(bytes|ratio|percent|celsius|volts|amperes|joules|grams|meters|info)(_bucket)?$/;

function labelsText(metric: Obj, drop: readonly string[]): string {
  const name = typeof metric.__name__ === "string" ? metric.__name__ : "";
  const rest = Object.keys(metric)
    .filter((k) => k !== "__name__" && !drop.includes(k))
    .sort()
    .map((k) => `${k}="${String(metric[k])}"`);
  return `${name}${rest.length > 0 ? `{${rest.join(",")}}` : ""}`;
}

interface Collected {
  /** The result's labels (the tag drops those shared by every result, known at the end). */
  metric: Obj;
  /** Labels left out of the tag besides the shared ones (a classic series' le). */
  drop: readonly string[];
  name: string;
  kind: "native" | "classic";
  /** The series read from its points (null: not a duration, or no point). */
  read: ReadSeries | null;
  notDuration: boolean;
  /** The unit word read off the name (null: none, read as seconds). */
  unitWord: string | null;
}

export interface PrometheusRead {
  series: ParsedSeries[];
  /** What is said of each series: how its values were placed (notes, nothing lost). */
  notes: string[];
}

/** Reads the "data" of a query or query_range answer into series; problems go to `problems`. */
export function readPrometheusData(data: unknown, options: PrometheusReadOptions, problems: Problems): PrometheusRead {
  if (!isObj(data) || !Array.isArray(data.result)) {
    problems.once("no-data", null, 'no "data" with a "result" list in the Prometheus answer');
    return { series: [], notes: [] };
  }
  const c = new PrometheusResults(options, problems);
  for (const r of data.result) c.add(r);
  return c.finish();
}

/**
 * An answer's results read one at a time as they arrive: a native histogram's points become
 * its series' sparse counts at once (a fleet's answer is never held whole), classic buckets are
 * gathered by series until the end, when every series is named.
 */
export class PrometheusResults {
  private readonly collected: Collected[] = [];
  private readonly classic = new Map<string, { name: string; metric: Obj; byLe: Map<number, Map<number, number>> }>();
  private readonly metrics: Obj[] = [];
  private fractions = 0;
  private floats = 0;
  private index = 0;
  private readonly fractional: boolean;

  constructor(
    private readonly options: PrometheusReadOptions,
    private readonly problems: Problems,
  ) {
    this.fractional = options.perStep === "rate" || options.perStep === "increase";
  }

  add(r: unknown): void {
    if (!isObj(r)) {
      this.index++;
      return;
    }
    const hs = Array.isArray(r.histograms) ? r.histograms : Array.isArray(r.histogram) ? [r.histogram] : null;
    const points = hs ? new ResultPoints(this.fractional) : null;
    if (points) for (const pair of hs!) points.add(pair);
    this.end(r, points);
  }

  /**
   * A result whose native histogram's points were read one at a time as they came (`points`,
   * null when it had none): `r` holds the rest of it (metric, values or value).
   */
  end(r: Obj, points: ResultPoints | null): void {
    const i = this.index++;
    this.metrics.push(isObj(r.metric) ? r.metric : {});
    if (!isObj(r.metric)) return;
    const { options, problems } = this;
    const name = typeof r.metric.__name__ === "string" ? r.metric.__name__ : "";
    if (points) {
      this.fractions += points.fractions;
      if (points.bad) problems.once(`bad-${i}`, null, `result ${i + 1} (${clip(labelsText(r.metric, []), 80)}): a histogram point is not [time, {count, buckets}]: skipped`);
      this.collected.push(collectedOf(r.metric, [], name, "native", points.points, options));
      return;
    }
    const { fractional } = this;
    const le = r.metric.le;
    if (typeof le !== "string") {
      if (Array.isArray(r.values) || Array.isArray(r.value)) this.floats++;
      return;
    }
    const bound = le === "+Inf" ? Infinity : Number(le);
    if (Number.isNaN(bound)) return;
    const key = labelsText(r.metric, ["le"]);
    let c = this.classic.get(key);
    if (!c) {
      c = { name: name.replace(/_bucket$/, ""), metric: r.metric, byLe: new Map() };
      this.classic.set(key, c);
    }
    const values = Array.isArray(r.values) ? r.values : Array.isArray(r.value) ? [r.value] : [];
    const byTime = new Map<number, number>();
    for (const v of values) {
      if (!Array.isArray(v) || typeof v[0] !== "number") continue;
      const n = wholeCount(v[1], fractional);
      if (n === "fraction") this.fractions++;
      else if (n !== null) byTime.set(v[0], n);
    }
    c.byLe.set(bound, byTime);
  }

  finish(): PrometheusRead {
    const { options, problems } = this;
    // Labels with one value in every result (job, instance of a single target) name nothing apart.
    const shared = sharedLabels(this.metrics);
    const tagOf = (c: Collected) => {
      const t = labelsText(c.metric, [...c.drop, ...shared]);
      return c.kind === "classic" ? t.replace(/^([^{]*)_bucket/, "$1") : t;
    };
    const collected = [...this.collected];
    for (const c of this.classic.values()) {
      const tag = labelsText(c.metric, ["le", ...shared]).replace(/^([^{]*)_bucket/, "$1");
      const bounds = [...c.byLe.keys()].sort((a, b) => a - b);
      if (bounds[bounds.length - 1] !== Infinity) {
        problems.once(`inf-${tag}`, null, `${tag}: no le="+Inf" bucket: the classic histogram is incomplete, skipped`);
        continue;
      }
      const times = [...new Set(bounds.flatMap((b) => [...c.byLe.get(b)!.keys()]))].sort((a, b) => a - b);
      const points: Snapshot[] = [];
      for (const t of times) {
        const cum = bounds.map((b) => c.byLe.get(b)!.get(t));
        if (cum.some((x) => x === undefined)) {
          problems.once(`gap-${tag}`, null, `${tag}: some buckets have no point at some times: those times skipped`);
          continue;
        }
        const buckets: FloatBucket[] = [];
        let ok = true;
        bounds.forEach((b, k) => {
          const n = cum[k]! - (k > 0 ? cum[k - 1]! : 0);
          if (n < 0) ok = false;
          buckets.push({ lower: k > 0 ? bounds[k - 1]! : 0, upper: b, count: Math.max(0, n) });
        });
        if (!ok) problems.once(`order-${tag}`, null, `${tag}: a bucket counts fewer than the bucket below it: that time skipped`);
        else points.push({ at: t, from: null, buckets, min: null, max: null });
      }
      collected.push(collectedOf(c.metric, ["le"], c.name, "classic", points, options));
    }
    if (this.fractions > 0)
      problems.once(
        "fractions",
        null,
        `${this.fractions} points hold counts that are not whole numbers: the result of rate() or increase(), which a saved answer does not say; save the raw series (a plain selector such as name or name_bucket) instead`,
      );

    const series: ParsedSeries[] = [];
    const notes: string[] = [];
    let notDurations = 0;
    for (const c of collected) {
      if (c.notDuration) {
        notDurations++;
        continue;
      }
      const tag = tagOf(c);
      if (c.unitWord === null) problems.once(`unit-${tag}`, null, `${tag}: the name does not say its unit: read as seconds, Prometheus' base unit`);
      const s = c.read ? seriesOf(c.read, tag, options, problems, notes) : null;
      if (!s) continue;
      series.push(s);
      const unit = c.unitWord ?? "s";
      notes.push(
        c.kind === "classic"
          ? `${tag}: a classic histogram, known only at its bucket bounds (${c.read!.bounds(unit)}): each value is shown at its bucket's upper bound, the percentiles step from bound to bound and nothing between them is interpolated`
          : `${tag}: a native histogram${c.read!.resolution}: each value is shown at its bucket's upper bound, never below what was observed`,
      );
    }
    if (this.floats > 0 && series.length === 0)
      problems.once(
        "floats",
        null,
        `the answer holds ${this.floats} series of plain numbers, not histograms: ask for a native histogram (its name, or sum/increase of it) or the name_bucket series of a classic one, not a histogram_quantile or a rate of _count`,
      );
    if (notDurations > 0) problems.once("not-durations", null, `${notDurations} histograms are not of durations (bytes, ratios …): left out`);
    return { series, notes };
  }
}

function collectedOf(metric: Obj, drop: readonly string[], name: string, kind: "native" | "classic", points: Snapshot[], options: PrometheusReadOptions): Collected {
  const named = name || nameInQuery(options.query);
  const notDuration = NOT_DURATION.test(named);
  const unit = NAME_UNITS.find(([re]) => re.test(named));
  return {
    metric,
    drop,
    name,
    kind,
    notDuration,
    unitWord: unit ? unit[2] : null,
    read: notDuration ? null : readSeries(points, kind, unit ? unit[1] : 1e9, options),
  };
}

/** The first metric name in a query that says a unit (x_seconds in sum(increase(x_seconds[5m]))). */
function nameInQuery(query: string | undefined): string {
  if (!query) return "";
  const m =
    /[a-zA-Z_:][\w:]*_(seconds|s|milliseconds|ms|microseconds|us|nanoseconds|ns|bytes|ratio|percent|celsius|volts|amperes|joules|grams|meters|info)(_bucket)?(?![\w:])/.exec(query);
  return m ? m[0] : "";
}

function sharedLabels(metrics: readonly Obj[]): string[] {
  if (metrics.length === 0) return [];
  return Object.keys(metrics[0]!).filter((k) => k !== "__name__" && k !== "le" && metrics.every((m) => m[k] === metrics[0]![k]));
}

/** Longest part of a result read whole (a classic bucket's values; a native histogram's points come one at a time): a string JavaScript holds. */
const MAX_RESULT_CHARS = 256 * 1024 * 1024;

const mib = (chars: number) => (chars >= 1024 * 1024 ? `${Number((chars / (1024 * 1024)).toPrecision(3))} MB` : `${chars.toLocaleString("en-US")} characters`);

/** A result's parts other than its native histogram's points, as they are read. */
const RESULT_PARTS = ["metric", "histogram", "values", "value"] as const;

class PrometheusApiParser implements LineParser {
  private readonly problems: Problems;
  private readonly stream: JsonStream;
  private status: string | null = null;
  private error = "";
  private resultType = "";
  private readonly results: PrometheusResults;
  /** The result being read: its parts so far, and its points (null until one comes). */
  private rest: Obj = {};
  private points: ResultPoints | null = null;
  private readonly fractional: boolean;
  /** The first result part too long to read, where it starts. */
  private firstTooLong: TooLongValue | null = null;
  private readonly onResult: (() => void) | undefined;

  constructor(
    private readonly file: string,
    options: PrometheusReadOptions = { source: file, firstPoint: "whole" },
  ) {
    this.problems = new Problems(file);
    this.results = new PrometheusResults(options, this.problems);
    this.fractional = options.perStep === "rate" || options.perStep === "increase";
    this.onResult = options.onResult;
    // Each point of a range is captured and read on its own, and a result is finished where it
    // closes: a series of a long range at a fine step is megabytes of points, never held as text.
    this.stream = new JsonStream(
      [["status"], ["error"], ["data", "resultType"], ["data", "result", "*", "histograms", "*"], ...RESULT_PARTS.map((k) => ["data", "result", "*", k])],
      (path, text, lineNo) => this.value(path, text, lineNo),
      // A classic bucket's values over a long range at a fine step are megabytes.
      options.maxResultChars ?? MAX_RESULT_CHARS,
      (v) => (this.firstTooLong ??= v),
    );
    this.stream.closeDepth = 4;
    this.stream.onClose = (array, depth) => {
      const path = this.stream.pathAt();
      // A result's "histograms" list, even an empty one, makes it a native histogram's.
      if (depth === 4 && array && path === "data/result/*/histograms") this.points ??= new ResultPoints(this.fractional);
      else if (depth === 3 && path === "data/result/*") {
        if (array) this.results.add([]);
        else {
          // A vector's one point is its "histogram", read when the result has no "histograms" list.
          if (this.points === null && Array.isArray(this.rest.histogram)) (this.points = new ResultPoints(this.fractional)).add(this.rest.histogram);
          this.results.end(this.rest, this.points);
        }
        this.onResult?.();
        this.rest = {};
        this.points = null;
      }
    };
  }

  /**
   * An answer is one line (a fleet's, hundreds of MB): taken in pieces as it comes rather than
   * held to a few MB first, each such stretch outliving the young generation's collections.
   */
  readonly pieceFrom = 64 * 1024;

  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    feedLine(this.stream, this.problems, text, lineNo, () => "text outside the Prometheus answer's JSON object: ignored");
  }

  private value(path: string, text: string, lineNo: number): void {
    const v = parseJsonLine(this.problems, lineNo, text, () => `${path} is not valid JSON (a truncated file?)`);
    if (v === undefined) return;
    if (path === "status") this.status = typeof v === "string" ? v : null;
    else if (path === "error") this.error = typeof v === "string" ? v : "";
    else if (path === "data/resultType") this.resultType = typeof v === "string" ? v : "";
    else if (path === "data/result/*/histograms/*") (this.points ??= new ResultPoints(this.fractional)).add(v);
    else this.rest[path.slice(path.lastIndexOf("/") + 1)] = v;
  }

  finish(): ParsedSource {
    let series: ParsedSeries[] = [];
    let notes: string[] = [];
    try {
      const long = this.firstTooLong;
      if (this.stream.tooLong > 0 && long !== null) {
        // Where the first one starts (the problem's line is its line): a saved file can be looked at there.
        const key = long.path.slice(long.path.lastIndexOf("/") + 1);
        const many = this.stream.tooLong === 1 ? "1 series holds" : `${this.stream.tooLong} series hold`;
        this.problems.once(
          "too-long",
          long.line,
          `${many} more than ${mib(long.limit)} of points each: left out (the first one's "${key}" starts at character ${long.column.toLocaleString("en-US")}; ask for a longer step or a shorter range)`,
        );
      }
      if (this.stream.unfinished) this.problems.once("unfinished", null, "the Prometheus answer ends before its closing brace: the file may be truncated");
      if (this.status === "error") this.problems.once("error", null, `the answer is an error: ${clip(this.error, 200)}`);
      else if (this.resultType === "scalar" || this.resultType === "string") this.problems.once("type", null, `a ${this.resultType} result holds no histogram`);
      else {
        ({ series, notes } = this.results.finish());
        if (series.length === 0 && this.problems.skipped === 0)
          this.problems.once("empty", null, "no histogram in the Prometheus answer (query a native histogram, or the name_bucket series of a classic one)");
      }
    } catch (e) {
      this.problems.once("internal", null, `internal error: ${String(e)}`);
    }
    return { format: "prometheus-api", series, problems: [...this.problems.list(), ...notes.map((reason) => ({ file: this.file, line: null, reason, note: true as const }))] };
  }
}

/** A reader of one live answer, read with `options` (the live query's baseline, step and names). */
export function prometheusAnswerReader(options: PrometheusReadOptions): FormatReader {
  return { id: "prometheus-api", detect: () => true, create: (name: string) => new PrometheusApiParser(name, options) };
}

/** A Prometheus API answer: {"status": …, "data": {"resultType": …}} at the top. */
export function prometheusApiContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  return t.startsWith("{") && /"status"\s*:\s*"(success|error)"/.test(t) && /"resultType"\s*:\s*"(matrix|vector|scalar|string)"/.test(t);
}

export const prometheusApiReader: FormatReader = {
  id: "prometheus-api",
  detect: (_name, head) => prometheusApiContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new PrometheusApiParser(name),
};
