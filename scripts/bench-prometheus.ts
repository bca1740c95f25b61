// A fleet at once from a Prometheus-compatible API: a generated endpoint on loopback answers
// query_range for SERIES native histograms (schema 3) over 24 hours at a 1-minute step (1,000 ×
// 1,441 points: 1.44 million histograms), streamed as Prometheus writes it. Measured in the
// engine (Node, the page's worker code): the answer read into series (fetch, stream, reader,
// series; the whole answer's bytes said), the series added to a Store and their spectra asked
// (what the page draws), and the fleet merged by the engine into one series. Goals (the
// issue's): drawn ≤ 3 s after the response, ≤ 500 MB; merged ≤ 0.5 s.
//
// The endpoint runs in a process of its own, so that making the answer's text is neither timed
// nor counted in the engine's memory. The answer is read as it arrives (the reader turns each
// series' points into sparse counts at once); "after the response" is the time from its last
// byte to the spectra asked. Memory: the engine's peak RSS, and its heap and array buffers once
// the fleet is loaded and merged (after a collection: what it keeps).
//
// By default the goal's fleet of 1,000 series (a 0.7 GB answer: about a minute to arrive and
// be read); --series 20 is the earlier, smaller figure. --page measures the same in the page
// (scripts/bench/prometheus-page.ts: the production build in Chromium, through the real form);
// --shot FILE also saves screenshots of its first run (FILE, and -loading and -merged beside it:
// its first run's times then include taking them), --profile prints where the CPU went
// from the last byte to the paint, --dist DIR serves another build than dist/, --idle MS waits
// that long on the ready page before asking (a person filling the form in, while the workers'
// idle warm-ups run), --trace [MS] prints
// the page's memory over the load and the merge (every 100 ms, a line per MS: by process and kind,
// and each isolate's JS heap and array buffers).
//
//   npx tsx scripts/bench-prometheus.ts [--page [--shot FILE] [--profile] [--dist DIR] [--idle MS] [--trace [MS]]] [--runs 1] [--series 1000] [--buckets 8]
import { fork } from "node:child_process";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { queryPrometheus } from "../src/engine/prometheus-query";
import { Store } from "../src/engine/store";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const RUNS = Math.max(1, Number(arg("--runs", "1")) || 1);
const SERIES = Number(arg("--series", "1000"));
const BUCKETS = Number(arg("--buckets", "8"));
const STEP = 60;
const POINTS = 24 * 60 + 1;
const START = 1_767_225_600;

/** Each bucket's rule and bounds as Prometheus writes them (schema 3), up to its count. */
const BOUNDS = Array.from({ length: BUCKETS }, (_, k) => `[0,"${2 ** ((k - 57) / 8)}","${2 ** ((k - 56) / 8)}",`);

/** One series' points as Prometheus writes them: cumulative counts over schema-3 buckets around 10 ms. */
function* seriesText(i: number): Generator<string> {
  const counts = new Array<number>(BUCKETS).fill(0);
  let seed = i * 7919 + 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  yield `{"metric":{"__name__":"fleet_request_duration_seconds","instance":"host-${i}:9100"},"histograms":[`;
  for (let p = 0; p < POINTS; p++) {
    for (let k = 0; k < BUCKETS; k++) counts[k]! += Math.floor(rnd() * (k === BUCKETS - 1 ? 2 : 20));
    const total = counts.reduce((a, b) => a + b, 0);
    const buckets = counts.map((c, k) => `${BOUNDS[k]}"${c}"]`).join(",");
    yield `${p > 0 ? "," : ""}[${START + p * STEP},{"count":"${total}","sum":"${(total * 0.01).toFixed(3)}","buckets":[${buckets}]}]`;
  }
  yield "]}";
}

