import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { writeDayLog } from "../tests/support/day-log";
import { idle } from "./helpers";

test("a big log shows progress and can be cancelled; what was loaded stays", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-big-"));
  const big = join(dir, "big.hlog");
  // Big enough that the load is still running when Cancel is clicked (a 14 MB log could finish
  // first on a fast machine): 30,000 intervals written four times over, each copy's timestamps
  // moved on (~55 MB; writing that many intervals afresh takes several times longer).
  const one = readFileSync(writeDayLog(join(dir, "one.hlog"), { intervals: 30_000, seed: 5 }).path, "latin1").split("\n");
  const head = one.filter((l) => l.startsWith("#") || l.startsWith('"'));
  const body = one.filter((l) => l && !l.startsWith("#") && !l.startsWith('"'));
  const copies = [0, 1, 2, 3].map((k) =>
    body
      .map((l) => {
        const comma = l.indexOf(",");
        return `${(Number(l.slice(0, comma)) + k * 30_000).toFixed(3)}${l.slice(comma)}`;
      })
      .join("\n"),
  );
  writeFileSync(big, `${head.join("\n")}\n${copies.join("\n")}\n`, "latin1");
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
