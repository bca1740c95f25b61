// Where a 24-hour load's time goes, thread by thread: a Chromium trace (devtools.timeline and
// the V8 sampling profiler of every thread, workers included) of one load, reduced to each
// thread's busy time and its heaviest functions between the file being chosen and data-busy
// turning false, and a strip of each thread's activity over that span.
//
//   npx tsx scripts/trace-load.ts [--dist DIR]… [--runs N] [--port P] [--query Q] [--settle MS] [--out DIR] [--log FILE] [--demo]
//
// --log: another log than the 24-hour one (say the 500 MB log `npm run bench` writes in .bench/).
// --demo: the page's first paint with the demo data instead (navigation → painted, a fresh
// context each run, as the benchmark's row 6 measures it), with the order of the fetches and of
// each thread's first and last work.
//
// Several --dist directories (builds made with `npx vite build --minify false --outDir DIR`, so
// functions and modules have names) are run in turn, A B A B …, in the same minutes; the
// summary gives each build's medians per thread. --out keeps each trace as JSON (DevTools'
// Performance panel opens it).
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { basename, join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, BENCH_DIR, median, ms, newPage, closeQuietly, startPreview, stopChild, withTimeout, type WaitResult } from "./bench/harness";
import { moduleMap } from "./bench/profile";
import { traceWhile, type TraceEvent } from "./bench/trace";
import { dayLogName, writeDayLog } from "../tests/support/day-log";

interface Args {
  dists: string[];
  runs: number;
  port: number;
  query: string;
  settle: number;
  out: string | null;
  top: number;
  log: string | null;
  demo: boolean;
}

function parse(argv: string[]): Args {
  const a: Args = { dists: [], runs: 1, port: 5295, query: "demo=0", settle: 0, out: null, top: 14, log: null, demo: false };
  let queryGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? "";
    if (k === "--dist") a.dists.push(resolve(v()));
    else if (k === "--runs") a.runs = Number(v());
    else if (k === "--port") a.port = Number(v());
    else if (k === "--query") {
      a.query = v();
      queryGiven = true;
    } else if (k === "--settle") a.settle = Number(v());
    else if (k === "--out") a.out = resolve(v());
    else if (k === "--top") a.top = Number(v());
    else if (k === "--log") a.log = resolve(v());
    else if (k === "--demo") a.demo = true;
    else if (k === "--help" || k === "-h") {
      console.log("usage: tsx scripts/trace-load.ts [--dist DIR]… [--runs N] [--port P] [--query Q] [--settle MS] [--out DIR] [--log FILE] [--demo] [--top N]");
      process.exit(0);
    } else throw new Error(`unknown argument ${k}`);
  }
  if (a.dists.length === 0) a.dists.push(resolve(ROOT, "dist"));
  // The demo shows on the page as it opens, with no query.
  if (a.demo && !queryGiven) a.query = "";
  return a;
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "toplevel",
  "v8.execute",
  "blink.user_timing",
  "disabled-by-default-v8.cpu_profiler",
];

const traced = (b: Browser, action: () => Promise<void>) => traceWhile(b, CATEGORIES, action);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  parent?: number;
}

/**
 * What a worker's sample was doing, from the functions on its stack (innermost first wins):
 * the load's phases in the engine and the helpers, rendering on the page.
 */
const PHASES: [string, RegExp][] = [
  ["warm-up", /^(warmUp|syntheticLog|syntheticSteps|quick|warmIfIdle|warmWindow)$/],
  ["join", /^(absorb|joinPart|finish|appendColumns)$/],
  ["heatmap", /^(heatmapQuery|prepareBlockRows)$/],
  ["timeline", /^(timelineQuery)$/],
  ["views", /^(views|rawViews)$/],
  ["part done", /^(toPart|partOf|transferablesOf)$/],
  ["react", /^(performWorkOnRoot|performSyncWorkOnRoot|performConcurrentWorkOnRoot|commitRoot|renderRootSync|workLoopSync)$/],
  ["read", /^(readInPieces|readInParts|ingestHlogPart|pushAll|push|pushBytes|plainLine|line|fileChunks|fileBytes|loadFiles|runLoad|readHere)$/],
];

