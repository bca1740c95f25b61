import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type Browser, type BrowserContext, type CDPSession, type Page } from "playwright-core";
import { ROOT, BENCH_DIR, median, ms, log, withTimeout, stopChild, startPreview, WaitResult, newPage, closeQuietly, WorkerSession, Fixtures } from "./harness";
import { RANGES, applyRange, changeUnit } from "./day";
import { UNIT_SEQUENCE } from "./interaction";

// ---------------------------------------------------------------------------------------------
// CPU profile of one 24-hour load (--profile), against an unminified build so names are readable.

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** For an unminified Rolldown bundle: the module each line belongs to (from its `// path` headers). */
export function moduleMap(dir: string): (url: string, line: number) => string {
  const cache = new Map<string, { line: number; mod: string }[]>();
  return (url, line) => {
    const name = basename(url.split("?")[0] ?? "");
    if (!name.endsWith(".js")) return "";
    let heads = cache.get(name);
    if (!heads) {
      heads = [];
      try {
        const text = readFileSync(join(dir, "assets", name), "utf8").split("\n");
        text.forEach((l, i) => {
          const m = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(l);
          if (m) heads!.push({ line: i, mod: m[1]!.replace(/^node_modules\//, "") });
        });
      } catch {
        // not ours
      }
      cache.set(name, heads);
    }
    let mod = "";
    for (const h of heads) {
      if (h.line > line) break;
      mod = h.mod;
    }
    return mod;
  };
}

export function summarize(p: CpuProfile, top: number, modOf: (url: string, line: number) => string): string[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  const fn = new Map<string, number>();
  const mods = new Map<string, number>();
  let total = 0;
  for (const [id, t] of self) {
    const f = byId.get(id)!.callFrame;
    const mod = f.url ? modOf(f.url, f.lineNumber) || basename(f.url) : "";
    const key = `${f.functionName || "(anonymous)"}${mod ? `  [${mod}]` : ""}`;
    fn.set(key, (fn.get(key) ?? 0) + t);
    const m = mod || (f.functionName.startsWith("(") ? f.functionName : "(native)");
    mods.set(m, (mods.get(m) ?? 0) + t);
    total += t;
  }
  const idle = fn.get("(idle)") ?? 0;
  const busy = total - idle;
  const pct = (t: number) => `${((100 * t) / Math.max(1e-9, busy)).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .filter(([k]) => k !== "(idle)")
      .sort((a, b) => b[1] - a[1])
      .slice(0, n);
  return [
    `    sampled ${ms(total)}: idle ${ms(idle)}, busy ${ms(busy)} (percentages of busy)`,
    "    by module:",
    ...sorted(mods, 8).map(([k, t]) => `    ${ms(t).padStart(9)} ${pct(t)}  ${k}`),
    "    by function:",
    ...sorted(fn, top).map(([k, t]) => `    ${ms(t).padStart(9)} ${pct(t)}  ${k}`),
  ];
}

export type Send = (method: string, params?: Record<string, unknown>) => Promise<unknown>;
export const pageSend =
  (ps: CDPSession): Send =>
  (m, p) =>
    (ps.send as (m: string, p?: Record<string, unknown>) => Promise<unknown>)(m, p);

export async function profiled(sends: Send[], action: () => Promise<void>): Promise<CpuProfile[]> {
  for (const send of sends) {
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 200 });
    await send("Profiler.start");
  }
  await action();
  const out: CpuProfile[] = [];
  for (const send of sends) out.push(((await send("Profiler.stop")) as { profile: CpuProfile }).profile);
  return out;
}

export async function profileRun(b: Browser, fx: Fixtures, port: number): Promise<string[]> {
  const out = resolve(BENCH_DIR, "dist-profile");
  log("profile: building an unminified copy in .bench/dist-profile");
  const r = spawnSync("npx", ["vite", "build", "--minify", "false", "--outDir", out, "--emptyOutDir", "--logLevel", "error"], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) return [`  profile: the unminified build failed: ${(r.stderr || r.stdout).slice(0, 400)}`];
  const modOf = moduleMap(out);
  const { url, child } = await startPreview(port, out);
  const lines: string[] = ["  CPU profiles (unminified build in .bench/dist-profile, sampling every 200 µs; profiling slows things a little), self time:"];
  let context: BrowserContext | null = null;
  try {
    let page: Page;
    ({ context, page } = await newPage(b));
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    const ws = await WorkerSession.attach(b, page);
    const ps = await context.newCDPSession(page);
    const sends = [(m: string, p?: Record<string, unknown>) => ws.send(m, p), pageSend(ps)];
    let load: WaitResult | null = null;
    const [wp, mp] = await profiled(sends, async () => {
      await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
      await page.getByTestId("file-input").setInputFiles(fx.day);
      load = await withTimeout("profiled load", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
    });
    lines.push(
      `  A. one 24-hour load (file chosen → painted ${ms(load!.tPaint - load!.t0)})`,
      "  worker:",
      ...summarize(wp!, 12, modOf),
      "  main thread:",
      ...summarize(mp!, 6, modOf),
    );
    // Kept for a closer look (DevTools' Performance panel opens .cpuprofile files).
    writeFileSync(join(out, "load-engine.cpuprofile"), JSON.stringify(wp));
    writeFileSync(join(out, "load-main.cpuprofile"), JSON.stringify(mp));
    lines.push(`  (profiles saved: .bench/dist-profile/load-engine.cpuprofile, load-main.cpuprofile)`);
    const times: number[] = [];
    const [wr, mr] = await profiled(sends, async () => {
      for (const [i, [s, e]] of RANGES.entries()) {
        const w = await applyRange(page, `prange${i}`, s, e);
        times.push(w.tFalse - w.t0);
        await page.waitForTimeout(100);
      }
    });
    lines.push(
      `  B. the ${RANGES.length} time windows (Enter → busy false: ${times.map((t) => ms(t)).join(", ")}; the profile includes ~100 ms of idle between them)`,
      "  worker:",
      ...summarize(wr!, 10, modOf),
      "  main thread:",
      ...summarize(mr!, 6, modOf),
    );
    await ws.close();
    await closeQuietly(context);

    ({ context, page } = await newPage(b));
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(fx.fifty);
    await withTimeout("50 logs", 120_000, () => page.evaluate(() => window.__bench.wait("load")));
    await page.waitForTimeout(300);
    const ps2 = await context.newCDPSession(page);
    const paints: number[] = [];
    const [mu] = await profiled([pageSend(ps2)], async () => {
      for (const [i, u] of UNIT_SEQUENCE.entries()) {
        const w = await changeUnit(page, `punit${i}`, u);
        paints.push(w.tPaint - w.t0);
        await page.waitForTimeout(100);
      }
    });
    lines.push(`  C. ${UNIT_SEQUENCE.length} unit changes with 50 series (change → paint median ${ms(median(paints))})`, "  main thread:", ...summarize(mu!, 14, modOf));
    return lines;
  } finally {
    await closeQuietly(context);
    await stopChild(child);
  }
}
