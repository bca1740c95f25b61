// A fleet of 520 Prometheus series from a saved answer: past LONG_LIST series the list and the
// table show their first ROWS_SHOWN rows and the rest as they are scrolled (or all on asking), and the 520
// "No max kept" warnings are one notice that opens on each series' own.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { idle, loadFiles, openEmpty } from "./helpers";

const SERIES = 520;
const SHOWN = 100;

/** A saved query_range answer: SERIES native histograms (schema 3), 4 points a minute apart, host-i's values in the bucket ending at 2^((i % 16 − 56) / 8) s. */
function fleetAnswer(): string {
  const result = Array.from({ length: SERIES }, (_, i) => {
    const k = i % 16;
    const lo = String(2 ** ((k - 57) / 8));
    const hi = String(2 ** ((k - 56) / 8));
    return {
      metric: { __name__: "fleet_seconds", instance: `host-${String(i).padStart(3, "0")}` },
      histograms: [0, 1, 2, 3].map((p) => [1_767_225_600 + 60 * p, { count: String(10 * p), sum: "1", buckets: [[0, lo, hi, String(10 * p)]] }]),
    };
  });
  return JSON.stringify({ status: "success", data: { resultType: "matrix", result } });
}

/** Its "Show all" asked (a click event, without scrolling): every row drawn, and the notice gone. */
async function showAll(page: Page, hook: string, rows: Locator): Promise<void> {
  await page
    .getByTestId(hook)
    .getByRole("button", { name: `Show all ${SERIES}` })
    .dispatchEvent("click");
  await idle(page);
  await expect(rows).toHaveCount(SERIES);
  await expect(page.getByTestId(hook)).toHaveCount(0);
}

test("520 series at once: the first 100 rows, more as the list is scrolled, all on asking; one notice for the warnings", async ({ page }) => {
  test.setTimeout(120_000);
  const file = join(mkdtempSync(join(tmpdir(), "hdr-fleet-")), "fleet.json");
  writeFileSync(file, fleetAnswer());
  await openEmpty(page);
  await loadFiles(page, [file]);

  // data-busy false: the rows shown are drawn, and each list says how many it holds.
  await expect(page.getByTestId("series")).toHaveCount(SHOWN);
  await expect(page.locator("[data-testid=percentile-table] tbody tr")).toHaveCount(SHOWN);
  for (const id of ["series-more", "table-more"]) {
    await expect(page.getByTestId(id)).toHaveAttribute("data-shown", String(SHOWN));
    await expect(page.getByTestId(id)).toHaveAttribute("data-total", String(SERIES));
    await expect(page.getByTestId(id)).toContainText(`The first ${SHOWN} of ${SERIES} series`);
  }

  // One notice, not 520 boxes: the count, the first names, the highest top bucket (k = 15: 2^(−41/8) s).
  const group = page.getByTestId("warning-group");
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute("data-kind", "bucketed");
  await expect(group).toHaveAttribute("data-count", String(SERIES));
  // Named in the list's order.
  const first = await page.getByTestId("series").first().getAttribute("data-name");
  await expect(group).toContainText(`${SERIES} series (${first}, `);
  await expect(group).toContainText("and 517 more) keep no max");
  const top = 2 ** (-41 / 8) * 1e3;
  await expect(group).toContainText(`the highest is max within [${Number((top * 2 ** -0.125).toPrecision(4))} ms, ${Number(top.toPrecision(4))} ms]`);
  await expect(page.getByTestId("warning")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/fleet-520.png" });
  // Opened: each series' own words, exactly as a lone series' box says them.
  await group.locator("summary").click();
  await expect(page.getByTestId("warning")).toHaveCount(SERIES);
  await expect(page.locator("[data-testid=warning][data-series='fleet [fleet_seconds{instance=\"host-015\"}]']")).toContainText(
    `max within [${Number((top * 2 ** -0.125).toPrecision(4))} ms, ${Number(top.toPrecision(4))} ms]`,
  );
  await group.locator("summary").click();
  await expect(page.getByTestId("warning")).toHaveCount(0);

  // The list's end scrolled into view: more rows come; on asking, all of them, and its notice goes.
  await page.getByTestId("series-more").scrollIntoViewIfNeeded();
  await expect.poll(() => page.getByTestId("series").count()).toBeGreaterThan(SHOWN);
  await idle(page);
  await showAll(page, "series-more", page.getByTestId("series"));
  await page.screenshot({ path: "/tmp/fleet-520-scrolled.png", fullPage: true });

  // The table's rows on asking, every one with its cells.
  // (A click event without scrolling: scrolled into view, the table's end would bring them anyway.)
  await showAll(page, "table-more", page.locator("[data-testid=percentile-table] tbody tr"));
  await expect(page.locator("[data-testid=percentile-table] td[data-percentile='100'][data-series='fleet [fleet_seconds{instance=\"host-519\"}]']")).toHaveCount(1);
});
