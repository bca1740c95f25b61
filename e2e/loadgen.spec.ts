import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { generateSamples, gatlingLog, jmeterCsv, k6Json, msValue, nsValue, plainValues, referenceHistogram, vegetaCsv, vegetaJson } from "../tests/support/loadgen-fixtures";
import { fortioExpected, fortioJson, ghzJson, siegeMs, siegeVerbose } from "../tests/support/producer-fixtures";
import { k6SummaryExport } from "../tests/support/statistics-fixtures";
import { cell, haveSamples, HGRM, idle, loadFiles, openEmpty } from "./helpers";

const samples = generateSamples({ seed: 3, seconds: 20, rate: 400, labels: ["home", "search"], medianMs: 12, sigma: 0.6, failureRate: 0.02, stalls: [{ at: 8, duration: 0.5 }] });

test("load-generator outputs load by content: one series per label, failures counted, spectrum equals the samples'", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  writeFileSync(join(dir, "results.jtl"), jmeterCsv(samples));
  writeFileSync(join(dir, "simulation.log"), gatlingLog(samples));
  writeFileSync(join(dir, "k6-out.json"), k6Json(samples));
  writeFileSync(join(dir, "vegeta.csv"), vegetaCsv(samples));
  await loadFiles(
    page,
    ["results.jtl", "simulation.log", "k6-out.json", "vegeta.csv"].map((f) => join(dir, f)),
  );
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  // JMeter: one series per label; failed requests are counted, not recorded as latencies.
  const ok = samples.filter((s) => s.success);
  for (const label of ["home", "search"]) {
    const row = page.locator(`[data-testid=series][data-source='results.jtl'][data-tag='${label}']`);
    const mine = ok.filter((s) => s.label === label);
    await expect(row).toHaveAttribute("data-count", String(mine.length));
    const ref = referenceHistogram(mine.map(msValue));
    const name = (await row.getAttribute("data-name"))!;
    const unit = (await row.getAttribute("data-unit"))!;
    expect(unit).toBe("ms");
    await expect(cell(page, name, "99")).toHaveAttribute("data-raw", String(ref.getValueAtPercentile(99)));
    await expect(row).toContainText(`${samples.filter((s) => s.label === label && !s.success).length} failed`);
  }
  // Vegeta (ns): one series per attack name, recorded in ns.
  const v = page.locator("[data-testid=series][data-source='vegeta.csv']");
  await expect(v).toHaveCount(2);
  const home = page.locator("[data-testid=series][data-source='vegeta.csv'][data-tag='home']");
  await expect(home).toHaveAttribute("data-unit", "ns");
  const vref = referenceHistogram(ok.filter((s) => s.label === "home").map(nsValue));
  await expect(home).toHaveAttribute("data-count", String(vref.totalCount));
  await expect(cell(page, (await home.getAttribute("data-name"))!, "100")).toHaveAttribute("data-raw", String(vref.getValueAtPercentile(100)));
  // Timestamps cut into intervals: the timeline shows the stall at 8 s.
  await expect(page.getByTestId("timeline")).toBeVisible();
  await page.screenshot({ path: "screens/loadgen.png", fullPage: true });
});

test("plain values pasted as text become a series", async ({ page }) => {
  await openEmpty(page);
  const text = plainValues(samples.slice(0, 500), { decimals: 3 });
  await page.locator("details.paste summary").click();
  await page.getByTestId("paste-input").fill(text);
  await page.getByTestId("paste-load").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("series")).toHaveAttribute("data-count", "500");
});

test.describe("coordinated omission", () => {
  test.skip(!haveSamples, "../shared/samples is absent");

  test("16Krps_CO is flagged, the correct runs are not; the correction is shown beside", async ({ page }) => {
    await openEmpty(page);
    await loadFiles(page, [join(HGRM, "16Krps_CO.hgrm"), join(HGRM, "16Krps.hgrm"), join(HGRM, "12Krps.hgrm")]);
    const w = page.locator("[data-testid=warning][data-kind=coordinated-omission]");
    await expect(w).toHaveCount(1);
    await expect(w).toHaveAttribute("data-series", "16Krps_CO");
    await expect(w).toContainText("Control-Z");
    await page.getByTestId("co-interval").fill("1ms");
    await page.getByTestId("co-interval").press("Enter");
    await page.waitForTimeout(50);
    await idle(page);
    const corrected = page.locator("[data-testid=series][data-corrected=true]");
    await expect(corrected).toHaveCount(3);
    await expect(page.locator("[data-testid=series][data-name='16Krps_CO (CO-corrected, 1 ms)']")).toHaveCount(1);
    // The original stays, untouched.
    await expect(page.locator("[data-testid=series][data-name='16Krps_CO']")).toHaveAttribute("data-count", /\d+/);
    const orig = Number(await cell(page, "16Krps_CO", "99.9").getAttribute("data-raw"));
    const corr = Number(await cell(page, "16Krps_CO (CO-corrected, 1 ms)", "99.9").getAttribute("data-raw"));
    expect(corr).toBeGreaterThan(orig * 2);
    await page.getByTestId("y-log").check();
    await page.screenshot({ path: "screens/co.png", fullPage: true });
    await page.getByTestId("co-interval").fill("");
    await page.getByTestId("co-interval").press("Enter");
    await page.waitForTimeout(50);
    await idle(page);
    await expect(page.locator("[data-testid=series][data-corrected=true]")).toHaveCount(0);
  });
});