/** The endpoint, in this process (run with --serve by main): says its address to the parent. */
function serve(): void {
  let bytes = 0;
  const server = createServer((req, res) => {
    // As Prometheus with --web.cors.origin: the page may read the answer.
    res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": req.headers.origin ?? "*" });
    bytes = 0;
    // The bytes written so far, for a trace of the page's memory against them.
    const told = setInterval(() => process.send?.({ sent: bytes }), 100);
    let i = 0;
    let gen: Generator<string> | null = null;
    let buffer = '{"status":"success","data":{"resultType":"matrix","result":[';
    const pump = () => {
      for (;;) {
        while (buffer.length < 1 << 16) {
          if (!gen) {
            if (i >= SERIES) break;
            gen = seriesText(i);
            if (i > 0) buffer += ",";
            i++;
          }
          const n = gen.next();
          if (n.done) gen = null;
          else buffer += n.value;
        }
        if (buffer.length === 0) {
          bytes += 3;
          clearInterval(told);
          // When the last byte was written, on the clock every process here shares (epoch ms).
          res.end("]}}", () => process.send?.({ bytes, at: performance.timeOrigin + performance.now() }));
          return;
        }
        bytes += Buffer.byteLength(buffer);
        const more = res.write(buffer);
        buffer = "";
        if (!more) return void res.once("drain", pump);
      }
    };
    pump();
  });
  server.listen(0, "127.0.0.1", () => process.send?.({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
}

/** The endpoint in a child process: its address, the bytes of its last answer, and a way to stop it. */
function endpoint(): Promise<{ url: string; bytes: () => number; lastByte: () => number; lastByteEpoch: () => number; sent: () => number; close: () => void }> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve", "--series", String(SERIES), "--buckets", String(BUCKETS)], { execArgv: process.execArgv });
  let bytes = 0;
  let lastByte = 0;
  let lastByteEpoch = 0;
  let sent = 0;
  return new Promise((resolve) =>
    child.on("message", (m: { url?: string; bytes?: number; at?: number; sent?: number }) => {
      if (m.url) resolve({ url: m.url, bytes: () => bytes, lastByte: () => lastByte, lastByteEpoch: () => lastByteEpoch, sent: () => sent, close: () => child.kill() });
      if (m.sent !== undefined) sent = m.sent;
      if (m.bytes !== undefined) {
        bytes = m.bytes;
        sent = m.bytes;
        lastByte = performance.now();
        lastByteEpoch = m.at ?? 0;
      }
    }),
  );
}

/** A full collection, whether or not node was started with --expose-gc (npm run bench is not). */
const collect: () => void =
  globalThis.gc ??
  (() => {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  })();

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;

async function main(): Promise<void> {
  const { url, bytes, lastByte, lastByteEpoch, sent, close } = await endpoint();
  console.log(
    `fleet: ${SERIES} series × ${POINTS} points (24 h at 1 min), ${BUCKETS} buckets each, from ${url}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(", ")}`,
  );
  if (process.argv.includes("--page")) {
    // In the page instead (the production build: run `npm run build` first).
    const { pageRuns } = await import("./bench/prometheus-page");
    const shot = process.argv.includes("--shot") ? arg("--shot", "/tmp/prometheus-fleet.png") : null;
    await pageRuns(
      { url, series: SERIES, start: START, end: START + (POINTS - 1) * STEP, step: STEP, bytes, lastByteEpoch, sent },
      RUNS,
      shot,
      process.argv.includes("--profile"),
      process.argv.includes("--dist") ? resolve(arg("--dist", "dist")) : null,
      process.argv.includes("--trace") ? Math.max(100, Number(arg("--trace", "1000")) || 1000) : null,
      process.argv.includes("--dumps"),
      process.argv.includes("--heap"),
      process.argv.includes("--helpers") ? Number(arg("--helpers", "0")) : null,
      Number(arg("--idle", "0")) || 0,
    ).finally(close);
    console.log(
      `load average after: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(", ")}`,
    );
    return;
  }
  for (let run = 0; run < RUNS; run++) {
    collect();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const t0 = performance.now();
    const r = await queryPrometheus(
      { url, query: "fleet_request_duration_seconds", start: START, end: START + (POINTS - 1) * STEP, step: STEP },
      { maxBytes: 2 * 1024 * 1024 * 1024, timeoutMs: 600_000 },
    );
    const t1 = performance.now();
    // The child says when it wrote the last byte; the reader is done with it by t1.
    await new Promise((r) => setTimeout(r, 20));
    const arrived = Math.min(lastByte(), t1);
    const store = new Store();
    const { added, problems } = store.add(r);
    const views = store.views();
    const t2 = performance.now();
    // One series has nothing to merge with: it stands for its own merge.
    const merged = added.length > 1 ? store.merge(added, "fleet") : added[0]!;
    const mv = store.views().find((v) => v.id === merged)!;
    const t3 = performance.now();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    // The job ends first: a histogram made from a series' kept counts for a read is held until it does.
    // Twice: array buffers freed by one collection are counted out by the next.
    for (let k = 0; k < 2; k++) {
      await new Promise((r) => setTimeout(r, 0));
      collect();
    }
    const kept = process.memoryUsage();
    const hard = problems.filter((p) => !p.note);
    console.log(
      [
        `run ${run + 1}: answer ${mb(bytes())} read into ${r.series.length} series in ${((t1 - t0) / 1000).toFixed(2)} s (as it arrived: ${(((bytes() / (t1 - t0)) * 1000) / 1e6).toFixed(0)} MB/s)`,
        `last byte to series read ${((t1 - arrived) / 1000).toFixed(2)} s; added and their ${views.length} spectra in ${((t2 - t1) / 1000).toFixed(2)} s (goal: drawn ≤ 3 s after the response)`,
        `merged into one series (${mv.spectrum.totalCount.toLocaleString("en-US")} values) and its spectrum in ${((t3 - t2) / 1000).toFixed(2)} s (goal ≤ 0.5 s)`,
        `peak RSS ${mb(peak)}; kept after a collection: heap ${mb(kept.heapUsed)} + array buffers ${mb(kept.arrayBuffers)} (goal ≤ 500 MB in the page)${hard.length ? `; problems: ${hard.map((p) => p.reason).join("; ")}` : ""}`,
      ].join("\n  "),
    );
    // Let this run's series go before the next.
    store.clear();
  }
  close();
}

if (process.argv.includes("--serve")) {
  // The endpoint goes with the process that asked for it, however that one ends.
  process.on("disconnect", () => process.exit(0));
  serve();
} else
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
