import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DEFAULT_CONFIG, compareSeries, formatThroughput, identityFromName, naturalCompare, parseThroughput, type SeriesIdentity, type SeriesOrderKey, uniqueName } from "./naming";

type Row = [fileName: string, tag: string, expected: SeriesIdentity];
const id = (config: string, throughput: number | null, kind: SeriesIdentity["kind"] = ""): SeriesIdentity => ({
  config,
  throughput,
  kind,
});

const TABLE: Row[] = [
  // The brief's examples.
  ["sysA_40k.response.hlog", "", id("sysA", 40000, "response")],
  ["A-40000.hlog", "", id("A", 40000)],
  ["B_12Krps.hgrm", "", id("B", 12000)],
  ["run-2k-ops.hlog", "", id("run", 2000)],
  // HdrHistogram's GoogleChartsExample: corrected and coordinated-omission runs group apart.
  ["12Krps_CO.hgrm", "", id("CO", 12000)],
  ["16Krps_CO.hgrm", "", id("CO", 16000)],
  ["12Krps.hgrm", "", id(DEFAULT_CONFIG, 12000)],
  ["16Krps.hgrm", "", id(DEFAULT_CONFIG, 16000)],
  // cassandra-stress: the tag decides the kind, its op name joins the configuration.
  ["cs-40k.hlog", "WRITE-rt", id("cs/WRITE", 40000, "response")],
  ["cs-40k.hlog", "WRITE-st", id("cs/WRITE", 40000, "service")],
  ["cs-80k.hlog", "WRITE-rt", id("cs/WRITE", 80000, "response")],
  ["cs-80k.hlog", "READ-rt", id("cs/READ", 80000, "response")],
  ["40k.hlog", "WRITE-st", id("WRITE", 40000, "service")],
  ["sysA_40k.response.hlog", "WRITE-st", id("sysA/WRITE", 40000, "service")],
  // Kind words, whole tokens only.
  ["sysA_40k.service.hlog", "", id("sysA", 40000, "service")],
  ["sysA_40k_resp.hlog", "", id("sysA", 40000, "response")],
  ["sysA_40k_svc.hlog", "", id("sysA", 40000, "service")],
  ["sysA-40k-latency.hlog", "", id("sysA", 40000, "response")],
  ["sysA_response_time_40k.hlog", "", id("sysA", 40000, "response")],
  ["sysA_serviceTime_40k.hlog", "", id("sysA", 40000, "service")],
  ["start_40k.hlog", "", id("start", 40000)],
  ["restful_40k.hlog", "", id("restful", 40000)],
  ["first-40k.hlog", "", id("first", 40000)],
  ["svcmesh_40k.hlog", "", id("svcmesh", 40000)],
  // Rates as people write them.
  ["sysA_rate1000.hlog", "", id("sysA", 1000)],
  ["sysA_rate_1000.hlog", "", id("sysA", 1000)],
  ["sysA-rate=1000.hlog", "", id("sysA", 1000)],
  ["10000rps.hlog", "", id(DEFAULT_CONFIG, 10000)],
  ["sysA_10000rps.hlog", "", id("sysA", 10000)],
  ["sysA_10000_rps.hlog", "", id("sysA", 10000)],
  ["sysA_5000qps.hgrm", "", id("sysA", 5000)],
  ["sysA_40kqps.hgrm", "", id("sysA", 40000)],
  ["sysA_2500tps.hgrm", "", id("sysA", 2500)],
  ["sysA_40kops.hlog", "", id("sysA", 40000)],
  ["sysA_1.2Mops.hlog", "", id("sysA", 1.2e6)],
  ["sysA_1.2M.hlog", "", id("sysA", 1.2e6)],
  ["sysA_12.5k.hlog", "", id("sysA", 12500)],
  ["sysA_1.2mops.hlog", "", id("sysA", 1.2e6)],
  ["sysA_1000mps.hlog", "", id("sysA", 1000)],
  ["sysA_throttle40k.hlog", "", id("sysA", 40000)],
  ["sysA_target-40000.hlog", "", id("sysA", 40000)],
  // wrk2: -t threads, -c connections, -d duration are configuration; -R is the rate.
  ["wrk2_t4_c100_R40000_d60s.hlog", "", id("wrk2_t4_c100_d60s", 40000)],
  ["wrk2_t4_c100_R40k.txt", "", id("wrk2_t4_c100", 40000)],
  ["wrk2-latency-output.txt", "", id("wrk2-output", null, "response")],
  // jHiccup and HdrHistogram's own test files: versions and dates are not rates.
  ["jHiccup-2.0.7S.logV2.hlog", "", id("jHiccup-2.0.7S", null)],
  ["jHiccup-2.0.1.logV0.hlog", "", id("jHiccup-2.0.1", null)],
  ["jHiccup-no-header-2.0.7S.logV2.hlog", "", id("jHiccup-no-header-2.0.7S", null)],
  ["tagged-Log.logV2.hlog", "", id("tagged-Log", null)],
  ["tagged-Log.logV2.hlog", "A", id("tagged-Log/A", null)],
  ["hiccup.200722.1427.14022.hlog", "", id("hiccup.200722.1427.14022", null)],
  ["bug-whitespace.hlog", "", id("bug-whitespace", null)],
  ["sysA-v1.2.hlog", "", id("sysA-v1.2", null)],
  ["sysA_v1.2_40k.hlog", "", id("sysA_v1.2", 40000)],
  ["sysA-1.8.0_40k.hlog", "", id("sysA-1.8.0", 40000)],
  // Dates, times and hosts: never a throughput, and not part of the configuration.
  ["sysA_2026-11-01.hlog", "", id("sysA", null)],
  ["sysA_40k_2026-11-01.hlog", "", id("sysA", 40000)],
  ["sysA_2026-11-01_40k.hlog", "", id("sysA", 40000)],
  ["sysA_20261101_1430_40k.hlog", "", id("sysA", 40000)],
  ["sysA_2026-11-01T12-30-00_40k.hlog", "", id("sysA", 40000)],
  ["run_20261101_1000rps.hlog", "", id(DEFAULT_CONFIG, 1000)],
  ["host-10.0.0.1.hlog", "", id("host-10.0.0.1", null)],
  ["host-10.0.0.1_40k.hlog", "", id("host-10.0.0.1", 40000)],
  ["ip-172-31-5-200_40k.hlog", "", id("ip-172-31-5-200", 40000)],
  ["ip-172-31-5-200.hlog", "", id("ip-172-31-5-200", null)],
  ["localhost:8080.hlog", "", id("localhost:8080", null)],
  // Numbers that are not loads: durations, sizes, counts, ports, pids, epochs.
  ["sysA_5m_40k.hlog", "", id("sysA_5m", 40000)],
  ["sysA_500ms.hlog", "", id("sysA_500ms", null)],
  ["sysA_64kb.hlog", "", id("sysA_64kb", null)],
  ["sysA-9042.hlog", "", id("sysA-9042", null)],
  ["sysA-14022.hlog", "", id("sysA-14022", null)],
  ["sysA-1700000000.hlog", "", id("sysA-1700000000", null)],
  ["sysA-3.hlog", "", id("sysA-3", null)],
  ["sysA-r2.hlog", "", id("sysA-r2", null)],
  ["sysA-R2.hlog", "", id("sysA-R2", null)],
  ["sysA-100ps.hlog", "", id("sysA-100ps", null)],
  // Explicit beats implicit: a rate word beats a multiplier beats a bare number beats a year.
  ["sysA_512_40k.hlog", "", id("sysA_512", 40000)],
  ["sysA_40k_60000rps.hlog", "", id("sysA_40k", 60000)],
  ["sysA_40k_64k.hlog", "", id("sysA_64k", 40000)],
  ["sysA_400_800.hlog", "", id("sysA_800", 400)],
  ["bench-2000.hlog", "", id("bench", 2000)],
  ["bench-2020-40000.hlog", "", id("bench-2020", 40000)],
  // Repeated runs at one rate share a configuration.
  ["sysA_40k_run1.hlog", "", id("sysA", 40000)],
  ["sysA_40k_run-2.hlog", "", id("sysA", 40000)],
  // Paths and extensions.
  ["/data/bench/sysA_40k.hlog", "", id("sysA", 40000)],
  ["C:\\bench\\sysA_40k.hlog", "", id("sysA", 40000)],
  ["results/sysB/12Krps.hgrm", "", id("sysB", 12000)],
  ["results/40k/12Krps.hgrm", "", id(DEFAULT_CONFIG, 12000)],
  ["sysA_40k.hlog.gz", "", id("sysA", 40000)],
  ["sysA_40k.txt", "", id("sysA", 40000)],
  ["latency.hlog", "", id("latency", null, "response")],
  ["rt.hlog", "", id("rt", null, "response")],
  // The throughput may come from a label when the file name has none.
  ["sysA.hlog", "40k/s", id("sysA", 40000)],
  ["sysA.hlog", "WRITE 40k/s rt", id("sysA/WRITE", 40000, "response")],
  ["sysA_20k.hlog", "40k", id("sysA/40k", 20000)],
  // A number after a word naming a machine, a process or a count of clients numbers that thing.
  ["host-100.hlog", "", id("host-100", null)],
  ["node_200.hlog", "", id("node_200", null)],
  ["pod-300_40k.hlog", "", id("pod-300", 40000)],
  ["sysA_threads-400.hlog", "", id("sysA_threads-400", null)],
  ["sysA_users_10k.hlog", "", id("sysA_users_10k", null)],
  ["host-100_5000rps.hlog", "", id("host-100", 5000)],
  ["host-100_rate-800.hlog", "", id("host-100", 800)],
  ["host-100_R800.hlog", "", id("host-100", 800)],
  ["sysA.hlog", "host-100", id("sysA/host-100", null)],
  ["sysA.hlog", "worker 300", id("sysA/worker 300", null)],
];

