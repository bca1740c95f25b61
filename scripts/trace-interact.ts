// Where the page's interaction time goes with many series: Chromium traces of bench items 5, 5b
// and 8 (hide/show one of 50 series, a unit change with 50 series, 100 logs dropped at once),
// reduced to the main thread's CPU between each action and its next paint, by trace event
// (self time: script, style, layout, paint, layerize, hit tests …).
//
//   npx tsx scripts/trace-interact.ts [--dist DIR]… [--runs N] [--port P] [--what toggle,unit,hundred] [--clicks N] [--out DIR]
//
// Several --dist directories are run in turn, A B A B …, in the same minutes; the summary gives
// each build's medians. Builds made with `npx vite build --minify false --outDir DIR` name
// their functions in the profile's top list.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { basename, join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, ROOT, BENCH_DIR, median, ms, newPage, closeQuietly, startPreview, stopChild, withTimeout, type WaitResult } from "./bench/harness";
import { armNextPaint } from "./bench/interaction";
import { writeDayLog } from "../tests/support/day-log";
import { traceWhile, type TraceEvent } from "./bench/trace";

interface Args {
  dists: string[];
  runs: number;
  port: number;
  what: Set<string>;
  clicks: number;
  out: string | null;
}

function parse(argv: string[]): Args {
  const a: Args = { dists: [], runs: 1, port: 5322, what: new Set(["toggle", "unit", "hundred"]), clicks: 10, out: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const v = () => argv[++i] ?? "";
    if (k === "--dist") a.dists.push(resolve(v()));
    else if (k === "--runs") a.runs = Number(v());
    else if (k === "--port") a.port = Number(v());
    else if (k === "--what") a.what = new Set(v().split(","));
    else if (k === "--clicks") a.clicks = Number(v());
    else if (k === "--out") a.out = resolve(v());
    else if (k === "--profile") profile = true;
    else if (k === "--no-trace") noTrace = true;
    else throw new Error(`unknown argument ${k}`);
  }
  if (a.dists.length === 0) a.dists.push(resolve(ROOT, "dist"));
  return a;
}

const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8.execute", "blink", "blink.user_timing", "cc", "benchmark"];
/** With --profile: the V8 sampling profiler too (its own overhead is in the figures then). */
let profile = false;

/** With --no-trace: the bench's own timings only, without a trace's overhead. */
let noTrace = false;

async function traced(b: Browser, action: () => Promise<void>): Promise<TraceEvent[]> {
  if (noTrace) {
    await action();
    return [];
  }
  const categories = [
    ...CATEGORIES,
    ...(profile ? ["disabled-by-default-v8.cpu_profiler"] : []),
    ...(process.env.INVALIDATIONS ? ["disabled-by-default-devtools.timeline.invalidationTracking"] : []),
  ];
  return traceWhile(b, categories, action);
}

/** The main thread of the page that set `mark`. */
function mainThread(events: TraceEvent[], mark: string): { pid: number; tid: number } {
  const m = events.find((e) => e.name === mark && e.cat.includes("blink.user_timing"));
  if (!m) throw new Error(`the trace has no ${mark} mark`);
  return { pid: m.pid, tid: m.tid };
}

interface Span {
  /** Thread CPU of the main thread's top-level tasks within the span (ms). */
  cpu: number;
  wall: number;
  /** Self wall time per trace event name within the span (ms). */
  self: Map<string, number>;
  longest: number;
}

/** Main-thread work between t0 and t1 (µs, trace clock): CPU of top-level tasks and self time by event. */
function span(events: TraceEvent[], th: { pid: number; tid: number }, t0: number, t1: number): Span {
  const xs = events
    .filter((e) => e.pid === th.pid && e.tid === th.tid && e.ph === "X" && e.dur !== undefined && e.ts < t1 && e.ts + e.dur! > t0)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  let cpu = 0;
  let wall = 0;
  let longest = 0;
  // A stack of open events: each event's self time is its duration less its children's.
  const stack: { e: TraceEvent; child: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= upTo) {
      const top = stack.pop()!;
      const d = clip(top.e, t0, t1);
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + Math.max(0, d - top.child) / 1000);
      if (stack.length) stack.at(-1)!.child += d;
    }
  };
  for (const e of xs) {
    close(e.ts);
    if (stack.length === 0 && /RunTask/.test(e.name)) {
      const d = clip(e, t0, t1);
      wall += d / 1000;
      cpu += ((e.tdur ?? e.dur!) * d) / e.dur! / 1000;
      longest = Math.max(longest, e.dur! / 1000);
    }
    stack.push({ e, child: 0 });
  }
  close(Infinity);
  return { cpu, wall, self, longest };
}

