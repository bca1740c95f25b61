// The browser bench's shared parts: arguments, small helpers, the processes it starts (preview
// server, browser), the in-page instrumentation, the engine worker's heap over CDP, the fixtures
// and the report table.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { basename, join, resolve } from "node:path";
import { type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { dayLogName, writeDayLog, type DayLogOptions } from "../../tests/support/day-log";
import { findBrowser } from "../browser.mjs";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BENCH_DIR = resolve(ROOT, ".bench");
export const CHROMIUM = findBrowser() ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--enable-precise-memory-info",
];
export const VIEWPORT = { width: 1400, height: 900 };
/** Item 1d: how long after the page is ready the file is chosen (a person takes longer). */
export const SETTLE_MS = 3000;
export const HDR_UMD = resolve(ROOT, "node_modules/hdr-histogram-js/dist/hdrhistogram.umd.js");
// The UMD build inflates with a global `pako` (the same pako 1.x the project depends on).
export const PAKO_UMD = resolve(ROOT, "node_modules/pako/dist/pako.min.js");

// ---------------------------------------------------------------------------------------------
// Arguments

export interface Args {
  runs: number;
  only: Set<number> | null;
  port: number | null;
  profile: boolean;
  /** The build to serve (default dist/): another build, to measure two builds in turn in the same minutes. */
  dist: string | null;
}

export function parseArgs(argv: string[]): Args {
  const a: Args = { runs: 3, only: null, port: null, profile: false, dist: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${k} needs a value`);
      return v;
    };
    if (k === "--runs") a.runs = Math.max(1, Number.parseInt(next(), 10) || 3);
    else if (k.startsWith("--runs=")) a.runs = Math.max(1, Number.parseInt(k.slice(7), 10) || 3);
    else if (k === "--only")
      a.only = new Set(
        next()
          .split(",")
          .map((s) => Number.parseInt(s, 10)),
      );
    else if (k === "--port") a.port = Number.parseInt(next(), 10);
    else if (k === "--profile") a.profile = true;
    else if (k === "--dist") a.dist = resolve(next());
    else if (k === "--help" || k === "-h") {
      console.log("usage: tsx scripts/bench.ts [--runs N] [--only 1,3,5] [--port P] [--profile] [--dist DIR]");
      process.exit(0);
    } else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

export const median = (xs: number[]): number => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const max = (xs: number[]): number => (xs.length ? Math.max(...xs) : Number.NaN);
export const ms = (x: number): string => (Number.isFinite(x) ? (x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`) : "n/a");
export const secs = (x: number): string => (Number.isFinite(x) ? `${(x / 1000).toFixed(3)} s` : "n/a");
// Decimal units throughout (1 MB = 10^6 bytes, 1 kB = 10^3 bytes, as Vite prints sizes).
export const mb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB` : "n/a");
export const kb = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1e3).toFixed(1)} kB` : "n/a");
export const ratio = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "");
export const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

export class TimeoutError extends Error {}

export async function withTimeout<T>(label: string, timeoutMs: number, f: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      f(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`${label}: timed out after ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Processes we start: the preview server(s) and the browser. Always stopped, also on error.

export const children = new Set<ChildProcess>();
export let browser: Browser | null = null;

/** The browser cleanup() closes. */
export function setBrowser(b: Browser | null): void {
  browser = b;
}

export function killGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) return;
  try {
    process.kill(-c.pid, signal); // the whole group: npx, node vite
  } catch {
    try {
      c.kill(signal);
    } catch {
      // already gone
    }
  }
}

export async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) {
    children.delete(c);
    return;
  }
  const exited = new Promise<void>((r) => c.once("exit", () => r()));
  killGroup(c, "SIGTERM");
  const t = setTimeout(() => killGroup(c, "SIGKILL"), 3000);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  clearTimeout(t);
  children.delete(c);
}

/** Directories of this run to remove at the end (its dist/ snapshot, item 1c's script). */
export const scratchDirs: string[] = [];

export async function cleanup(): Promise<void> {
  const b = browser;
  browser = null;
  if (b) await withTimeout("closing the browser", 10_000, () => b.close()).catch(() => undefined);
  await Promise.all([...children].map(stopChild));
}

/** Removes this run's scratch directories (after the table: item 7 reads the snapshot). */
export function removeScratch(): void {
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

process.on("exit", () => {
  for (const c of children) killGroup(c, "SIGKILL");
  removeScratch();
});
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    log(`${sig}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

export async function startPreview(port: number, outDir?: string): Promise<{ url: string; child: ChildProcess }> {
  const args = ["vite", "preview", "--port", String(port), "--strictPort", "--host", "127.0.0.1"];
  if (outDir) args.push("--outDir", outDir);
  const child = spawn("npx", args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode}):\n${output}`);
    try {
      const r = await fetch(url);
      if (r.ok) return { url, child };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer on ${url} within 30 s:\n${output}`);
}

