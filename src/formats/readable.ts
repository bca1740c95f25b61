// What the app reads, in words: for the message about a file no format takes, and for the
// page's first view. A module of its own, with no reader in it, so the page can show the list
// without loading the readers (they run in the engine worker).

/** Load generators' and system tools' text outputs (TOOL_READERS in detect.ts). */
const TOOL_READABLE =
  "hey -o csv, h2load --log-file, pgbench --log, redis-benchmark output, sysbench --histogram output, cyclictest -h output, sockperf --full-log, ping or ioping output, hyperfine --export-json";

/** Benchmarks, storage and telemetry (BENCHMARK_READERS in detect.ts). */
const BENCHMARK_READABLE =
  "fio --output-format=json+ output, a fio histogram or per-I/O latency log, OpenTelemetry OTLP JSON metrics, a saved Prometheus query or query_range answer (JSON), JMH SampleTime results (-rf json)";

export const READABLE_FORMATS =
  "an HdrHistogram interval log (.hlog) or percentile distribution (.hgrm), wrk2 --latency output, plain values one per line, " +
  "a CSV/TSV table of samples, JMeter results (CSV or XML .jtl), a Gatling simulation.log (text, or the binary log of Gatling 3.13 and later), k6 results (JSON or CSV), Vegeta results (CSV or JSON), a ghz JSON report, a Fortio or Nighthawk JSON result, siege -v output, " +
  TOOL_READABLE +
  ", " +
  BENCHMARK_READABLE;
