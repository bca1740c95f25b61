// OpenTelemetry metrics as OTLP JSON (opentelemetry-proto metrics.proto, JSON mapping): an
// ExportMetricsServiceRequest {"resourceMetrics": [{"resource": …, "scopeMetrics": [{"scope": …,
// "metrics": [{"name", "unit", "histogram" | "exponentialHistogram" | "sum" | "gauge" …}]}]}]},
// as the SDKs' JSON serializer writes it (@opentelemetry/otlp-transformer, one document, 64-bit
// integers as numbers) and as the Collector's file exporter writes it (one document per line,
// 64-bit integers as strings, fields with zero values left out).
//
// - "histogram" data points: "explicitBounds" b₀ < … < bₙ₋₁ and n + 1 "bucketCounts", bucket k
//   holding the values in (bₖ₋₁, bₖ], the last everything above bₙ₋₁; "count", "sum", optional
//   "min" and "max".
// - "exponentialHistogram" data points: "scale" s, "zeroCount" (values within "zeroThreshold" of
//   0), "positive" {"offset" o, "bucketCounts" [c₀ …]} where cₖ counts the values in
//   (2^((o+k)·2^−s), 2^((o+k+1)·2^−s)]; "negative" likewise below 0; "min", "max".
// - "aggregationTemporality": 1 delta (each point holds what came since its "startTimeUnixNano"),
//   2 cumulative (each point holds everything since the start: what came between two points is
//   their increase; a new start time is a restart).
//
// Read as intervals, one series per metric and attribute set, in ns from the metric's "unit"
// (ns, us, ms, s, min, h; other units are not durations and are passed over): each bucket's
// values at its upper bound, the exact min and max where they were observed. Explicit buckets
// are known only at their bounds, and that is said.
import type { Histogram } from "../core/histogram";
import { newHistogram } from "../core/histogram";
import { fileBaseName } from "../core/naming";
import type { FormatReader, LineParser, ParsedInterval, ParsedSource, SampleOptions } from "./source";
import { MAX_BUCKET_COUNT, percentText } from "./support/buckets";
import { clip, MAX_LATENCY_NS } from "./support/decimals";
import { elementStream, feedPiece, finishDocument, JsonStream, parseJsonLine } from "./support/json-stream";
import { Problems } from "./support/problems";
import { increases, recordIncrease, type FloatBucket, type Snapshot } from "./support/snapshots";

/** ns per unit of the UCUM time units a duration metric uses. */
const NS_PER: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, min: 60e9, h: 3600e9 };

type Kind = "explicit" | "exponential";

/**
 * Longest resourceMetrics entry held: it carries every data point of its resource in one export
 * (a Collector batch of thousands of histogram points, each a few hundred characters: MBs, or
 * far more without a batch size), so the limit is that of the Prometheus reader's results.
 */
const MAX_RESOURCE_CHARS = 256 * 1024 * 1024;
const RESOURCE_TOO_LONG = "an export that large is best split: the Collector's batch processor, send_batch_max_size";

interface Point extends Snapshot {
  line: number;
  scale: number | null;
  bounds: number;
}

