// The heatmap, the requirement in every window and tail attribution, through their hooks, on a
// generated run with one known stall (tests/support/queue-sim.ts) against references computed
// here from the simulated intervals with hdr-histogram-js.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { build, type Histogram } from "hdr-histogram-js";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { cell, idle, loadFiles, openEmpty, slideTo } from "./helpers";

// 2000 requests/s for 120 s, one 1.5 s stall at 63.3 s; intervals of 1 s from StartTime.
const sim = simulateQueue({ rate: 2000, seconds: 120, medianServiceSec: 200e-6, sigma: 0.5, stalls: [{ at: 63.3, duration: 1.5 }], seed: 7 });
const dir = mkdtempSync(join(tmpdir(), "time-e2e-"));
const file = join(dir, "stall_2k.hlog");
writeFileSync(file, writeHlog(sim));

/** Library reference: values in buckets wholly above t (every index past the one holding t). */
function countAbove(h: Histogram, t: number): number {
  const js = h as unknown as { countsArrayIndex(v: number): number; getCountAtIndex(i: number): number; countsArrayLength: number };
  let n = 0;
  for (let i = js.countsArrayIndex(t) + 1; i < js.countsArrayLength; i++) n += js.getCountAtIndex(i);
  return n;
}

async function apply(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).fill(text);
  await page.getByTestId(testId).press("Enter");
  await page.waitForTimeout(50);
  await idle(page);
}

test("windows: 12 windows of 10 s, 11 pass, the worst starts at 60 s; empty length turns them off", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  await expect(page.getByTestId("heatmap")).toBeVisible();
  await apply(page, "requirement-input", "p99<=5ms, max<=100ms");
  await apply(page, "window-length", "10s");
  const v = page.getByTestId("window-verdict");
  await expect(v).toHaveCount(1);
  await expect(v).toHaveAttribute("data-series", "stall_2k");
  // Reference: each window's intervals merged by the library, judged at p99 and max.
  let passing = 0;
  let worst = { start: -1, ratio: 0 };
  for (let k = 0; k < 12; k++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (const iv of sim) if (iv.start >= k * 10 && iv.start < (k + 1) * 10) h.add(iv.histogram);
    const p99 = h.getValueAtPercentile(99) / 5e6;
    const max = (h as unknown as { highestEquivalentValue(v: number): number }).highestEquivalentValue(h.maxValue) / 100e6;
    if (p99 <= 1 && max <= 1) passing++;
    if (Math.max(p99, max) > worst.ratio) worst = { start: k * 10, ratio: Math.max(p99, max) };
  }
  await expect(v).toHaveAttribute("data-windows", "12");
  await expect(v).toHaveAttribute("data-passing", String(passing));
  await expect(v).toHaveAttribute("data-worst-start", String(worst.start));
  expect(passing).toBe(11);
  expect(worst.start).toBe(60);
  await expect(v).toContainText("11 of 12 windows of 10s pass");
  // The Markdown carries it.
  await page.getByTestId("copy-markdown").click();
  await expect(page.getByTestId("markdown-output")).toHaveValue(/11 of 12 windows of 10s pass; worst at \+60 s/);
  // Empty turns windows off.
  await apply(page, "window-length", "");
  await expect(page.getByTestId("window-verdict")).toHaveCount(0);
});

test("tail: the values above 100 ms, counted as the library's buckets do, came from the stall's intervals; clicking one selects it", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  await apply(page, "tail-threshold", ">100ms");
  const s = page.getByTestId("tail-summary");
  await expect(s).toHaveCount(1);
  const per = sim.map((iv) => countAbove(iv.histogram, 100e6));
  const total = per.reduce((a, b) => a + b, 0);
  const top = per.indexOf(Math.max(...per));
  await expect(s).toHaveAttribute("data-series", "stall_2k");
  await expect(s).toHaveAttribute("data-above", String(total));
  await expect(s).toHaveAttribute("data-top-start", String(sim[top]!.start));
  await expect(s).toHaveAttribute("data-top-count", String(per[top]));
  await expect(s).toContainText("values above 100 ms came from");
  // Clicking the top interval makes it the time window: the table then counts that interval alone.
  await s.getByTestId("tail-interval").first().click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("range-start")).toHaveValue(String(sim[top]!.start));
  await expect(page.locator(`[data-testid=percentile-table] [data-series="stall_2k"][data-count]`)).toHaveAttribute("data-count", String(sim[top]!.histogram.totalCount));
});

