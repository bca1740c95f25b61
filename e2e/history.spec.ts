// The history view: a history's folder dropped (through the folder input, the same path as a
// drop) or run files grouped by a run key become runs; the change the generated history has is
// found at its run, with the same numbers the command line prints for the same folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { historyLogs } from "../tests/support/history-sim";
import { idle, openEmpty } from "./helpers";

const RUNS = 12;
const AT = 6;
const dir = mkdtempSync(join(tmpdir(), "hdr-history-e2e-"));
const logs = historyLogs({ seed: 5, runs: RUNS, changeAt: AT, scale: 1.3 });
const folder = join(dir, "history");
const flat = join(dir, "flat");
mkdirSync(flat, { recursive: true });
for (const r of logs) {
  mkdirSync(join(folder, r.id), { recursive: true });
  writeFileSync(join(folder, r.id, "svc.hlog"), r.text);
  writeFileSync(join(flat, `${r.id}_svc.hlog`), r.text);
}

async function historyIdle(page: Page, runs: number) {
  await expect(page.getByTestId("history")).toHaveAttribute("data-runs", String(runs), { timeout: 60_000 });
  await expect(page.getByTestId("history")).toHaveAttribute("data-busy", "false", { timeout: 60_000 });
  await idle(page);
}

test("a history folder: runs in order, the step found at its run, as the command line finds it", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmpty(page);
  await page.getByTestId("history-folder-input").setInputFiles(folder);
  await historyIdle(page, RUNS);
  // The page's series are left alone: the runs are read on the history's own worker.
  await expect(page.getByTestId("series")).toHaveCount(0);
  const p50 = page.locator("[data-testid=change-point][data-percentile='50']");
  await expect(p50).toHaveCount(1);
  await expect(p50).toHaveAttribute("data-series", "svc");
  await expect(p50).toHaveAttribute("data-run", `run-00${AT}`);
  await expect(p50).toHaveAttribute("data-index", String(AT));
  await expect(p50).toHaveAttribute("data-direction", "worse");
  const ratio = Number(await p50.getAttribute("data-ratio"));
  const low = Number(await p50.getAttribute("data-low"));
  const high = Number(await p50.getAttribute("data-high"));
  expect(low).toBeGreaterThan(1.05);
  expect(low).toBeLessThan(ratio);
  expect(high).toBeGreaterThan(ratio);
  await expect(page.getByTestId("history-sentence")).toContainText(`p50 rose`);

  // The command line on the same folder: the same changes, digit for digit.
  const bin = resolve(import.meta.dirname, "../dist-cli/hdr-spectrum.mjs");
  if (existsSync(bin)) {
    const r = spawnSync(process.execPath, [bin, "history", "--json", "--no-workers", folder], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const cli = JSON.parse(r.stdout) as { changes: { percentile: number; index: number; ratio: number; low: number; high: number }[] };
    const points = page.getByTestId("change-point");
    await expect(points).toHaveCount(cli.changes.length);
    for (const c of cli.changes) {
      const el = page.locator(`[data-testid=change-point][data-percentile='${c.percentile}'][data-index='${c.index}']`);
      for (const k of ["ratio", "low", "high"] as const) expect(Math.abs(Number(await el.getAttribute(`data-${k}`)) / c[k] - 1)).toBeLessThan(1e-12);
    }
  }

  // Markdown for a review comment, and a link that opens the same history from numbers alone.
  await page.getByTestId("history-copy-markdown").click();
  await expect(page.getByTestId("history-markdown-output")).toHaveValue(/\*\*svc\*\*: p50 rose \d+ %[\s\S]*\| p50 \| run-006 \|[\s\S]*#history=1\./);
  await page.getByTestId("history-share-link").click();
  const url = await page.getByTestId("history-share-url").inputValue();
  expect(url).toMatch(/#history=1\./);
  const shown = await page.getByTestId("change-point").evaluateAll((els) => els.map((e) => [...e.attributes].map((a) => `${a.name}=${a.value}`).join(" ")));
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId("history")).toHaveAttribute("data-runs", String(RUNS));
  expect(await other.getByTestId("change-point").evaluateAll((els) => els.map((e) => [...e.attributes].map((a) => `${a.name}=${a.value}`).join(" ")))).toEqual(shown);
  await other.close();

  await page.screenshot({ path: "screens/history-light.png", fullPage: true });
  await page.getByTestId("theme").check();
  await page.getByTestId("history").screenshot({ path: "screens/history-dark.png" });
  await page.getByTestId("theme").uncheck();

  // A run clicked, then opened against the stretch before it in the A vs B panel.
  await p50.getByRole("button").click();
  await expect(page.getByTestId("history-run")).toHaveAttribute("data-run", `run-00${AT}`);
  await page.getByTestId("history-open-compare").click();
  await page.waitForTimeout(100);
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(AT + 1);
  const rp = page.locator("[data-testid=ratio-point][data-percentile='50']");
  await expect(rp).toHaveAttribute("data-verdict", "worse", { timeout: 60_000 });
});

test("run files grouped by an edited run key", async ({ page }) => {
  test.setTimeout(180_000);
  await openEmpty(page);
  await page.getByTestId("history-run-key").fill("run-\\d+");
  await page.getByTestId("history-files-input").setInputFiles(logs.map((r) => join(flat, `${r.id}_svc.hlog`)));
  await historyIdle(page, RUNS);
  const p50 = page.locator("[data-testid=change-point][data-percentile='50']");
  await expect(p50).toHaveAttribute("data-index", String(AT));
  await expect(p50).toHaveAttribute("data-series", "svc");
});