/** A request label or a metric's labels: a throughput only where a rate word says so. */
const LABELS: Row[] = [
  ["fleet.json", 'instance="host-100"', id("fleet", null)],
  ["fleet.json", 'instance="web-300"', id("fleet", null)],
  ["simulation.log", "GET /page 200", id("simulation", null)],
  ["results.csv", "Request 500", id("results", null)],
  ["results.csv", "Checkout 40k", id("results", null)],
  ["results.csv", "Checkout 800rps", id("results", 800)],
  ["results.csv", "Checkout 100 req/s", id("results", 100)],
  ["results.csv", "Checkout rate=100", id("results", 100)],
  ["results.csv", "Checkout 100/s", id("results", 100)],
  ["results.csv", "Checkout 100ops", id("results", 100)],
  ["results.csv", "wrk2 -R100", id("results", 100)],
  ["sysA_40k.csv", "Request 500", id("sysA", 40000)],
  // JMeter's results and k6's line-per-point JSON by the extensions their users give them.
  ["results.jtl", "Checkout 800rps", id("results", 800)],
  ["run_40k.jtl", "Checkout", id("run", 40000)],
  ["k6/out.ndjson", "http_req_duration", id("out", null)],
  ["k6/out.jsonl", "http_req_duration", id("out", null)],
];

