// Valid files of the load generators' and system tools' text formats (hey, h2load, pgbench,
// redis-benchmark, sysbench, cyclictest, sockperf, ping, ioping, hyperfine), written from
// generated samples in each tool's own layout (as in fixtures/producers), with the number of
// requests each holds: the fuzz properties read them whole, in chunks, mutated.
import fc from "fast-check";
import { generateSamples, type LoadSample } from "../support/loadgen-fixtures";
import { mulberry32 } from "../support/queue-sim";

export const TOOL_KINDS = ["hey", "h2load", "pgbench", "redis-benchmark", "sysbench", "cyclictest", "sockperf", "ping", "ioping", "hyperfine"] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export interface ToolFixture {
  kind: string;
  name: string;
  text: string;
  /** Requests in the file that the reader counts (recorded or failed). */
  written: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");

function hey(s: readonly LoadSample[]): ToolFixture {
  const t0 = s[0]?.startUs ?? 0;
  const rows = s.map(
    (x) => `${(x.latencyNs / 1e9).toFixed(4)},0.0001,0.0000,0.0000,${(x.latencyNs / 2e9).toFixed(4)},0.0000,${x.success ? 200 : 503},${((x.startUs - t0) / 1e6).toFixed(4)}`,
  );
  return {
    kind: "hey",
    name: "hey.csv",
    text: ["response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset", ...rows].join("\n") + "\n",
    written: s.length,
  };
}

function h2load(s: readonly LoadSample[]): ToolFixture {
  return {
    kind: "h2load",
    name: "h2load.log",
    text: s.map((x) => `${x.startUs}\t${x.success ? 200 : -1}\t${Math.round(x.latencyNs / 1000)}`).join("\n") + "\n",
    written: s.length,
  };
}

function pgbench(s: readonly LoadSample[], rnd: () => number): ToolFixture {
  const lag = rnd() < 0.5;
  const rows = s.map((x, i) => {
    const end = x.startUs + Math.round(x.latencyNs / 1000);
    const time = x.success ? String(Math.round(x.latencyNs / 1000)) : rnd() < 0.5 ? "skipped" : "failed";
    return `${i % 4} ${i + 1} ${time} 0 ${Math.floor(end / 1e6)} ${end % 1e6}${lag ? ` ${Math.floor(rnd() * 900)}` : ""}`;
  });
  return { kind: "pgbench", name: "pgbench_log.4242.1", text: rows.join("\n") + "\n", written: s.length };
}

function redisBenchmark(s: readonly LoadSample[]): ToolFixture {
  const byLabel = new Map<string, number[]>();
  for (const x of s) if (x.success) (byLabel.get(x.label || "SET") ?? byLabel.set(x.label || "SET", []).get(x.label || "SET")!).push(Math.max(1, Math.round(x.latencyNs / 1000)));
  let text = "";
  let written = 0;
  for (const [label, us] of byLabel) {
    us.sort((a, b) => a - b);
    written += us.length;
    text += `\r====== ${label.replace(/=/g, "")} ======\n  ${us.length} requests completed in 0.10 seconds\n\nLatency by percentile distribution:\n`;
    let c = 0;
    for (let i = 0; i < us.length; i++) {
      c++;
      if (i + 1 < us.length && us[i + 1] === us[i]) continue;
      text += `${((100 * c) / us.length).toFixed(3)}% <= ${(us[i]! / 1000).toFixed(3)} milliseconds (cumulative count ${c})\n`;
    }
    text += `\nSummary:\n  latency summary (msec):\n          avg       min       p50       p95       p99       max\n        0.054     ${(us[0]! / 1000).toFixed(3)}     0.047     0.103     0.143     ${(us[us.length - 1]! / 1000).toFixed(3)}\n`;
  }
  return { kind: "redis-benchmark", name: "redis-benchmark.txt", text, written };
}

function sysbench(s: readonly LoadSample[]): ToolFixture {
  const m = 1023 / (Math.log(100000) - Math.log(0.001));
  const cells = new Map<number, number>();
  let written = 0;
  for (const x of s) {
    if (!x.success) continue;
    const i = Math.min(1023, Math.max(0, Math.floor((Math.log(x.latencyNs / 1e6) - Math.log(0.001)) * m + 0.5)));
    cells.set(i, (cells.get(i) ?? 0) + 1);
    written++;
  }
  const rows = [...cells.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([i, n]) =>
        `${Math.exp(i / m + Math.log(0.001))
          .toFixed(3)
          .padStart(12)} |${"*".repeat(Math.min(40, n))} ${n}`,
    );
  const text =
    [
      "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)",
      "",
      "Threads started!",
      "",
      "Latency histogram (values are in milliseconds)",
      "       value  ------------- distribution ------------- count",
      ...rows,
      " ",
      "General statistics:",
      `    total number of events:              ${written}`,
    ].join("\n") + "\n";
  return { kind: "sysbench", name: "sysbench.txt", text, written };
}

function cyclictest(s: readonly LoadSample[], rnd: () => number): ToolFixture {
  const size = 20 + Math.floor(rnd() * 200);
  const us = s.filter((x) => x.success).map((x) => Math.floor(x.latencyNs / 1000));
  const counts = new Array<number>(size).fill(0);
  let over = 0;
  for (const v of us) {
    if (v < size) counts[v]!++;
    else over++;
  }
  const max = us.length ? Math.max(...us) : 0;
  const min = us.length ? Math.min(...us) : 0;
  const text = [
    "# /dev/cpu_dma_latency set to 0us",
    "# Histogram",
    ...counts.map((c, i) => `${pad(i, 6)} ${pad(c, 6)}`),
    `# Total: ${pad(us.length - over, 9)}`,
    `# Min Latencies: ${pad(min, 5)}`,
    `# Avg Latencies: ${pad(min, 5)}`,
    `# Max Latencies: ${pad(max, 5)}`,
    `# Histogram Overflows: ${pad(over, 5)}`,
    "# Histogram Overflow at cycle number:",
    "# Thread 0: 00001",
  ].join("\n");
  return { kind: "cyclictest", name: "cyclictest.txt", text: text + "\n", written: us.length };
}

function sockperf(s: readonly LoadSample[]): ToolFixture {
  const t0 = s[0]?.startUs ?? 0;
  const rows = s.map((x, i) => {
    const tx = 2 + (x.startUs - t0) / 1e6;
    const rx = tx + (2 * x.latencyNs) / 1e9;
    return `${i}, ${tx.toFixed(9)}, ${rx.toFixed(9)}, ${(x.latencyNs / 1000).toFixed(3)}`;
  });
  const head = [
    "sockperf: \u001b[2;35m== version #3.7-no.git == \u001b[0m",
    `sockperf: \u001b[2;35mTotal ${s.length} observations\u001b[0m; each percentile contains 1 observations`,
    "sockperf: ---> percentile 50.000 =   25.973",
    "------------------------------",
  ];
  return {
    kind: "sockperf",
    name: "sockperf.csv",
    text: [...head, "packet, txTime(sec), rxTime(sec), latency(usec)", ...rows, "------------------------------"].join("\n") + "\n",
    written: s.length,
  };
}

/** ping's rtt as iputils prints it: fewer decimals as it grows. */
function pingTime(ns: number): string {
  const ms = ns / 1e6;
  return ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

function ping(s: readonly LoadSample[], rnd: () => number): ToolFixture {
  const stamped = rnd() < 0.5;
  const rows = s.map((x, i) => {
    const at = stamped ? `[${(x.startUs / 1e6).toFixed(6)}] ` : "";
    return x.success ? `${at}64 bytes from 127.0.0.1: icmp_seq=${i + 1} ttl=64 time=${pingTime(x.latencyNs)} ms` : `${at}no answer yet for icmp_seq=${i + 1}`;
  });
  const text = [
    "PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.",
    ...rows,
    "",
    "--- 127.0.0.1 ping statistics ---",
    `${s.length} packets transmitted, ${s.length} received, 0% packet loss, time 100ms`,
    "rtt min/avg/max/mdev = 0.035/0.065/0.255/0.071 ms",
  ].join("\n");
  return { kind: "ping", name: "ping.txt", text: text + "\n", written: s.length };
}

/** ioping's time as it prints it: the unit changes as it grows. */
function iopingTime(ns: number): string {
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} us`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

function ioping(s: readonly LoadSample[]): ToolFixture {
  const ok = s.filter((x) => x.success);
  const rows = ok.map((x, i) => `4 KiB <<< . (ext4 /dev/vda 252.0 GiB): request=${i + 1} time=${iopingTime(x.latencyNs)}${i === 0 ? " (warmup)" : ""}`);
  const text = [
    ...rows,
    "",
    "--- . (ext4 /dev/vda 252.0 GiB) ioping statistics ---",
    `${Math.max(0, ok.length - 1)} requests completed in 1.09 ms, 28 KiB read, 6.42 k iops, 25.1 MiB/s`,
    "min/avg/max/mdev = 142.4 us / 155.7 us / 168.2 us / 8.84 us",
  ].join("\n");
  return { kind: "ioping", name: "ioping.txt", text: text + "\n", written: Math.max(0, ok.length - 1) };
}

function hyperfine(s: readonly LoadSample[]): ToolFixture {
  const byLabel = new Map<string, number[]>();
  for (const x of s) if (x.success) (byLabel.get(x.label) ?? byLabel.set(x.label, []).get(x.label)!).push(x.latencyNs / 1e9);
  const results = [...byLabel].map(([command, times]) => ({
    command: command || "sleep 0.01",
    mean: 0.01,
    stddev: 0.001,
    median: 0.01,
    user: 0,
    system: 0,
    min: Math.min(...times),
    max: Math.max(...times),
    times,
    exit_codes: times.map(() => 0),
  }));
  return { kind: "hyperfine", name: "hyperfine.json", text: JSON.stringify({ results }, null, 2) + "\n", written: results.reduce((a, r) => a + r.times.length, 0) };
}

export function toolFixture(kind: ToolKind, seed: number): ToolFixture {
  const rnd = mulberry32(seed);
  const samples = generateSamples({
    seed,
    seconds: 1 + Math.floor(rnd() * 4),
    rate: 5 + Math.floor(rnd() * 60),
    labels: rnd() < 0.5 ? [""] : ["GET", "SET", "LPUSH"].slice(0, 1 + Math.floor(rnd() * 3)),
    medianMs: 0.05 + rnd() * 20,
    sigma: 0.2 + rnd(),
    failureRate: rnd() < 0.5 ? 0 : rnd() * 0.3,
  });
  switch (kind) {
    case "hey":
      return hey(samples);
    case "h2load":
      return h2load(samples);
    case "pgbench":
      return pgbench(samples, rnd);
    case "redis-benchmark":
      return redisBenchmark(samples);
    case "sysbench":
      return sysbench(samples);
    case "cyclictest":
      return cyclictest(samples, rnd);
    case "sockperf":
      return sockperf(samples);
    case "ping":
      return ping(samples, rnd);
    case "ioping":
      return ioping(samples);
    case "hyperfine":
      return hyperfine(samples);
  }
}

export const toolFixtureArb: fc.Arbitrary<ToolFixture> = fc.tuple(fc.constantFrom(...TOOL_KINDS), fc.integer({ min: 1, max: 1e6 })).map(([k, s]) => toolFixture(k, s));
