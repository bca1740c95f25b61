// A request whose every call failed (Gatling's `checkout / pay` in the fixture's real run, 6 KO:
// its own report, stats.js.txt, says so) reads the same on the page as in `report --json`: no
// number where a latency would be (data-raw empty, JSON null, never 0), the same words for why,
// and the same failing verdict against a requirement; the spectrum's legend names it with those
// words too, as it draws no line.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { cell, loadFiles, openEmpty } from "./helpers";
import type { JsonSeries } from "../src/cli/report";

const root = resolve(import.meta.dirname, "..");
const LOG = join(root, "fixtures", "producers", "gatling", "simulation.log");
const REQUIREMENT = "p99<=5s";
const PERCENTILES = ["50", "90", "99", "99.9", "99.99", "99.999", "100"];

type Series = Omit<JsonSeries, "percentiles"> & { percentiles: Record<string, number | null>; noValues: string | null };

test("a failed-only request: the table's data-raw and data-novalues say what report --json says, and both fail it against the requirement", async ({ page }) => {
  const build = spawnSync(process.execPath, [join(root, "scripts/build-cli.mjs")], { cwd: root, encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
  const r = spawnSync(process.execPath, [join(root, "dist-cli/hdr-spectrum.mjs"), "report", "--json", "--require", REQUIREMENT, LOG], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const json = JSON.parse(r.stdout) as { series: Series[]; sentence: string | null };
  const pay = json.series.find((s) => s.tag === "checkout / pay")!;
  // The reference: Gatling's report has its 6 requests KO and none OK.
  expect(pay.count).toBe(0);
  expect(pay.noValues).toBe("no successful requests: 6 failed");
  expect(pay.verdict).toBe("fail");

  await openEmpty(page);
  await loadFiles(page, [LOG]);
  await page.getByTestId("requirement-input").fill(REQUIREMENT);
  await page.getByTestId("requirement-input").press("Enter");
  await expect(page.getByTestId("app")).toHaveAttribute("data-busy", "false", { timeout: 30_000 });
  await expect(page.getByTestId("series")).toHaveCount(json.series.length);

  for (const s of json.series) {
    for (const p of PERCENTILES) {
      const c = cell(page, s.name, p);
      const v = s.percentiles[p]!;
      await expect(c, `${s.name} p${p}`).toHaveAttribute("data-raw", v === null ? "" : String(v));
      if (s.noValues === null) await expect(c, `${s.name} p${p}`).not.toHaveAttribute("data-novalues");
      else await expect(c, `${s.name} p${p}`).toHaveAttribute("data-novalues", s.noValues);
    }
    const row = page.locator(`[data-testid=series][data-name="${s.name}"]`);
    await expect(row, s.name).toHaveAttribute("data-verdict", s.verdict ?? "");
  }
  // The failed-only request: "–" in every cell, its reason beside its name, and its verdict in words.
  for (const p of PERCENTILES) await expect(cell(page, pay.name, p)).toHaveText("–");
  await expect(page.locator(`[data-testid=table-no-values][data-series="${pay.name}"]`)).toHaveText(pay.noValues!);
  await expect(page.locator(`[data-testid=series][data-name="${pay.name}"] [data-testid=series-verdict]`)).toHaveText("✗ fails: no successful requests");
  await expect(page.getByTestId("verdict-sentence")).toHaveText(json.sentence!);
  // The spectrum's legend keeps the request with no line and says why, in the same words.
  const legend = page.locator(`[data-testid=plot-legend] [data-testid=legend-item][data-series="${pay.name}"]`);
  await expect(legend).toHaveAttribute("data-novalues", pay.noValues!);
  await expect(legend.locator("text")).toHaveText(/: no successful requests: 6 failed, nothing to draw$/);
  await expect(legend.locator("title")).toHaveText(`${pay.name}: no successful requests: 6 failed, nothing to draw`);
  for (const s of json.series.filter((x) => x.noValues === null)) {
    const item = page.locator(`[data-testid=plot-legend] [data-testid=legend-item][data-series="${s.name}"]`);
    await expect(item, s.name).not.toHaveAttribute("data-novalues");
    await expect(item.locator("text"), s.name).not.toContainText("nothing to draw");
  }
  await page.screenshot({ path: "/tmp/no-values.png", fullPage: true });
});
