// Fixture writers for the structured formats whose producers cannot run here (Envoy's Nighthawk
// needs a Bazel build of Envoy), and generated inputs for the fuzzer in the shapes the real
// producers write (fixtures/producers/structured holds their real outputs).
import { FIO_PLAT_NR, fioBinOf, fioBinValue } from "../../src/formats/support/fio-bins";
import type { LoadSample } from "./loadgen-fixtures";
import { fortioJson } from "./producer-fixtures";

/**
 * The Fortio result Nighthawk writes for the same calls (nighthawk_client --output-format fortio):
 * protobuf's JSON mapping makes every 64-bit count a string, and its buckets come from
 * HdrHistogram's percentile iteration: a first bucket Start = End = Min holding one call, and
 * empty buckets ("Count": "0") that repeat the previous End.
 */
export function nighthawkJson(samples: readonly LoadSample[]): string {
  const r = JSON.parse(fortioJson(samples)) as {
    Labels: string;
    RunType?: string;
    DurationHistogram: { Count: number | string; Min: number; Data: { Start: number; End: number; Percent: number; Count: number | string }[] };
    RetCodes: Record<string, number | string>;
  };
  r.Labels = "Nighthawk";
  delete r.RunType;
  const h = r.DurationHistogram;
  const data = h.Data as { Start: number; End: number; Percent: number; Count: number }[];
  const out: { Start: number; End: number; Percent: number; Count: string }[] = [{ Start: h.Min, End: h.Min, Percent: 0, Count: "1" }];
  data.forEach((b, i) => {
    const n = i === 0 ? b.Count - 1 : b.Count;
    out.push({ ...b, Start: i === 0 ? h.Min : b.Start, Count: String(n) });
    out.push({ Start: b.End, End: b.End, Percent: b.Percent, Count: "0" });
  });
  h.Data = out;
  h.Count = String(h.Count);
  for (const k of Object.keys(r.RetCodes)) r.RetCodes[k] = String(r.RetCodes[k]);
  return JSON.stringify(r, null, 1) + "\n";
}

// ---------------------------------------------------------------------------------------------
// Generated inputs in the real producers' shapes (for the fuzzer): each with the count of values
// a reader must find in it.

export interface StructuredText {
  text: string;
  /** Values (I/Os, requests, observations) the file holds. */
  total: number;
}

const directionOf = (s: LoadSample, i: number): number => (s.label === "" ? i % 2 : s.label.length % 3);

/** fio's per-I/O log: ms since the first request, latency ns, direction, block size, priority. */
export function fioLatLog(samples: readonly LoadSample[]): StructuredText {
  const t0 = samples[0]?.startUs ?? 0;
  const lines = samples.map((s, i) => `${Math.floor((s.startUs - t0) / 1000)}, ${s.latencyNs}, ${directionOf(s, i)}, 4096, 0`);
  return { text: lines.join("\n") + "\n", total: samples.length };
}

/** fio's histogram log: per direction and 500 ms, the bins of the I/Os that completed in it. */
export function fioHistLog(samples: readonly LoadSample[], coarseness = 0): StructuredText {
  const t0 = samples[0]?.startUs ?? 0;
  const stride = 1 << coarseness;
  const rows = new Map<string, number[]>();
  samples.forEach((s, i) => {
    const ms = Math.floor((s.startUs - t0) / 1000);
    const key = `${(Math.floor(ms / 500) + 1) * 500}, ${directionOf(s, i) % 3}`;
    let bins = rows.get(key);
    if (!bins) rows.set(key, (bins = new Array<number>(FIO_PLAT_NR / stride).fill(0)));
    bins[Math.floor(fioBinOf(s.latencyNs) / stride)]!++;
  });
  const keys = [...rows.keys()].sort((a, b) => parseInt(a) - parseInt(b) || a.localeCompare(b));
  return { text: keys.map((k) => `${k}, 4096, ${rows.get(k)!.join(", ")}`).join("\n") + "\n", total: samples.length };
}

