// Runs followed live, beside a plain load of the same logs.
//
//   npx tsx scripts/bench-live.ts [--runs 1] [--seconds 60] [--only 1,2] [--dist DIR] [--profile F] [--trace F]
//
// 1. The 24-hour log (86,400 one-second intervals, tests/support/day-log.ts) appended at speed
//    through the engine's `append` request, a minute of lines a piece, beside a load of the
//    finished file: the time, the memory held after a collection (heap and array buffers), and
//    the Markdown table and the timeline compared digit for digit (goal: equal, and within 20 %
//    of the load's memory).
// 2. The page served by `serve` (dist/, npm run build) with 10 logs each written one interval a
//    second, after --history S seconds (90) already written: from the write of a line to its row's count changing on the page, p50/p95/max
//    (goal: p95 within 1 s), and the page's main-thread CPU while it follows (CDP TaskDuration;
//    the engine worker's own CPU is not in it), with, on Linux, the CPU time the renderer's main
//    thread was given (TaskDuration counts the tasks' wall time: a busy machine inflates it).
//    --profile writes the main thread's CPU profile and prints its heaviest functions; --trace
//    writes a Chromium trace and prints the main thread's time by event (style, layout, paint).
//    On Linux the page's CPU is also printed thread by thread (the engine worker, V8's helper
//    threads, the compositor). --profile-worker F writes the engine worker's CPU profile (F.<n>
//    per worker) and prints its heaviest functions; --alloc F samples what the main thread and
//    the workers allocate (collected objects included) and prints the bytes a second by function:
//    V8's helper threads mostly collect that garbage. --dist DIR serves another build (another
//    checkout's dist/), measured by this same script. --slice S prints the page's CPU for each
//    S seconds while it follows (does it settle once the JIT has warmed?).
//    --idle writes nothing while measuring (a followed page that only waits); --mutations counts the
//    nodes and texts the page changes a second; --trace-categories adds trace categories to --trace.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "hdr-histogram-js";
import { chromium } from "playwright-core";
import { writeHlog } from "../tests/support/hlog-fixture";
import { dayLogName, writeDayLog } from "../tests/support/day-log";
import { findBrowser } from "./browser.mjs";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const RUNS = Math.max(1, Number(arg("--runs", "1")) || 1);
const SECONDS = Math.max(5, Number(arg("--seconds", "60")) || 60);
const ONLY = new Set(arg("--only", "1,2").split(",").map(Number));
/** Writes the page's main-thread CPU profile while it follows (a .cpuprofile for DevTools) and prints its heaviest functions. */
const PROFILE = arg("--profile", "");
/** Writes a Chromium trace of the page while it follows and prints where its main thread's time went (style, layout, paint, script). */
const TRACE = arg("--trace", "");
/** More trace categories for --trace, comma-separated (e.g. toplevel,ipc,mojom: what the main thread's bare tasks are). */
const TRACE_MORE = arg("--trace-categories", "").split(",").filter(Boolean);
/** Writes the workers' CPU profiles (the engine's and its helpers') and prints their heaviest functions. */
const PROFILE_WORKER = arg("--profile-worker", "");
/** Samples the allocations of the main thread and the workers while the page follows, and prints the bytes a second by function. */
const ALLOC = arg("--alloc", "");
/** More arguments for the browser, space-separated (e.g. --js-flags=--trace-deopt, its output seen with DEBUG=pw:browser). */
const BROWSER_ARGS = arg("--browser-args", "").split(" ").filter(Boolean);
/** The built page to serve (another build's dist/ to measure it with this script). */
const DIST = path.resolve(arg("--dist", path.join(root, "dist")));
/** Writes a screenshot of the page (PNG) once the writers have stopped. */
const SHOT = arg("--shot", "");
/** A style sheet added to the page before it follows (e.g. ".plot .curves{display:none}"): what a drawing change would save, without a build. */
const CSS = arg("--css", "");
/** Prints the page's CPU (every thread) for each slice of this many seconds while it follows: whether it settles as the JIT warms. */
const SLICE = Math.max(0, Number(arg("--slice", "0")) || 0);
/**
 * Seconds of each log already written when the page opens it: past its first minute a run's
 * last window (the live panel's) moves with every interval, as it does for most of a run.
 */
