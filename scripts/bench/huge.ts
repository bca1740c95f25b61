// Item 10: a 500 MB log.
import { statSync } from "node:fs";
import { type Browser } from "playwright-core";
import { withTimeout, WaitResult, newPage, closeQuietly, WorkerSession } from "./harness";
import { applyRange } from "./day";

export interface HugeRun {
  load: WaitResult;
  bytes: number;
  count: string | null;
  errors: string[];
  crashed: boolean;
  /** Enter in the range end → data-busy false, for a window of 400 000 s. */
  window: WaitResult | null;
  heap: { main: number; workers: number | null };
}

/** The 500 MB log: loads or stops with a message, the tab survives; then one time window. */
export async function hugeRun(b: Browser, url: string, path: string): Promise<HugeRun> {
  const { context, page } = await newPage(b);
  let crashed = false;
  page.on("crash", () => (crashed = true));
  try {
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 0, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(path);
    const load = await withTimeout("500 MB load", 600_000, () => page.evaluate(() => window.__bench.wait("load")));
    const count = await page
      .locator("[data-testid=series]")
      .first()
      .getAttribute("data-count")
      .catch(() => null);
    const errors = await page.locator("[data-testid=load-error]").allTextContents();
    const main = await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    let workers: number | null = null;
    try {
      const wss = await WorkerSession.attachAll(b, page);
      workers = 0;
      for (const w of wss) workers += (await withTimeout("worker heap", 30_000, () => w.send<{ usedSize: number }>("Runtime.getHeapUsage"))).usedSize;
      for (const w of wss) await w.close();
    } catch {
      workers = null;
    }
    const win = count ? await applyRange(page, "huge-window", 100_000, 500_000) : null;
    return { load, bytes: statSync(path).size, count, errors, crashed, window: win, heap: { main, workers } };
  } finally {
    await closeQuietly(context);
  }
}
