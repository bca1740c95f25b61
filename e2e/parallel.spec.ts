// A log big enough to be cut in parts and read by two workers in Chromium: what the page shows
// must equal an independent reference — every interval decoded by hdr-histogram-js and added
// into a histogram of the log's own precision (3 digits, as writeDayLog writes it by default) —
// for the whole run and for a time window that straddles the cut.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { build, decodeFromCompressedBase64, type Histogram } from "hdr-histogram-js";
import { writeDayLog } from "../tests/support/day-log";
import { cell, idle, loadFiles, openEmpty } from "./helpers";

function reference(text: string, from: number, to: number): Histogram {
  const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
  for (const line of text.split("\n")) {
    if (!/^[0-9]/.test(line)) continue;
    const [start, , , payload] = line.split(",");
    const t = Number(start);
    if (t < from || t > to) continue;
    h.add(decodeFromCompressedBase64(payload!, 64, false));
  }
  return h;
}

test("a log read in parts by two workers shows what an interval-by-interval reference gives, whole and in a window across the cut", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-parts-"));
  const path = join(dir, "parts.hlog");
  // ~6 MB: above the 4 MB at which a log is cut in parts.
  writeDayLog(path, { intervals: 12_000, seed: 9 });
  const text = readFileSync(path, "latin1");
  expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
  await openEmpty(page);
  await loadFiles(page, [path]);
  // A helper worker exists (it read a part; the demo's small logs may have started it).
  // (Workers start from blob: addresses: each is told apart by its name.)
  expect(await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).toContain("helper");
  const whole = reference(text, -Infinity, Infinity);
  await expect(page.locator("[data-testid=series][data-name='parts']")).toHaveAttribute("data-count", String(whole.totalCount));
  for (const p of ["50", "99", "99.9", "100"]) {
    const want = p === "100" ? whole.maxValue : whole.getValueAtPercentile(Number(p));
    const raw = Number(await cell(page, "parts", p).getAttribute("data-raw"));
    // The library's maxValue can overshoot the bucket (see core/histogram maxOf): compare the max within its bucket.
    if (p === "100") expect(Math.abs(raw - want) / want).toBeLessThan(0.001);
    else expect(raw).toBe(want);
  }
  // A window around the middle of the run, where the file was cut.
  await page.getByTestId("range-start").fill("5000");
  await page.getByTestId("range-end").fill("7000");
  await page.getByTestId("range-end").press("Enter");
  await page.waitForTimeout(50);
  await idle(page);
  const win = reference(text, 5000, 7000);
  for (const p of ["50", "99.9"]) {
    expect(Number(await cell(page, "parts", p).getAttribute("data-raw"))).toBe(win.getValueAtPercentile(Number(p)));
  }
  await expect(page.locator('[data-testid=percentile-table] [data-series="parts"][data-count]')).toHaveAttribute("data-count", String(win.totalCount));
});

test("many logs dropped at once: each file has its own progress, all load, in the order given", async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-many-"));
  const paths: string[] = [];
  for (let k = 0; k < 16; k++) {
    const p = join(dir, `run-${String(k).padStart(2, "0")}.hlog`);
    writeDayLog(p, { intervals: 4_000, seed: 100 + k });
    paths.push(p);
  }
  await openEmpty(page);
  await page.getByTestId("file-input").setInputFiles(paths);
  // While loading: one bar per file in the list under the total bar.
  await expect(page.getByTestId("progress-files")).toBeVisible({ timeout: 20_000 });
  await page.getByTestId("progress-files").locator("summary").click();
  await expect(page.getByTestId("file-progress")).toHaveCount(16);
  await page.screenshot({ path: "screens/many-files-progress.png" });
  await idle(page);
  const sources = await page.getByTestId("series").evaluateAll((els) => els.map((e) => e.getAttribute("data-source")));
  expect(sources).toEqual(paths.map((p) => p.split("/").pop()));
  await expect(page.getByTestId("load-error")).toHaveCount(0);
});