const clip = (e: TraceEvent, t0: number, t1: number) => Math.max(0, Math.min(e.ts + e.dur!, t1) - Math.max(e.ts, t0));

/** Groups of trace events, as DevTools' summary names them. */
const GROUPS: [string, RegExp][] = [
  [
    "script",
    /^(FunctionCall|EventDispatch|TimerFire|FireAnimationFrame|v8\.|V8\.|RunMicrotasks|EvaluateScript|v8\.run|RunTask.*Microtask|GCEvent|MinorGC|MajorGC|BlinkGC|ScheduledAction)/,
  ],
  ["style", /^(UpdateLayoutTree|RecalculateStyles|ScheduleStyleRecalculation|Document::updateStyle|StyleEngine)/],
  ["layout", /^(Layout|UpdateLayout|LocalFrameView::layout|InvalidateLayout)/],
  ["prepaint", /^(PrePaint|UpdateLifecycle)/],
  ["paint", /^(Paint|PaintImage|LocalFrameView::RunPaintLifecyclePhase|Paint\w*)$/],
  ["layerize", /^(Layerize|UpdateLayer|PaintArtifactCompositor)/],
  ["commit", /^(Commit|ProxyMain|ThreadProxy|LayerTreeHost)/],
  ["hit test", /^(HitTest|EventHandler|LocalFrameView::UpdateViewportIntersections|IntersectionObserver|UpdateViewportIntersection)/],
];
const groupOf = (name: string) => GROUPS.find(([, re]) => re.test(name))?.[0] ?? "other";

function grouped(s: Span): Map<string, number> {
  const g = new Map<string, number>();
  for (const [n, v] of s.self) g.set(groupOf(n), (g.get(groupOf(n)) ?? 0) + v);
  return g;
}

const fmtMap = (m: Map<string, number>, n = 12) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .filter(([, v]) => v >= 0.05)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(", ");

const FIFTY = () =>
  Array.from(
    { length: 50 },
    (_, i) =>
      writeDayLog(join(BENCH_DIR, "fifty", `svc-${String(i + 1).padStart(3, "0")}.hlog`), { intervals: 60, seed: 60_000 + i, startMs: Date.UTC(2026, 10, 1, 9, 0, 0) }).path,
  );
const HUNDRED = () =>
  Array.from(
    { length: 100 },
    (_, i) =>
      writeDayLog(join(BENCH_DIR, "hundred", `node-${String(i + 1).padStart(3, "0")}.hlog`), { intervals: 300, seed: 300_000 + i, startMs: Date.UTC(2026, 10, 1, 9, 0, 0) }).path,
  );