function phaseOf(nodes: Map<number, ProfileNode>, id: number): string {
  const names: string[] = [];
  for (let n = nodes.get(id); n; n = n.parent !== undefined ? nodes.get(n.parent) : undefined) names.push(n.callFrame.functionName);
  for (const [phase, re] of PHASES) if (names.some((f) => re.test(f))) return phase;
  const leaf = names[0] ?? "";
  return leaf === "(garbage collector)" ? "gc" : "other";
}

interface ThreadSummary {
  label: string;
  /** Wall time inside top-level tasks within the span (ms). */
  busy: number;
  /** Thread CPU time of those tasks (ms; tasks cut by the span's ends count in proportion). */
  cpu: number;
  /** Self time by function within the span (ms), from the sampling profiler. */
  fns: Map<string, number>;
  mods: Map<string, number>;
  /** Per STRIP_MS bin of the span: busy ms. */
  strip: number[];
  /** Per bin: the module with most samples. */
  stripTop: string[];
  /** Sampled time per phase (see PHASES), ms. */
  phases: Map<string, number>;
  /** Each phase's first and last sample (ms from the span's start). */
  phaseSpans: Map<string, [number, number]>;
  /**
   * Thread CPU (ms) until this thread's reading ended (its first joining sample in the engine,
   * its last reading sample in a helper), and after it: a measure of balance that holds on a
   * loaded machine, where wall times stretch with everyone else's work.
   */
  cpuReading: number;
  cpuAfter: number;
  /** The span's first and last task of the thread (ms from the span's start). */
  first: number;
  last: number;
}

const STRIP_MS = 25;