describe("identityFromName", () => {
  it.each(TABLE)("%s [%s]", (fileName, tag, expected) => {
    expect(identityFromName(fileName, tag)).toEqual(expected);
  });

  it.each(LABELS)("%s, label %s", (fileName, tag, expected) => {
    expect(identityFromName(fileName, tag, true)).toEqual(expected);
  });

  it("a fleet of hosts keeps the order of its names: no host's number read as its throughput", () => {
    const keys = ["host-99", "host-100", "host-7", "host-250"].map((h): SeriesOrderKey => {
      const { config, throughput } = identityFromName("fleet.json", `instance="${h}"`, true);
      return { config, throughput, name: `fleet [${h}]` };
    });
    expect(keys.every((k) => k.throughput === null)).toBe(true);
    expect([...keys].sort(compareSeries).map((k) => k.name)).toEqual(["fleet [host-7]", "fleet [host-99]", "fleet [host-100]", "fleet [host-250]"]);
  });

  it("groups the runs of one configuration across throughputs", () => {
    const configs = (names: string[]) => new Set(names.map((n) => identityFromName(n, "").config));
    expect(configs(["12Krps_CO.hgrm", "16Krps_CO.hgrm"]).size).toBe(1);
    expect(configs(["12Krps.hgrm", "16Krps.hgrm"]).size).toBe(1);
    expect(configs(["12Krps.hgrm", "12Krps_CO.hgrm"]).size).toBe(2);
    expect(configs(["sysA_10k_2026-11-01.hlog", "sysA_20k_2026-11-02.hlog", "sysA_30k_run3.hlog"]).size).toBe(1);
  });

  it("never returns an empty configuration", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, tag) => {
        const r = identityFromName(name, tag);
        expect(r.config.length).toBeGreaterThan(0);
        if (r.throughput !== null) expect(r.throughput).toBeGreaterThan(0);
      }),
    );
  });
});

