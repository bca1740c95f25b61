// Records a known set of latencies with the OpenTelemetry JS SDK (@opentelemetry/sdk-metrics 2.x)
// into an exponential and an explicit-bucket histogram, collects three times, and writes each
// collection as OTLP JSON (@opentelemetry/otlp-transformer's JsonMetricsSerializer), one
// document per line as the Collector's file exporter writes them:
//   fixtures/producers/structured/otel-sdk-cumulative.jsonl  cumulative temporality, the SDK's JSON (counts as numbers)
//   fixtures/producers/structured/otel-collector-delta.jsonl delta temporality, rewritten in the Collector's shape
//                                       (64-bit counts as strings, zero-valued fields left out)
//   fixtures/producers/structured/otel-values.json           the values recorded in each of the three periods (ms)
// Run: node scripts/producers/otel.mjs
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AggregationTemporality, AggregationType, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { JsonMetricsSerializer } from "@opentelemetry/otlp-transformer";

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/producers/structured");

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(40);
const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
// Three periods of 200 requests: a lognormal body around 5 ms, the second period with a stall.
const periods = [0, 1, 2].map((k) =>
  Array.from({ length: 200 }, (_, i) => {
    const v = 5 * Math.exp(0.8 * normal());
    return Math.round((k === 1 && i % 40 === 7 ? 300 + 600 * rnd() : v) * 1000) / 1000;
  }),
);

class Manual extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

async function run(temporality) {
  const reader = new Manual({ aggregationTemporalitySelector: () => temporality });
  const provider = new MeterProvider({
    readers: [reader],
    views: [{ instrumentName: "http.client.request.duration.exp", aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
  });
  const meter = provider.getMeter("hdr-spectrum-producer");
  const exp = meter.createHistogram("http.client.request.duration.exp", { unit: "ms" });
  const explicit = meter.createHistogram("http.client.request.duration", { unit: "ms" });
  const lines = [];
  for (const values of periods) {
    for (const v of values) {
      exp.record(v, { route: "/api" });
      explicit.record(v, { route: "/api" });
    }
    await new Promise((r) => setTimeout(r, 20));
    const { resourceMetrics } = await reader.collect();
    lines.push(new TextDecoder().decode(JsonMetricsSerializer.serializeRequest(resourceMetrics)));
  }
  await provider.shutdown();
  return lines;
}

/** The Collector's protojson shape: uint64 fields as strings, zero-valued scalars left out. */
function collectorShape(value, key = "") {
  const uint64 = new Set(["count", "zeroCount", "bucketCounts", "startTimeUnixNano", "timeUnixNano"]);
  if (Array.isArray(value)) return value.map((v) => (uint64.has(key) ? String(v) : collectorShape(v, key)));
  if (value !== null && typeof value === "object") {
    const o = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === 0 || v === "" || (Array.isArray(v) && v.length === 0)) continue;
      o[k] = uint64.has(k) && !Array.isArray(v) ? String(v) : collectorShape(v, k);
    }
    return o;
  }
  return value;
}

const cumulative = await run(AggregationTemporality.CUMULATIVE);
writeFileSync(path.join(out, "otel-sdk-cumulative.jsonl"), cumulative.join("\n") + "\n");
const delta = await run(AggregationTemporality.DELTA);
writeFileSync(path.join(out, "otel-collector-delta.jsonl"), delta.map((l) => JSON.stringify(collectorShape(JSON.parse(l)))).join("\n") + "\n");
writeFileSync(path.join(out, "otel-values.json"), JSON.stringify({ unit: "ms", periods }) + "\n");
console.log("wrote", ["otel-sdk-cumulative.jsonl", "otel-collector-delta.jsonl", "otel-values.json"].join(", "));