const HISTORY = Math.max(1, Number(arg("--history", "90")) || 90);
/** Counts the nodes the page adds and removes while it follows, by parent: what a redraw rebuilds instead of updating. */
const MUTATIONS = process.argv.includes("--mutations");
/** Writes nothing while measuring: the CPU of a followed page that only waits (what every second costs without a redraw). */
const IDLE = process.argv.includes("--idle");

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const mb = (b: number) => (b / 2 ** 20).toFixed(1);

/** A process' stat fields after its command name (field 3 on), or null when it is gone. */
function statOf(path: string): string[] | null {
  try {
    const t = readFileSync(path, "utf8");
    return t.slice(t.lastIndexOf(") ") + 2).split(" ");
  } catch {
    return null;
  }
}

/** The pids of the renderer processes this script's browser started (Linux: /proc; throws elsewhere). */
function ourRenderers(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(pid)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmd.includes("--type=renderer")) continue;
    // Ours: this process among its ancestors (browser, zygote, renderer).
    let up = pid;
    for (let i = 0; i < 6 && up !== "0" && up !== "1"; i++) {
      up = statOf(`/proc/${up}/stat`)?.[1] ?? "0";
      if (up === String(process.pid)) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/**
 * CPU seconds used so far by the renderers this script's browser started (Linux: /proc), or
 * null elsewhere: their main threads, and all their threads (the engine worker, the compositor,
 * V8's helpers: the page's whole CPU). Unlike TaskDuration (the wall time of the tasks), other
 * processes on a busy machine do not inflate it.
 */
function rendererCpu(): { main: number; all: number } | null {
  try {
    let ticks = 0;
    let allTicks = 0;
    let found = false;
    for (const pid of ourRenderers()) {
      // The main thread is the process' first thread; fields 14 and 15 are utime and stime.
      const f = statOf(`/proc/${pid}/task/${pid}/stat`);
      if (!f) continue;
      ticks += Number(f[11]) + Number(f[12]);
      const all = statOf(`/proc/${pid}/stat`);
      if (all) allTicks += Number(all[11]) + Number(all[12]);
      found = true;
    }
    return found ? { main: ticks / 100, all: allTicks / 100 } : null;
  } catch {
    return null;
  }
}

/** CPU seconds so far of each thread of this script's renderers, by thread name (Linux), or null. */
function rendererThreads(): Map<string, number> | null {
  const out = new Map<string, number>();
  try {
    for (const pid of ourRenderers()) {
      let tids: string[] = [];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      for (const tid of tids) {
        const f = statOf(`/proc/${pid}/task/${tid}/stat`);
        if (!f) continue;
        let name = "?";
        try {
          name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
        } catch {
          /* gone */
        }
        if (tid === pid) name = "(main) " + name;
        out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
      }
    }
    return out;
  } catch {
    return null;
  }
}

/** The threads' share of one core between two readings, busiest first. */
function printThreads(a: Map<string, number>, b: Map<string, number>, seconds: number): void {
  const rows = [...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const).filter(([, v]) => v > 0);
  rows.sort((x, y) => y[1] - x[1]);
  console.log(`     the page's threads, % of one core: ${rows.map(([k, v]) => `${k} ${((v / seconds) * 100).toFixed(1)}`).join("; ")}`);
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** Bytes allocated a second by function (own allocations), and the total. */
function printAlloc(title: string, head: SamplingNode, seconds: number): void {
  const by = new Map<string, number>();
  let total = 0;
  const walk = (n: SamplingNode) => {
    const key = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
    by.set(key, (by.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(head);
  const kb = (x: number) => (x / seconds / 1024).toFixed(0);
  console.log(`     ${title}: allocated ${kb(total)} KB/s; by function (own, KB/s):`);
  for (const [k, v] of [...by].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`     ${kb(v).padStart(7)}  ${k}`);
}

/**
 * The page's dedicated workers, reached through the page's session (auto-attach without
 * flattening: their messages travel inside Target.sendMessageToTarget, which Playwright's
 * session can send).
 */
class Workers {
  readonly ids: { sessionId: string; url: string }[] = [];
  private next = 1;
  private readonly waiting = new Map<number, { res: (v: unknown) => void; rej: (e: Error) => void }>();

  constructor(private readonly cdp: import("playwright-core").CDPSession) {
    cdp.on("Target.attachedToTarget", (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
      if (e.targetInfo.type === "worker") this.ids.push({ sessionId: e.sessionId, url: e.targetInfo.url });
    });
    cdp.on("Target.receivedMessageFromTarget", (e: { message: string }) => {
      const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
      const w = m.id === undefined ? undefined : this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id!);
      if (m.error) w.rej(new Error(m.error.message));
      else w.res(m.result);
    });
  }

  async attach(): Promise<void> {
    await this.cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    await new Promise((r) => setTimeout(r, 500));
  }

  send<T>(sessionId: string, method: string, params: object = {}): Promise<T> {
    const id = this.next++;
    const p = new Promise<T>((res, rej) => this.waiting.set(id, { res: res as (v: unknown) => void, rej }));
    void this.cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    return p;
  }
}

// ---------------------------------------------------------------- 1: the day, appended vs loaded

/** The store of a load or of the appends; a function of its own, so that nothing else of it stays reachable. */
async function built(
  mode: "load" | "live",
  file: string,
  Store: typeof import("../src/engine/store").Store,
  handle: typeof import("../src/engine/handle").handle,
): Promise<{ store: InstanceType<typeof Store>; ms: number }> {
  const store = new Store();
  const text = readFileSync(file, "utf8");
  const t0 = performance.now();
  if (mode === "load") await store.load(path.basename(file), [text]);
  else {
    const lines = text.split(/(?<=\n)/);
    for (let i = 0; i < lines.length; i += 60)
      await handle(store, { kind: "append", pieces: [{ file: path.basename(file), run: 1, start: i === 0, text: lines.slice(i, i + 60).join("") }] }, () => undefined);
  }
  return { store, ms: performance.now() - t0 };
}

/**
 * The process' memory once what is unreachable has gone: collected after the event loop has
 * turned (a WeakRef's target handed out in a task is kept until that task ends), and again once
 * V8's background sweeper has freed the dead array buffers' stores (until then they are counted,
 * by a varying amount).
 */
async function settled(gc: () => void): Promise<NodeJS.MemoryUsage> {
  for (let k = 0; k < 3; k++) {
    await new Promise((res) => setTimeout(res, 50));
    gc();
  }
  await new Promise((res) => setTimeout(res, 50));
  return process.memoryUsage();
}

/** Run in a process of its own with --expose-gc, so that its memory is its own. */
async function dayChild(mode: "load" | "live", file: string): Promise<void> {
  const { Store } = await import("../src/engine/store");
  const { handle } = await import("../src/engine/handle");
  const { markdownOf, rowsOf } = await import("../src/cli/report");
  const { parseRequirement } = await import("../src/core/requirements");
  const gc = (globalThis as { gc?: () => void }).gc!;
  // What the store holds, the text it keeps included: measured from before the file was read,
  // after this function let go of its own copy of the text.
  const before = await settled(gc);
  const { store, ms } = await built(mode, file, Store, handle);
  const after = await settled(gc);
  const req = parseRequirement("p99<=5ms, p99.9<=50ms, max<=500ms");
  if (!req.ok) throw new Error("requirement");
  const table = markdownOf(rowsOf(store.views(), req.value), req.value, { start: null, end: null }, "ms", null);
  const tl = store.timeline({ t0: null, t1: null, columns: 1200, percentiles: [50, 99, 99.9] });
  const lane = tl.series[0]!;
  const timeline = JSON.stringify([tl.extent, Array.from(lane.max), Array.from(lane.percentiles["99"]!), Array.from(lane.count)]);
  const held = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
  process.stdout.write(
    JSON.stringify({ ms, held, heap: after.heapUsed - before.heapUsed, ab: after.arrayBuffers - before.arrayBuffers, table, timeline, intervals: store.series[0]!.intervals!.n }) +
      "\n",
  );
}

function day(): void {
  const file = path.join(root, ".bench", dayLogName());
  const made = writeDayLog(file);
  console.log(`1. the 24-hour log (${mb(made.bytes)} MB, ${made.intervals} intervals), appended a minute at a time vs loaded`);
  for (let r = 0; r < RUNS; r++) {
    const res: Record<string, { ms: number; held: number; heap: number; ab: number; table: string; timeline: string; intervals: number }> = {};
    for (const mode of ["load", "live"] as const) {
      const p = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", import.meta.filename, "--day-child", mode, file], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 1 << 28,
      });
      if (p.status !== 0) throw new Error(`${mode}: ${p.stderr}`);
      res[mode] = JSON.parse(p.stdout.trim().split("\n").at(-1)!) as (typeof res)[string];
    }
    const a = res.load!;
    const b = res.live!;
    console.log(
      `   run ${r + 1}: load ${(a.ms / 1000).toFixed(2)} s, holds ${mb(a.held)} MB (heap ${mb(a.heap)}, array buffers ${mb(a.ab)}); appended ${(b.ms / 1000).toFixed(2)} s, holds ${mb(b.held)} MB (heap ${mb(b.heap)}, array buffers ${mb(b.ab)}; ${((b.held / a.held) * 100).toFixed(0)} % of the load's); ` +
        `intervals ${b.intervals}/${a.intervals}; table ${a.table === b.table ? "equal" : "DIFFERS"}; timeline ${a.timeline === b.timeline ? "equal" : "DIFFERS"}`,
    );
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions the page spent most of its samples in: their own time, and the time under them (callees included). */
function printHeaviest(p: CpuProfile): void {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const keyOf = (n: CpuProfile["nodes"][number]) => `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
  const byName = new Map<string, number>();
  const under = new Map<string, number>();
  // A function's time under it, counted once per sample even when it recurses.
  const walk = (id: number, onPath: Set<string>): number => {
    const n = byId.get(id)!;
    const key = keyOf(n);
    const own = self.get(id) ?? 0;
    byName.set(key, (byName.get(key) ?? 0) + own);
    const fresh = !onPath.has(key);
    if (fresh) onPath.add(key);
    let total = own;
    for (const c of n.children ?? []) total += walk(c, onPath);
    if (fresh) {
      onPath.delete(key);
      under.set(key, (under.get(key) ?? 0) + total);
    }
    return total;
  };
  const all = walk(p.nodes[0]!.id, new Set());
  const idle = [...byName].filter(([k]) => k.startsWith("(idle)")).reduce((a, [, v]) => a + v, 0);
  console.log(`     sampled ${(all / 1000).toFixed(0)} ms, of which idle ${(idle / 1000).toFixed(0)} ms`);
  const show = (m: Map<string, number>, title: string) => {
    console.log(`     ${title}`);
    const top = [...m]
      .filter(([k]) => !/^\((idle|root)\)/.test(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30);
    for (const [k, us] of top) console.log(`     ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  };
  show(byName, "own time:");
  show(under, "time under (callees included):");
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** The renderer main thread's time by trace event, each event's own time (its nested events' taken out). */
function printTrace(t: { traceEvents: TraceEvent[] }): void {
  const ev = t.traceEvents;
  const main = ev.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return;
  // The renderer's threads by name (the main thread, the workers, V8's helpers in the thread pool).
  const names = new Map<number, string>();
  for (const e of ev) if (e.pid === main.pid && e.ph === "M" && e.name === "thread_name") names.set(e.tid, e.args?.name ?? "?");
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of ev) {
    if (e.pid !== main.pid || e.ph !== "X" || e.dur === undefined) continue;
    const name = (names.get(e.tid) ?? "?").replace(/[0-9/]+$/, "");
    const xs = byThread.get(name) ?? [];
    xs.push(e);
    byThread.set(name, xs);
  }
  // Raster by layer (the layer ids the --shot listing names): which chart's tiles cost most.
  const raster = new Map<string, [number, number]>();
  for (const e of ev)
    if (e.pid === main.pid && e.ph === "X" && e.name === "RasterTask") {
      const id = String((e.args as { tileData?: { layerId?: number } } | undefined)?.tileData?.layerId ?? "?");
      const v = raster.get(id) ?? [0, 0];
      v[0]++;
      v[1] += e.dur ?? 0;
      raster.set(id, v);
    }
  if (raster.size)
    console.log(
      `     raster by layer: ${[...raster]
        .sort((a, b) => b[1][1] - a[1][1])
        .slice(0, 8)
        .map(([k, [n, us]]) => `${k}: ${n} tiles ${(us / 1000).toFixed(0)} ms`)
        .join("; ")}`,
    );
  for (const [thread, all] of byThread) {
    // Per thread id, nested events' time taken out of their parents'.
    const own = new Map<string, number>();
    let top = 0;
    const tids = new Set(all.map((e) => e.tid));
    for (const tid of tids) {
      const xs = all.filter((e) => e.tid === tid).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
      const stack: { e: TraceEvent; child: number }[] = [];
      const close = (upTo: number) => {
        while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= upTo) {
          const s = stack.pop()!;
          own.set(s.e.name, (own.get(s.e.name) ?? 0) + s.e.dur! - s.child);
        }
      };
      for (const e of xs) {
        close(e.ts);
        if (stack.length) stack.at(-1)!.child += e.dur!;
        else top += e.dur!;
        stack.push({ e, child: 0 });
      }
      close(Infinity);
    }
    if (top < 20_000) continue;
    console.log(`     ${thread} (${tids.size} threads) in trace events: ${(top / 1000).toFixed(0)} ms; own time by event:`);
    for (const [k, us] of [...own].sort((a, b) => b[1] - a[1]).slice(0, thread === "CrRendererMain" ? 25 : 10)) console.log(`     ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
}

// ---------------------------------------------------------------- 2: ten series, one interval a second, in the page

function seriesLines(seed: number, n: number): { header: string; lines: string[] } {
  const ivs = [];
  for (let i = 0; i < n; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < 500; k++) h.recordValue(200_000 + ((seed * 7919 + i * 104_729 + k * 15_485_863) % 3_000_000));
    ivs.push({ start: i, length: 1, histogram: h });
  }
  const all = writeHlog(ivs).split("\n").slice(0, -1);
  const first = all.findIndex((l) => /^[0-9]/.test(l));
  return { header: all.slice(0, first).join("\n") + "\n", lines: all.slice(first).map((l) => l + "\n") };
}

async function tenSeries(): Promise<void> {
  const { startServer } = await import("../src/cli/serve");
  console.log(`2. 10 series, one interval a second each for ${SECONDS} s after ${HISTORY} s already written, followed by the page served by serve`);
  for (let r = 0; r < RUNS; r++) {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-live-"));
    const logs = Array.from({ length: 10 }, (_, k) => ({ file: path.join(dir, `s${k}.hlog`), ...seriesLines(k + 1, SECONDS + HISTORY) }));
    for (const l of logs) writeFileSync(l.file, l.header + l.lines.slice(0, HISTORY).join(""));
    const server = await startServer({ paths: [dir], host: "127.0.0.1", port: 0, pageDir: DIST });
    const browser = await chromium.launch({ executablePath: findBrowser() ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", ...BROWSER_ARGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: CSS !== "" });
      await page.goto(server.url);
      await page.waitForFunction(
        () => document.querySelectorAll("[data-testid=series]").length === 10 && document.querySelector("[data-testid=app]")?.getAttribute("data-busy") === "false",
        null,
        {
          timeout: 60_000,
        },
      );
      // The workers' idle warm-up (warm-up.ts) reads a synthetic log once after any page opens:
      // a cost of opening the page, not of following, so the measure starts once it is over.
      const warm0 = Date.now();
      for (;;) {
        const states = await Promise.all(page.workers().map((w) => w.evaluate(() => (self as unknown as { hdrWarmUp?: string }).hdrWarmUp ?? "not started").catch(() => "gone")));
        if (states.every((x) => x === "over" || x === "gone") || Date.now() - warm0 > 60_000) break;
        await new Promise((res) => setTimeout(res, 250));
      }
      if (CSS) await page.addStyleTag({ content: CSS });
      console.log(`     the workers' warm-up over ${((Date.now() - warm0) / 1000).toFixed(1)} s after the page was ready`);
      // Each row's count changes, with the wall-clock time they were seen in the DOM.
      await page.evaluate(() => {
        const seen: [string, string, number][] = [];
        (window as unknown as { __seen: typeof seen }).__seen = seen;
        new MutationObserver((ms) => {
          const now = Date.now();
          for (const m of ms) {
            const el = m.target as Element;
            if (el.getAttribute("data-testid") === "series") seen.push([el.getAttribute("data-source") ?? "", el.getAttribute("data-count") ?? "", now]);
          }
        }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-count"] });
        // The curves' path data set again, by chart (in document order): how often a curve is
        // drawn anew, the rest being left alone.
        const redrawn: Record<string, number> = {};
        (window as unknown as { __redrawn: typeof redrawn }).__redrawn = redrawn;
        // Each chart's place in the document, looked up again only for a chart not seen before:
        // the count is the bench's own work on the page's main thread, kept small.
        let order = new Map<Element, number>();
        new MutationObserver((ms) => {
          for (const m of ms) {
            const el = m.target as Element;
            if (!el.hasAttribute("data-series") || el.getAttribute("d") === m.oldValue) continue;
            const svg = el.closest("svg[data-testid=percentile-plot]");
            if (!svg) continue;
            if (!order.has(svg)) order = new Map([...document.querySelectorAll("svg[data-testid=percentile-plot]")].map((x, i) => [x, i]));
            const k = `spectrum ${order.get(svg)}`;
            redrawn[k] = (redrawn[k] ?? 0) + 1;
          }
        }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["d"] });
      });
      if (MUTATIONS)
        // A string, not a function: the script runner's helper for function names is not in the page.
        await page.evaluate(`(() => {
          const by = {};
          window.__nodes = by;
          const label = (el) => {
            const parts = [];
            for (let e = el; e && parts.length < 3; e = e.parentElement)
              parts.push(e.tagName.toLowerCase() + (e.getAttribute("data-testid") ? "[" + e.getAttribute("data-testid") + "]" : e.getAttribute("class") ? "." + e.getAttribute("class").split(" ")[0] : ""));
            return parts.join(" < ");
          };
          new MutationObserver((ms) => {
            for (const m of ms) {
              const k = m.type === "characterData" ? "text in " + label(m.target.parentElement) : label(m.target);
              by[k] = (by[k] ?? 0) + (m.type === "characterData" ? 1 : m.addedNodes.length + m.removedNodes.length);
            }
          }).observe(document.body, { subtree: true, childList: true, characterData: true });
        })()`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable");
      const task = async () => ((await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration")?.value ?? 0) as number;
      if (PROFILE) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.start");
      }
      const workers = new Workers(cdp);
      if (PROFILE_WORKER || ALLOC) await workers.attach();
      for (const w of workers.ids) {
        if (PROFILE_WORKER) {
          await workers.send(w.sessionId, "Profiler.enable");
          await workers.send(w.sessionId, "Profiler.start");
        }
        if (ALLOC) {
          await workers.send(w.sessionId, "HeapProfiler.enable");
          await workers.send(w.sessionId, "HeapProfiler.startSampling", {
            samplingInterval: 16384,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          });
        }
      }
      if (ALLOC) {
        await cdp.send("HeapProfiler.enable");
        await cdp.send("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
      }
      if (TRACE)
        await browser.startTracing(page, {
          categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "disabled-by-default-v8.gc", "disabled-by-default-v8.compile", ...TRACE_MORE],
        });
      const cpu0 = await task();
      const own0 = rendererCpu();
      const threads0 = rendererThreads();
      const wall0 = Date.now();
      const writes: { source: string; count: number; at: number }[] = [];
      const perInterval = 500;
      let slice0 = { at: wall0, cpu: own0 };
      for (let s = 0; s < SECONDS; s++) {
        const tick = wall0 + s * 1000;
        if (SLICE > 0 && s > 0 && s % SLICE === 0) {
          const now = { at: Date.now(), cpu: rendererCpu() };
          if (now.cpu && slice0.cpu)
            console.log(
              `     seconds ${s - SLICE}–${s}: the page's every thread ${(((now.cpu.all - slice0.cpu.all) / ((now.at - slice0.at) / 1000)) * 100).toFixed(1)} % of one core`,
            );
          slice0 = now;
        }
        for (let k = 0; k < logs.length; k++) {
          // The ten writers each write at their own moment in the second.
          const at = tick + k * 100;
          const wait = at - Date.now();
          if (wait > 0) await new Promise((res) => setTimeout(res, wait));
          if (IDLE) continue;
          appendFileSync(logs[k]!.file, logs[k]!.lines[HISTORY + s]!);
          writes.push({ source: `s${k}.hlog`, count: (HISTORY + 1 + s) * perInterval, at: Date.now() });
        }
      }
      await new Promise((res) => setTimeout(res, 3000));
      const cpu1 = await task();
      const own1 = rendererCpu();
      const threads1 = rendererThreads();
      const wall1 = Date.now();
      const secs = (wall1 - wall0) / 1000;
      if (threads0 && threads1) printThreads(threads0, threads1, secs);
      if (ALLOC) {
        const { profile } = (await cdp.send("HeapProfiler.stopSampling")) as unknown as { profile: { head: SamplingNode } };
        writeFileSync(`${ALLOC}.main.heapprofile`, JSON.stringify(profile));
        printAlloc("main thread", profile.head, secs);
      }
      for (const [n, w] of workers.ids.entries()) {
        if (ALLOC) {
          const { profile } = await workers.send<{ profile: { head: SamplingNode } }>(w.sessionId, "HeapProfiler.stopSampling");
          writeFileSync(`${ALLOC}.${n}.heapprofile`, JSON.stringify(profile));
          printAlloc(`worker ${n} (${w.url.split("/").pop()})`, profile.head, secs);
        }
        if (PROFILE_WORKER) {
          const { profile } = await workers.send<{ profile: CpuProfile }>(w.sessionId, "Profiler.stop");
          writeFileSync(`${PROFILE_WORKER}.${n}.cpuprofile`, JSON.stringify(profile));
          console.log(`     worker ${n} (${w.url.split("/").pop()}):`);
          printHeaviest(profile);
        }
      }
      if (PROFILE) {
        const { profile } = await cdp.send("Profiler.stop");
        writeFileSync(PROFILE, JSON.stringify(profile));
        printHeaviest(profile as unknown as CpuProfile);
      }
      if (TRACE) {
        const buf = await browser.stopTracing();
        writeFileSync(TRACE, buf);
        printTrace(JSON.parse(buf.toString("utf8")) as { traceEvents: TraceEvent[] });
      }
      if (SHOT) {
        await page.screenshot({ path: SHOT, fullPage: true });
        const paths = await page.evaluate(() =>
          [...document.querySelectorAll("svg")].map((s) => [
            s.getAttribute("width"),
            s.getAttribute("height"),
            [...s.querySelectorAll("path")].map((p) => (p.getAttribute("d") ?? "").split(/[ML]/).length).join(","),
          ]),
        );
        console.log(`     the page's charts (width, height, points per path): ${JSON.stringify(paths)}`);
        const layers = new Promise<{ layerId: string; width: number; height: number; paintCount: number; backendNodeId?: number; drawsContent: boolean }[]>((res) =>
          cdp.once("LayerTree.layerTreeDidChange", (e) => res((e.layers ?? []) as never)),
        );
        await cdp.send("DOM.enable");
        await cdp.send("LayerTree.enable");
        for (const l of (await layers).filter((x) => x.drawsContent)) {
          let what = "";
          if (l.backendNodeId) {
            const d = await cdp.send("DOM.describeNode", { backendNodeId: l.backendNodeId }).catch(() => null);
            what = d ? `${d.node.nodeName} ${(d.node.attributes ?? []).join(" ").slice(0, 60)}` : "";
          }
          console.log(`     layer ${l.layerId} ${l.width}x${l.height} painted ${l.paintCount} ${what}`);
        }
      }
      const seen = await page.evaluate(() => (window as unknown as { __seen: [string, string, number][] }).__seen);
      const redrawn = await page.evaluate(() => (window as unknown as { __redrawn: Record<string, number> }).__redrawn);
      if (MUTATIONS) {
        const nodes = await page.evaluate(() => (window as unknown as { __nodes: Record<string, number> }).__nodes);
        console.log(`     nodes added or removed, and texts changed, a second, by where (while following):`);
        for (const [k, n] of Object.entries(nodes)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25))
          console.log(`     ${(n / secs).toFixed(1).padStart(7)}  ${k}`);
      }
      console.log(`     curves drawn anew (path data changed) while following, by chart: ${JSON.stringify(redrawn)}`);
      const lat: number[] = [];
      let missed = 0;
      for (const w of writes) {
        const hit = seen.find(([src, c, t]) => src === w.source && Number(c) >= w.count && t >= w.at);
        if (hit) lat.push(hit[2] - w.at);
        else missed++;
      }
      console.log(
        `   run ${r + 1}: write → row count on the page: p50 ${quantile(lat, 0.5)} ms, p95 ${quantile(lat, 0.95)} ms, max ${Math.max(...lat)} ms over ${lat.length} intervals` +
          `${missed ? `, ${missed} never seen` : ""}; the page's main thread busy ${(((cpu1 - cpu0) / ((wall1 - wall0) / 1000)) * 100).toFixed(1)} % of one core` +
          (own0 !== null && own1 !== null
            ? ` (its CPU time ${(((own1.main - own0.main) / ((wall1 - wall0) / 1000)) * 100).toFixed(1)} %; the page's every thread, workers included, ${(((own1.all - own0.all) / ((wall1 - wall0) / 1000)) * 100).toFixed(1)} %)`
            : ""),
      );
    } finally {
      await browser.close();
      await server.close();
    }
  }
}

if (process.argv[2] === "--day-child") await dayChild(process.argv[3] as "load" | "live", process.argv[4]!);
else {
  if (ONLY.has(1)) day();
  if (ONLY.has(2)) await tenSeries();
}