async function loadFiles(page: Page, url: string, files: string[]): Promise<WaitResult> {
  await page.goto(`${url}?demo=0`);
  await page.waitForSelector("[data-testid=app][data-busy=false]");
  await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
  await page.getByTestId("file-input").setInputFiles(files);
  return withTimeout("load", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
}

interface Result {
  paint: number[];
  longestCpu?: number;
  spans: Span[];
}

async function toggles(b: Browser, page: Page, clicks: number): Promise<Result> {
  const out: Result = { paint: [], spans: [] };
  const ks = [3, 17, 29, 41, 48];
  const order = Array.from({ length: clicks }, (_, i) => ks[i % ks.length]!);
  const marks: string[] = [];
  const events = await traced(b, async () => {
    for (const [i, k] of order.entries()) {
      await page.evaluate(armNextPaint, "click");
      await page.evaluate((i) => {
        window.addEventListener("click", () => performance.mark(`act-${i}`), { capture: true, once: true });
        const w = window as unknown as { __next: Promise<number> };
        void w.__next.then(() => performance.mark(`done-${i}`));
      }, i);
      await page.getByTestId("series-toggle").nth(k).click();
      out.paint.push(await withTimeout("toggle", 30_000, () => page.evaluate(() => (window as unknown as { __next: Promise<number> }).__next)));
      marks.push(String(i));
      await page.waitForTimeout(150);
    }
  });
  collect(events, marks, out);
  return out;
}

async function units(b: Browser, page: Page, clicks: number): Promise<Result> {
  const out: Result = { paint: [], spans: [] };
  const seq = ["us", "ms", "s", "ms", "ns", "us", "ms", "s", "us", "ms"];
  const marks: string[] = [];
  const events = await traced(b, async () => {
    for (let i = 0; i < clicks; i++) {
      await page.evaluate(
        ({ i }) => {
          window.addEventListener("change", () => performance.mark(`act-${i}`), { capture: true, once: true });
          window.__bench.armUnit(`u${i}`);
          void window.__bench.waitUnit(`u${i}`).then(() => performance.mark(`done-${i}`));
        },
        { i },
      );
      await page.getByTestId("unit-select").selectOption(seq[i % seq.length]!);
      const r = await withTimeout("unit", 30_000, () => page.evaluate((i) => window.__bench.waitUnit(`u${i}`), i));
      out.paint.push(r.tPaint - r.t0);
      marks.push(String(i));
      await page.waitForTimeout(150);
    }
  });
  collect(events, marks, out);
  return out;
}

function collect(events: TraceEvent[], marks: string[], out: Result): void {
  if (events.length === 0) return;
  const th = mainThread(events, `act-${marks[0]}`);
  const smp = profile ? samples(events, th) : [];
  const fns = new Map<string, number>();
  for (const m of marks) {
    const a = events.find((e) => e.name === `act-${m}` && e.cat.includes("blink.user_timing"));
    const d = events.find((e) => e.name === `done-${m}` && e.cat.includes("blink.user_timing"));
    if (!a || !d) continue;
    out.spans.push(span(events, th, a.ts, d.ts));
    for (const x of smp) if (x.t >= a.ts && x.t < d.ts) fns.set(x.fn, (fns.get(x.fn) ?? 0) + x.dt / marks.length);
  }
  if (profile) console.log(`    sampled JS self time per action: ${fmtMap(fns, 30)}`);
  if (process.env.TREE) {
    // The event tree of the median action (events of 0.2 ms or more).
    const a = events.find((e) => e.name === `act-${marks[1] ?? marks[0]}`)!.ts;
    const d = events.find((e) => e.name === `done-${marks[1] ?? marks[0]}`)!.ts;
    const xs = events.filter((e) => e.pid === th.pid && e.tid === th.tid && e.ph === "X" && e.ts < d && e.ts + e.dur! > a).sort((x, y) => x.ts - y.ts || y.dur! - x.dur!);
    const stack: number[] = [];
    for (const e of xs) {
      while (stack.length && stack.at(-1)! <= e.ts) stack.pop();
      if (e.dur! >= 200)
        console.log(
          `      ${"  ".repeat(stack.length)}${((e.ts - a) / 1000).toFixed(1)} +${(e.dur! / 1000).toFixed(2)} ${e.name}${e.tdur !== undefined ? ` (cpu ${(e.tdur / 1000).toFixed(2)})` : ""}`,
        );
      stack.push(e.ts + e.dur!);
    }
    if (process.env.INVALIDATIONS) {
      const inv = events.filter((e) => e.pid === th.pid && /InvalidationTracking/.test(e.name) && e.ts >= a && e.ts <= d);
      for (const e of inv.slice(0, 80)) {
        const data = e.args?.data as
          { nodeName?: string; reason?: string; stackTrace?: { functionName: string; url: string; lineNumber: number }[]; invalidationList?: unknown } | undefined;
        const st = (data?.stackTrace ?? [])
          .slice(0, 3)
          .map((f) => `${f.functionName}@${basename(f.url)}:${f.lineNumber}`)
          .join(" < ");
        console.log(`      inv ${((e.ts - a) / 1000).toFixed(1)} ${e.name} ${data?.nodeName ?? ""} ${data?.reason ?? ""} ${st}`);
      }
    }
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  parent?: number;
}

/** The main thread's V8 samples: time, function (with its file and line), duration (ms). */
function samples(events: TraceEvent[], th: { pid: number; tid: number }): { t: number; fn: string; dt: number }[] {
  const profiles = new Map<string, { nodes: Map<number, ProfileNode>; t: number; out: { t: number; node: number }[] }>();
  for (const e of events) {
    const id = (e as { id?: string }).id;
    if (e.pid !== th.pid || !id) continue;
    if (e.name === "Profile" && e.tid === th.tid) profiles.set(id, { nodes: new Map(), t: (e.args?.data as { startTime: number }).startTime, out: [] });
  }
  for (const e of events) {
    const id = (e as { id?: string }).id;
    if (e.name !== "ProfileChunk" || e.pid !== th.pid || !id) continue;
    const p = profiles.get(id);
    if (!p) continue;
    const data = e.args?.data as { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] };
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const ss = data.cpuProfile?.samples ?? [];
    for (let i = 0; i < ss.length; i++) {
      p.t += data.timeDeltas?.[i] ?? 0;
      p.out.push({ t: p.t, node: ss[i]! });
    }
  }
  const out: { t: number; fn: string; dt: number }[] = [];
  for (const p of profiles.values()) {
    for (let i = 0; i < p.out.length - 1; i++) {
      const f = p.nodes.get(p.out[i]!.node)?.callFrame;
      if (!f || f.functionName === "(idle)" || f.functionName === "(program)") continue;
      if (process.env.COMPONENTS) {
        // Inclusive time by the innermost components (capitalised functions) and React phases on the stack.
        let n: ProfileNode | undefined = p.nodes.get(p.out[i]!.node);
        const chain: string[] = [];
        while (n) {
          const fn = n.callFrame.functionName;
          if (/^[A-Z]/.test(fn) || /^(use[A-Z]|commit\w*Effects|flushPassive|commitRoot|performWorkOnRoot|renderRootSync|workLoop)/.test(fn)) chain.push(fn);
          n = n.parent !== undefined ? p.nodes.get(n.parent) : undefined;
        }
        out.push({ t: p.out[i]!.t, fn: chain.slice(0, 3).reverse().join(">") || "?", dt: (p.out[i + 1]!.t - p.out[i]!.t) / 1000 });
        continue;
      }
      out.push({
        t: p.out[i]!.t,
        fn: `${f.functionName || "(anon)"}${f.url ? `@${basename(f.url).replace(/-[\w-]{8}\.js$/, "")}:${f.lineNumber}` : ""}`,
        dt: (p.out[i + 1]!.t - p.out[i]!.t) / 1000,
      });
    }
  }
  return out;
}

async function hundred(b: Browser, url: string, files: string[]): Promise<Result & { load: number; longestCpu: number }> {
  const { context, page } = await newPage(b);
  try {
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => {
      window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true });
      window.addEventListener("change", () => performance.mark("act-0"), { capture: true, once: true });
    });
    let r!: WaitResult;
    const events = await traced(b, async () => {
      await page.getByTestId("file-input").setInputFiles(files);
      r = await withTimeout("100 logs", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
      await page.waitForTimeout(200);
      await page.evaluate(() => performance.mark("done-0"));
    });
    const out: Result & { load: number; longestCpu: number } = { paint: [], spans: [], load: r.tPaint - r.t0, longestCpu: 0 };
    collect(events, ["0"], out);
    // The longest task, and what it did.
    const th = mainThread(events, "act-0");
    const a = events.find((e) => e.name === "act-0")!.ts;
    // Top-level tasks only (a RunTask inside another is part of it).
    const all = events
      .filter((e) => e.pid === th.pid && e.tid === th.tid && e.ph === "X" && /RunTask/.test(e.name) && e.ts >= a - 1000)
      .sort((x, y) => x.ts - y.ts || y.dur! - x.dur!);
    const tasks: TraceEvent[] = [];
    for (const t of all) if (!tasks.length || t.ts >= tasks.at(-1)!.ts + tasks.at(-1)!.dur!) tasks.push(t);
    tasks.sort((x, y) => y.dur! - x.dur!);
    const lt = tasks.slice(0, 3).map((t) => ({ dur: t.dur! / 1000, cpu: (t.tdur ?? t.dur!) / 1000, s: span(events, th, t.ts, t.ts + t.dur!) }));
    out.paint.push(lt[0]?.dur ?? 0);
    out.longestCpu = Math.max(...tasks.map((t) => (t.tdur ?? t.dur!) / 1000));
    console.log(`  longest tasks: ${lt.map((t) => `${t.dur.toFixed(0)} ms, CPU ${t.cpu.toFixed(0)} (${fmtMap(t.s.self, 6)})`).join("; ")}`);
    return out;
  } finally {
    await closeQuietly(context);
  }
}

