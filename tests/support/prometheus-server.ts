// A real Prometheus for tests: Debian's prometheus (native histograms enabled, a temporary TSDB,
// loopback only) scraping every second the exporter in scripts/producers/prometheus-exporter (Go,
// client_golang), which observes three phases of known values into a native and a classic
// histogram and writes them down with their times. Used by the command line's test and the
// page's e2e alike; where prometheus or go is missing, or the exporter does not build, it says
// why instead, and the tests skip with that reason.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const EXPORTER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../scripts/producers/prometheus-exporter");

/** What the exporter observed: the values of each phase (seconds) and when each phase was observed (epoch seconds). */
export interface ExporterValues {
  phases: number[][];
  times: number[];
}

export interface PrometheusRun {
  /** The server's address, before /api/v1/. */
  api: string;
  values: ExporterValues;
  /** When the exporter was started, epoch seconds: a range from before it holds every value. */
  exporterStartedAt: number;
  /** A whole second two scrapes after the last phase: a range ending here holds it. */
  endAt: number;
  /** Stops both processes and removes the temporary directory. */
  stop(): void;
}

export interface PrometheusOptions {
  /** Seconds between the exporter's phases. */
  gapSeconds: number;
  /** The page's origin, allowed by --web.cors.origin (for a page that asks the server itself). */
  corsOrigin?: string;
}

function which(cmd: string, extra: string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? "").split(":"), ...extra]) if (dir && existsSync(path.join(dir, cmd))) return path.join(dir, cmd);
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

async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return true;
    await sleep(200);
  }
  return false;
}

/**
 * Builds the exporter, starts Prometheus and waits until it is ready, then the exporter, and
 * waits until its three phases are observed and scraped. Either the running pair, or the reason
 * it could not run here (the machine's, not the code's: the caller skips with it).
 */
export async function startPrometheus(o: PrometheusOptions): Promise<PrometheusRun | { skip: string }> {
  const prometheus = which("prometheus");
  const go = which("go", ["/usr/local/go/bin"]);
  if (!prometheus || !go) return { skip: `${prometheus ? "" : "prometheus "}${go ? "" : "go "}not installed (apt-get install -y prometheus golang)` };
  const dir = mkdtempSync(path.join(tmpdir(), "hdr-prom-"));
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const c of children) c.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  const skip = (why: string) => {
    stop();
    return { skip: why };
  };
  const exe = path.join(dir, "exporter");
  const built = spawnSync(go, ["build", "-o", exe, "."], { cwd: EXPORTER, env: { ...process.env, GOFLAGS: "-mod=mod" }, encoding: "utf8", timeout: 80_000 });
  if (built.status !== 0) return skip(`the exporter did not build (go build: ${(built.stderr || built.error?.message || "").trim().split("\n").slice(-3).join(" ")})`);
  const [promPort, expPort] = [await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, "prometheus.yml"),
    `global: {scrape_interval: 1s, scrape_timeout: 1s}\nscrape_configs:\n  - job_name: demo\n    static_configs: [{targets: ["127.0.0.1:${expPort}"]}]\n`,
  );
  const args = [
    `--config.file=${path.join(dir, "prometheus.yml")}`,
    `--storage.tsdb.path=${path.join(dir, "tsdb")}`,
    `--web.listen-address=127.0.0.1:${promPort}`,
    "--enable-feature=native-histograms",
  ];
  if (o.corsOrigin) args.push(`--web.cors.origin=${o.corsOrigin.replace(/\./g, "\\.")}`);
  children.push(spawn(prometheus, args, { stdio: "ignore" }));
  const api = `http://127.0.0.1:${promPort}`;
  const ready = await until(
    () =>
      fetch(`${api}/-/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    20_000,
  );
  if (!ready) return skip("prometheus did not start within 20 s");
  const exporterStartedAt = Date.now() / 1000;
  const valuesFile = path.join(dir, "values.json");
  children.push(spawn(exe, ["-listen", `127.0.0.1:${expPort}`, "-values", valuesFile, "-gap", String(o.gapSeconds)], { stdio: "ignore" }));
  let values: ExporterValues = { phases: [], times: [] };
  const observed = await until(() => {
    try {
      values = JSON.parse(readFileSync(valuesFile, "utf8")) as ExporterValues;
      return values.phases.length === 3;
    } catch {
      return false; // not written yet
    }
  }, 40_000);
  if (!observed) return skip("the exporter's three phases were not observed within 40 s");
  // Two scrapes after the last phase, so the range's end holds it.
  await sleep(2500);
  return { api, values, exporterStartedAt, endAt: Math.floor(Date.now() / 1000), stop };
}

/** The value at the rank HdrHistogram reads a percentile at. */
export function atRank(vs: readonly number[], p: number): number {
  const sorted = [...vs].sort((a, b) => a - b);
  if (p >= 100) return sorted[sorted.length - 1]!;
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length - 1e-9)) - 1]!;
}

/** Schema 3's bucket (2^((k−1)/8), 2^(k/8)] holding v: its upper bound. */
export const nativeUpper = (v: number) => 2 ** (Math.ceil(8 * Math.log2(v) - 1e-9) / 8);
