import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { expect, test } from "@playwright/test";
import { cell, haveSamples, HGRM, idle, loadFiles, openEmpty } from "./helpers";

async function settle(page: import("@playwright/test").Page) {
  await page.waitForTimeout(50);
  await idle(page);
}

test("demo: identity from names, verdicts, sustainable throughput and the sentence", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const a8 = page.locator("[data-testid=series][data-name='sysA_8k.response']");
  await expect(a8).toHaveAttribute("data-config", "sysA");
  await expect(a8).toHaveAttribute("data-throughput", "8000");
  await expect(a8).toHaveAttribute("data-kind", "response");
  // The demo opens with p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms.
  await expect(page.getByTestId("requirement-input")).toHaveValue(/p99<=40ms/);
  await expect(a8).toHaveAttribute("data-verdict", "fail");
  await expect(a8).toHaveAttribute("data-first-violation", "99");
  await expect(page.locator("[data-testid=series][data-name='sysA_2k.response']")).toHaveAttribute("data-verdict", "pass");
  await expect(page.locator("[data-testid=sustainable][data-config=sysA]")).toHaveAttribute("data-max-throughput", "2000");
  await expect(page.locator("[data-testid=sustainable][data-config=sysB]")).toHaveAttribute("data-max-throughput", "8000");
  await expect(page.getByTestId("verdict-sentence")).toContainText("4.0×");
  await expect(page.getByTestId("requirement-line")).toBeVisible();
  await expect(page.getByTestId("throughput-chart")).toBeVisible();
  await page.screenshot({ path: "screens/compare-demo.png", fullPage: true });
  await page.getByTestId("side-by-side").check();
  await expect(page.getByTestId("small-multiples").locator("[data-testid=percentile-plot]")).toHaveCount(2);
  await page.screenshot({ path: "screens/side-by-side.png", fullPage: true });
  // Exported side by side, the two plots go into one SVG, placed as on the page, and one PNG.
  const actions = page.locator(".chart-actions").first();
  const svgDl = page.waitForEvent("download");
  await actions.getByTestId("export-svg").click();
  const svg = readFileSync(await (await svgDl).path(), "utf8");
  expect(svg.match(/data-testid="percentile-plot"/g)?.length).toBe(2);
  for (const name of ["sysA_8k.response", "sysB_8k.response"]) expect(svg).toContain(name);
  const plots = page.getByTestId("small-multiples").locator("[data-testid=percentile-plot]");
  const [a, b] = [(await plots.nth(0).boundingBox())!, (await plots.nth(1).boundingBox())!];
  const union = Math.max(a.x + a.width, b.x + b.width) - Math.min(a.x, b.x);
  const width = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)?.[1]);
  expect(Math.abs(width - union)).toBeLessThanOrEqual(1);
  const pngDl = page.waitForEvent("download");
  await actions.getByTestId("export-png").click();
  const png = readFileSync(await (await pngDl).path());
  expect(png.readUInt32BE(16)).toBe(width * 2);
});

test("requirement text: applies on Enter, verdict at the boundary, clear errors, empty clears", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const input = page.getByTestId("requirement-input");
  // sysB_2k's p99 is what the table says: a limit exactly at it passes, just under it fails.
  const p99 = Number(await cell(page, "sysB_2k.response", "99").getAttribute("data-raw")); // ns
  await input.fill(`p99<=${p99}ns`);
  await input.press("Enter");
  await settle(page);
  const b2 = page.locator("[data-testid=series][data-name='sysB_2k.response']");
  await expect(b2).toHaveAttribute("data-verdict", "pass");
  await input.fill(`p99<=${p99 - 1}ns`);
  await input.press("Enter");
  await settle(page);
  await expect(b2).toHaveAttribute("data-verdict", "fail");
  await expect(b2).toHaveAttribute("data-first-violation", "99");
  await input.fill("p99.9<=10");
  await input.press("Enter");
  await expect(page.getByTestId("requirement-error")).toContainText("missing unit");
  await expect(b2).toHaveAttribute("data-verdict", "fail"); // the last good requirement stays
  await input.fill("");
  await input.press("Enter");
  await settle(page);
  await expect(b2).toHaveAttribute("data-verdict", "");
  await expect(page.getByTestId("sustainable")).toHaveCount(0);
});