function analyse(events: TraceEvent[], t0: number, t1: number, pid: number, modOf: (url: string, line: number) => string): ThreadSummary[] {
  events = events.filter((e) => e.pid === pid);
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args?.name ?? "");
  // Top-level tasks per thread.
  const busy = new Map<string, { from: number; to: number; cpu: number }[]>();
  for (const e of events) {
    if (e.ph !== "X" || e.dur === undefined) continue;
    if (e.name !== "ThreadControllerImpl::RunTask" && e.name !== "RunTask") continue;
    const key = `${e.pid}:${e.tid}`;
    const from = Math.max(e.ts, t0);
    const to = Math.min(e.ts + e.dur, t1);
    if (to <= from) continue;
    let l = busy.get(key);
    if (!l) busy.set(key, (l = []));
    const tdur = (e as { tdur?: number }).tdur ?? e.dur;
    l.push({ from, to, cpu: e.dur > 0 ? (tdur * (to - from)) / e.dur : 0 });
  }
  // Sampled profiles: a Profile event per thread, ProfileChunks with nodes, samples and deltas.
  const profiles = new Map<string, { key: string; start: number; nodes: Map<number, ProfileNode>; samples: { t: number; node: number }[]; last: number }>();
  for (const e of events) {
    if (e.name === "Profile" && e.id) {
      const data = e.args?.data as { startTime: number };
      profiles.set(`${e.pid}:${e.id}`, { key: `${e.pid}:${e.tid}`, start: data.startTime, nodes: new Map(), samples: [], last: data.startTime });
    }
  }
  for (const e of events) {
    if (e.name !== "ProfileChunk" || !e.id) continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p) continue;
    const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      p.last += deltas[i] ?? 0;
      p.samples.push({ t: p.last, node: samples[i]! });
    }
  }
  // A worker's entry script, from the modules it compiled (its own frames may go unsampled).
  const entries = new Map<string, string>();
  for (const e of events) {
    const url = (e.args?.data as { url?: string } | undefined)?.url;
    if (e.name !== "v8.compileModule" || !url) continue;
    const m = /\/(worker|part-worker)-[\w-]{8}\.js$/.exec(url.split("?")[0]!);
    if (m) entries.set(`${e.pid}:${e.tid}`, m[1]!);
  }
  const bins = Math.ceil((t1 - t0) / 1000 / STRIP_MS);
  const out: ThreadSummary[] = [];
  const keys = new Set([...busy.keys(), ...[...profiles.values()].map((p) => p.key)]);
  for (const key of keys) {
    const name = names.get(key) ?? key;
    if (!/CrRendererMain|DedicatedWorker/.test(name)) continue;
    const spans = busy.get(key) ?? [];
    // Nested RunTask events: count the union.
    spans.sort((a, b) => a.from - b.from);
    let total = 0;
    let cpu = 0;
    let end = -Infinity;
    const strip = new Array<number>(bins).fill(0);
    for (const s of spans) {
      const from = Math.max(s.from, end);
      if (s.from >= end) cpu += s.cpu; // nested tasks: the outer one's CPU holds theirs
      if (s.to > from) {
        total += s.to - from;
        for (let t = from; t < s.to;) {
          const bin = Math.floor((t - t0) / 1000 / STRIP_MS);
          const binEnd = t0 + (bin + 1) * STRIP_MS * 1000;
          const to = Math.min(s.to, binEnd);
          if (bin >= 0 && bin < bins) strip[bin]! += (to - t) / 1000;
          t = to;
        }
      }
      end = Math.max(end, s.to);
    }
    const fns = new Map<string, number>();
    const mods = new Map<string, number>();
    const phases = new Map<string, number>();
    const phaseSpans = new Map<string, [number, number]>();
    let joinAt = Infinity;
    let lastRead = -Infinity;
    const binMods: Map<string, number>[] = Array.from({ length: bins }, () => new Map());
    let urls = "";
    for (const p of profiles.values()) {
      if (p.key !== key) continue;
      for (let i = 0; i < p.samples.length; i++) {
        const s = p.samples[i]!;
        if (s.t < t0 || s.t > t1) continue;
        const dt = ((p.samples[i + 1]?.t ?? s.t) - s.t) / 1000;
        const f = p.nodes.get(s.node)?.callFrame;
        if (!f || f.functionName === "(idle)") continue;
        if (f.url && !urls) urls = basename(f.url);
        const mod = f.url ? modOf(f.url, f.lineNumber) || basename(f.url).replace(/-[\w-]{8}\.js$/, ".js") : "";
        const fk = `${f.functionName || "(anonymous)"}${mod ? `  [${mod}]` : ""}`;
        const ph = phaseOf(p.nodes, s.node);
        phases.set(ph, (phases.get(ph) ?? 0) + dt);
        const at = (s.t - t0) / 1000;
        const span = phaseSpans.get(ph);
        if (span) span[1] = Math.max(span[1], at);
        else phaseSpans.set(ph, [at, at]);
        if (ph === "join") joinAt = Math.min(joinAt, s.t);
        if (ph === "read" || ph === "part done") lastRead = Math.max(lastRead, s.t);
        fns.set(fk, (fns.get(fk) ?? 0) + dt);
        const m = mod || (f.functionName.startsWith("(") ? f.functionName : "(native)");
        mods.set(m, (mods.get(m) ?? 0) + dt);
        const bin = Math.floor((s.t - t0) / 1000 / STRIP_MS);
        if (bin >= 0 && bin < bins) binMods[bin]!.set(m, (binMods[bin]!.get(m) ?? 0) + dt);
      }
    }
    if (total < 1 && fns.size === 0) continue;
    const top = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
    let label = /CrRendererMain/.test(name) ? "main" : "worker";
    // Which worker: the bundles its named frames come from.
    const bundles = new Map<string, number>();
    for (const p of profiles.values()) {
      if (p.key !== key) continue;
      for (const n of p.nodes.values()) {
        const u = n.callFrame.url;
        if (!u) continue;
        const b = basename(u.split("?")[0]!).replace(/-[\w-]{8}\.js$/, "");
        bundles.set(b, (bundles.get(b) ?? 0) + 1);
      }
    }
    // The workers share chunks: a thread is told by its entry's own frames (its message handler).
    if (label === "worker")
      label =
        bundles.has("part-worker") || entries.get(key) === "part-worker"
          ? "helper"
          : bundles.has("worker") || entries.get(key) === "worker"
            ? "engine"
            : `worker(${top(bundles) || urls})`;
    const readEnd = Number.isFinite(joinAt) ? joinAt : Number.isFinite(lastRead) ? lastRead : t0;
    let cpuReading = 0;
    let outer = -Infinity;
    for (const sp of spans) {
      if (sp.from < outer) continue; // nested in the task before: its CPU is in that one's
      outer = sp.to;
      if (sp.to <= readEnd) cpuReading += sp.cpu;
      else if (sp.from < readEnd) cpuReading += (sp.cpu * (readEnd - sp.from)) / (sp.to - sp.from);
    }
    out.push({
      first: spans.length ? (spans[0]!.from - t0) / 1000 : Number.NaN,
      last: spans.length ? (Math.max(...spans.map((x) => x.to)) - t0) / 1000 : Number.NaN,
      label,
      busy: total / 1000,
      cpu: cpu / 1000,
      fns,
      mods,
      strip,
      stripTop: binMods.map(top),
      phases,
      phaseSpans,
      cpuReading: cpuReading / 1000,
      cpuAfter: (cpu - cpuReading) / 1000,
    });
  }
  const order = (l: string) => (l === "main" ? 0 : l === "engine" ? 1 : l === "helper" ? 2 : 3);
  return out.sort((a, b) => order(a.label) - order(b.label));
}

