// Items 1–4: the 24-hour log (load, time windows, heap), the plain hdr-histogram-js baseline and
// the decode floor, and a plain load of given files.
import { basename, join, resolve } from "node:path";
import { type Browser, type Page } from "playwright-core";
import { ROOT, BENCH_DIR, HDR_UMD, PAKO_UMD, withTimeout, scratchDirs, WaitResult, newPage, closeQuietly, WorkerSession, Fixtures } from "./harness";

// ---------------------------------------------------------------------------------------------
// Measurements. Each returns what one run measured; failures are recorded, not thrown.

export const RANGES: [number, number | null][] = [
  [100, 160], // one minute
  [43_200, 44_100], // 15 minutes at noon
  [3_600, 7_200], // one hour
  [1_000, 80_000], // most of the day
  [0, 900], // the first 15 minutes (left edge)
  [85_500, 86_400], // the last 15 minutes (right edge)
  [86_000, null], // open end, past the last interval
];

export interface HeapFigures {
  /** usedJSHeapSize of the page, as found right after the load. */
  main: number;
  /** ArrayBuffer backing stores of the page (outside the JS heap). */
  mainBacking: number;
  /** The engine worker's used heap, null when CDP could not reach it. */
  worker: number | null;
  workerBacking: number | null;
  /** After HeapProfiler.collectGarbage. */
  mainGc: number;
  workerGc: number | null;
  note: string;
}

export interface DayRun {
  load: WaitResult;
  heap: HeapFigures;
  loadErrors: number;
  longest: number;
  longCount: number;
  range: { spectrum: number[]; paint: number[]; wall: number[]; probes: string[] };
}

/**
 * Types a time window without moving focus (moving it would apply the window on blur), then
 * presses Enter in the end field; timed in the page from the keydown to data-busy false.
 */
export async function applyRange(page: Page, id: string, s: number, e: number | null): Promise<WaitResult> {
  await page.evaluate(
    ({ id, s, e }) => {
      const set = (el: HTMLInputElement, v: string) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(el, v);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      };
      set(document.querySelector("[data-testid=range-start]")!, s);
      set(document.querySelector("[data-testid=range-end]")!, e);
      window.__bench.arm(id, { event: "keydown", selector: "[data-testid=range-end]", key: "Enter", minSeries: 1, requireTrue: true });
    },
    { id, s: String(s), e: e === null ? "" : String(e) },
  );
  await page.getByTestId("range-end").press("Enter");
  return withTimeout(`range ${s}–${e ?? ""}`, 60_000, () => page.evaluate((id) => window.__bench.wait(id), id));
}

/** Changes the display unit; timed in the page from the change event to the next paint. */
export async function changeUnit(page: Page, id: string, unit: string) {
  await page.evaluate((id) => window.__bench.armUnit(id), id);
  await page.getByTestId("unit-select").selectOption(unit);
  return withTimeout(`unit → ${unit}`, 30_000, () => page.evaluate((id) => window.__bench.waitUnit(id), id));
}

