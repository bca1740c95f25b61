// A server's series take no part of the helper workers: the engine ends them as such a load
// starts (an idle worker's isolate held what its warm-up left through the load), and a log loaded
// afterwards is read by helpers started anew, to the same numbers as on a fresh page. From a
// small fake Prometheus on loopback, so it runs without the real one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { syntheticLog } from "../src/engine/warm-up";
import { prometheusRange } from "../tests/support/structured-fixtures";
import type { LoadSample } from "../tests/support/loadgen-fixtures";
import { idle, loadFiles } from "./helpers";

const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT || 4173}`;
const T0 = 1_790_000_000;

/** Every cell of the percentile table: series and percentile to its raw value. */
async function cells(page: Page): Promise<Map<string, string>> {
  const all = await page
    .locator("[data-testid=percentile-table] [data-series][data-percentile]")
    .evaluateAll((els) => els.map((e) => [`${e.getAttribute("data-series")} p${e.getAttribute("data-percentile")}`, e.getAttribute("data-raw") ?? ""] as const));
  return new Map(all);
}

/** The names of the page's workers that are alive (`engine`, `helper`, …). */
async function workers(page: Page): Promise<string[]> {
  const names = await Promise.all(page.workers().map((w) => w.evaluate(() => self.name).catch(() => null)));
  return names.filter((n): n is string => n !== null).sort();
}

/** A fake Prometheus on loopback answering every range query with 300 s of one native histogram. */
async function fakePrometheus(): Promise<{ url: string; close: () => void }> {
  const samples: LoadSample[] = [];
  for (let i = 0; i < 300; i++) samples.push({ startUs: (T0 + i) * 1e6, latencyNs: 1_000_000 + (i % 17) * 250_000, label: "", success: true });
  const answer = prometheusRange(samples).text;
  const server = createServer((req, res) => {
    res.writeHead(req.url?.startsWith("/api/v1/query_range") ? 200 : 404, { "Access-Control-Allow-Origin": ORIGIN, "Content-Type": "application/json" });
    res.end(req.url?.startsWith("/api/v1/query_range") ? answer : "{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

/** Asks the fake server's query through the form, agreeing to the host. */
async function askPrometheus(page: Page, url: string): Promise<void> {
  await page.getByTestId("prometheus-open").click();
  await page.getByTestId("prometheus-url").fill(url);
  await page.getByTestId("prometheus-query").fill("rpc_duration_seconds");
  await page.getByTestId("prometheus-start").fill(String(T0 + 1));
  await page.getByTestId("prometheus-end").fill(String(T0 + 299));
  await page.getByTestId("prometheus-step").fill("1s");
  await page.getByTestId("prometheus-load").click();
  await page.getByTestId("prometheus-consent-load").click();
  await page.waitForTimeout(50);
  await idle(page);
}

test("a server's series end the helper workers; a log loaded next is read by new ones, to the same numbers", async ({ browser }) => {
  test.setTimeout(120_000);
  const fake = await fakePrometheus();
  // Past the size the page splits among its helpers.
  const dir = mkdtempSync(path.join(tmpdir(), "hdr-prom-helpers-"));
  const log = path.join(dir, "big.hlog");
  writeFileSync(log, syntheticLog(12_000));
  // Each page in a context of its own: a page restores what the last one of its context held.
  const contexts = [await browser.newContext(), await browser.newContext()];
  try {
    // The log on a fresh page, read with its helpers as they start.
    const fresh = await contexts[0]!.newPage();
    await fresh.goto("./?demo=0");
    await idle(fresh);
    await expect.poll(() => workers(fresh)).toContain("helper");
    await loadFiles(fresh, [log]);
    const expected = await cells(fresh);
    expect(expected.size).toBeGreaterThan(10);
    await fresh.close();

    const page = await contexts[1]!.newPage();
    await page.goto("./?demo=0");
    await idle(page);
    await expect.poll(() => workers(page)).toContain("helper");
    await askPrometheus(page, fake.url);
    await expect(page.getByTestId("series")).toHaveCount(1);
    // The helper ended itself; only the engine is left.
    await expect.poll(() => workers(page)).toEqual(["engine"]);

    await loadFiles(page, [log]);
    await expect(page.getByTestId("series")).toHaveCount(1 + new Set([...expected.keys()].map((k) => k.split(" p")[0])).size);
    const got = await cells(page);
    for (const [k, v] of expected) expect(got.get(k), k).toBe(v);
    // Read by a helper the engine started for it.
    expect(await workers(page)).toContain("helper");
  } finally {
    for (const c of contexts) await c.close();
    fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("on the page that opens on the demo, a server's series start no helper worker", async ({ page }) => {
  const fake = await fakePrometheus();
  try {
    await page.goto("./");
    await idle(page);
    // The helpers the page starts once its first screen is drawn are up first (else they could
    // start inside the count below); then a load that reads no log starts none, and ends them.
    await expect.poll(() => workers(page)).toContain("helper");
    let started = 0;
    page.on("worker", () => started++);
    await askPrometheus(page, fake.url);
    await expect(page.getByTestId("series").filter({ hasText: "rpc_duration_seconds" })).toHaveCount(1);
    expect(started).toBe(0);
    expect(await workers(page)).toEqual(["engine"]);
  } finally {
    fake.close();
  }
});