describe("formatThroughput", () => {
  it.each([
    [40000, "40k/s"],
    [12500, "12.5k/s"],
    [1.2e6, "1.2M/s"],
    [800, "800/s"],
    [1000, "1k/s"],
    [999, "999/s"],
    [999999, "1M/s"],
    [12345, "12.35k/s"],
    [2.5e9, "2.5G/s"],
    [0.5, "0.5/s"],
    [0, "0/s"],
  ])("%d → %s", (v, s) => {
    expect(formatThroughput(v)).toBe(s);
  });
});

describe("parseThroughput", () => {
  it.each([
    ["40k", 40000],
    ["40000", 40000],
    ["12.5k", 12500],
    ["1.2M", 1.2e6],
    ["1.2m", 1.2e6],
    ["40k/s", 40000],
    ["40 kops", 40000],
    ["40 kops/s", 40000],
    ["40K ops/s", 40000],
    [" 40 k ", 40000],
    ["40,000", 40000],
    ["40_000", 40000],
    ["10000rps", 10000],
    ["5000 qps", 5000],
    ["800/s", 800],
    ["800 per sec", 800],
    ["2.5G/s", 2.5e9],
    [".5k", 500],
  ])("%j → %d", (text, v) => {
    expect(parseThroughput(text)).toBe(v);
  });

  it.each(["", "abc", "0", "0k", "-40k", "40 ms", "40kb", "1,5k", "40k40", "k", "NaN", "Infinity", "100ps"])("%j → null", (text) => {
    expect(parseThroughput(text)).toBeNull();
  });

  it("reads back what formatThroughput writes, to its 4 significant digits", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1e12, noNaN: true }), (v) => {
        const back = parseThroughput(formatThroughput(v));
        expect(back).not.toBeNull();
        expect(Math.abs(back! - v) / v).toBeLessThan(5e-4);
      }),
    );
  });
});

