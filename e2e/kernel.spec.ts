// Interval-log payloads are decoded in the workers by a WebAssembly kernel (src/wasm), with the
// JavaScript reader as the reference and fallback. Both give the same answers, so nothing on
// the page shows which ran: the workers publish counts (self.hdrKernelStats) and this checks
// that Chromium, under the production page's Content-Security-Policy, really took the fast
// path (with the browser's base64 decoder), and that what it shows is what the samples hold.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { decodeFromCompressedBase64 } from "hdr-histogram-js";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { writeDayLog } from "../tests/support/day-log";
import { loadFiles, openEmpty } from "./helpers";

interface Stats {
  available: boolean;
  handled: number;
  declined: number;
  nativeBase64: number;
  bytes: number;
}

async function kernelStats(page: Page): Promise<Stats[]> {
  const out: Stats[] = [];
  for (const w of page.workers()) {
    const s = await w.evaluate(() => (self as unknown as { hdrKernelStats?: Stats }).hdrKernelStats ?? null);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Waits until the idle warm-up of every worker is over (self.hdrWarmUp, docs/HOOKS.md): it reads
 * a synthetic log through the kernel too, and one cut short by the test's file ends in a cut
 * line the kernel declines, which would be counted as if the file's.
 */
async function warmUpsOver(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const states: string[] = [];
        for (const w of page.workers()) states.push(await w.evaluate(() => (self as unknown as { hdrWarmUp?: string }).hdrWarmUp ?? "not started"));
        return states.length >= 2 && states.every((x) => x === "over") ? "over" : states.join(", ");
      },
      { message: "every worker's idle warm-up over", timeout: 90_000 },
    )
    .toBe("over");
}

const sum = (xs: Stats[], k: "handled" | "declined" | "nativeBase64" | "bytes") => xs.reduce((n, s) => n + s[k], 0);

test("the workers decode interval-log payloads read as text with the WebAssembly kernel, and the page shows the samples' numbers", async ({ page }) => {
  test.setTimeout(120_000);
  await openEmpty(page);
  await warmUpsOver(page);
  const before = await kernelStats(page);
  // The engine and at least one helper worker, each with the kernel compiled.
  expect(before.length).toBeGreaterThanOrEqual(2);
  for (const s of before) expect(s.available, "WebAssembly refused in a worker").toBe(true);

  const intervals = simulateQueue({ rate: 500, seconds: 120, medianServiceSec: 2e-4, sigma: 0.6, stalls: [{ at: 60, duration: 0.5 }], seed: 7 });
  let total = 0;
  let max = 0;
  for (const iv of intervals) {
    total += iv.histogram.totalCount;
    max = Math.max(max, iv.histogram.maxValue);
  }
  const dir = mkdtempSync(join(tmpdir(), "hdr-kernel-"));
  const path = join(dir, "kernel-run.hlog");
  // Tagged lines are read as text (the byte path reads untagged lines only), where the
  // payloads' base64 is Chromium's to decode.
  writeFileSync(path, writeHlog(intervals, { tag: "checkout" }));
  await loadFiles(page, [path]);

  const after = await kernelStats(page);
  // Every one of the log's payloads went through the kernel (work after the load may add more).
  expect(sum(after, "handled") - sum(before, "handled")).toBeGreaterThanOrEqual(intervals.length);
  expect(sum(after, "declined") - sum(before, "declined")).toBe(0);
  // Chromium's own base64 decoder wrote the bytes into the kernel (Node's unit tests cannot
  // take that path: Node 20 has no Uint8Array.prototype.setFromBase64).
  expect(sum(after, "nativeBase64") - sum(before, "nativeBase64")).toBeGreaterThanOrEqual(intervals.length);

  // And the result is the samples': their count, and their max at 3 significant digits.
  const row = page.getByTestId("series").filter({ hasText: "checkout" });
  await expect(row).toHaveAttribute("data-count", String(total));
  const shownMax = Number(await page.locator(`[data-testid=percentile-table] [data-series="kernel-run [checkout]"][data-percentile="100"]`).getAttribute("data-raw"));
  expect(Math.abs(shownMax - max) / max).toBeLessThan(1e-3);
});

test("a log big enough to be cut into pieces is read from its bytes: its payloads reach the kernel as bytes, and the page shows the samples' count", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-kernel-bytes-"));
  const path = join(dir, "pieces.hlog");
  // Above the 4 MB at which an interval log is cut into pieces.
  const log = writeDayLog(path, { intervals: 12_000, seed: 5 });
  expect(log.bytes).toBeGreaterThan(4 * 1024 * 1024);
  // The reference: every payload decoded by hdr-histogram-js.
  let total = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (/^\d/.test(line)) total += decodeFromCompressedBase64(line.slice(line.lastIndexOf(",") + 1), 64, false).totalCount;
  }
  await openEmpty(page);
  await warmUpsOver(page);
  const before = await kernelStats(page);
  await loadFiles(page, [path]);
  const after = await kernelStats(page);
  expect(sum(after, "declined") - sum(before, "declined")).toBe(0);
  // A tag's first line, and a line cut by a chunk's end, are read as text; the rest as bytes.
  expect(sum(after, "bytes") - sum(before, "bytes")).toBeGreaterThanOrEqual(12_000 * 0.95);
  await expect(page.getByTestId("series").filter({ hasText: "pieces" })).toHaveAttribute("data-count", String(total));
});
