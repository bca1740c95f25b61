// A fleet at once from a Prometheus-compatible API: a generated endpoint on loopback answers
// query_range for SERIES native histograms (schema 3) over 24 hours at a 1-minute step (1,000 ×
// 1,441 points: 1.44 million histograms), streamed as Prometheus writes it. Measured in the
// engine (Node, the page's worker code): the answer read into series (fetch, stream, reader,
// series; the whole answer's bytes said), the series added to a Store and their spectra asked
// (what the page draws), and the fleet merged by the engine into one series. Goals (the
// issue's): drawn ≤ 3 s after the response, ≤ 500 MB; merged ≤ 0.5 s.
//
// By default 20 series, not the fleet's 1,000: every step becomes an interval of its own, made,
// encoded and summarised as a log's interval is (under a millisecond each), so 1.44 million of
// them take minutes; --series 1000 is the goal's size.
//
//   npx tsx scripts/bench-prometheus.ts [--runs 1] [--series 20] [--buckets 8]
import { createServer, type Server } from "node:http";
import { queryPrometheus } from "../src/engine/prometheus-query";
import { Store } from "../src/engine/store";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const RUNS = Math.max(1, Number(arg("--runs", "1")) || 1);
const SERIES = Number(arg("--series", "20"));
const BUCKETS = Number(arg("--buckets", "8"));
const STEP = 60;
const POINTS = 24 * 60 + 1;
const START = 1_767_225_600;

/** One series' points as Prometheus writes them: cumulative counts over schema-3 buckets around 10 ms. */
function* seriesText(i: number): Generator<string> {
  const counts = new Array<number>(BUCKETS).fill(0);
  let seed = i * 7919 + 1;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  yield `{"metric":{"__name__":"fleet_request_duration_seconds","instance":"host-${i}:9100"},"histograms":[`;
  for (let p = 0; p < POINTS; p++) {
    for (let k = 0; k < BUCKETS; k++) counts[k]! += Math.floor(rnd() * (k === BUCKETS - 1 ? 2 : 20));
    const total = counts.reduce((a, b) => a + b, 0);
    const buckets = counts.map((c, k) => `[0,"${2 ** ((k - 57) / 8)}","${2 ** ((k - 56) / 8)}","${c}"]`).join(",");
    yield `${p > 0 ? "," : ""}[${START + p * STEP},{"count":"${total}","sum":"${(total * 0.01).toFixed(3)}","buckets":[${buckets}]}]`;
  }
  yield "]}";
}

function endpoint(): Promise<{ server: Server; url: string; bytes: () => number }> {
  let bytes = 0;
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    bytes = 0;
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
          res.end("]}}");
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
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bytes: () => bytes })),
  );
}

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;

async function main(): Promise<void> {
  const { server, url, bytes } = await endpoint();
  console.log(`fleet: ${SERIES} series × ${POINTS} points (24 h at 1 min), ${BUCKETS} buckets each, from ${url}`);
  for (let run = 0; run < RUNS; run++) {
    globalThis.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const t0 = performance.now();
    const r = await queryPrometheus(
      { url, query: "fleet_request_duration_seconds", start: START, end: START + (POINTS - 1) * STEP, step: STEP },
      { maxBytes: 2 * 1024 * 1024 * 1024, timeoutMs: 600_000 },
    );
    const t1 = performance.now();
    const store = new Store();
    const { added, problems } = store.add(r);
    const views = store.views();
    const t2 = performance.now();
    const merged = store.merge(added, "fleet");
    const mv = store.views().find((v) => v.id === merged)!;
    const t3 = performance.now();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const hard = problems.filter((p) => !p.note);
    console.log(
      [
        `run ${run + 1}: answer ${mb(bytes())} read into ${r.series.length} series in ${((t1 - t0) / 1000).toFixed(2)} s`,
        `added and their ${views.length} spectra in ${((t2 - t1) / 1000).toFixed(2)} s (goal: drawn ≤ 3 s after the response)`,
        `merged into one series (${mv.spectrum.totalCount.toLocaleString("en-US")} values) in ${((t3 - t2) / 1000).toFixed(2)} s (goal ≤ 0.5 s)`,
        `peak RSS ${mb(peak)} (goal ≤ 500 MB in the page)${hard.length ? `; problems: ${hard.map((p) => p.reason).join("; ")}` : ""}`,
      ].join("\n  "),
    );
  }
  server.close();
}

void main();