// ---------------------------------------------------------------------------------------------
// In-page instrumentation, installed before any of the app's scripts run.

declare global {
  interface Window {
    __bench: BenchApi;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hdr-histogram-js UMD bundle the baseline page loads has no types there
    hdr: any; // hdr-histogram-js UMD, in the baseline page
    floorLib: { inflateAll(payloads: string[]): number; engine: string }; // scripts/lib/floor-entry.ts, in the baseline page
  }
}

export interface WaitResult {
  t0: number;
  tTrue: number | null;
  tFalse: number;
  tPaint: number;
  series: number;
  plotDrawn: boolean;
  timelineDrawn: boolean;
  /** data-raw of the first series' p99.9 and max cells when busy went false (a sanity probe). */
  probe: string;
}

export interface BenchApi {
  longtasks: { start: number; duration: number }[];
  arm(id: string, o: ArmOptions): void;
  wait(id: string): Promise<WaitResult>;
  armUnit(id: string): void;
  waitUnit(id: string): Promise<{ t0: number; tCommit: number; tFirstPaint: number; tPaint: number; tDoubleRaf: number; busy: string | null }>;
}

export interface ArmOptions {
  /** Capture-phase event that starts the clock; null: the clock starts at navigation (0). */
  event: string | null;
  selector?: string;
  key?: string;
  minSeries: number;
  /** Wait for data-busy to be seen "true" after the trigger before accepting "false". */
  requireTrue: boolean;
}

export function instrument(): void {
  // Runs in the page (serialized by Playwright): no references to the module scope.
  const longtasks: { start: number; duration: number }[] = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // not supported
  }
  /** Resolves after the next frame has been produced: rAF, then a task queued from it. */
  const afterPaint = () =>
    new Promise<number>((res) =>
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => res(performance.now());
        ch.port2.postMessage(0);
      }),
    );
  const doubleRaf = () => new Promise<number>((res) => requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now()))));
  const app = () => document.querySelector("[data-testid=app]");
  const seriesCount = () => document.querySelectorAll("[data-testid=series]").length;
  const waits = new Map<string, Promise<unknown>>();

  const arm = (id: string, o: ArmOptions) => {
    let t0: number | null = o.event === null ? 0 : null;
    let tTrue: number | null = null;
    let tFalse: number | null = null;
    let resolve!: (r: unknown) => void;
    waits.set(id, new Promise((r) => (resolve = r)));
    const check = () => {
      const a = app();
      if (!a || t0 === null || tFalse !== null) return;
      const busy = a.getAttribute("data-busy");
      if (busy === "true") {
        if (tTrue === null) tTrue = performance.now();
        return;
      }
      if (busy !== "false" || (o.requireTrue && tTrue === null)) return;
      const n = seriesCount();
      if (n < o.minSeries) return;
      tFalse = performance.now();
      mo.disconnect();
      const plot = document.querySelector("[data-testid=percentile-plot]");
      const plotDrawn = !!plot && plot.getAttribute("data-empty") !== "true";
      const timelineDrawn = !!document.querySelector("[data-testid=timeline]");
      const cell = (p: string) => document.querySelector(`[data-testid=percentile-table] [data-percentile="${p}"]`)?.getAttribute("data-raw") ?? "";
      const probe = `${cell("99.9")}/${cell("100")}`;
      const start = t0;
      const tt = tTrue;
      const tf = tFalse;
      void afterPaint().then((tPaint) => resolve({ t0: start, tTrue: tt, tFalse: tf, tPaint, series: n, plotDrawn, timelineDrawn, probe }));
    };
    const mo = new MutationObserver(check);
    mo.observe(document, { subtree: true, attributes: true, attributeFilter: ["data-busy"] });
    if (o.event !== null) {
      const ev = o.event;
      const on = (e: Event) => {
        if (t0 !== null) return;
        if (o.selector && !(e.target instanceof Element && e.target.matches(o.selector))) return;
        if (o.key && (e as KeyboardEvent).key !== o.key) return;
        t0 = performance.now();
        window.removeEventListener(ev, on, true);
        // Already busy (a previous task still running): the "true" has been seen.
        if (app()?.getAttribute("data-busy") === "true") tTrue = t0;
      };
      window.addEventListener(ev, on, true);
    }
  };

  const armUnit = (id: string) => {
    let resolve!: (r: unknown) => void;
    waits.set(id, new Promise((r) => (resolve = r)));
    const on = (e: Event) => {
      if (!(e.target instanceof Element) || !e.target.matches("[data-testid=unit-select]")) return;
      window.removeEventListener("change", on, true);
      const t0 = performance.now();
      // React commits a select's change synchronously, in this task; a MutationObserver's
      // first callback comes right after that commit.
      let tCommit: number | null = null;
      const mo = new MutationObserver(() => {
        tCommit = performance.now();
        mo.disconnect();
      });
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      const dbl = doubleRaf();
      // Next paint: the first frame after the commit (requested now, so a frame that starts
      // right after a long render is not missed), then a task queued from its rAF. tPaint is
      // the first such paint with data-busy false (everything, the table too, in the new
      // unit); tFirstPaint the first at all (the chart: the table follows a frame later).
      let tFirstPaint: number | null = null;
      const frame = () =>
        requestAnimationFrame(() => {
          if (tCommit === null) return frame();
          const settled = app()?.getAttribute("data-busy") !== "true";
          const ch = new MessageChannel();
          ch.port1.onmessage = () => {
            const now = performance.now();
            tFirstPaint ??= now;
            if (!settled) return frame();
            void dbl.then((tDoubleRaf) => resolve({ t0, tCommit: tCommit!, tFirstPaint: tFirstPaint!, tPaint: now, tDoubleRaf, busy: app()?.getAttribute("data-busy") ?? null }));
          };
          ch.port2.postMessage(0);
        });
      frame();
    };
    window.addEventListener("change", on, true);
  };

  window.__bench = {
    longtasks,
    arm,
    wait: (id) => (waits.get(id) as Promise<WaitResult>) ?? Promise.reject(new Error(`not armed: ${id}`)),
    armUnit,
    waitUnit: (id) => (waits.get(id) as ReturnType<BenchApi["waitUnit"]>) ?? Promise.reject(new Error(`not armed: ${id}`)),
  };
}