async function main(): Promise<void> {
  const a = parse(process.argv.slice(2));
  mkdirSync(BENCH_DIR, { recursive: true });
  const fifty = FIFTY();
  const hundredFiles = a.what.has("hundred") ? HUNDRED() : [];
  const servers = [];
  for (let i = 0; i < a.dists.length; i++) servers.push(await startPreview(a.port + i, a.dists[i]));
  const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
  const results = new Map<string, Result[]>();
  const put = (k: string, r: Result) => results.set(k, [...(results.get(k) ?? []), r]);
  try {
    for (let run = 0; run < a.runs; run++) {
      for (let d = 0; d < a.dists.length; d++) {
        const name = basename(a.dists[d]!);
        const url = servers[d]!.url;
        if (a.what.has("toggle") || a.what.has("unit")) {
          const { context, page } = await newPage(b);
          try {
            await loadFiles(page, url, fifty);
            await page.waitForTimeout(500);
            for (const w of ["toggle", "unit"]) {
              if (!a.what.has(w)) continue;
              const r = w === "toggle" ? await toggles(b, page, a.clicks) : await units(b, page, a.clicks);
              put(`${w} ${d}`, r);
              const g = new Map<string, number>();
              for (const s of r.spans) for (const [k, v] of grouped(s)) g.set(k, (g.get(k) ?? 0) + v / r.spans.length);
              console.log(`    each: ${r.paint.map((x) => x.toFixed(1)).join(" ")}`);
              console.log(
                `${name} ${w} run ${run + 1} (load ${os.loadavg()[0]!.toFixed(1)}): paint median ${ms(median(r.paint))}, CPU median ${ms(median(r.spans.map((s) => s.cpu)))}; mean self: ${fmtMap(g)}`,
              );
              const names = new Map<string, number>();
              for (const s of r.spans) for (const [k, v] of s.self) names.set(k, (names.get(k) ?? 0) + v / r.spans.length);
              console.log(`    by event: ${fmtMap(names, 16)}`);
              await page.evaluate(() => window.scrollTo(0, 0));
              await page.waitForTimeout(300);
            }
          } finally {
            await closeQuietly(context);
          }
        }
        if (a.what.has("hundred")) {
          const r = await hundred(b, url, hundredFiles);
          put(`hundred ${d}`, r);
          console.log(
            `${name} hundred run ${run + 1} (load ${os.loadavg()[0]!.toFixed(1)}): load ${ms(r.load)}, longest task ${ms(r.paint[0]!)} (most CPU in a task ${ms(r.longestCpu)}), main CPU ${ms(r.spans[0]?.cpu ?? NaN)}`,
          );
        }
      }
    }
  } finally {
    await b.close().catch(() => undefined);
    for (const s of servers) await stopChild(s.child);
  }
  console.log("\nmedians:");
  for (const w of ["toggle", "unit", "hundred"]) {
    for (let d = 0; d < a.dists.length; d++) {
      const rs = results.get(`${w} ${d}`);
      if (!rs) continue;
      const paint = rs.flatMap((r) => r.paint);
      const cpu = rs.flatMap((r) => r.spans.map((s) => s.cpu));
      const extra = w === "hundred" ? `, most CPU in one task ${ms(median(rs.map((r) => r.longestCpu ?? NaN)))}` : "";
      console.log(`  ${w} ${basename(a.dists[d]!)}: ${w === "hundred" ? "longest task" : "paint"} ${ms(median(paint))} (n=${paint.length}), main CPU ${ms(median(cpu))}${extra}`);
    }
  }
  if (a.out) writeFileSync(a.out, JSON.stringify(Object.fromEntries(results)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