/** fio's json+ output: one job, read and write, completion-latency bins keyed as fio prints them. */
export function fioJsonPlus(samples: readonly LoadSample[]): StructuredText {
  const dirs = [0, 1].map((d) => samples.filter((s, i) => directionOf(s, i) % 2 === d).map((s) => s.latencyNs));
  const clat = (values: number[]) => {
    const bins: Record<string, number> = {};
    for (const v of values) {
      const k = String(fioBinValue(fioBinOf(v)));
      bins[k] = (bins[k] ?? 0) + 1;
    }
    const n = values.length;
    return { min: n ? Math.min(...values) : 0, max: n ? Math.max(...values) : 0, mean: 0, stddev: 0, N: n, percentile: { "50.000000": 0 }, bins };
  };
  const doc = {
    "fio version": "fio-3.33",
    timestamp: 1796516156,
    jobs: [{ jobname: "job", groupid: 0, error: 0, read: { clat_ns: clat(dirs[0]!) }, write: { clat_ns: clat(dirs[1]!) } }],
  };
  return { text: JSON.stringify(doc, null, 2).replace(/^( *"[^"]+"):/gm, "$1 :") + "\n", total: samples.length };
}

/** Cumulative OTLP JSON lines (the Collector's shape: counts as strings): an explicit-bucket histogram per label, a snapshot a second. */
export function otlpJsonLines(samples: readonly LoadSample[]): StructuredText {
  const bounds = [0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000];
  const t0 = samples[0]?.startUs ?? 0;
  const seconds = samples.length ? Math.floor((samples[samples.length - 1]!.startUs - t0) / 1e6) + 1 : 0;
  const labels = [...new Set(samples.map((s) => s.label))];
  const counts = new Map(labels.map((l) => [l, new Array<number>(bounds.length + 1).fill(0)]));
  const lines: string[] = [];
  let k = 0;
  for (let sec = 1; sec <= seconds; sec++) {
    while (k < samples.length && samples[k]!.startUs - t0 < sec * 1e6) {
      const s = samples[k++]!;
      const ms = s.latencyNs / 1e6;
      const i = bounds.findIndex((b) => ms <= b);
      counts.get(s.label)![i < 0 ? bounds.length : i]!++;
    }
    const ns = (t: number) => `${BigInt(Math.round(t)) * 1000n}`;
    const dataPoints = labels.map((l) => {
      const c = counts.get(l)!;
      return {
        attributes: l ? [{ key: "route", value: { stringValue: l } }] : [],
        startTimeUnixNano: ns(t0),
        timeUnixNano: ns(t0 + sec * 1e6),
        count: String(c.reduce((a, b) => a + b, 0)),
        bucketCounts: c.map(String),
        explicitBounds: bounds,
        max: 3600000,
      };
    });
    lines.push(
      JSON.stringify({
        resourceMetrics: [
          { resource: {}, scopeMetrics: [{ scope: { name: "x" }, metrics: [{ name: "rpc.duration", unit: "ms", histogram: { aggregationTemporality: 2, dataPoints } }] }] },
        ],
      }),
    );
  }
  return { text: lines.join("\n") + "\n", total: k };
}

/** A Prometheus query_range answer of a native histogram (schema 3) per label, a point a second. */
export function prometheusRange(samples: readonly LoadSample[]): StructuredText {
  const t0 = samples[0] ? Math.floor(samples[0].startUs / 1e6) : 0;
  const seconds = samples.length ? Math.floor(samples[samples.length - 1]!.startUs / 1e6) - t0 + 1 : 0;
  const labels = [...new Set(samples.map((s) => s.label))];
  const counts = new Map(labels.map((l) => [l, new Map<number, number>()]));
  const result = labels.map((l) => ({ metric: { __name__: "rpc_duration_seconds", ...(l ? { route: l } : {}) }, histograms: [] as unknown[] }));
  let k = 0;
  for (let sec = 1; sec <= seconds; sec++) {
    while (k < samples.length && Math.floor(samples[k]!.startUs / 1e6) < t0 + sec) {
      const s = samples[k++]!;
      const idx = Math.ceil(Math.log2(s.latencyNs / 1e9) * 8);
      const m = counts.get(s.label)!;
      m.set(idx, (m.get(idx) ?? 0) + 1);
    }
    labels.forEach((l, j) => {
      const m = counts.get(l)!;
      const idxs = [...m.keys()].sort((a, b) => a - b);
      const buckets = idxs.map((i) => [0, String(2 ** ((i - 1) / 8)), String(2 ** (i / 8)), String(m.get(i))]);
      const count = idxs.reduce((a, i) => a + m.get(i)!, 0);
      result[j]!.histograms.push([t0 + sec, { count: String(count), sum: "1", buckets }]);
    });
  }
  return { text: JSON.stringify({ status: "success", data: { resultType: "matrix", result } }) + "\n", total: k };
}

/** JMH SampleTime JSON (-rf json): the samples split over 2 forks × 2 iterations, each binned as JMH's SampleBuffer bins it, in µs. */
export function jmhJson(samples: readonly LoadSample[]): StructuredText {
  const forks: [number, number][][][] = [
    [[], []],
    [[], []],
  ];
  const cells = new Map<string, Map<number, number>>();
  samples.forEach((s, i) => {
    const key = `${i % 2}/${(i >> 1) % 2}`;
    let m = cells.get(key);
    if (!m) cells.set(key, (m = new Map()));
    const bits = s.latencyNs.toString(2).length;
    const b = Math.max(0, bits - 10);
    const low = Math.floor(s.latencyNs / 2 ** b) * 2 ** b;
    m.set(low, (m.get(low) ?? 0) + 1);
  });
  for (const [key, m] of cells) {
    const [f, it] = key.split("/").map(Number) as [number, number];
    forks[f]![it] = [...m.entries()].sort((a, b) => a[0] - b[0]).map(([low, c]) => [low / 1000, c]);
  }
  const doc = [
    {
      jmhVersion: "1.37",
      benchmark: "bench.Generated.call",
      mode: "sample",
      threads: 1,
      forks: 2,
      primaryMetric: { score: 1, scoreError: 0, scorePercentiles: { "50.0": 1 }, scoreUnit: "us/op", rawDataHistogram: forks },
      secondaryMetrics: {},
    },
  ];
  return { text: JSON.stringify(doc, null, 4) + "\n", total: samples.length };
}
