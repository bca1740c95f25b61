// The Prometheus fleet in the page (bench-prometheus.ts --page): the production build served by
// vite preview, Debian's Chromium, the query asked through the real "Add from Prometheus…" form
// (the answer comes through the page's request frame to the engine worker, as a person's would).
//
// Time: from the endpoint's last byte (the endpoint process says when it wrote it, on the epoch
// clock every process here shares) to the frame painted with every series drawn (data-busy false
// with all the rows, then the next frame); then the page's merge action, from the click on
// "Merge" to the frame painted with the merged series.
//
// Memory: every renderer process of this browser (it has one context and one page: the page's
// main thread, the engine worker and its helpers and the request frame, and the renderers
// Chromium starts beside them), from /proc: the sum of their resident anonymous and shared
// memory (RssAnon + RssShmem: heaps, array buffers, Chromium's allocations), sampled every
// 100 ms for the peak, and again after HeapProfiler.collectGarbage on the page and each worker.
// Their file-backed pages (Chromium's code and fonts, mapped by every process of it) are left
// out and their whole VmRSS is said beside. The browser, GPU and network processes are not
// counted. The page's own renderer (the one that runs its workers: it has DedicatedWorker
// threads) is also said apart: the others host Chromium's own pages (its address bar's popups,
// chrome://omnibox-popup), started with the browser whatever page it shows.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core";
import { LONG_LIST, ROWS_SHOWN } from "../../src/ui/hooks/use-in-slices";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, closeQuietly, cleanup, freePort, newPage, setBrowser, startPreview, withTimeout, WorkerSession } from "./harness";

export interface Fleet {
  url: string;
  series: number;
  start: number;
  end: number;
  step: number;
  /** Bytes of the endpoint's last answer. */
  bytes: () => number;
  /** When the endpoint wrote its last answer's last byte (epoch ms). */
  lastByteEpoch: () => number;
  /** Bytes of the answer written so far. */
  sent: () => number;
}

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;

/** Renderer processes that descend from this process (the browser it launched): their own resident memory and whole VmRSS in bytes. */
function renderers(): { pid: number; own: number; rss: number; anon: number; shmem: number }[] {
  return processes().filter((p) => p.renderer);
}

/** Renderers seen running a dedicated worker: the page's (the engine worker and its helpers run there). */
const pageRenderers = new Set<number>();

/** Whether renderer `pid` is the page's: it runs, or ran, a worker (a thread named DedicatedWorker…). */
function isPage(pid: number): boolean {
  if (pageRenderers.has(pid)) return true;
  try {
    for (const t of readdirSync(`/proc/${pid}/task`))
      if (readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").startsWith("DedicatedWorker")) {
        pageRenderers.add(pid);
        return true;
      }
  } catch {
    // gone meanwhile
  }
  return false;
}