export async function dayRun(b: Browser, url: string, fx: Fixtures, only: (n: number) => boolean): Promise<DayRun> {
  const { context, page } = await newPage(b);
  try {
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(fx.day);
    const load = await withTimeout("24-hour load", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
    const lt = (await page.evaluate(() => window.__bench.longtasks)).filter((t) => t.start + t.duration > load.t0 && t.start < load.tPaint);
    const loadErrors = await page.locator("[data-testid=load-error]").count();

    // Heap: main thread from performance.memory (precise with --enable-precise-memory-info), the
    // worker's from Runtime.getHeapUsage over CDP; as found, then after a forced GC of each.
    // ArrayBuffer/typed-array backing stores live outside the JS heap: recorded apart.
    type Usage = { usedSize: number; backingStorageSize?: number };
    const mainHeap = () => page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    const ps = await context.newCDPSession(page);
    const mainUsage = () => withTimeout("main heap usage", 15_000, () => ps.send("Runtime.getHeapUsage") as Promise<Usage>);
    const heap: HeapFigures = {
      main: await mainHeap(),
      mainBacking: (await mainUsage()).backingStorageSize ?? 0,
      worker: null,
      workerBacking: null,
      mainGc: 0,
      workerGc: null,
      note: "",
    };
    // Every worker of the page: the engine worker and its helpers (they hold a big log's
    // parts until the engine joins them).
    let wss: WorkerSession[] = [];
    const sumUsage = async (what: "usedSize" | "backingStorageSize") => {
      let total = 0;
      for (const w of wss) total += (await withTimeout("worker heap", 15_000, () => w.send<Usage>("Runtime.getHeapUsage")))[what] ?? 0;
      return total;
    };
    try {
      wss = await withTimeout("attach to the workers", 15_000, () => WorkerSession.attachAll(b, page));
      heap.worker = await sumUsage("usedSize");
      heap.workerBacking = await sumUsage("backingStorageSize");
      heap.note = `${wss.length} workers (${wss.map((w) => basename(w.url).replace(/-[^-]+\.js$/, "")).join(", ")})`;
    } catch (e) {
      heap.note = `worker heap unavailable: ${(e as Error).message}`;
    }
    for (const w of wss) await w.close();
    wss = [];

    // Time windows: values set without moving focus (moving it would apply the window on blur),
    // then Enter in the end field; timed in the page from the keydown.
    const range = { spectrum: [] as number[], paint: [] as number[], wall: [] as number[], probes: [] as string[] };
    if (only(3)) {
      const start = page.getByTestId("range-start");
      const end = page.getByTestId("range-end");
      await end.focus();
      for (const [i, [s, e]] of RANGES.entries()) {
        const r = await applyRange(page, `range${i}`, s, e);
        range.spectrum.push(r.tFalse - r.t0);
        range.paint.push(r.tPaint - r.t0);
        range.probes.push(r.probe);
        await page.waitForTimeout(100);
      }
      // The whole UI path as Playwright types it: fill start, fill end (focus moves, so the
      // window may apply once on blur), Enter; Node's wall clock until the page has painted.
      await page.evaluate(() => window.__bench.arm("clear", { event: "click", selector: "[data-testid=range-clear]", minSeries: 1, requireTrue: true }));
      await page.getByTestId("range-clear").click();
      await withTimeout("whole run again", 60_000, () => page.evaluate(() => window.__bench.wait("clear")));
      for (const [i, [s, e]] of RANGES.entries()) {
        const id = `wall${i}`;
        await page.evaluate((id) => window.__bench.arm(id, { event: "keydown", selector: "[data-testid=range-end]", key: "Enter", minSeries: 1, requireTrue: true }), id);
        const t = performance.now();
        await start.fill(String(s));
        await end.fill(e === null ? "" : String(e));
        await end.press("Enter");
        await withTimeout(`range ${s}–${e ?? ""} (UI)`, 60_000, () => page.evaluate((id) => window.__bench.wait(id), id));
        range.wall.push(performance.now() - t);
        await page.waitForTimeout(100);
      }
    }
    // The forced GC comes after the windows: it is a memory-reducing GC that also throws away
    // compiled code, which made the first window after it slower than any person sees.
    await withTimeout("main GC", 30_000, () => ps.send("HeapProfiler.collectGarbage"));
    if (heap.worker !== null) {
      try {
        wss = await withTimeout("attach to the workers", 15_000, () => WorkerSession.attachAll(b, page));
        for (const w of wss) await withTimeout("worker GC", 30_000, () => w.send("HeapProfiler.collectGarbage"));
        heap.workerGc = await sumUsage("usedSize");
      } catch (e) {
        heap.note = `worker GC failed: ${(e as Error).message}`;
      }
    }
    for (const w of wss) await w.close();
    await ps.detach().catch(() => undefined);
    heap.mainGc = await mainHeap();
    return {
      load,
      heap,
      loadErrors,
      longest: lt.length ? Math.max(...lt.map((t) => t.duration)) : 0,
      longCount: lt.length,
      range,
    };
  } finally {
    await closeQuietly(context);
  }
}

export interface BaselineRun {
  whole: number;
  read: number;
  intervals: number;
  p99: number;
  heap: number;
  window: number[];
  /** base64 + zlib inflate of every payload and nothing else, in one thread (ms). */
  floor: number;
  /** What inflated in the floor: "kernel" (WebAssembly, as the app) or "javascript". */
  floorEngine: string;
}

export let floorPath: string | null = null;
/** scripts/lib/floor-entry.ts as one script for the baseline page (built once per bench run). */
export async function floorBundle(): Promise<string> {
  if (floorPath) return floorPath;
  const out = join(BENCH_DIR, `floor-${process.pid}`);
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    build: {
      outDir: out,
      emptyOutDir: true,
      minify: true,
      lib: { entry: resolve(ROOT, "scripts/lib/floor-entry.ts"), formats: ["iife"], name: "floorLib", fileName: () => "floor.js" },
    },
  });
  scratchDirs.push(out);
  floorPath = join(out, "floor.js");
  return floorPath;
}