test("select all, then merge: one series holding every series' counts; the selection cleared", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const rows = page.getByTestId("series");
  const n = await rows.count();
  expect(n).toBeGreaterThanOrEqual(2);
  let total = 0;
  for (let k = 0; k < n; k++) total += Number(await rows.nth(k).getAttribute("data-count"));
  await page.getByTestId("series-select-all").click();
  for (let k = 0; k < n; k++) await expect(rows.nth(k).getByTestId("series-select")).toBeChecked();
  await expect(page.getByTestId("series-select-all")).toHaveText("Clear the selection");
  await expect(page.getByTestId("merge")).toHaveText(`Merge ${n} selected into one series`);
  await page.getByTestId("merge").click();
  const merged = page.locator("[data-testid=series][data-name^='merged:']");
  await expect(merged).toHaveCount(1);
  await expect(merged).toHaveAttribute("data-count", String(total));
  await expect(page.getByTestId("merge")).toHaveCount(0);
  // Clicked again with everything selected, it clears the selection.
  await page.getByTestId("series-select-all").click();
  await page.getByTestId("series-select-all").click();
  await expect(page.getByTestId("merge")).toHaveCount(0);
  for (let k = 0; k <= n; k++) await expect(rows.nth(k).getByTestId("series-select")).not.toBeChecked();
});

test("merge several series into one: counts add up, sources listed", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const b2 = page.locator("[data-testid=series][data-name='sysB_2k.response']");
  const b4 = page.locator("[data-testid=series][data-name='sysB_4k.response']");
  const n = Number(await b2.getAttribute("data-count")) + Number(await b4.getAttribute("data-count"));
  await b2.getByTestId("series-select").check();
  await b4.getByTestId("series-select").check();
  await page.getByTestId("merge").click();
  await settle(page);
  const merged = page.locator("[data-testid=series][data-name^='merged:']");
  await expect(merged).toHaveCount(1);
  await expect(merged).toHaveAttribute("data-count", String(n));
  await expect(merged).toHaveAttribute("data-config", "sysB");
});

test("edit a series' throughput and configuration", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const row = page.locator("[data-testid=series][data-name='sysA_8k.response']");
  await row.getByTestId("edit-identity").click();
  await row.getByTestId("identity-throughput").fill("16k");
  await row.getByTestId("identity-throughput").press("Enter");
  await settle(page);
  await expect(row).toHaveAttribute("data-throughput", "16000");
  await row.getByTestId("identity-config").fill("sysC");
  await row.getByTestId("identity-config").press("Enter");
  await settle(page);
  await expect(page.locator("[data-testid=series][data-name='sysA_8k.response']")).toHaveAttribute("data-config", "sysC");
  await expect(page.locator("[data-testid=sustainable][data-config=sysC]")).toHaveCount(1);
});

test.describe("with the shared samples", () => {
  test.skip(!haveSamples, "../shared/samples is absent");

  test("SLA file import and percentile files judged against it", async ({ page }) => {
    await openEmpty(page);
    await loadFiles(page, [join(HGRM, "12Krps.hgrm"), join(HGRM, "16Krps.hgrm")]);
    await page.getByTestId("requirement-file").setInputFiles(join(HGRM, "SLA_msec.dat"));
    await settle(page);
    await expect(page.getByTestId("requirement-input")).toHaveValue("p99<=10ms, p99.99<=20ms, p99.99999<=50ms");
    const r12 = page.locator("[data-testid=series][data-name='12Krps']");
    await expect(r12).toHaveAttribute("data-throughput", "12000");
    // 12Krps: p99 ≈ 8.4 ms ≤ 10, but its tail reaches 64.7 ms > 50 ms at p99.99999.
    await expect(r12).toHaveAttribute("data-verdict", "fail");
    await expect(r12).toHaveAttribute("data-first-violation", /^99\.99/);
  });
});

test("response and service time of one run are paired, and their gap is called out", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  // Service time: the server's own work. Response time: the same work plus the wait in a queue
  // that a stall builds up.
  const service = simulateQueue({ rate: 50, seconds: 20, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 4 });
  const response = simulateQueue({ rate: 9000, seconds: 20, medianServiceSec: 80e-6, sigma: 0.5, stalls: [{ at: 5, duration: 0.2 }], seed: 4 });
  writeFileSync(join(dir, "sysA_9k.service.hlog"), writeHlog(service));
  writeFileSync(join(dir, "sysA_9k.response.hlog"), writeHlog(response));
  await loadFiles(page, [join(dir, "sysA_9k.response.hlog"), join(dir, "sysA_9k.service.hlog")]);
  const gap = page.getByTestId("kind-gap");
  await expect(gap).toHaveCount(1);
  await expect(gap).toHaveAttribute("data-response", "sysA_9k.response");
  expect(Number(await gap.getAttribute("data-gap"))).toBeGreaterThan(2);
  await expect(gap).toContainText("queue");
});
