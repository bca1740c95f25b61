// The page at the scale of a real investigation: 24 series from a jHiccup log with 0 µs
// hiccups, a Gatling simulation of eight requests, two files with the same stem, nightly runs
// on two days and an 11-log sweep. Checks the hooks, that the legend never covers the plot,
// that colours stay put and apart, and takes a screenshot of each view in both themes.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { GATLING_REQUESTS, writeManySeries } from "../tests/support/many-series-fixture";
import { idle, loadFiles, openEmpty } from "./helpers";

/** Where the screenshots go (screens/, as the other specs', ignored by git). */
const SHOTS = process.env.SHOTS_DIR ?? "screens/many-series";

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function looks(page: Page): Promise<Map<string, string>> {
  const rows = await page.getByTestId("series").evaluateAll((els) =>
    els.map((e) => {
      const l = e.querySelector("svg.swatch line");
      return [e.getAttribute("data-name") ?? "", `${l?.getAttribute("stroke")}|${l?.getAttribute("stroke-dasharray") ?? ""}`] as [string, string];
    }),
  );
  return new Map(rows);
}

async function shot(what: Locator, name: string): Promise<void> {
  await what.scrollIntoViewIfNeeded();
  await what.screenshot({ path: join(SHOTS, `${name}.png`) });
}

test("24 series: hooks, a legend beside the plot, stable and distinct colours, whole curves on a log axis", async ({ page }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "hdr-many-"));
  const files = writeManySeries(dir);
  await openEmpty(page);

  // The sweep first; its colours must not change when the rest arrives.
  await loadFiles(page, files.sweep);
  await expect(page.getByTestId("series")).toHaveCount(11);
  const before = await looks(page);
  await loadFiles(page, files.rest);
  await expect(page.getByTestId("series")).toHaveCount(24);
  const after = await looks(page);
  for (const [name, look] of before) expect(after.get(name), name).toBe(look);

  // Every series is named apart (the two latency.hlog too) and looks apart.
  const names = [...after.keys()];
  expect(new Set(names).size).toBe(24);
  expect(names).toEqual(expect.arrayContaining(["latency", "latency (2)"]));
  expect(new Set(after.values()).size).toBe(24);
  // The demo-style logs state their producer: no unit guess anywhere.
  await expect(page.getByTestId("unit-assumed")).toHaveCount(0);

  // Gatling's eight requests are one configuration with eight labels.
  const gatling = page.locator("[data-testid=series][data-source='simulation.log']");
  await expect(gatling).toHaveCount(GATLING_REQUESTS.length);
  const configs = new Set(await gatling.evaluateAll((els) => els.map((e) => e.getAttribute("data-config"))));
  expect(configs.size).toBe(1);
  await expect(page.locator(".config-heading", { hasText: [...configs][0]! })).toHaveCount(1);

  // The legend lists all 24, under the plot: no entry's box meets the plot area.
  const plot = page.getByTestId("percentile-plot");
  const items = plot.getByTestId("legend-item");
  await expect(items).toHaveCount(24);
  const area = (await plot.locator("g.grid").boundingBox())!;
  for (const b of await items.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as Box))) {
    const pageBox = { ...b, x: b.x, y: b.y };
    expect(intersects(pageBox, area), JSON.stringify(b)).toBe(false);
  }
  // Names tell the requests apart: every request's label is shown whole.
  const texts = await items.locator("text").allTextContents();
  for (const r of GATLING_REQUESTS)
    expect(
      texts.some((t) => t === r || t.endsWith(`[${r}]`)),
      r,
    ).toBe(true);

  // Log latency axis: the jHiccup log's curve is drawn whole (its zeros at the floor, said so).
  await page.getByTestId("y-log").check();
  await idle(page);
  const d = await plot.locator("path[data-series='hiccup']").getAttribute("d");
  expect(d).not.toMatch(/NaN/);
  expect(d!.split("L").length).toBeGreaterThan(10);
  await expect(plot.getByTestId("plot-floor-note")).toContainText("drawn at the log axis");

  // The heatmap shows the series with the worst tail by default, and says which, fitted to its
  // 30 s (the nightly runs beside it last 10 minutes).
  await expect(page.getByTestId("heatmap-caption")).toContainText("sysA_4k.response");
  await expect(page.getByTestId("heatmap-caption")).toContainText("highest max");
  expect(Number(await page.getByTestId("heatmap").getAttribute("data-domain-end"))).toBeLessThanOrEqual(31);

  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") await page.getByTestId("theme").check();
    await idle(page);
    await shot(page.locator(".chart-panel > div").first(), `spectrum-${theme}`);
    await shot(page.locator(".side-panel"), `series-${theme}`);
    await shot(page.getByTestId("timeline"), `timeline-${theme}`);
    await shot(page.locator(".time-panel"), `heatmap-${theme}`);
    await page.getByTestId("heatmap-series").selectOption("*");
    await idle(page);
    await shot(page.locator(".time-panel"), `heatmap-lanes-${theme}`);
    await page.getByTestId("heatmap-series").selectOption({ label: "sysA_4k.response" });
    await page.getByTestId("timeline-lanes").check();
    await idle(page);
    await shot(page.getByTestId("timeline"), `timeline-lanes-${theme}`);
    await page.getByTestId("timeline-lanes").uncheck();
    await idle(page);
  }
  await page.getByTestId("theme").uncheck();

  // On the clock, the nightly runs of two days are both drawn, ticks saying the day.
  await page.getByTestId("timeline-wallclock").check();
  await idle(page);
  const ticks = await page.locator("[data-testid=timeline] .x-axis text").allTextContents();
  expect(ticks.some((t) => /^11-0[12] /.test(t))).toBe(true);
  // The heatmap follows: its time on the clock too.
  const heatTicks = await page.locator("[data-testid=heatmap] .x-axis text").allTextContents();
  expect(heatTicks.filter((t) => /^\d\d:\d\d/.test(t)).length).toBeGreaterThanOrEqual(2);
  expect(heatTicks.join(" ")).toContain("Wall-clock time (UTC)");
  await shot(page.getByTestId("timeline"), "timeline-wallclock-light");
});
