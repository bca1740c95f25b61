// report --prometheus against a real server: Debian's Prometheus (native histograms enabled, a
// temporary TSDB, loopback only) scrapes every second the exporter in
// scripts/producers/prometheus-exporter (Go, client_golang), which observes three phases of known
// values into a native and a classic histogram and writes them down with their times. Every
// reported percentile must be the upper bound of the bucket that holds the true value at its
// rank among the values observed in the range: for the native histogram (schema 3, from its
// bucket factor 1.1) 2^(k/8) s, for the classic one the bound itself. Skipped, saying why, where
// prometheus or go is missing or the exporter does not build.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./main";

const EXPORTER = path.resolve(__dirname, "../../scripts/producers/prometheus-exporter");
const GAP_S = 3;
const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HDR = 1 + 1 / 1024;

function which(cmd: string, extra: string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(":"), ...extra]) {
    const f = path.join(dir, cmd);
    if (dir && existsSync(f)) return f;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await sleep(200);
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

interface Values {
  phases: number[][];
  times: number[];
}

const dir = mkdtempSync(path.join(tmpdir(), "hdr-prom-real-"));
const children: ChildProcess[] = [];
let skip: string | null = null;
let api = "";
let values: Values = { phases: [], times: [] };
let spawnedAt = 0;
let endAt = 0;

beforeAll(async () => {
  const prometheus = which("prometheus");
  const go = which("go", ["/usr/local/go/bin"]);
  if (!prometheus || !go) {
    skip = `${prometheus ? "" : "prometheus "}${go ? "" : "go "}not installed (apt-get install -y prometheus golang)`;
    return;
  }
  const exe = path.join(dir, "exporter");
  const built = spawnSync(go, ["build", "-o", exe, "."], { cwd: EXPORTER, env: { ...process.env, GOFLAGS: "-mod=mod" }, encoding: "utf8", timeout: 80_000 });
  if (built.status !== 0) {
    skip = `the exporter did not build (go build: ${(built.stderr || built.error?.message || "").trim().split("\n").slice(-3).join(" ")})`;
    return;
  }
  const [promPort, expPort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, "prometheus.yml"),
    `global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n  - job_name: demo\n    static_configs: [{targets: ["127.0.0.1:${expPort}"]}]\n`,
  );
  const p = spawn(
    prometheus,
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
      "--enable-feature=native-histograms",
    ],
    { stdio: "ignore" },
  );
  children.push(p);
  api = `http://127.0.0.1:${promPort}`;
  try {
    await until(
      "prometheus ready",
      () =>
        fetch(`${api}/-/ready`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
    );
  } catch (e) {
    // The machine's, not the code's: said, and the tests skip.
    skip = `prometheus did not start (${(e as Error).message})`;
    return;
  }
  spawnedAt = Date.now() / 1000;
  const valuesFile = path.join(dir, "values.json");
  children.push(spawn(exe, ["-listen", `127.0.0.1:${expPort}`, "-values", valuesFile, "-gap", String(GAP_S)], { stdio: "ignore" }));
  try {
    await until(
      "the exporter's three phases",
      () => {
        try {
          values = JSON.parse(readFileSync(valuesFile, "utf8")) as Values;
          return values.phases.length === 3;
        } catch {
          return false;
        }
      },
      40_000,
    );
  } catch (e) {
    skip = `the exporter was not scraped as expected (${(e as Error).message})`;
    return;
  }
  // Two scrapes after the last phase, so the range's end holds it.
  await sleep(2500);
  endAt = Math.floor(Date.now() / 1000);
}, 180_000);

afterAll(() => {
  for (const c of children) c.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The value at the rank HdrHistogram reads a percentile at. */
function atRank(vs: readonly number[], p: number): number {
  const sorted = [...vs].sort((a, b) => a - b);
  if (p >= 100) return sorted[sorted.length - 1]!;
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9)) - 1]!;
}

/** Schema 3's bucket (2^((k−1)/8), 2^(k/8)] holding v: its upper bound. */
const nativeUpper = (v: number) => 2 ** (Math.ceil(8 * Math.log2(v) - 1e-9) / 8);
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
  const code = await main(["report", "--json", "--prometheus", api, "--query", query, "--start", String(start), "--end", String(endAt)], {
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
    const start = Math.floor(spawnedAt) - 2;
    const all = values.phases.flat();
    expectAtBuckets(await report("demo_native_duration_seconds", start), all, nativeUpper, "native");
    expectAtBuckets(await report("demo_classic_duration_seconds_bucket", start), all, classicUpper, "classic");
  }, 30_000);

  it("a range from between the first two phases holds the later two only (the point at its start is the baseline)", async (ctx) => {
    if (skip) ctx.skip(skip);
    // A second before phase 2 was observed and after the first scrape (GAP_S before it).
    const start = Math.floor(values.times[1]! - 1);
    const later = [...values.phases[1]!, ...values.phases[2]!];
    const native = await report("demo_native_duration_seconds", start);
    expect(native.source).toBe("prometheus:demo_native_duration_seconds");
    expectAtBuckets(native, later, nativeUpper, "native");
    expectAtBuckets(await report("demo_classic_duration_seconds_bucket", start), later, classicUpper, "classic");
    // The engine merges across series exactly: a sum over the query's results is the same.
    expectAtBuckets(await report("sum(demo_native_duration_seconds)", start), later, nativeUpper, "sum");
  }, 30_000);
});