export async function baselineRun(b: Browser, fx: Fixtures): Promise<BaselineRun> {
  const { context, page } = await newPage(b);
  try {
    await page.goto("about:blank");
    await page.addScriptTag({ path: PAKO_UMD });
    await page.addScriptTag({ path: HDR_UMD });
    await page.addScriptTag({ path: await floorBundle() });
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.type = "file";
      input.id = "bench-file";
      input.style.display = "none";
      document.body.append(input);
    });
    await page.locator("#bench-file").setInputFiles(fx.day);
    return await withTimeout("baseline", 180_000, () =>
      page.evaluate(async () => {
        const hdr = window.hdr;
        const input = document.querySelector<HTMLInputElement>("#bench-file")!;
        const t0 = performance.now();
        const text = await input.files![0]!.text();
        const tRead = performance.now();
        const lines = text.split("\n");
        const acc = hdr.build({ bitBucketSize: 64 });
        let n = 0;
        const data: string[] = [];
        const starts: number[] = [];
        for (const line of lines) {
          if (!/^(Tag=[^,]*,)?[0-9]/.test(line)) continue; // data lines only
          const cols = line.split(",");
          const payload = cols[cols.length - 1]!;
          const h = hdr.decodeFromCompressedBase64(payload, 64);
          acc.add(h);
          n++;
          data.push(payload);
          starts.push(Number(cols[cols.length - 4]));
        }
        const t1 = performance.now();
        const p99 = acc.getValueAtPercentile(99);
        const heap = (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
        // A 15-minute window (900 intervals) at noon, the payloads already split.
        const win = data.filter((_, i) => starts[i]! >= 43_200 && starts[i]! < 44_100);
        const windowTimes: number[] = [];
        for (let rep = 0; rep < 7; rep++) {
          const w0 = performance.now();
          const a = hdr.build({ bitBucketSize: 64 });
          for (const p of win) a.add(hdr.decodeFromCompressedBase64(p, 64));
          a.getValueAtPercentile(99);
          windowTimes.push(performance.now() - w0);
        }
        // The floor: what every reader of these payloads must do, base64 and inflate, alone,
        // with the app's own decoder and inflater (scripts/lib/floor-entry.ts; the fastest
        // measured for 320-byte streams: pako.inflate re-allocates per call and is several times
        // slower, the browser's DecompressionStream has a high cost per stream). Warmed once, then timed.
        window.floorLib.inflateAll(data.slice(0, 2000));
        const f0 = performance.now();
        const inflated = window.floorLib.inflateAll(data);
        const floor = performance.now() - f0;
        if (!(inflated > 0)) throw new Error("nothing inflated");
        return { whole: t1 - t0, read: tRead - t0, intervals: n, p99, heap, window: windowTimes, windowIntervals: win.length, floor, floorEngine: window.floorLib.engine };
      }),
    );
  } finally {
    await closeQuietly(context);
  }
}

export async function loadRun(b: Browser, url: string, query: string, files: string[], label: string, timeoutMs = 180_000, settleMs = 0): Promise<WaitResult> {
  const { context, page } = await newPage(b);
  try {
    await page.goto(`${url}?${query}`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    if (settleMs > 0) await page.waitForTimeout(settleMs);
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(files);
    return await withTimeout(label, timeoutMs, () => page.evaluate(() => window.__bench.wait("load")));
  } finally {
    await closeQuietly(context);
  }
}