test("raw CSV samples: the user picks the latency, timestamp and label columns and units", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  // Column names that nothing would guess; latency in µs; timestamps in epoch ms.
  const rows = ["when,svc,cost,lat_us"];
  const t0 = 1_790_000_000_000;
  for (let i = 0; i < 3000; i++) rows.push(`${t0 + i * 5},${i % 3 === 0 ? "api" : "web"},${i % 7},${100 + (i % 500) * 3}`);
  writeFileSync(join(dir, "samples.csv"), rows.join("\n"));
  await page.locator("details.sample-options summary").click();
  await page.getByTestId("sample-value-column").fill("lat_us");
  await page.getByTestId("sample-time-column").fill("when");
  await page.getByTestId("sample-label-column").fill("svc");
  await page.getByTestId("sample-value-unit").selectOption("us");
  await page.getByTestId("sample-time-unit").selectOption("ms");
  await page.getByTestId("sample-label-column").blur();
  await loadFiles(page, [join(dir, "samples.csv")]);
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  const api = page.locator("[data-testid=series][data-source='samples.csv'][data-tag='api']");
  await expect(api).toHaveAttribute("data-count", "1000");
  await expect(page.locator("[data-testid=series][data-source='samples.csv'][data-tag='web']")).toHaveAttribute("data-count", "2000");
  // Max of api: i = 999 is ≡ 0 (mod 3) with i % 500 = 499 → 100 + 499·3 = 1597 µs.
  const name = (await api.getAttribute("data-name"))!;
  const unit = (await api.getAttribute("data-unit"))!;
  const raw = Number(await cell(page, name, "100").getAttribute("data-raw"));
  const us = unit === "ns" ? raw / 1000 : unit === "ms" ? raw * 1000 : raw;
  expect(us).toBeGreaterThanOrEqual(1597);
  expect(us).toBeLessThanOrEqual(1597 * 1.001 + 1);
  // 3000 samples 5 ms apart: 15 s cut into 1 s intervals.
  await expect(api).toContainText("15 intervals");
});

test("ghz, Fortio and siege load by content; a file of statistics is refused as such; a stray timestamp is a note", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  const one = samples.filter((s) => s.label === "home").map((s) => ({ ...s, label: "" }));
  writeFileSync(join(dir, "ghz.json"), ghzJson(one, { pretty: true }));
  writeFileSync(join(dir, "fortio.json"), fortioJson(one));
  writeFileSync(join(dir, "siege.txt"), siegeVerbose(one));
  writeFileSync(join(dir, "summary.json"), k6SummaryExport(samples));
  const far = one.map((s, i) => (i === 10 ? { ...s, startUs: s.startUs - 3 * 365 * 86400e6 } : s));
  writeFileSync(join(dir, "far.json"), vegetaJson(far));
  await loadFiles(
    page,
    ["ghz.json", "fortio.json", "siege.txt", "summary.json", "far.json"].map((f) => join(dir, f)),
  );
  const ok = one.filter((s) => s.success);
  // ghz: every successful call, in ns; failed calls counted.
  const ghz = page.locator("[data-testid=series][data-source='ghz.json']");
  await expect(ghz).toHaveAttribute("data-count", String(ok.length));
  await expect(ghz).toHaveAttribute("data-unit", "ns");
  await expect(cell(page, (await ghz.getAttribute("data-name"))!, "99")).toHaveAttribute("data-raw", String(referenceHistogram(ok.map(nsValue)).getValueAtPercentile(99)));
  // Fortio: its histogram of every call; the max exact.
  const fortio = page.locator("[data-testid=series][data-source='fortio.json']");
  await expect(fortio).toHaveAttribute("data-count", String(one.length));
  await expect(cell(page, (await fortio.getAttribute("data-name"))!, "100")).toHaveAttribute("data-raw", String(fortioExpected(one).getValueAtPercentile(100)));
  // siege: ANSI colours stripped, ms as printed.
  const siege = page.locator("[data-testid=series][data-source='siege.txt']");
  await expect(siege).toHaveAttribute("data-count", String(ok.length));
  await expect(cell(page, (await siege.getAttribute("data-name"))!, "99")).toHaveAttribute("data-raw", String(referenceHistogram(ok.map(siegeMs)).getValueAtPercentile(99)));
  // The k6 summary: no series, one problem saying what it is.
  await expect(page.locator("[data-testid=series][data-source='summary.json']")).toHaveCount(0);
  const refused = page.locator("[data-testid=load-error][data-file='summary.json']");
  await expect(refused).toHaveCount(1);
  await expect(refused).toContainText("statistics, not samples");
  await expect(refused).toContainText("k6 end-of-test summary");
  // The stray timestamp: every latency counted, the line named.
  await expect(page.locator("[data-testid=series][data-source='far.json']")).toHaveAttribute("data-count", String(ok.length));
  const note = page.locator("[data-testid=load-error][data-file='far.json']");
  await expect(note).toHaveAttribute("data-line", "11");
  await expect(note).toContainText("counted in the totals, in no interval");
  await page.screenshot({ path: "screens/producers.png", fullPage: true });
});