describe("the order series are listed in", () => {
  const key = (file: string): SeriesOrderKey => {
    const { config, throughput } = identityFromName(file, "");
    return { config, throughput, name: file.replace(/\.hlog$/, "") };
  };

  it("a sweep of 2 configurations × 8 throughputs: by configuration, then throughput as a number", () => {
    const rates = ["1k", "2k", "5k", "10k", "20k", "40k", "80k", "160k"];
    const files = ["sysB", "sysA"].flatMap((c) => rates.map((r) => `${c}_${r}.hlog`));
    // the order a file picker hands them over in (string order)
    const picked = [...files].sort();
    expect(picked.slice(0, 4)).toEqual(["sysA_10k.hlog", "sysA_160k.hlog", "sysA_1k.hlog", "sysA_20k.hlog"]);
    const ordered = picked
      .map(key)
      .sort(compareSeries)
      .map((k) => k.name);
    expect(ordered).toEqual(["sysA", "sysB"].flatMap((c) => rates.map((r) => `${c}_${r}`)));
  });

  it("unknown throughput last, then by name; response before service at one throughput", () => {
    const keys: SeriesOrderKey[] = [
      { config: "A", throughput: null, name: "A notes" },
      { config: "A", throughput: 40000, name: "A_40k.service" },
      { config: "A", throughput: 40000, name: "A_40k.response" },
      { config: "A", throughput: 8000, name: "A_8k" },
      { config: "A", throughput: null, name: "A extra" },
    ];
    expect([...keys].sort(compareSeries).map((k) => k.name)).toEqual(["A_8k", "A_40k.response", "A_40k.service", "A extra", "A notes"]);
  });

  it("natural order of text: digit runs as numbers, case-blind, the same for any input order", () => {
    expect(["sys10", "sys2", "Sys1", "sys02b", "sys2a"].sort(naturalCompare)).toEqual(["Sys1", "sys2", "sys2a", "sys02b", "sys10"]);
    expect(naturalCompare("a99999999999999999999", "a100000000000000000000")).toBeLessThan(0);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            config: fc.constantFrom("a", "B", "a2", "a10", ""),
            throughput: fc.option(fc.constantFrom(500, 2000, 10000, 2e4), { nil: null }),
            name: fc.string({ maxLength: 6 }),
          }),
          { maxLength: 12 },
        ),
        (ks) => {
          const sorted = [...ks].sort(compareSeries);
          // a total order: sorting the reverse gives the same keys in the same order
          expect(
            [...ks]
              .reverse()
              .sort(compareSeries)
              .map((k) => JSON.stringify(k)),
          ).toEqual(sorted.map((k) => JSON.stringify(k)));
          for (let i = 1; i < sorted.length; i++) {
            const [p, q] = [sorted[i - 1]!, sorted[i]!];
            expect(naturalCompare(p.config, q.config)).toBeLessThanOrEqual(0);
            if (p.config === q.config && q.throughput !== null) expect(p.throughput !== null && p.throughput <= q.throughput).toBe(true);
          }
        },
      ),
    );
  });
});

describe("names at scale", () => {
  it("a load generator's labels are one configuration, not one each", () => {
    const home = identityFromName("mysim-20261101/simulation.log", "Home", true);
    const doc = identityFromName("mysim-20261101/simulation.log", "Get document with breadcrumb", true);
    expect(home.config).toBe(doc.config);
    expect(home.config).toBe("simulation");
    // An interval log's Tag= still names a configuration (cassandra-stress ops, tags A and B).
    expect(identityFromName("tagged-Log.logV2.hlog", "A").config).toBe("tagged-Log/A");
  });

  it("files with the same stem get names of their own: the parent folder, else a number", () => {
    const taken = new Set(["latency"]);
    expect(uniqueName("latency", "run2/latency.hlog", "", taken)).toBe("latency (run2)");
    expect(uniqueName("latency", "latency.hlog", "", taken)).toBe("latency (2)");
    expect(uniqueName("latency", "latency.hlog", "", new Set(["latency", "latency (2)"]))).toBe("latency (3)");
    expect(uniqueName("out [Home]", "b/out.jtl", "Home", new Set(["out [Home]"]))).toBe("out (b) [Home]");
    expect(uniqueName("fresh", "a/fresh.hlog", "", taken)).toBe("fresh");
  });
});