test("heatmap: drawn for the series, brushing it sets the time window, wheel zooms the timeline with it", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  const hm = page.getByTestId("heatmap");
  await expect(hm).toBeVisible();
  await hm.scrollIntoViewIfNeeded();
  const box = (await hm.boundingBox())!;
  // Drag across the middle of the plot.
  await page.mouse.move(box.x + 200, box.y + 80);
  await page.mouse.down();
  await page.mouse.move(box.x + 400, box.y + 80, { steps: 4 });
  await page.mouse.up();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("range-start")).not.toHaveValue("");
  // Wheel: both charts show the same zoomed span.
  await page.mouse.move(box.x + 300, box.y + 80);
  await page.mouse.wheel(0, -200);
  await page.waitForTimeout(100);
  await idle(page);
  const a = Number(await hm.getAttribute("data-domain-start"));
  const b = Number(await page.getByTestId("timeline").getAttribute("data-domain-start"));
  expect(a).toBeGreaterThan(0);
  expect(Math.abs(a - b)).toBeLessThan(1e-6);
});

// Screenshots for people to look at (screens/ is gitignored): the demo's stalling System A, light and dark.
test("screenshots of the heatmap", async ({ page }) => {
  mkdirSync("screens", { recursive: true });
  await page.goto("./");
  await idle(page);
  await apply(page, "window-length", "10s");
  await apply(page, "tail-threshold", ">50ms");
  const panel = page.locator(".time-panel");
  await panel.scrollIntoViewIfNeeded();
  await page.locator(".main").screenshot({ path: "screens/demo-light.png" });
  await page.getByTestId("heatmap-series").selectOption("*");
  await idle(page);
  await panel.screenshot({ path: "screens/demo-lanes-light.png" });
  await page.getByTestId("theme").check();
  await idle(page);
  await panel.screenshot({ path: "screens/demo-lanes-dark.png" });
  await page.getByTestId("theme").uncheck();
});

/** The four hooks' data-* values, to compare a page with the one its link opens. */
async function timeHooks(page: Page) {
  const attrs = (testId: string, names: string[]) =>
    page.getByTestId(testId).evaluateAll((els, ns) => els.map((e) => Object.fromEntries(ns.map((n) => [n, e.getAttribute(n)]))), names);
  return {
    verdicts: await attrs("window-verdict", ["data-series", "data-windows", "data-passing", "data-worst-start"]),
    tails: await attrs("tail-summary", ["data-series", "data-above", "data-top-start", "data-top-count"]),
  };
}

test("share link: the window verdicts and the tail summary travel with the link and show the same values", async ({ page, browser }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  await apply(page, "requirement-input", "p99<=5ms, max<=100ms");
  await apply(page, "window-length", "10s");
  await apply(page, "tail-threshold", ">100ms");
  const here = await timeHooks(page);
  expect(here.verdicts).toEqual([{ "data-series": "stall_2k", "data-windows": "12", "data-passing": "11", "data-worst-start": "60" }]);
  expect(here.tails).toHaveLength(1);
  const verdictText = await page.getByTestId("window-verdict").innerText();
  const tailText = await page.getByTestId("tail-summary").innerText();
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await p2.goto(url.replace(/^https?:\/\/[^/]+\//, `http://127.0.0.1:${process.env.E2E_PORT || 4173}/`));
  await idle(p2);
  await expect(p2.getByTestId("series")).toHaveCount(1);
  await expect(p2.getByTestId("window-verdict")).toHaveCount(1);
  expect(await timeHooks(p2)).toEqual(here);
  // Worded the same from the link's numbers.
  expect(await p2.getByTestId("window-verdict").innerText()).toBe(verdictText);
  expect(await p2.getByTestId("tail-summary").innerText()).toBe(tailText);
  await other.close();
});

test("reload keeps the time options: window length, wall clock, tail threshold and the heatmap's series", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  await apply(page, "requirement-input", "p99<=5ms, max<=100ms");
  await apply(page, "window-length", "10s");
  await page.getByTestId("window-wallclock").check();
  await idle(page);
  await apply(page, "tail-threshold", ">100ms");
  const before = await timeHooks(page);
  await page.waitForTimeout(500); // the view is saved 200 ms after the last change
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("window-length")).toHaveValue("10s");
  await expect(page.getByTestId("window-wallclock")).toBeChecked();
  await expect(page.getByTestId("tail-threshold")).toHaveValue(">100ms");
  await expect(page.getByTestId("window-verdict")).toHaveCount(1);
  expect(await timeHooks(page)).toEqual(before);
});

