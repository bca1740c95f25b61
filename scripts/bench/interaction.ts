// Items 5, 6 and 8: the 50-series redraws (unit, hide/show, hover), the demo's first paint and
// 100 logs dropped at once.
import { type Browser, type Page } from "playwright-core";
import { withTimeout, WaitResult, newPage, closeQuietly, Fixtures } from "./harness";
import { changeUnit } from "./day";

export const UNIT_SEQUENCE = ["us", "ms", "s", "ms", "ns", "us", "ms", "s", "us", "ms"];

export interface UnitRun {
  /** Longest main-thread task while the unit changed (long tasks are ≥ 50 ms). */
  longest: number;
  commit: number[];
  /** Change → first paint with data-busy false (everything in the new unit). */
  paint: number[];
  /** Change → first paint at all (the chart and timeline; the table may follow a frame later). */
  firstPaint: number[];
  /** The same changes with the table scrolled into view (it then changes in the chart's frame): change → paint with data-busy false. */
  inView: number[];
  doubleRaf: number[];
  series: number;
  load: number;
  /** Other redraws of the 50 series: hiding/showing one (click → next paint), hovering the plot (mousemove → next paint). */
  toggle: number[];
  hover: number[];
}

export async function unitRun(b: Browser, url: string, fx: Fixtures): Promise<UnitRun> {
  const { context, page } = await newPage(b);
  try {
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(fx.fifty);
    const load = await withTimeout("50 logs", 120_000, () => page.evaluate(() => window.__bench.wait("load")));
    await page.waitForTimeout(300);
    const out: UnitRun = { longest: 0, commit: [], paint: [], firstPaint: [], inView: [], doubleRaf: [], series: load.series, load: load.tPaint - load.t0, toggle: [], hover: [] };
    const since = await page.evaluate(() => performance.now());
    for (const [i, u] of UNIT_SEQUENCE.entries()) {
      const r = await changeUnit(page, `unit${i}`, u);
      out.commit.push(r.tCommit - r.t0);
      out.paint.push(r.tPaint - r.t0);
      out.firstPaint.push(r.tFirstPaint - r.t0);
      out.doubleRaf.push(r.tDoubleRaf - r.t0);
      await page.waitForTimeout(150);
    }
    const lt = (await page.evaluate(() => window.__bench.longtasks)).filter((t) => t.start >= since);
    out.longest = lt.length ? Math.max(...lt.map((t) => t.duration)) : 0;
    // The table in view: it is relabelled in the chart's frame then (see use-after-paint.ts).
    await page.getByTestId("percentile-table").scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    for (const [i, u] of UNIT_SEQUENCE.entries()) {
      const r = await changeUnit(page, `unitv${i}`, u);
      out.inView.push(r.tPaint - r.t0);
      await page.waitForTimeout(150);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await otherRedraws(page, out);
    return out;
  } finally {
    await closeQuietly(context);
  }
}

/** In the page: the time from the next `event` (capture phase) to the next paint (rAF, then a task). */
export function armNextPaint(event: string): void {
  const w = window as unknown as { __next: Promise<number> };
  w.__next = new Promise((resolve) => {
    const on = () => {
      window.removeEventListener(event, on, true);
      const t0 = performance.now();
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    };
    window.addEventListener(event, on, true);
  });
}

/** Item 5's other redraws: hide then show five series (clicks on their names), and hover the plot. */
export async function otherRedraws(page: Page, out: UnitRun): Promise<void> {
  const toggles = page.getByTestId("series-toggle");
  for (const k of [3, 17, 29, 41, 48, 3, 17, 29, 41, 48]) {
    await page.evaluate(armNextPaint, "click");
    await toggles.nth(k).click();
    out.toggle.push(await withTimeout("toggle", 30_000, () => page.evaluate(() => (window as unknown as { __next: Promise<number> }).__next)));
    await page.waitForTimeout(150);
  }
  const plot = page.getByTestId("percentile-plot");
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  for (let i = 0; i < 10; i++) {
    await page.evaluate(armNextPaint, "mousemove");
    await page.mouse.move(box.x + box.width * (0.2 + 0.06 * i), box.y + box.height * 0.5);
    out.hover.push(await withTimeout("hover", 30_000, () => page.evaluate(() => (window as unknown as { __next: Promise<number> }).__next)));
    await page.waitForTimeout(100);
  }
  await page.mouse.move(0, 0);
}

export async function demoRun(b: Browser, url: string): Promise<WaitResult> {
  const { context, page } = await newPage(b);
  try {
    await context.addInitScript(() => window.__bench.arm("nav", { event: null, minSeries: 1, requireTrue: false }));
    await page.goto(url, { waitUntil: "commit" });
    return await withTimeout("demo first paint", 60_000, () => page.evaluate(() => window.__bench.wait("nav")));
  } finally {
    await closeQuietly(context);
  }
}

/** Loads `files` through the file input in a fresh page opened with `query`; timed in the page. */

export async function hundredRun(b: Browser, url: string, fx: Fixtures): Promise<WaitResult & { longest: number }> {
  const { context, page } = await newPage(b);
  try {
    await page.goto(`${url}?demo=0`);
    await page.waitForSelector("[data-testid=app][data-busy=false]");
    await page.evaluate(() => window.__bench.arm("load", { event: "change", selector: "[data-testid=file-input]", minSeries: 1, requireTrue: true }));
    await page.getByTestId("file-input").setInputFiles(fx.hundred);
    const r = await withTimeout("100 logs", 180_000, () => page.evaluate(() => window.__bench.wait("load")));
    // Long tasks up to the paint, and the frame after it (the layout of what was rendered).
    await page.waitForTimeout(200);
    const lt = (await page.evaluate(() => window.__bench.longtasks)).filter((t) => t.start + t.duration > r.t0);
    return { ...r, longest: lt.length ? Math.max(...lt.map((t) => t.duration)) : 0 };
  } finally {
    await closeQuietly(context);
  }
}
