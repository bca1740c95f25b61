// The engine worker starts without the readers of formats other than HdrHistogram's: they are a
// chunk it fetches, from the page's own address, with the first file that may be one of theirs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { loadFiles, openEmpty } from "./helpers";

const READERS_CHUNK = /\/assets\/detect-[\w-]+\.js$/;
const LOG = resolve(import.meta.dirname, "../public/demo/sysA_2k.response.hlog");

function samplesCsv(): string {
  const path = join(mkdtempSync(join(tmpdir(), "hdr-e2e-")), "latencies.csv");
  writeFileSync(path, "latency_ms\n1.5\n2.5\n3\n10\n");
  return path;
}

test("an interval log loads without the readers' chunk; a CSV of samples fetches it, from the page's origin, and loads", async ({ page }) => {
  const fetched: string[] = [];
  page.context().on("request", (r) => {
    if (r.url().endsWith(".js")) fetched.push(r.url());
  });
  await openEmpty(page);
  await loadFiles(page, [LOG]);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  expect(fetched.filter((u) => READERS_CHUNK.test(u))).toEqual([]);

  await loadFiles(page, [samplesCsv()]);
  await expect(page.getByTestId("series")).toHaveCount(2);
  await expect(page.locator("[data-testid=series][data-source='latencies.csv']")).toHaveAttribute("data-count", "4");
  const readers = fetched.filter((u) => READERS_CHUNK.test(u));
  expect(readers.length).toBeGreaterThan(0);
  for (const u of readers) expect(new URL(u).origin).toBe(new URL(page.url()).origin);
});

test("a readers' chunk that cannot be fetched fails the file's load with the browser's own reason", async ({ page }) => {
  await page.context().route(READERS_CHUNK, (r) => r.abort());
  await openEmpty(page);
  await loadFiles(page, [samplesCsv()]);
  const error = page.getByTestId("load-error");
  await expect(error).toHaveCount(1);
  await expect(error).toHaveAttribute("data-file", "latencies.csv");
  await expect(error).toContainText("dynamically imported module");
  await expect(page.getByTestId("series")).toHaveCount(0);
});