interface Stream {
  metric: string;
  tag: string;
  kind: Kind;
  perUnit: number;
  unit: string;
  cumulative: boolean;
  points: Point[];
  negatives: number;
  explicitBounds: number[] | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A uint64 written as a JSON number or a string (the Collector); null when neither. */
function count(v: unknown): number | null {
  if (v === undefined) return 0;
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 && v <= MAX_BUCKET_COUNT ? v : null;
  if (typeof v === "string" && /^\d{1,15}$/.test(v) && Number(v) <= MAX_BUCKET_COUNT) return Number(v);
  return null;
}

function num(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** Epoch nanoseconds (a string of up to 19 digits, or a number) as epoch seconds. */
function epochSec(v: unknown): number | null {
  const t = typeof v === "number" ? String(Math.round(v)) : typeof v === "string" ? v : "";
  if (!/^\d{1,20}$/.test(t) || t === "0") return null;
  const sec = t.length > 9 ? Number(t.slice(0, -9)) : 0;
  return sec + Number(t.slice(-9)) / 1e9;
}

function attributesText(v: unknown): string {
  if (!Array.isArray(v)) return "";
  const parts: string[] = [];
  for (const a of v) {
    if (!isObj(a) || typeof a.key !== "string") continue;
    const val = isObj(a.value) ? Object.values(a.value)[0] : undefined;
    parts.push(`${a.key}=${typeof val === "string" ? val : JSON.stringify(val)}`);
  }
  return parts.sort().join(",");
}

class OtlpParser implements LineParser {
  private readonly problems: Problems;
  private stream: JsonStream = this.restart();
  private readonly streams = new Map<string, Stream>();
  private readonly passedOver = new Map<string, string>();

  constructor(private readonly file: string) {
    this.problems = new Problems(file);
  }

  private restart(): JsonStream {
    return elementStream(this.problems, ["resourceMetrics", "*"], (text, lineNo) => this.resource(text, lineNo), MAX_RESOURCE_CHARS, "a resourceMetrics entry", RESOURCE_TOO_LONG);
  }

  piece(text: string, lineNo: number): void {
    feedPiece(this.stream, this.problems, text, lineNo);
  }

  line(text: string, lineNo: number): void {
    try {
      // The Collector writes a document per line: a new one starts where the last one ended.
      if (this.stream.opened && !this.stream.unfinished && text.trim() !== "") {
        this.stream = this.restart();
      }
      this.stream.line(text, lineNo);
      if (this.stream.trailing === lineNo) this.problems.line(lineNo, "not part of an OTLP JSON document (each starts with {)");
    } catch (e) {
      this.problems.line(lineNo, `internal error: ${String(e)}`);
    }
  }

  private resource(text: string, lineNo: number): void {
    const r = parseJsonLine(this.problems, lineNo, text, "a resourceMetrics entry is not valid JSON (a truncated file?)");
    if (!isObj(r)) return;
    const scopes = Array.isArray(r.scopeMetrics) ? r.scopeMetrics : Array.isArray(r.instrumentationLibraryMetrics) ? r.instrumentationLibraryMetrics : [];
    const service = isObj(r.resource) ? /(?:^|,)service\.name=([^,]*)/.exec(attributesText(r.resource.attributes))?.[1] : undefined;
    for (const s of scopes) {
      if (!isObj(s) || !Array.isArray(s.metrics)) continue;
      for (const m of s.metrics) if (isObj(m)) this.metric(m, service ?? "", lineNo);
    }
  }

  private metric(m: Obj, service: string, lineNo: number): void {
    const name = typeof m.name === "string" ? m.name : "(unnamed)";
    const body = isObj(m.histogram) ? m.histogram : isObj(m.exponentialHistogram) ? m.exponentialHistogram : null;
    if (!body) {
      this.passedOver.set(name, "not a histogram");
      return;
    }
    const kind: Kind = isObj(m.histogram) ? "explicit" : "exponential";
    const unit = typeof m.unit === "string" ? m.unit.trim() : "";
    const perUnit = NS_PER[unit];
    if (perUnit === undefined) {
      this.passedOver.set(name, unit === "" ? "no unit: not known to be a duration" : `unit ${JSON.stringify(clip(unit))} is not a duration`);
      return;
    }
    const temporality = body.aggregationTemporality;
    const cumulative = temporality === 2 || temporality === "AGGREGATION_TEMPORALITY_CUMULATIVE";
    if (!Array.isArray(body.dataPoints)) return;
    for (const dp of body.dataPoints) {
      if (!isObj(dp)) continue;
      const attrs = attributesText(dp.attributes);
      const tag = `${name}${attrs ? ` {${attrs}}` : ""}`;
      const key = `${service}\u0000${tag}\u0000${kind}`;
      let st = this.streams.get(key);
      if (!st) {
        st = { metric: name, tag, kind, perUnit, unit, cumulative, points: [], negatives: 0, explicitBounds: null };
        this.streams.set(key, st);
      }
      const p = kind === "explicit" ? this.explicit(dp, st, lineNo) : this.exponential(dp, st, lineNo);
      if (p) st.points.push(p);
    }
  }

  private times(dp: Obj, lineNo: number, tag: string): { at: number; from: number | null } | null {
    const at = epochSec(dp.timeUnixNano);
    if (at === null) {
      this.problems.line(lineNo, `${tag}: a data point without a timeUnixNano: skipped`);
      return null;
    }
    return { at, from: epochSec(dp.startTimeUnixNano) };
  }

  private explicit(dp: Obj, st: Stream, lineNo: number): Point | null {
    const t = this.times(dp, lineNo, st.tag);
    if (!t) return null;
    const bounds = Array.isArray(dp.explicitBounds) ? dp.explicitBounds.map(num) : [];
    const counts = Array.isArray(dp.bucketCounts) ? dp.bucketCounts.map(count) : [];
    if (bounds.some((b) => b === null) || counts.some((c) => c === null) || (counts.length > 0 && counts.length !== bounds.length + 1)) {
      this.problems.line(
        lineNo,
        `${st.tag}: bucketCounts (${counts.length}) do not match explicitBounds (${bounds.length}) plus one, or hold something that is not a count: skipped`,
      );
      return null;
    }
    const b = bounds as number[];
    for (let k = 1; k < b.length; k++)
      if (!(b[k]! > b[k - 1]!)) {
        this.problems.line(lineNo, `${st.tag}: explicitBounds are not increasing: skipped`);
        return null;
      }
    const buckets: FloatBucket[] = (counts as number[]).map((c, k) => ({ lower: k === 0 ? -Infinity : b[k - 1]!, upper: k < b.length ? b[k]! : Infinity, count: c }));
    st.explicitBounds = b;
    // Below 0 a latency cannot be: a first bound at or below 0 holds zeros.
    const first = buckets[0];
    if (first && first.upper < 0 && first.count > 0) st.negatives += first.count;
    return {
      ...t,
      buckets: buckets.filter((x) => x.upper >= 0).map((x) => ({ ...x, lower: Math.max(0, x.lower) })),
      min: num(dp.min),
      max: num(dp.max),
      line: lineNo,
      scale: null,
      bounds: b.length,
    };
  }

  private exponential(dp: Obj, st: Stream, lineNo: number): Point | null {
    const t = this.times(dp, lineNo, st.tag);
    if (!t) return null;
    const scale = dp.scale === undefined ? 0 : num(dp.scale);
    if (scale === null || !Number.isInteger(scale) || scale < -10 || scale > 20) {
      this.problems.line(lineNo, `${st.tag}: scale ${clip(JSON.stringify(dp.scale))} is not a whole number from -10 to 20: skipped`);
      return null;
    }
    const zero = count(dp.zeroCount);
    const threshold = dp.zeroThreshold === undefined ? 0 : num(dp.zeroThreshold);
    const pos = isObj(dp.positive) ? dp.positive : {};
    const offset = pos.offset === undefined ? 0 : num(pos.offset);
    const counts = Array.isArray(pos.bucketCounts) ? pos.bucketCounts.map(count) : [];
    if (zero === null || threshold === null || offset === null || !Number.isInteger(offset) || counts.some((c) => c === null)) {
      this.problems.line(lineNo, `${st.tag}: zeroCount, zeroThreshold, positive offset or bucketCounts hold something that is not a number: skipped`);
      return null;
    }
    const neg = isObj(dp.negative) && Array.isArray(dp.negative.bucketCounts) ? dp.negative.bucketCounts.map(count) : [];
    st.negatives += neg.reduce<number>((a, c) => a + (c ?? 0), 0);
    const width = 2 ** -scale;
    const buckets: FloatBucket[] = [{ lower: 0, upper: Math.max(0, threshold), count: zero }];
    (counts as number[]).forEach((c, k) => {
      buckets.push({ lower: 2 ** ((offset + k) * width), upper: 2 ** ((offset + k + 1) * width), count: c });
    });
    return { ...t, buckets, min: num(dp.min), max: num(dp.max), line: lineNo, scale, bounds: counts.length };
  }

  finish(): ParsedSource {
    return finishDocument("otlp", this.file, this.stream, this.problems, "the OTLP JSON document ends before its closing brace", (series, notes) => {
      const base = fileBaseName(this.file);
      let t0 = Infinity;
      const built: { st: Stream; intervals: { start: number; end: number; h: Histogram }[]; total: Histogram }[] = [];
      for (const st of this.streams.values()) {
        const points = [...st.points].sort((a, b) => a.at - b.at);
        if (points.length === 0) continue;
        // A delta point holds its own interval: as if each were counted in full.
        const incs = st.cumulative
          ? increases(points, (s, i) => (i > 0 ? points[i - 1]!.at : s.at - 1))
          : points.map((p, i) => ({ start: p.from ?? (i > 0 ? points[i - 1]!.at : p.at - 1), end: p.at, buckets: p.buckets, min: p.min, max: p.max, whole: true }));
        const total = newHistogram();
        const intervals: { start: number; end: number; h: Histogram }[] = [];
        let unbounded = 0;
        let unboundedFrom = 0;
        for (const inc of incs) {
          const { histogram, recorded } = recordIncrease(inc, st.perUnit, MAX_LATENCY_NS);
          unbounded += recorded.unbounded;
          if (recorded.unbounded > 0) unboundedFrom = recorded.unboundedFrom;
          total.add(histogram);
          intervals.push({ start: inc.start, end: inc.end, h: histogram });
          t0 = Math.min(t0, inc.start);
        }
        if (unbounded > 0)
          this.problems.once(
            `over-${st.tag}`,
            null,
            `${st.tag}: ${unbounded} values above the last bucket bound (${unboundedFrom / st.perUnit} ${st.unit}) with no max stated: their latencies are unknown, shown at that bound, below their true values`,
          );
        if (st.negatives > 0) this.problems.once(`neg-${st.tag}`, null, `${st.tag}: ${st.negatives} negative values are not latencies: left out`);
        if (total.totalCount === 0) continue;
        built.push({ st, intervals, total });
        const last = points[points.length - 1]!;
        if (st.kind === "explicit") {
          const b = st.explicitBounds ?? [];
          const shown = b.length <= 8 ? b.join(", ") : `${b.slice(0, 4).join(", ")}, … ${b.slice(-2).join(", ")}`;
          notes.push(
            `${st.tag}: an explicit-bucket histogram, known only at its ${b.length} bucket bounds (${shown} ${st.unit}): each value is shown at its bucket's upper bound, the percentiles step from bound to bound and nothing between them is interpolated`,
          );
        } else {
          const scale = last.scale ?? 0;
          notes.push(
            `${st.tag}: an exponential histogram at scale ${scale}: each value is shown at its bucket's upper bound, buckets ${percentText(2 ** (2 ** -scale) - 1)} wide${st.points.some((p) => p.min !== null && p.max !== null) ? ", the min and max exact" : ""}`,
          );
        }
      }
      for (const { st, intervals, total } of built) {
        const parsed: ParsedInterval[] = intervals.map((iv) => ({ start: iv.start - t0, length: iv.end - iv.start, histogram: iv.h }));
        series.push({ name: `${base} [${st.tag}]`, tag: st.tag, unit: "ns", histogram: total, intervals: parsed, startTime: Number.isFinite(t0) ? t0 : null });
      }
      if (series.length === 0 && this.problems.skipped === 0) {
        const what = [...this.passedOver.entries()].map(([n, why]) => `${n} (${why})`);
        this.problems.once("empty", null, `no histogram of durations in the OTLP metrics${what.length > 0 ? `: ${clip(what.join(", "), 300)}` : ""}`);
      } else if (this.passedOver.size > 0) {
        notes.push(`${this.passedOver.size} metrics that are not histograms of durations were passed over: ${clip([...this.passedOver.keys()].join(", "), 200)}`);
      }
    });
  }
}

/** OTLP JSON metrics: a "resourceMetrics" key at the top of a JSON object. */
export function otlpContentMatch(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  return t.startsWith("{") && /^\{\s*"resourceMetrics"\s*:/.test(t);
}

export const otlpReader: FormatReader = {
  id: "otlp",
  detect: (_name, head) => otlpContentMatch(head),
  create: (name: string, _options?: SampleOptions) => new OtlpParser(name),
};