test("a click on the spectrum sets the tail threshold to the curve's value there", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  const plot = page.getByTestId("percentile-plot");
  const box = (await plot.boundingBox())!;
  // At the 99.9th percentile's tick, half way up the plot (one series: its curve is the nearest).
  const tick = plot.locator(".x-axis text", { hasText: /^99\.9%?$/ }).first();
  const tb = (await tick.boundingBox())!;
  await page.mouse.click(tb.x + tb.width / 2, box.y + box.height / 2);
  await page.waitForTimeout(50);
  await idle(page);
  const text = await page.getByTestId("tail-threshold").inputValue();
  expect(text).toMatch(/^>[\d.]+(ns|µs|ms|s)$/);
  const m = /^>([\d.]+)(ns|µs|ms|s)$/.exec(text)!;
  const ns = Number(m[1]) * { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[m[2] as "ns"];
  // The table's p99.9 (ns, the log's unit), within a pixel's worth of percentile and the
  // field's four significant digits.
  const p999 = Number(await cell(page, "stall_2k", "99.9").getAttribute("data-raw"));
  expect(Math.abs(ns / p999 - 1)).toBeLessThan(0.05);
  // And the tail is counted above it, as the library counts the simulated intervals.
  const s = page.getByTestId("tail-summary");
  await expect(s).toHaveCount(1);
  const total = sim.reduce((a, iv) => a + countAbove(iv.histogram, ns), 0);
  await expect(s).toHaveAttribute("data-above", String(total));
});

test("heatmap: failing windows and tail marks are drawn on it; the presentation has a heatmap slide", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [file]);
  await apply(page, "requirement-input", "p99<=5ms, max<=100ms");
  await apply(page, "window-length", "10s");
  await apply(page, "tail-threshold", ">100ms");
  const hm = page.getByTestId("heatmap");
  await expect(hm).toHaveAttribute("data-failing-windows", "1");
  const per = sim.map((iv) => countAbove(iv.histogram, 100e6));
  await expect(hm).toHaveAttribute("data-tail-marks", String(per.filter((x) => x > 0).length));
  await page.getByTestId("present").click();
  await slideTo(page, "present-heatmap");
  await expect(page.getByTestId("present-heatmap")).toBeVisible();
  await expect(page.getByTestId("presentation").getByTestId("heatmap")).toHaveAttribute("data-failing-windows", "1");
  await page.getByTestId("present-exit").click();
});

test("screenshots of the heatmap with window bands and tail marks, light and dark", async ({ page }) => {
  mkdirSync("screens", { recursive: true });
  await openEmpty(page);
  await loadFiles(page, [file]);
  await apply(page, "requirement-input", "p99<=5ms, max<=100ms");
  await apply(page, "window-length", "10s");
  await apply(page, "tail-threshold", ">100ms");
  const panel = page.locator(".time-panel");
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: "screens/bands-light.png" });
  await page.getByTestId("theme").check();
  await idle(page);
  await panel.screenshot({ path: "screens/bands-dark.png" });
  await page.getByTestId("present").click();
  await slideTo(page, "present-heatmap");
  await expect(page.getByTestId("present-heatmap")).toBeVisible();
  await page.screenshot({ path: "screens/present-heatmap-dark.png" });
  await page.getByTestId("present-exit").click();
  await page.getByTestId("theme").uncheck();
});
