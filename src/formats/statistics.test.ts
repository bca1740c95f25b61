// Files of statistics are refused with what they are, on the line that tells it, whatever their
// name: never read as samples, never "not a recognised format".
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ingest } from "../engine/ingest";
import { generateSamples, locustStats } from "../../tests/support/loadgen-fixtures";
import { STATISTICS_FILES } from "../../tests/support/statistics-fixtures";
import { producerText, readProducer } from "../../tests/support/real-producers";
import { pickFormat } from "./detect";

const samples = generateSamples({ seed: 11, seconds: 20, rate: 40, labels: ["home", "search"], medianMs: 12, sigma: 0.8, failureRate: 0.02 });

describe("statistics, not samples", () => {
  it.each(STATISTICS_FILES)("$name: refused as statistics, naming what it is and its line", async ({ name, write, what, at }) => {
    const text = write(samples);
    const line = text.split("\n").findIndex((l) => at.test(l)) + 1;
    for (const file of [name, "results.txt"]) {
      const r = await ingest(file, [text]);
      expect(r.series).toEqual([]);
      expect(r.problems).toEqual([{ file, line, reason: expect.stringMatching(/^statistics, not samples: /) }]);
      expect(r.problems[0]!.reason).toMatch(what);
      // Gatling's report points to the log it was made from; the others to the load generators' per-request outputs
      expect(r.problems[0]!.reason).toMatch(name === "stats.json" ? /; load the simulation\.log in the same results folder/ : /one line per request/);
    }
  });

  it("the summary tables samples.ts refuses say the same words (Locust *_stats.csv)", async () => {
    const r = await ingest("run_stats.csv", [locustStats(samples)]);
    expect(r.series).toEqual([]);
    expect(r.problems[0]!.reason).toMatch(/^statistics, not samples: a summary table/);
  });

  it("takes no file of samples: each generated load-generator format keeps its reader", () => {
    const heads = [
      "timeStamp,elapsed,label,responseCode\n1,2,a,200\n",
      '{"metric":"http_req_duration","type":"Point","data":{"time":"2026-01-02T03:04:05Z","value":1}}\n',
      "1.5\n2.5\n",
    ];
    for (const h of heads) expect(pickFormat("x.txt", h)?.id).not.toBe("statistics");
  });
});

// What real tools print instead of one line per request, written by the tools themselves
// (fixtures/producers): each refused as statistics, saying what the tool can write instead.
describe("tools' own summaries, refused with what to produce instead", () => {
  const cases: [tool: string, file: string, what: RegExp, instead: RegExp, line: RegExp][] = [
    ["hey", "hey-summary.txt", /hey's summary/, /hey with -o csv/, /^Summary:/],
    ["h2load", "h2load-summary.txt", /h2load's summary/, /--log-file=FILE/, /^finished in/],
    ["pgbench", "pgbench-stdout.txt", /pgbench's output/, /pgbench with --log/, /^transaction type:/],
    ["pgbench", "pgbench_log-agg.4242", /--aggregate-interval log/, /without --aggregate-interval/, /^\d/],
    ["redis-benchmark", "redis-benchmark.csv", /redis-benchmark --csv/, /default output/, /^"test"/],
    ["hyperfine", "hyperfine.csv", /hyperfine's CSV export/, /--export-json/, /^command,/],
    ["siege", "siege-json.txt", /siege's JSON summary/, /json_output = false/, /"transactions":/],
  ];
  it.each(cases)("%s %s", async (tool, file, what, instead, at) => {
    const text = producerText(tool, file);
    const r = await readProducer(tool, file);
    expect(r.series).toEqual([]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.line).toBe(text.split(/\r?\n/).findIndex((l) => at.test(l)) + 1);
    expect(r.problems[0]!.reason).toMatch(/^statistics, not samples: /);
    expect(r.problems[0]!.reason).toMatch(what);
    expect(r.problems[0]!.reason).toMatch(instead);
    // what this tool can write, not the load generators' list
    expect(r.problems[0]!.reason).not.toMatch(/JMeter|Gatling|k6|Vegeta|ghz/);
  });

  it("wrk --latency: refused as statistics, pointing to the wrk-spectrum.lua script the app ships", async () => {
    const r = await readProducer("wrk", "wrk-latency.txt");
    expect(r.series).toEqual([]);
    expect(r.problems).toEqual([{ file: "wrk-latency.txt", line: 6, reason: expect.stringMatching(/^statistics, not samples: wrk --latency output.*wrk-spectrum\.lua/) }]);
    expect(existsSync(new URL("../../public/wrk-spectrum.lua", import.meta.url))).toBe(true);
  });

  it("a Prometheus text exposition is refused, not read as the numbers of its lines", async () => {
    const page = [
      "# HELP http_request_duration_seconds A histogram of the request duration.",
      "# TYPE http_request_duration_seconds histogram",
      'http_request_duration_seconds_bucket{le="0.005"} 24054',
      'http_request_duration_seconds_bucket{le="0.01"} 33444',
      'http_request_duration_seconds_bucket{le="+Inf"} 144320',
      "http_request_duration_seconds_sum 53423",
      "http_request_duration_seconds_count 144320",
    ].join("\n");
    for (const name of ["metrics.txt", "metrics"]) {
      const r = await ingest(name, [page]);
      expect(r.series).toEqual([]);
      expect(r.problems).toEqual([{ file: name, line: 1, reason: expect.stringMatching(/^statistics, not samples: a Prometheus text exposition.*HTTP API's JSON/) }]);
    }
  });

  it("redis-benchmark -q, sysbench without --histogram and sockperf without --full-log are refused too", () => {
    expect(pickFormat("r.txt", "SET: 86956.52 requests per second, p50=0.039 msec\nGET: 90909.09 requests per second, p50=0.039 msec\n")?.id).toBe("statistics");
    const sysbench = producerText("sysbench", "sysbench-histogram.txt").replace(/Latency histogram[\s\S]*?\n \n/, "");
    expect(pickFormat("s.txt", sysbench)?.id).toBe("statistics");
    const sockperf = producerText("sockperf", "sockperf-full-log.csv").split(/packet, txTime/)[0]!;
    expect(pickFormat("s.txt", sockperf)?.id).toBe("statistics");
  });
});
