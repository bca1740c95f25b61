// report --prometheus against a real server: Debian's Prometheus (native histograms enabled, a
// temporary TSDB, loopback only) scrapes every second the exporter in
// scripts/producers/prometheus-exporter (Go, client_golang), which observes three phases of known
// values into a native and a classic histogram and writes them down with their times. Every
// reported percentile must be the upper bound of the bucket that holds the true value at its
// rank among the values observed in the range: for the native histogram (schema 3, from its
// bucket factor 1.1) 2^(k/8) s, for the classic one the bound itself. Skipped, saying why, where
// prometheus or go is missing or the exporter does not build.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { atRank, nativeUpper, startPrometheus, type PrometheusRun } from "../../tests/support/prometheus-server";
import { main } from "./main";

const GAP_S = 3;
const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HDR = 1 + 1 / 1024;

let skip: string | null = null;
let run: PrometheusRun | null = null;

beforeAll(async () => {
  const r = await startPrometheus({ gapSeconds: GAP_S });
  if ("skip" in r) skip = r.skip;
  else run = r;
}, 180_000);

afterAll(() => run?.stop());

const classicUpper = (v: number) => DEF_BUCKETS.find((b) => b >= v)!;

interface JsonSeries {
  name: string;
  source: string;
  count: number;
  percentiles: Record<string, number>;
}

async function report(query: string, start: number): Promise<JsonSeries> {
  let stdout = "";
  let stderr = "";
  const code = await main(["report", "--json", "--prometheus", run!.api, "--query", query, "--start", String(start), "--end", String(run!.endAt)], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stderrIsTTY: false,
  });
  expect(code, stderr).toBe(0);
  const series = (JSON.parse(stdout) as { series: JsonSeries[] }).series;
  expect(series).toHaveLength(1);
  return series[0]!;
}

function expectAtBuckets(s: JsonSeries, observed: readonly number[], upper: (v: number) => number, what: string): void {
  expect(s.count, `${what}: values observed in the range`).toBe(observed.length);
  for (const [p, ours] of Object.entries(s.percentiles)) {
    const bound = upper(atRank(observed, Number(p))) * 1e9;
    expect(ours, `${what} p${p}`).toBeGreaterThanOrEqual(bound * (1 - 1e-9));
    expect(ours, `${what} p${p}`).toBeLessThanOrEqual(bound * HDR);
  }
}

describe("report --prometheus against Prometheus 2.42 scraping a client_golang exporter", () => {
  it("a range from before the exporter started holds every value it observed, at its buckets' upper bounds", async (ctx) => {
    if (skip) ctx.skip(skip);
    const start = Math.floor(run!.exporterStartedAt) - 2;
    const all = run!.values.phases.flat();
    expectAtBuckets(await report("demo_native_duration_seconds", start), all, nativeUpper, "native");
    expectAtBuckets(await report("demo_classic_duration_seconds_bucket", start), all, classicUpper, "classic");
  }, 30_000);

  it("a range from between the first two phases holds the later two only (the point at its start is the baseline)", async (ctx) => {
    if (skip) ctx.skip(skip);
    // A second before phase 2 was observed and after the first scrape (GAP_S before it).
    const { times, phases } = run!.values;
    const start = Math.floor(times[1]! - 1);
    const later = [...phases[1]!, ...phases[2]!];
    const native = await report("demo_native_duration_seconds", start);
    expect(native.source).toBe("prometheus:demo_native_duration_seconds");
    expectAtBuckets(native, later, nativeUpper, "native");
    expectAtBuckets(await report("demo_classic_duration_seconds_bucket", start), later, classicUpper, "classic");
    // The engine merges across series exactly: a sum over the query's results is the same.
    expectAtBuckets(await report("sum(demo_native_duration_seconds)", start), later, nativeUpper, "sum");
  }, 30_000);
});
