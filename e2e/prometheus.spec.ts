// Add from Prometheus… against a real server: Debian's Prometheus (native histograms, a temporary
// TSDB, loopback, --web.cors.origin set to this page's origin) scraping the exporter in
// scripts/producers/prometheus-exporter, which observes three phases of known values. The page
// asks before the first request, loads one series per query, and its table shows each
// percentile at the upper bound of the native bucket (schema 3) holding the true rank; the
// spectrum ends in "max within", and a share link carries the numbers and where they came from,
// never the token. Skipped, saying why, without prometheus or go, or when the exporter does not build.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { build } from "hdr-histogram-js";
import { atRank, nativeUpper, startPrometheus, type PrometheusRun } from "../tests/support/prometheus-server";
import { cell, idle, loadFiles, openEmpty } from "./helpers";
import { simulateQueueInto, type SimInterval } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { prometheusRange } from "../tests/support/structured-fixtures";
import type { LoadSample } from "../tests/support/loadgen-fixtures";

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

test("Add from Prometheus…: a query's series come back after a reload from the saved answer, without asking the server; a removal is kept", async ({ page }) => {
  test.skip(skip !== null, skip ?? "");
  test.setTimeout(90_000);
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await openEmpty(page);
  const load = async (query: string) => {
    await page.getByTestId("prometheus-query").fill(query);
    await page.getByTestId("prometheus-load").click();
    const ask = page.getByTestId("prometheus-consent-load");
    if (await ask.isVisible()) await ask.click();
    await page.waitForTimeout(50);
    await idle(page);
  };
  await page.getByTestId("prometheus-open").click();
  await page.getByTestId("prometheus-url").fill(api);
  await page.getByTestId("prometheus-start").fill(String(startAt));
  await page.getByTestId("prometheus-end").fill(String(endAt));
  await page.getByTestId("prometheus-step").fill("1s");
  await page.getByTestId("prometheus-token").fill("tok-never-kept");
  await load("demo_native_duration_seconds");
  await load("demo_classic_duration_seconds_bucket");
  const native = page.locator("[data-testid=series][data-source='prometheus:demo_native_duration_seconds']");
  await expect(native).toHaveAttribute("data-count", "900");
  await expect(page.getByTestId("series")).toHaveCount(2);
  const ps = ["50", "90", "99", "99.9", "100"];
  const before = await Promise.all(ps.map((p) => cell(page, "demo_native_duration_seconds", p).getAttribute("data-raw")));
  const origin = await native.getByTestId("series-origin").textContent();
  expect(origin).toContain(`from ${api}, `);
  const asked = requests.filter((u) => u.startsWith(api)).length;
  expect(asked).toBe(2);
  const savedSession = () =>
    page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open("hdr-spectrum");
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const s = await new Promise<unknown>((res) => {
        const g = db.transaction("session").objectStore("session").get("current");
        g.onsuccess = () => res(g.result);
      });
      db.close();
      return JSON.stringify(s, (_k, v) => (v instanceof Blob ? `blob ${v.size}` : v));
    });
  // Both answers are in the saved session before the reload.
  await expect.poll(async () => (await savedSession()).match(/"answer":"blob \d+"/g)?.length ?? 0).toBe(2);

  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(2);
  await expect(native).toHaveAttribute("data-count", "900");
  await expect(native.getByTestId("series-origin")).toHaveText(origin!);
  expect(await Promise.all(ps.map((p) => cell(page, "demo_native_duration_seconds", p).getAttribute("data-raw")))).toEqual(before);
  // Nothing was asked of the server, and the token was kept nowhere.
  expect(requests.filter((u) => u.startsWith(api)).length).toBe(asked);
  const kept = await savedSession();
  expect(kept).toContain("demo_classic_duration_seconds_bucket");
  expect(kept).not.toContain("tok-never-kept");

  // A removed query's series stays removed after a reload.
  await page.getByRole("button", { name: "Remove demo_classic_duration_seconds_bucket" }).first().click();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(1);
  // The view is saved a moment after a change: wait until the removal is in it.
  await expect
    .poll(async () => JSON.stringify((JSON.parse(await savedSession()) as { view?: { removed?: unknown } }).view?.removed ?? []))
    .toContain("demo_classic_duration_seconds_bucket");
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(native).toHaveAttribute("data-count", "900");
  expect(requests.filter((u) => u.startsWith(api)).length).toBe(asked);
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

// A vs B between a Prometheus series and a load test's log, from a small fake Prometheus on
// loopback (so it runs without the real one): the same known latencies, as a native histogram
// (schema 3, each value at its bucket's upper bound) and as an interval log. Equal latencies
// lie within one bucket: not judged, saying so; three times as slow: judged.
const T0 = 1_790_000_000;
const QUEUE = { rate: 200, seconds: 300, medianServiceSec: 0.002, sigma: 0.5, stalls: [], seed: 42 };

