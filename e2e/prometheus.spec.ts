// Add from Prometheus… against a real server: Debian's Prometheus (native histograms, a temporary
// TSDB, loopback, --web.cors.origin set to this page's origin) scraping the exporter in
// scripts/producers/prometheus-exporter, which observes three phases of known values. The page
// asks before the first request, loads one series per query, and its table shows each
// percentile at the upper bound of the native bucket (schema 3) holding the true rank; the
// spectrum ends in "max within", and a share link carries the numbers and where they came from,
// never the token. Skipped, saying why, without prometheus or go, or when the exporter does not build.
import { expect, test } from "@playwright/test";
import { atRank, nativeUpper, startPrometheus, type PrometheusRun } from "../tests/support/prometheus-server";
import { cell, idle, openEmpty } from "./helpers";

const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT || 4173}`;
const HDR = 1 + 1 / 1024;

let skip: string | null = null;
let run: PrometheusRun | null = null;
let api = "";
let phases: number[][] = [];
let startAt = 0;
let endAt = 0;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const r = await startPrometheus({ gapSeconds: 2, corsOrigin: ORIGIN });
  if ("skip" in r) {
    skip = r.skip;
    return;
  }
  run = r;
  ({ api, endAt } = r);
  phases = r.values.phases;
  startAt = Math.floor(r.exporterStartedAt) - 1;
});

test.afterAll(() => run?.stop());

test("Add from Prometheus…: asks first, loads the query's series at its buckets' bounds, ends in max within, shares without the token", async ({ page, browser }) => {
  test.skip(skip !== null, skip ?? "");
  test.setTimeout(90_000);
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await openEmpty(page);
  await page.getByTestId("prometheus-open").click();
  await page.getByTestId("prometheus-url").fill(api);
  await page.getByTestId("prometheus-query").fill("demo_native_duration_seconds");
  await page.getByTestId("prometheus-start").fill(new Date(startAt * 1000).toISOString());
  await page.getByTestId("prometheus-end").fill(String(endAt));
  await page.getByTestId("prometheus-step").fill("1s");
  await page.getByTestId("prometheus-token").fill("tok-never-shared");
  await page.getByTestId("prometheus-load").click();
  // Nothing is asked before the user agrees.
  await expect(page.getByTestId("prometheus-consent")).toContainText(`127.0.0.1:${api.split(":")[2]}`);
  expect(requests.filter((u) => u.startsWith(api))).toEqual([]);
  await page.getByTestId("prometheus-consent-load").click();
  await page.waitForTimeout(50);
  await idle(page);

  const row = page.locator("[data-testid=series][data-source='prometheus:demo_native_duration_seconds']");
  await expect(row).toHaveAttribute("data-count", "900");
  await expect(row.getByTestId("series-origin")).toContainText(`from ${api}, `);
  const all = phases.flat();
  for (const p of ["50", "90", "99", "99.9", "100"]) {
    const bound = nativeUpper(atRank(all, Number(p))) * 1e9;
    const ours = Number(await cell(page, "demo_native_duration_seconds", p).getAttribute("data-raw"));
    expect(ours, `p${p}`).toBeGreaterThanOrEqual(bound * (1 - 1e-9));
    expect(ours, `p${p}`).toBeLessThanOrEqual(bound * HDR);
  }
  const maxBucket = nativeUpper(Math.max(...all));
  const warning = page.locator("[data-testid=warning][data-kind=bucketed]");
  await expect(warning).toContainText("a native histogram of schema 3 (each bucket 9.05 % wide)");
  await expect(warning).toContainText(`max within [${Number(((maxBucket / 2 ** 0.125) * 1e3).toPrecision(4))} ms, ${Number((maxBucket * 1e3).toPrecision(4))} ms]`);
  // The spectrum ends in the same words, not in one value.
  await expect(page.locator("[data-testid=max-marker][data-series='demo_native_duration_seconds'] text")).toHaveText(
    `max within [${Number(((maxBucket / 2 ** 0.125) * 1e3).toPrecision(4))}, ${Number((maxBucket * 1e3).toPrecision(4))}] ms`,
  );
  await page.screenshot({ path: "/tmp/prometheus-page.png", fullPage: true });

  // A share link: the numbers and where they came from, never the token.
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).not.toContain("tok-never-shared");
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await p2.goto(url.replace(/^https?:\/\/[^/]+\//, `${ORIGIN}/`));
  await idle(p2);
  const row2 = p2.locator("[data-testid=series][data-source='prometheus:demo_native_duration_seconds']");
  await expect(row2).toHaveAttribute("data-count", "900");
  await expect(row2.getByTestId("series-origin")).toContainText(`from ${api}, `);
  for (const p of ["99", "100"])
    expect(await cell(p2, "demo_native_duration_seconds", p).getAttribute("data-raw")).toBe(await cell(page, "demo_native_duration_seconds", p).getAttribute("data-raw"));
  await expect(p2.locator("[data-testid=warning][data-kind=bucketed]")).toContainText("max within");
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + location.href);
  expect(stored).not.toContain("tok-never-shared");
  await other.close();
});

test("Add from Prometheus…: a query of floats is refused with the query named, and what was loaded stays", async ({ page }) => {
  test.skip(skip !== null, skip ?? "");
  await page.goto("./");
  await idle(page);
  const before = await page.getByTestId("series").count();
  await page.getByTestId("prometheus-open").click();
  await page.getByTestId("prometheus-url").fill(api);
  await page.getByTestId("prometheus-query").fill("histogram_quantile(0.99, demo_classic_duration_seconds_bucket)");
  await page.getByTestId("prometheus-start").fill(String(startAt));
  await page.getByTestId("prometheus-end").fill(String(endAt));
  await page.getByTestId("prometheus-load").click();
  await page.getByTestId("prometheus-consent-load").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.getByText(/prometheus:histogram_quantile\(0\.99, demo_classic_duration_seconds_bucket\).*series of plain numbers, not histograms/)).toBeVisible();
  await expect(page.getByTestId("series")).toHaveCount(before);
});
