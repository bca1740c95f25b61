// Gatling 3.13's binary simulation.log, written by a real Gatling run (fixtures/producers/gatling),
// loaded through the page's file input: read from its bytes, a series per request with the counts
// Gatling's own report gives (stats.js.txt), the run and its users in the load notes.
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { cell, loadFiles, openEmpty } from "./helpers";

const FIX = join(import.meta.dirname, "..", "fixtures", "producers", "gatling");

test("a binary Gatling simulation.log: every request by group and name, KO as failures, the run said", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [join(FIX, "simulation.log")]);
  const series = page.locator("[data-testid=series][data-source='simulation.log']");
  await expect(series).toHaveCount(4);
  // Gatling's report for this run: home page 60 OK, search_items 60 OK, checkout / cart 6 OK, checkout / pay 6 KO.
  for (const [tag, count] of [
    ["home page", "60"],
    ["search_items", "60"],
    ["checkout / cart", "6"],
  ])
    await expect(page.locator(`[data-testid=series][data-source='simulation.log'][data-tag='${tag}']`)).toHaveAttribute("data-count", count);
  await expect(page.locator("[data-testid=series][data-source='simulation.log'][data-tag='checkout / pay']")).toContainText("6 failed");
  // Its table row has no number to show: it says why in words, and shows no zeros.
  const pay = await page.locator("[data-testid=series][data-tag='checkout / pay']").getAttribute("data-name");
  await expect(page.locator(`[data-testid=table-no-values][data-series="${pay}"]`)).toHaveText("no successful requests: 6 failed");
  for (const p of ["50", "99", "100"]) await expect(cell(page, pay!, p)).toHaveText("–");
  await expect(page.locator("[data-testid=table-no-values]")).toHaveCount(1);
  await expect(page.getByTestId("load-notes")).toContainText("Gatling 3.13.5 run of sim.Tiny");
  await expect(page.getByTestId("load-notes")).toContainText("66 users started (browse 60, buy 6)");
  await expect(page.getByTestId("load-errors")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/gatling-binary.png", fullPage: true });
});
