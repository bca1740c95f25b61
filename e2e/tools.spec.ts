// Files written by real load generators and system tools (fixtures/producers), loaded through
// the page's file input: each read by its own reader, statistics refused with what to run
// instead, a pgbench run's thread files joined into one series.
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cell, loadFiles, openEmpty } from "./helpers";

const FIX = join(import.meta.dirname, "..", "fixtures", "producers");

test("tools' outputs load by content; summaries are refused with what to run instead", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [
    join(FIX, "hey", "hey.csv"),
    join(FIX, "redis-benchmark", "redis-benchmark.txt"),
    join(FIX, "pgbench", "pgbench_log-rate.4242"),
    join(FIX, "pgbench", "pgbench_log-rate.4242.1"),
    join(FIX, "cyclictest", "cyclictest-h.txt"),
    join(FIX, "wrk", "wrk-latency.txt"),
    join(FIX, "wrk", "wrk-spectrum.txt"),
  ]);
  // hey: 200 requests in µs (not 1,000 times too small), its max 16.4 ms.
  const hey = page.locator("[data-testid=series][data-source='hey.csv']");
  await expect(hey).toHaveAttribute("data-count", "200");
  await expect(hey).toHaveAttribute("data-unit", "us");
  // redis-benchmark: a series per test; SET's max is the summary's 0.311 ms.
  await expect(page.locator("[data-testid=series][data-source='redis-benchmark.txt']")).toHaveCount(3);
  const set = page.locator("[data-testid=series][data-source='redis-benchmark.txt'][data-tag='SET']");
  await expect(cell(page, (await set.getAttribute("data-name"))!, "100")).toHaveAttribute("data-raw", "311");
  // pgbench: the two thread files of one run are one series: pgbench's 302 transactions, 98 skipped.
  const pg = page.locator("[data-testid=series][data-name='pgbench_log-rate.4242 (2 threads)']");
  await expect(pg).toHaveAttribute("data-count", "302");
  await expect(pg).toContainText("98 failed");
  // cyclictest: a series per thread.
  await expect(page.locator("[data-testid=series][data-source='cyclictest-h.txt']")).toHaveCount(2);
  // wrk --latency: refused, pointing to the script; its output read whole.
  const wrk = page.locator("[data-testid=load-error][data-file='wrk-latency.txt']");
  await expect(wrk).toContainText("statistics, not samples");
  await expect(wrk).toContainText("wrk-spectrum.lua");
  await expect(page.locator("[data-testid=series][data-source='wrk-spectrum.txt']")).toHaveAttribute("data-count", "2430");
  // The resolution of redis-benchmark's steps and cyclictest's overflows are said.
  await expect(page.getByTestId("load-notes")).toContainText("percentile steps");
  const script = await page.request.get("/wrk-spectrum.lua");
  expect(script.ok()).toBe(true);
  expect(await script.text()).toContain("latency.max");
  await page.screenshot({ path: "/tmp/h4-tools.png", fullPage: true });
});
