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
// counted.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
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
}

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;

/** Renderer processes that descend from this process (the browser it launched): their own resident memory and whole VmRSS in bytes. */
function renderers(): { pid: number; own: number; rss: number }[] {
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
  const out: { pid: number; own: number; rss: number }[] = [];
  for (const [pid, c] of cmd) {
    if (!c.includes("--type=renderer") || !ours(pid)) continue;
    try {
      const st = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(st)?.[1] ?? 0) * 1024;
      out.push({ pid, own: kb("RssAnon") + kb("RssShmem"), rss: kb("VmRSS") });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface Rss {
  own: number;
  rss: number;
  /** Each renderer's own memory, "pid: MB". */
  each: string;
}

function rssSum(): Rss {
  const rs = renderers();
  return {
    own: rs.reduce((a, r) => a + r.own, 0),
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

export interface PageRun {
  drawn: number;
  merged: number;
  peak: number;
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

/** RUNS loads of the fleet in the page, each in a fresh context; `shot`: a PNG of the first; `profile`: the tail's CPU profiles. */
export async function pageRuns(fleet: Fleet, runs: number, shot: string | null, profile = false, build: string | null = null): Promise<PageRun[]> {
  const dist = build ?? resolve(ROOT, "dist");
  const { url: app } = await startPreview(Number(process.env.E2E_PORT) || (await freePort()), dist);
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  setBrowser(b);
  const out: PageRun[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const { context, page } = await newPage(b);
      try {
        await page.goto(`${app}?demo=0`);
        await page.waitForSelector("[data-testid=app][data-busy=false]");
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
        const sample = () => {
          const r = rssSum();
          if (r.own > peak.own) peak = r;
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
        const t0 = performance.now();
        const before = fleet.lastByteEpoch();
        await page.getByTestId("prometheus-consent-load").click();
        const loading = withTimeout("the fleet's load", 30 * 60_000, () => page.evaluate(() => window.__bench.wait("load")));
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
        const loaded = await collected(b, page);
        if (shot && run === 0) await page.screenshot({ path: shot });

        // Every row shown and selected for the merge (before the clock: a person's clicks).
        if (fleet.series > LONG_LIST) {
          await page.getByTestId("series-more").getByRole("button").click();
          await page.waitForFunction((n) => document.querySelectorAll("[data-testid=series]").length >= n, fleet.series);
          await page.waitForSelector("[data-testid=app][data-busy=false]");
        }

        await page.evaluate(() => {
          for (const c of document.querySelectorAll<HTMLInputElement>("[data-testid=series-select]")) if (!c.checked) c.click();
        });
        await page.getByTestId("merge").waitFor();
        await page.evaluate((n) => window.__bench.arm("merge", { event: "click", selector: "[data-testid=merge]", minSeries: n + 1, requireTrue: true }), fleet.series);
        let clicked!: () => void;
        const click = new Promise<void>((r) => (clicked = r));
        const merging = click.then(() => withTimeout("the merge", 10 * 60_000, () => page.evaluate(() => window.__bench.wait("merge"))));
        const mergeProfiled = profile ? profileBetween(b, page, () => click, merging) : null;
        // The profiler attaches before the click.
        if (profile) await new Promise((r) => setTimeout(r, 500));
        await page.getByTestId("merge").click();
        clicked();
        const merge = await merging;
        if (mergeProfiled) console.log(`  CPU from the click on Merge to the paint (self time):\n    ${await mergeProfiled}`);
        clearInterval(sampler);
        sample();
        const merged = await collected(b, page);
        if (shot && run === 0) await page.screenshot({ path: shot.replace(/\.png$/, "-merged.png") });
        const r: PageRun = { drawn, merged: merge.tPaint - merge.t0, peak: peak.own, loadedKept: loaded.rss.own, mergedKept: merged.rss.own };
        out.push(r);
        if (profiled) console.log(`  CPU from the last byte to the paint (self time):\n    ${await profiled}`);
        console.log(
          [
            `page run ${run + 1}: answer ${mb(fleet.bytes())} asked and drawn (${listed} series listed, ${load.series} rows drawn, plot ${load.plotDrawn ? "drawn" : "EMPTY"}) in ${s(wall)}${errors.length ? `; load errors: ${errors.join(" | ")}` : ""}`,
            `last byte to the spectra painted ${s(drawn)} (goal ≤ 3 s; the main thread's long tasks in it ${s(busy)}, longest ${s(Math.max(0, ...tasks.map((t) => t.duration)))}; data-busy false ${s(origin + load.tFalse - fleet.lastByteEpoch())} after the last byte; the first series row shown ${s(firstRow)} after it)`,
            `merged (click to painted) ${s(r.merged)} (the engine's goal ≤ 0.5 s)`,
            `renderers' own memory (RssAnon + RssShmem): ${mb(base.own)} before the query [${base.each}], peak ${mb(peak.own)} [${peak.each}] (goal ≤ 500 MB; VmRSS ${mb(peak.rss)}; the load's peak ${mb(loadPeak.own)})`,
            `after a collection: loaded ${mb(loaded.rss.own)} [${loaded.rss.each}] (JS heaps ${mb(loaded.heap)} + array buffers ${mb(loaded.buffers)}, page and ${loaded.workers} workers); merged ${mb(merged.rss.own)} (heaps ${mb(merged.heap)} + buffers ${mb(merged.buffers)})`,
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