export async function newPage(b: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await b.newContext({ viewport: VIEWPORT });
  // tsx (esbuild keepNames) wraps named functions in __name(); functions Playwright serializes
  // into the page need it defined there.
  await context.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  return { context, page };
}

export async function closeQuietly(c: BrowserContext | null): Promise<void> {
  if (c) await withTimeout("closing a context", 10_000, () => c.close()).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// The engine worker's heap over CDP. Playwright's CDPSession cannot address a flat child
// session, so the worker is attached in the non-flat mode and spoken to through
// Target.sendMessageToTarget / Target.receivedMessageFromTarget on a browser session.

export class WorkerSession {
  private nextId = 1;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- DevTools protocol answers are untyped; each send<T> names what it expects
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private readonly listener = (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== this.sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (m.id === undefined) return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) p.reject(new Error(m.error.message));
    else p.resolve(m.result);
  };
  private constructor(
    private readonly browserSession: CDPSession,
    private readonly sessionId: string,
    readonly url: string,
  ) {
    browserSession.on("Target.receivedMessageFromTarget", this.listener);
  }

  /** Attaches to the dedicated worker of `page` (the engine worker). */
  static async attach(b: Browser, page: Page): Promise<WorkerSession> {
    const pageSession = await page.context().newCDPSession(page);
    const { targetInfo } = (await pageSession.send("Target.getTargetInfo")) as { targetInfo: { browserContextId?: string } };
    await pageSession.detach().catch(() => undefined);
    const bs = await b.newBrowserCDPSession();
    const { targetInfos } = (await bs.send("Target.getTargets")) as { targetInfos: { targetId: string; type: string; url: string; browserContextId?: string }[] };
    const workers = targetInfos.filter((t) => t.type === "worker" && (!targetInfo.browserContextId || t.browserContextId === targetInfo.browserContextId));
    const w = workers.find((t) => /^worker/.test(basename(t.url))) ?? workers[0];
    if (!w) {
      await bs.detach().catch(() => undefined);
      throw new Error(`no worker target (targets: ${targetInfos.map((t) => t.type).join(", ")})`);
    }
    const { sessionId } = (await bs.send("Target.attachToTarget", { targetId: w.targetId, flatten: false })) as { sessionId: string };
    return new WorkerSession(bs, sessionId, w.url);
  }

  /** Attaches to every dedicated worker of `page`'s context (engine worker and helpers). */
  static async attachAll(b: Browser, page: Page): Promise<WorkerSession[]> {
    const pageSession = await page.context().newCDPSession(page);
    const { targetInfo } = (await pageSession.send("Target.getTargetInfo")) as { targetInfo: { browserContextId?: string } };
    await pageSession.detach().catch(() => undefined);
    const out: WorkerSession[] = [];
    const probe = await b.newBrowserCDPSession();
    const { targetInfos } = (await probe.send("Target.getTargets")) as { targetInfos: { targetId: string; type: string; url: string; browserContextId?: string }[] };
    await probe.detach().catch(() => undefined);
    const workers = targetInfos.filter((t) => t.type === "worker" && (!targetInfo.browserContextId || t.browserContextId === targetInfo.browserContextId));
    if (workers.length === 0) throw new Error(`no worker target (targets: ${targetInfos.map((t) => t.type).join(", ")})`);
    for (const w of workers) {
      const bs = await b.newBrowserCDPSession();
      const { sessionId } = (await bs.send("Target.attachToTarget", { targetId: w.targetId, flatten: false })) as { sessionId: string };
      out.push(new WorkerSession(bs, sessionId, w.url));
    }
    return out;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above: an untyped DevTools protocol answer unless the caller names one
  send<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.browserSession.send("Target.sendMessageToTarget", { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  }

  async close(): Promise<void> {
    this.browserSession.off("Target.receivedMessageFromTarget", this.listener);
    await this.browserSession.send("Target.detachFromTarget", { sessionId: this.sessionId }).catch(() => undefined);
    await this.browserSession.detach().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export interface Fixtures {
  day: string;
  dayBytes: number;
  fifty: string[];
  hundred: string[];
}

export function fixtures(): Fixtures {
  mkdirSync(BENCH_DIR, { recursive: true });
  const dayOpts: DayLogOptions = { intervals: 86_400, seed: 1 };
  const day = writeDayLog(join(BENCH_DIR, dayLogName(dayOpts)), dayOpts);
  log(`24-hour log: ${basename(day.path)}, ${mb(day.bytes)}, ${day.generated ? `generated in ${secs(day.ms)}` : "cached"}`);
  const small = (dir: string, count: number, intervals: number, prefix: string) => {
    const t0 = performance.now();
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const o: DayLogOptions = { intervals, seed: 1000 * intervals + i, startMs: Date.UTC(2026, 10, 1, 9, 0, 0) };
      out.push(writeDayLog(join(BENCH_DIR, dir, `${prefix}-${String(i + 1).padStart(3, "0")}.hlog`), o).path);
    }
    log(`${count} logs of ${intervals} intervals in .bench/${dir} (${secs(performance.now() - t0)})`);
    return out;
  };
  return {
    day: day.path,
    dayBytes: day.bytes,
    fifty: small("fifty", 50, 60, "svc"),
    hundred: small("hundred", 100, 300, "node"),
  };
}

// ---------------------------------------------------------------------------------------------
// Report

export interface Row {
  id: string;
  measure: string;
  figure: string;
  target: string;
  status: "ok" | "MISS" | "info" | "ERROR" | "";
  baseline: string;
  ratio: string;
  notes: string;
}

export function table(rows: Row[]): string {
  const head: Record<keyof Row, string> = {
    id: "#",
    measure: "measure",
    figure: "figure",
    target: "target",
    status: "status",
    baseline: "baseline",
    ratio: "ratio",
    notes: "notes",
  };
  const cols: (keyof Row)[] = ["id", "measure", "figure", "target", "status", "baseline", "ratio", "notes"];
  const width = new Map(cols.map((c) => [c, Math.max(...[head, ...rows].map((r) => r[c].length))]));
  const line = (r: Record<keyof Row, string>) =>
    cols
      .map((c) => (c === "notes" ? r[c] : c === "figure" || c === "baseline" || c === "ratio" ? r[c].padStart(width.get(c)!) : r[c].padEnd(width.get(c)!)))
      .join("  ")
      .trimEnd();
  const sep = cols.map((c) => (c === "notes" ? "-----" : "-".repeat(width.get(c)!))).join("  ");
  return [line(head), sep, ...rows.map(line)].join("\n");
}

export const status = (ok: boolean): Row["status"] => (ok ? "ok" : "MISS");