function queueLog(scale: number): string {
  const intervals: SimInterval[] = Array.from({ length: QUEUE.seconds }, (_, i) => ({
    start: i,
    length: 1,
    histogram: build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 }),
  }));
  simulateQueueInto(QUEUE, (i, ns) => intervals[i]!.histogram.recordValue(ns * scale));
  return writeHlog(intervals, { startMs: T0 * 1000 });
}

function queueAnswer(): string {
  const samples: LoadSample[] = [];
  const seen = new Map<number, number>();
  simulateQueueInto(QUEUE, (i, ns) => {
    const k = seen.get(i) ?? 0;
    seen.set(i, k + 1);
    samples.push({ startUs: (T0 + i) * 1e6 + k, latencyNs: ns, label: "", success: true });
  });
  samples.sort((a, b) => a.startUs - b.startUs);
  return prometheusRange(samples).text;
}

test("A vs B: a Prometheus series against a log of the same latencies is not judged within a bucket, and judged when three times apart", async ({ page }) => {
  test.setTimeout(120_000);
  const answer = queueAnswer();
  let hits = 0;
  const server = createHttpServer((req, res) => {
    hits++;
    res.writeHead(req.url?.startsWith("/api/v1/query_range") ? 200 : 404, { "Access-Control-Allow-Origin": ORIGIN, "Content-Type": "application/json" });
    res.end(req.url?.startsWith("/api/v1/query_range") ? answer : "{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const fake = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const logs = mkdtempSync(path.join(tmpdir(), "hdr-prom-ab-"));
  try {
    writeFileSync(path.join(logs, "same.hlog"), queueLog(1));
    writeFileSync(path.join(logs, "slower.hlog"), queueLog(3));
    await openEmpty(page);
    await loadFiles(page, [path.join(logs, "same.hlog"), path.join(logs, "slower.hlog")]);
    await page.getByTestId("prometheus-open").click();
    await page.getByTestId("prometheus-url").fill(fake);
    await page.getByTestId("prometheus-query").fill("rpc_duration_seconds");
    await page.getByTestId("prometheus-start").fill(String(T0 + 1));
    await page.getByTestId("prometheus-end").fill(String(T0 + QUEUE.seconds));
    await page.getByTestId("prometheus-step").fill("1s");
    await page.getByTestId("prometheus-load").click();
    await page.getByTestId("prometheus-consent-load").click();
    await page.waitForTimeout(50);
    await idle(page);
    await expect(page.getByTestId("series")).toHaveCount(3);
    await page.getByTestId("compare-open").click();
    const choose = async (base: string, cand: string) => {
      await page.getByTestId("compare-baseline").selectOption(base);
      await page.waitForTimeout(50);
      await idle(page);
      await page.getByTestId("compare-candidate").selectOption(cand);
      await page.waitForTimeout(50);
      await idle(page);
    };
    const row = (p: string) => page.locator(`[data-testid=ratio-point][data-percentile="${p}"]`);

    await choose("rpc_duration_seconds", "same");
    for (const p of ["50", "90", "99"]) {
      // The log is in ns, the series in seconds: compared in ns, the ratio is the buckets' placement.
      const ratio = Number(await row(p).getAttribute("data-ratio"));
      expect(ratio, `p${p}`).toBeGreaterThan(1 / 1.0905 - 1e-3);
      expect(ratio, `p${p}`).toBeLessThanOrEqual(1 + 1e-3);
      await expect(row(p)).toHaveAttribute("data-verdict", "unknown");
      await expect(row(p).locator("[data-reason]")).toHaveAttribute(
        "data-reason",
        /^within one bucket of rpc_duration_seconds' histogram \(9\.05 % wide\): its values are known only to that bucket; .* would decide$/,
      );
    }
    await expect(page.getByTestId("headline")).toContainText("not judged: within one bucket of rpc_duration_seconds' histogram (9.05 % wide)");
    await page.screenshot({ path: "/tmp/prometheus-ab-within.png", fullPage: true });

    await choose("rpc_duration_seconds", "slower");
    for (const p of ["50", "90", "99"]) {
      const ratio = Number(await row(p).getAttribute("data-ratio"));
      expect(ratio, `p${p}`).toBeGreaterThan(3 / 1.0905 - 1e-3);
      expect(ratio, `p${p}`).toBeLessThanOrEqual(3 + 1e-2);
      await expect(row(p)).toHaveAttribute("data-verdict", "worse");
      await expect(row(p).locator("[data-reason]")).toHaveCount(0);
    }
    await page.screenshot({ path: "/tmp/prometheus-ab-judged.png", fullPage: true });

    // After a reload the series is back from the saved answer (the server is not asked again),
    // with the same numbers, and compares the same way.
    const before = await Promise.all(["50", "99", "100"].map((p) => cell(page, "rpc_duration_seconds", p).getAttribute("data-raw")));
    const asked = hits;
    await page.reload();
    await idle(page);
    await expect(page.getByTestId("series")).toHaveCount(3);
    expect(await Promise.all(["50", "99", "100"].map((p) => cell(page, "rpc_duration_seconds", p).getAttribute("data-raw")))).toEqual(before);
    expect(hits).toBe(asked);
  } finally {
    server.close();
    rmSync(logs, { recursive: true, force: true });
  }
});
