import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { writeDayLog } from "../scripts/lib/day-log";
import { idle } from "./helpers";

test("a big log shows progress and can be cancelled; what was loaded stays", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-big-"));
  const big = join(dir, "big.hlog");
  writeDayLog(big, { intervals: 30_000, seed: 5 });
  await page.goto("./");
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(6);
  await page.getByTestId("file-input").setInputFiles(big);
  await expect(page.getByTestId("progress-bar")).toBeVisible({ timeout: 20_000 });
  await page.getByTestId("cancel-load").click();
  await idle(page);
  await expect(page.locator("[data-testid=load-error][data-file='big.hlog']")).toContainText("cancelled");
  await expect(page.getByTestId("series")).toHaveCount(6);
  // Loading it again, uncancelled, works.
  await page.getByTestId("file-input").setInputFiles(big);
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.locator("[data-testid=series][data-name='big']")).toHaveAttribute("data-count", /^\d{6,}$/);
});