/** The browser's processes (those that descend from this one): renderers and the browser process itself, with their memory by kind. */
function processes(): { pid: number; renderer: boolean; browser: boolean; own: number; rss: number; anon: number; shmem: number }[] {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(d), ppid);
      cmd.set(Number(d), readFileSync(`/proc/${d}/cmdline`, "utf8"));
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  const out: ReturnType<typeof processes> = [];
  for (const [pid, c] of cmd) {
    const renderer = c.includes("--type=renderer");
    // The browser process: launched by this one, with no --type of its own.
    const browser = parent.get(pid) === process.pid && !c.includes("--type=") && c.includes("chrom");
    if (!(renderer || browser) || !ours(pid)) continue;
    try {
      const st = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(st)?.[1] ?? 0) * 1024;
      out.push({ pid, renderer, browser, own: kb("RssAnon") + kb("RssShmem"), rss: kb("VmRSS"), anon: kb("RssAnon"), shmem: kb("RssShmem") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface Rss {
  own: number;
  /** The page's renderer's own memory (isPage). */
  page: number;
  rss: number;
  /** Each renderer's own memory, "pid: MB". */
  each: string;
}

function rssSum(): Rss {
  const rs = renderers();
  return {
    own: rs.reduce((a, r) => a + r.own, 0),
    page: rs.reduce((a, r) => a + (isPage(r.pid) ? r.own : 0), 0),
    rss: rs.reduce((a, r) => a + r.rss, 0),
    each: rs.map((r) => `${r.pid}: ${mb(r.own)}`).join(", "),
  };
}

/** A full collection in the page and each of its workers; then the renderers' RSS and the heaps' use. */
async function collected(b: Browser, page: Page): Promise<{ rss: Rss; heap: number; buffers: number; workers: number }> {
  type Usage = { usedSize: number; backingStorageSize?: number };
  const ps = await page.context().newCDPSession(page);
  await withTimeout("page GC", 60_000, () => ps.send("HeapProfiler.collectGarbage"));
  const main = (await ps.send("Runtime.getHeapUsage")) as Usage;
  await ps.detach().catch(() => undefined);
  let heap = main.usedSize;
  let buffers = main.backingStorageSize ?? 0;
  const wss = await withTimeout("attach to the workers", 15_000, () => WorkerSession.attachAll(b, page));
  for (const w of wss) {
    await withTimeout("worker GC", 60_000, () => w.send("HeapProfiler.collectGarbage"));
    const u = await w.send<Usage>("Runtime.getHeapUsage");
    heap += u.usedSize;
    buffers += u.backingStorageSize ?? 0;
    await w.close();
  }
  // Freed pages go back to the system a little after the collection.
  await new Promise((r) => setTimeout(r, 1000));
  return { rss: rssSum(), heap, buffers, workers: wss.length };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type HeapUsage = { usedSize: number; totalSize: number; backingStorageSize?: number };

interface TraceSample {
  /** ms since the trace began. */
  t: number;
  /** Bytes the endpoint has written. */
  sent: number;
  /** Each renderer's RssAnon and RssShmem, and the browser process' RssAnon (where the Blobs' bytes go). */
  renderers: { pid: number; anon: number; shmem: number }[];
  browserAnon: number;
  /** The page's isolate (its main thread and the request frame) and each worker's: JS heap used and reserved, array buffers. */
  heaps: { name: string; used: number; total: number; buffers: number; at: number }[];
}

/**
 * Memory every ~100 ms while the fleet loads and merges (--trace): the renderers' RSS by kind,
 * the browser process', and each isolate's JS heap and array buffers (Runtime.getHeapUsage on
 * the page and each worker, asked without waiting on a busy one: its last answer stands).
 */
class MemoryTrace {
  readonly samples: TraceSample[] = [];
  /** Chromium's own accounts of the renderers' memory by allocator (memory-infra dumps), one per printed line. */
  readonly dumps: { t: number; byPid: Map<number, Record<string, number>> }[] = [];
  private tracing: CDPSession | null = null;
  private readonly dumped: Promise<unknown>[] = [];
  private nextDump = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly last = new Map<string, { used: number; total: number; buffers: number; at: number }>();
  private readonly pending = new Set<string>();
  private targets: { name: string; usage: () => Promise<HeapUsage>; close: () => Promise<void> }[] = [];
  private t0 = 0;

  constructor(private readonly sent: () => number) {}

  async start(b: Browser, page: Page): Promise<void> {
    const ps = await page.context().newCDPSession(page);
    const wss = await WorkerSession.attachAll(b, page);
    // Workers start from blob: addresses: their names (engine, helper) say which is which.
    const names = await Promise.all(
      wss.map((w, i) =>
        withTimeout("a worker's name", 5000, () => w.send<{ result: { value?: unknown } }>("Runtime.evaluate", { expression: "self.name" })).then(
          (r) => `${typeof r.result.value === "string" && r.result.value ? r.result.value : "worker"}${i}`,
          () => `worker${i}`,
        ),
      ),
    );
    this.targets = [
      { name: "page", usage: () => ps.send("Runtime.getHeapUsage") as Promise<HeapUsage>, close: () => ps.detach().catch(() => undefined) },
      ...wss.map((w, i) => ({ name: names[i]!, usage: () => w.send<HeapUsage>("Runtime.getHeapUsage"), close: () => w.close() })),
    ];
    this.t0 = performance.now();
    this.timer = setInterval(() => this.sample(), 100);
  }

  /** Also asks Chromium for a memory dump every `every` ms (its allocators: V8, Oilpan, PartitionAlloc, malloc …). */
  async startDumps(b: Browser, every: number): Promise<void> {
    const bs = await b.newBrowserCDPSession();
    this.tracing = bs;
    const events: { ph: string; pid: number; ts: number; args?: { dumps?: { allocators?: Record<string, { attrs?: Record<string, { value: string }> }> } } }[] = [];
    bs.on("Tracing.dataCollected", (e) => events.push(...(e.value as unknown as typeof events)));
    this.collectDumps = async () => {
      const done = new Promise<void>((r) => bs.once("Tracing.tracingComplete", () => r()));
      await bs.send("Tracing.end");
      await done;
      const byTs = new Map<number, Map<number, Record<string, number>>>();
      for (const e of events) {
        const al = e.ph === "v" ? e.args?.dumps?.allocators : undefined;
        if (!al) continue;
        const out: Record<string, number> = {};
        for (const [name, d] of Object.entries(al)) {
          const size = d.attrs?.size?.value;
          // The allocators' totals and a few of their parts (a path's depth says which).
          if (size === undefined || name.split("/").length > 3) continue;
          out[name] = Number.parseInt(size, 16);
        }
        let m = byTs.get(e.ts);
        if (!m) byTs.set(e.ts, (m = new Map()));
        m.set(e.pid, out);
      }
      const ts = [...byTs.keys()].sort((a, b) => a - b);
      ts.forEach((t, i) => this.dumps.push({ t: this.dumpAt[i] ?? NaN, byPid: byTs.get(t)! }));
    };
    await bs.send("Tracing.start", {
      traceConfig: { includedCategories: ["disabled-by-default-memory-infra"], excludedCategories: ["*"], memoryDumpConfig: { triggers: [] } as unknown as Record<string, never> },
      transferMode: "ReportEvents",
    });
    this.dumpEvery = every;
  }

  private dumpEvery = 0;
  private readonly dumpAt: number[] = [];
  private collectDumps: (() => Promise<void>) | null = null;

  sample(): void {
    const now = performance.now() - this.t0;
    if (this.tracing && this.dumpEvery > 0 && now >= this.nextDump) {
      this.nextDump = now + this.dumpEvery;
      this.dumpAt.push(now);
      this.dumped.push(this.tracing.send("Tracing.requestMemoryDump", { deterministic: false, levelOfDetail: "detailed" }).catch(() => undefined));
    }
    for (const x of this.targets) {
      if (this.pending.has(x.name)) continue;
      this.pending.add(x.name);
      x.usage().then(
        (u) => {
          this.pending.delete(x.name);
          this.last.set(x.name, { used: u.usedSize, total: u.totalSize, buffers: u.backingStorageSize ?? 0, at: performance.now() - this.t0 });
        },
        () => this.pending.delete(x.name),
      );
    }
    const ps = processes();
    this.samples.push({
      t: performance.now() - this.t0,
      sent: this.sent(),
      renderers: ps.filter((p) => p.renderer).map((p) => ({ pid: p.pid, anon: p.anon, shmem: p.shmem })),
      browserAnon: ps.find((p) => p.browser)?.anon ?? 0,
      heaps: this.targets.map((x) => ({ name: x.name, ...(this.last.get(x.name) ?? { used: 0, total: 0, buffers: 0, at: -Infinity }) })),
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.tracing) {
      await Promise.all(this.dumped);
      await this.collectDumps?.();
      await this.tracing.detach().catch(() => undefined);
      this.tracing = null;
    }
    for (const x of this.targets) await x.close();
    this.targets = [];
  }

  /** A line per `every` ms (and the peak's), in MB: time, bytes sent, each renderer's anon+shmem, the browser's anon, each isolate's heap used/reserved and buffers. */
  print(label: string, every = 1000): string {
    const m = (b: number) => (b / 1e6).toFixed(0);
    const own = (x: TraceSample) => x.renderers.reduce((a, r) => a + r.anon + r.shmem, 0);
    const peak = this.samples.reduce((a, x) => (own(x) > own(a) ? x : a), this.samples[0]!);
    const rows: string[] = [];
    let next = 0;
    for (const x of this.samples) {
      if (x !== peak && x.t < next) continue;
      next = x.t + every;
      rows.push(
        [
          `${(x.t / 1000).toFixed(1).padStart(5)} s`,
          `sent ${m(x.sent).padStart(4)}`,
          `renderers ${m(own(x)).padStart(4)} = ${x.renderers.map((r) => `${m(r.anon)}+${m(r.shmem)}`).join(" ")}`,
          `browser ${m(x.browserAnon)}`,
          // A busy isolate answers late: its figures older than half a second are marked with their age.
          x.heaps.map((h) => `${h.name} ${m(h.used)}/${m(h.total)} ab ${m(h.buffers)}${x.t - h.at > 500 ? ` (${((x.t - h.at) / 1000).toFixed(1)} s old)` : ""}`).join(", "),
          x === peak ? "<- peak" : "",
        ].join(" | "),
      );
    }
    const dumps = this.dumps.map(
      (d) =>
        `${(d.t / 1000).toFixed(1).padStart(5)} s | ${[...d.byPid]
          .map(
            ([pid, a]) =>
              `${pid}: ${Object.entries(a)
                .filter(([, v]) => v >= 5e6)
                .sort((x, y) => y[1] - x[1])
                .map(([k, v]) => `${k} ${m(v)}`)
                .join(", ")}`,
          )
          .join(" || ")}`,
    );
    return `memory while ${label} (MB; renderers: RssAnon+RssShmem each; heaps: JS used/reserved, ab: array buffers, as last answered):\n    ${rows.join("\n    ")}${dumps.length ? `\n  Chromium's allocators (memory-infra, each process, parts of 5 MB or more):\n    ${dumps.join("\n    ")}` : ""}`;
  }
}

export interface PageRun {
  drawn: number;
  merged: number;
  peak: number;
  /** The page's renderer's peak (isPage). */
  pagePeak: number;
  loadedKept: number;
  mergedKept: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The functions that took most of a CPU profile's samples (self time), heaviest first. */
function heaviest(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, top: number): string {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, us]) => `${(us / 1000).toFixed(0)} ms ${k}`)
    .join("\n      ");
}

/** CPU profiles of the page and its workers from `from` (resolved) to `done`. */
async function profileBetween(b: Browser, page: Page, from: () => Promise<void>, done: Promise<unknown>): Promise<string> {
  const ps = await page.context().newCDPSession(page);
  const wss = await WorkerSession.attachAll(b, page);
  const targets: { name: string; send: <T>(m: string, p?: Record<string, unknown>) => Promise<T> }[] = [
    { name: "page", send: <T>(m: string, p?: Record<string, unknown>) => ps.send(m as "Profiler.start", p) as Promise<T> },
    ...wss.map((w) => ({ name: w.url.split("/").pop()!, send: <T>(m: string, p?: Record<string, unknown>) => w.send<T>(m, p) })),
  ];
  for (const t of targets) await t.send("Profiler.enable");
  await from();
  for (const t of targets) await t.send("Profiler.start");
  await done;
  const out: string[] = [];
  for (const t of targets) {
    const { profile } = await t.send<{ profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } }>("Profiler.stop");
    out.push(`${t.name}:\n      ${heaviest(profile, 12)}`);
  }
  for (const w of wss) await w.close();
  await ps.detach().catch(() => undefined);
  return out.join("\n    ");
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * V8's sampling heap profiler on the page and each worker (--heap): started before the query,
 * read at `read()`: the allocation sites of what is still alive then (sampled), largest first.
 */
async function heapSampling(b: Browser, page: Page): Promise<{ read: (label: string) => Promise<string>; stop: () => Promise<void> }> {
  const ps = await page.context().newCDPSession(page);
  const wss = await WorkerSession.attachAll(b, page);
  const targets = [
    { name: "page", send: <T>(m: string, p?: Record<string, unknown>) => ps.send(m as "HeapProfiler.enable", p) as Promise<T> },
    ...wss.map((w, i) => ({ name: `worker${i}`, send: <T>(m: string, p?: Record<string, unknown>) => w.send<T>(m, p) })),
  ];
  for (const t of targets) {
    await t.send("HeapProfiler.enable");
    await t.send("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: false, includeObjectsCollectedByMinorGC: false });
  }
  return {
    read: async (label) => {
      const out: string[] = [];
      for (const t of targets) {
        const { profile } = await t.send<{ profile: { head: SamplingNode } }>("HeapProfiler.getSamplingProfile");
        const self = new Map<string, number>();
        const walk = (n: SamplingNode, stack: string) => {
          const f = n.callFrame;
          const here = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
          const key = stack ? `${here} < ${stack}` : here;
          if (n.selfSize > 0) self.set(key, (self.get(key) ?? 0) + n.selfSize);
          for (const c of n.children) walk(c, here);
        };
        walk(profile.head, "");
        const total = [...self.values()].reduce((a, x) => a + x, 0);
        const top = [...self]
          .sort((a, c) => c[1] - a[1])
          .slice(0, 10)
          .map(([k, v]) => `${mb(v)} ${k}`);
        out.push(`${t.name} (${mb(total)} sampled alive):\n      ${top.join("\n      ")}`);
      }
      return `  JS allocations alive ${label} (V8's sampling heap profiler, by site and caller):\n    ${out.join("\n    ")}`;
    },
    stop: async () => {
      for (const t of targets) await t.send("HeapProfiler.stopSampling").catch(() => undefined);
      for (const w of wss) await w.close();
      await ps.detach().catch(() => undefined);
    },
  };
}

/** RUNS loads of the fleet in the page, each in a fresh context; `shot`: a PNG of the first; `profile`: the tail's CPU profiles; `trace`: memory over time, a line per `trace` ms. */
export async function pageRuns(
  fleet: Fleet,
  runs: number,
  shot: string | null,
  profile = false,
  build: string | null = null,
  trace: number | null = null,
  dumps = false,
  heap = false,
  helpers: number | null = null,
  idle = 0,
): Promise<PageRun[]> {
  const dist = build ?? resolve(ROOT, "dist");
  const { url: app } = await startPreview(Number(process.env.E2E_PORT) || (await freePort()), dist);
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  setBrowser(b);
  const out: PageRun[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const { context, page } = await newPage(b);
      try {
        await page.goto(`${app}?demo=0${helpers === null ? "" : `&helpers=${helpers}`}`);
        await page.waitForSelector("[data-testid=app][data-busy=false]");
        // A person takes seconds to fill the form in: the workers' idle warm-ups run meanwhile.
        if (idle > 0) await new Promise((r) => setTimeout(r, idle));
        await page.getByTestId("prometheus-open").click();
        await page.getByTestId("prometheus-url").fill(fleet.url);
        await page.getByTestId("prometheus-query").fill("fleet_request_duration_seconds");
        await page.getByTestId("prometheus-start").fill(String(fleet.start));
        await page.getByTestId("prometheus-end").fill(String(fleet.end));
        await page.getByTestId("prometheus-step").fill(`${fleet.step}s`);
        await page.getByTestId("prometheus-load").click();
        await page.getByTestId("prometheus-consent-load").waitFor();
        await page.evaluate(
          // The list shows its first rows (ROWS_SHOWN), the rest as it is scrolled.
          (n) => window.__bench.arm("load", { event: "click", selector: "[data-testid=prometheus-consent-load]", minSeries: n, requireTrue: true }),
          fleet.series > LONG_LIST ? ROWS_SHOWN : fleet.series,
        );
        const base = rssSum();
        let peak = base;
        let pagePeak = base.page;
        const sample = () => {
          const r = rssSum();
          if (r.own > peak.own) peak = r;
          pagePeak = Math.max(pagePeak, r.page);
        };
        // When the first series row is in the page: what comes before it is the engine's, what after the page's drawing.
        await page.evaluate(() => {
          const w = window as unknown as { __firstRow?: number };
          const obs = new MutationObserver(() => {
            if (document.querySelector("[data-testid=series]")) {
              w.__firstRow = performance.now();
              obs.disconnect();
            }
          });
          obs.observe(document.body, { childList: true, subtree: true });
        });
        const sampler = setInterval(sample, 100);
        const sampling = heap ? await heapSampling(b, page) : null;
        const loadTrace = trace ? new MemoryTrace(fleet.sent) : null;
        await loadTrace?.start(b, page);
        if (loadTrace && dumps) await loadTrace.startDumps(b, trace!);
        const t0 = performance.now();
        const before = fleet.lastByteEpoch();
        await page.getByTestId("prometheus-consent-load").click();
        // A load that fails (the request's own timeout on a busy machine, say) shows its error and
        // never reaches the series awaited: the run stops with the error rather than wait on.
        const failed = page
          .locator("[data-testid=load-error]")
          .filter({ hasText: /prometheus:.*(no answer|no complete answer|could not be reached|the server answered|cancelled)/ })
          .first()
          .waitFor({ timeout: 30 * 60_000 })
          .then(async () => {
            throw new Error(`the fleet's load failed: ${await page.locator("[data-testid=load-error]").allTextContents()}`);
          });
        failed.catch(() => undefined);
        const loading = Promise.race([withTimeout("the fleet's load", 30 * 60_000, () => page.evaluate(() => window.__bench.wait("load"))), failed as Promise<never>]);
        const lastByte = async () => {
          while (fleet.lastByteEpoch() === before) await new Promise((r) => setTimeout(r, 20));
        };
        const profiled = profile ? profileBetween(b, page, lastByte, loading) : null;
        // The load line while the answer arrives (its bytes and the series read so far).
        if (shot && run === 0) {
          await new Promise((r) => setTimeout(r, 4000));
          await page.screenshot({ path: shot.replace(/\.png$/, "-loading.png"), clip: { x: 0, y: 0, width: 1400, height: 160 } }).catch(() => undefined);
        }
        const load = await loading;
        // Every series listed: the rows shown, and the rest the list says it holds.
        const listed = fleet.series > LONG_LIST ? Number(await page.getByTestId("series-more").getAttribute("data-total")) : load.series;
        const origin = await page.evaluate(() => performance.timeOrigin);
        const drawn = origin + load.tPaint - fleet.lastByteEpoch();
        const firstRow = origin + (await page.evaluate(() => (window as unknown as { __firstRow?: number }).__firstRow ?? NaN)) - fleet.lastByteEpoch();
        // The main thread's long tasks from the last byte to the paint: how much of the wait is the page's drawing.
        const lastByteAt = fleet.lastByteEpoch() - origin;
        const tasks = (await page.evaluate(() => window.__bench.longtasks)).filter((t) => t.start + t.duration > lastByteAt && t.start < load.tPaint);
        const busy = tasks.reduce((a, t) => a + Math.min(t.start + t.duration, load.tPaint) - Math.max(t.start, lastByteAt), 0);
        const errors = (await page.locator("[data-testid=load-error]").allTextContents()).filter((t) => !/native histogram of schema/.test(t));
        const wall = performance.now() - t0;
        sample();
        const loadPeak = peak;
        const pageLoadPeak = pagePeak;
        await loadTrace?.stop();
        if (sampling) console.log(await sampling.read("once drawn"));
        const loaded = await collected(b, page);
        if (shot && run === 0) await page.screenshot({ path: shot });

        // Every series selected for the merge (before the clock: a person's click on "Select all").
        const allShown = trace ? rssSum() : null;
        await page.getByTestId("series-select-all").click();
        await page.waitForFunction((n) => document.querySelector("[data-testid=merge]")?.textContent?.includes(`Merge ${n} `) ?? false, fleet.series);
        if (allShown) console.log(`  before the merge: ${mb(allShown.own)} [${allShown.each}], ${mb(rssSum().own)} once every series is selected`);
        await page.getByTestId("merge").waitFor();
        // A long list still shows its first rows: the merged series is counted in its total below.
        await page.evaluate(
          (n) => window.__bench.arm("merge", { event: "click", selector: "[data-testid=merge]", minSeries: n, requireTrue: true }),
          fleet.series > LONG_LIST ? ROWS_SHOWN : fleet.series + 1,
        );
        let clicked!: () => void;
        const click = new Promise<void>((r) => (clicked = r));
        const merging = click.then(() => withTimeout("the merge", 10 * 60_000, () => page.evaluate(() => window.__bench.wait("merge"))));
        const mergeProfiled = profile ? profileBetween(b, page, () => click, merging) : null;
        const mergeTrace = trace ? new MemoryTrace(fleet.sent) : null;
        await mergeTrace?.start(b, page);
        if (mergeTrace && dumps) await mergeTrace.startDumps(b, 200);
        // The profiler attaches before the click.
        if (profile) await new Promise((r) => setTimeout(r, 500));
        await page.getByTestId("merge").click();
        clicked();
        const merge = await merging;
        if (fleet.series > LONG_LIST) {
          const total = Number(await page.getByTestId("series-more").getAttribute("data-total"));
          if (total !== fleet.series + 1) throw new Error(`after the merge the list holds ${total} series, not ${fleet.series + 1}`);
        }
        await mergeTrace?.stop();
        if (sampling) {
          console.log(await sampling.read("once merged"));
          await sampling.stop();
        }
        if (mergeProfiled) console.log(`  CPU from the click on Merge to the paint (self time):\n    ${await mergeProfiled}`);
        clearInterval(sampler);
        sample();
        const merged = await collected(b, page);
        if (shot && run === 0) await page.screenshot({ path: shot.replace(/\.png$/, "-merged.png") });
        const r: PageRun = { drawn, merged: merge.tPaint - merge.t0, peak: peak.own, pagePeak, loadedKept: loaded.rss.own, mergedKept: merged.rss.own };
        out.push(r);
        if (profiled) console.log(`  CPU from the last byte to the paint (self time):\n    ${await profiled}`);
        if (loadTrace) console.log(`  ${loadTrace.print("the answer is asked, read and drawn", trace!)}`);
        if (mergeTrace) console.log(`  ${mergeTrace.print("the fleet is merged", Math.min(trace!, 200))}`);
        console.log(
          [
            `page run ${run + 1}: answer ${mb(fleet.bytes())} asked and drawn (${listed} series listed, ${load.series} rows drawn, plot ${load.plotDrawn ? "drawn" : "EMPTY"}) in ${s(wall)}${errors.length ? `; load errors: ${errors.join(" | ")}` : ""}`,
            `last byte to the spectra painted ${s(drawn)} (goal ≤ 3 s; the main thread's long tasks in it ${s(busy)}, longest ${s(Math.max(0, ...tasks.map((t) => t.duration)))}; data-busy false ${s(origin + load.tFalse - fleet.lastByteEpoch())} after the last byte; the first series row shown ${s(firstRow)} after it)`,
            `merged (click to painted) ${s(r.merged)} (the engine's goal ≤ 0.5 s)`,
            `renderers' own memory (RssAnon + RssShmem): ${mb(base.own)} before the query [${base.each}], peak ${mb(peak.own)} [${peak.each}] (goal ≤ 500 MB; VmRSS ${mb(peak.rss)}; the load's peak ${mb(loadPeak.own)}); the page's renderer alone: peak ${mb(pagePeak)}, the load's ${mb(pageLoadPeak)}`,
            `after a collection: loaded ${mb(loaded.rss.own)} (the page's renderer ${mb(loaded.rss.page)}) [${loaded.rss.each}] (JS heaps ${mb(loaded.heap)} + array buffers ${mb(loaded.buffers)}, page and ${loaded.workers} workers); merged ${mb(merged.rss.own)} (the page's renderer ${mb(merged.rss.page)}; heaps ${mb(merged.heap)} + buffers ${mb(merged.buffers)})`,
          ].join("\n  "),
        );
      } finally {
        await closeQuietly(context);
      }
    }
  } finally {
    await cleanup();
  }
  return out;
}