const SHORT: Record<string, string> = {};
function shortMod(m: string): string {
  if (!m) return ".";
  if (SHORT[m]) return SHORT[m]!;
  const b = basename(m).replace(/\.(ts|tsx|js|mjs)$/, "");
  return b;
}

function report(label: string, load: WaitResult, threads: ThreadSummary[], top: number, start = "file chosen"): string[] {
  const lines = [`${label}: ${start} → busy false ${ms(load.tFalse - load.t0)}, → painted ${ms(load.tPaint - load.t0)}`];
  for (const t of threads) {
    const sampled = [...t.fns.values()].reduce((a, b) => a + b, 0);
    lines.push(
      `  ${t.label}: busy ${ms(t.busy)} from ${ms(t.first)} to ${ms(t.last)}, CPU ${ms(t.cpu)} (until its reading ended ${ms(t.cpuReading)}, after ${ms(t.cpuAfter)}; sampled ${ms(sampled)})`,
    );
    lines.push(
      `    phases (sampled): ${[...t.phases.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(", ")}`,
    );
    lines.push(
      `    phases in order (first → last sample): ${[...t.phaseSpans.entries()]
        .sort((a, b) => a[1][0] - b[1][0])
        .map(([k, [a, b]]) => `${k} ${a.toFixed(0)}–${b.toFixed(0)}`)
        .join(", ")}`,
    );
    for (const [k, v] of [...t.mods.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10)) lines.push(`      ${ms(v).padStart(9)}  ${k}`);
    lines.push("    functions:");
    for (const [k, v] of [...t.fns.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`      ${ms(v).padStart(9)}  ${k}`);
  }
  lines.push(`  activity per ${STRIP_MS} ms (busy % of the bin, then its heaviest module):`);
  for (const t of threads) {
    const cells = t.strip.map(
      (b, i) =>
        `${String(Math.round((100 * b) / STRIP_MS)).padStart(3)}${shortMod(t.stripTop[i] ?? "")
          .slice(0, 10)
          .padEnd(10)}`,
    );
    for (let i = 0; i < cells.length; i += 8) lines.push(`    ${(i === 0 ? t.label : "").padEnd(7)} ${String(i * STRIP_MS).padStart(5)} ${cells.slice(i, i + 8).join("")}`);
  }
  return lines;
}

/** The page's fetches in the span: each one's start and end (ms from the span's start) and its file. */
function fetches(events: TraceEvent[], t0: number, pid: number): string[] {
  const sent = new Map<string, { url: string; at: number }>();
  const lines: { at: number; text: string }[] = [];
  for (const e of events) {
    if (e.pid !== pid) continue;
    const d = e.args?.data as { requestId?: string; url?: string; finishTime?: number; encodedDataLength?: number } | undefined;
    if (!d?.requestId) continue;
    if (e.name === "ResourceSendRequest" && d.url) sent.set(d.requestId, { url: d.url, at: (e.ts - t0) / 1000 });
    else if (e.name === "ResourceFinish") {
      const s = sent.get(d.requestId);
      if (!s) continue;
      const name = s.url.startsWith("blob:") ? "blob: (a worker's start)" : basename(s.url.split("?")[0]!) || s.url;
      lines.push({
        at: s.at,
        text: `    ${ms(s.at).padStart(9)} → ${ms((e.ts - t0) / 1000).padStart(9)}  ${name}${d.encodedDataLength ? ` (${(d.encodedDataLength / 1e3).toFixed(1)} kB)` : ""}`,
      });
    }
  }
  return ["  fetches (start → end):", ...lines.sort((x, y) => x.at - y.at).map((l) => l.text)];
}

/**
 * One traced first paint with the demo: a fresh context, the clock from navigation (the
 * benchmark's row 6), the trace from before the navigation to the paint after data-busy false.
 */
async function demoTrace(b: Browser, url: string, query: string): Promise<{ load: WaitResult; events: TraceEvent[]; t0: number; pid: number }> {
  const { context, page } = await newPage(b);
  try {
    await context.addInitScript(() => {
      window.__bench.arm("nav", { event: null, minSeries: 1, requireTrue: false });
      performance.mark("trace-nav");
    });
    let load!: WaitResult;
    const events = await traced(b, async () => {
      await page.goto(`${url}${query ? `?${query}` : ""}`, { waitUntil: "commit" });
      load = await withTimeout("demo first paint", 60_000, () => page.evaluate(() => window.__bench.wait("nav")));
      await page.waitForTimeout(50);
    });
    const at = await page.evaluate(() => performance.getEntriesByName("trace-nav")[0]?.startTime ?? Number.NaN);
    const mark = events.find((e) => e.name === "trace-nav" && e.cat.includes("blink.user_timing"));
    if (!mark || !Number.isFinite(at)) throw new Error("the trace has no trace-nav mark");
    // The page's clock starts at navigation: the mark's trace time less its page time.
    return { load, events, t0: mark.ts - at * 1000, pid: mark.pid };
  } finally {
    await closeQuietly(context);
  }
}

async function main(): Promise<void> {
  const a = parse(process.argv.slice(2));
  mkdirSync(BENCH_DIR, { recursive: true });
  const dayOpts = { intervals: 86_400, seed: 1 };
  const day = a.demo ? "" : (a.log ?? writeDayLog(join(BENCH_DIR, dayLogName(dayOpts)), dayOpts).path);
  const servers = [];
  for (let i = 0; i < a.dists.length; i++) servers.push(await startPreview(a.port + i, a.dists[i]));
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  const perBuild = a.dists.map(() => [] as { load: WaitResult; threads: ThreadSummary[] }[]);
  try {
    for (let run = 0; run < a.runs; run++) {
      for (let d = 0; d < a.dists.length; d++) {
        if (a.demo) {
          const { load, events, t0, pid } = await demoTrace(b, servers[d]!.url, a.query);
          const threads = analyse(events, t0, t0 + load.tPaint * 1000, pid, moduleMap(a.dists[d]!));
          perBuild[d]!.push({ load, threads });
          const label = `${basename(a.dists[d]!)} run ${run + 1} (load ${os.loadavg()[0]!.toFixed(2)})`;
          console.log([...report(label, load, threads, a.top, "navigation"), ...fetches(events, t0, pid)].join("\n"));
          if (a.out) {
            mkdirSync(a.out, { recursive: true });
            writeFileSync(join(a.out, `${basename(a.dists[d]!)}-demo-${run + 1}.json`), JSON.stringify({ traceEvents: events }));
          }
          continue;
        }
        const { context, page } = await newPage(b);
        try {
          await page.goto(`${servers[d]!.url}?${a.query}`);
          await page.waitForSelector("[data-testid=app][data-busy=false]");
          if (a.settle > 0) await page.waitForTimeout(a.settle);
          await page.evaluate(() => {
            window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true });
            window.addEventListener("change", () => performance.mark("trace-t0"), { capture: true, once: true });
          });
          let load!: WaitResult;
          const events = await traced(b, async () => {
            await page.getByTestId("file-input").setInputFiles(day);
            load = await withTimeout("load", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
            await page.waitForTimeout(50);
          });
          const mark = events.find((e) => e.name === "trace-t0" && e.cat.includes("blink.user_timing"));
          if (!mark) throw new Error("the trace has no trace-t0 mark");
          const t0 = mark.ts;
          const t1 = t0 + (load.tFalse - load.t0) * 1000;
          const threads = analyse(events, t0, t1, mark.pid, moduleMap(a.dists[d]!));
          perBuild[d]!.push({ load, threads });
          const label = `${basename(a.dists[d]!)} run ${run + 1} (load ${os.loadavg()[0]!.toFixed(2)})`;
          console.log(report(label, load, threads, a.top).join("\n"));
          if (a.out) {
            mkdirSync(a.out, { recursive: true });
            writeFileSync(join(a.out, `${basename(a.dists[d]!)}-${run + 1}.json`), JSON.stringify({ traceEvents: events }));
          }
        } finally {
          await closeQuietly(context);
        }
      }
    }
  } finally {
    await b.close().catch(() => undefined);
    for (const s of servers) await stopChild(s.child);
  }
  console.log("\nmedians:");
  for (let d = 0; d < a.dists.length; d++) {
    const runs = perBuild[d]!;
    if (runs.length === 0) continue;
    const labels = [...new Set(runs.flatMap((r) => r.threads.map((t) => t.label)))];
    const per = (f: (t: ThreadSummary) => number) => labels.map((l) => `${l} ${ms(median(runs.map((r) => r.threads.filter((t) => t.label === l).reduce((s, t) => s + f(t), 0))))}`);
    console.log(
      `  ${basename(a.dists[d]!)}: busy false ${ms(median(runs.map((r) => r.load.tFalse - r.load.t0)))}, painted ${ms(median(runs.map((r) => r.load.tPaint - r.load.t0)))}; CPU per thread: ${per((t) => t.cpu).join(", ")}; busy (wall) per thread: ${per((t) => t.busy).join(", ")}`,
    );
    console.log(
      `    CPU until reading ended / after: ${labels.map((l) => `${l} ${ms(median(runs.map((r) => r.threads.filter((t) => t.label === l).reduce((x, t) => x + t.cpuReading, 0))))} / ${ms(median(runs.map((r) => r.threads.filter((t) => t.label === l).reduce((x, t) => x + t.cpuAfter, 0))))}`).join(", ")}`,
    );
    for (const l of labels) {
      const names = [...new Set(runs.flatMap((r) => r.threads.filter((t) => t.label === l).flatMap((t) => [...t.phases.keys()])))];
      const of = (r: (typeof runs)[number], k: string) => r.threads.filter((t) => t.label === l).reduce((acc, t) => acc + (t.phases.get(k) ?? 0), 0);
      const med = names.map((k) => [k, median(runs.map((r) => of(r, k)))] as const).sort((x, y) => y[1] - x[1]);
      console.log(`    ${l} phases (sampled, medians): ${med.map(([k, v]) => `${k} ${ms(v)}`).join(", ")}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
