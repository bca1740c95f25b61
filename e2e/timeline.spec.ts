import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { decodeFromCompressedBase64 } from "hdr-histogram-js";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { haveSamples, HDR, idle, javaProcessor, loadFiles, openEmpty } from "./helpers";

const V2 = "jHiccup-2.0.7S.logV2";

function countCell(page: import("@playwright/test").Page, name: string) {
  return page.locator(`[data-testid=percentile-table] [data-series="${name}"][data-count]`);
}

/** Total count of the intervals whose start (s since StartTime) lies in [a, b], read with the library. */
function referenceCount(file: string, a: number, b: number): number {
  let n = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const f = line.trim().split(",");
    if (f.length !== 4 || !f[3]!.startsWith("HIST")) continue;
    const t = Number(f[0]);
    if (t >= a && t <= b) n += decodeFromCompressedBase64(f[3]!, 64).totalCount;
  }
  return n;
}

test.describe("time window", () => {
  test.skip(!haveSamples, "../shared/samples is absent");

  test("typed range 5..20 s: 11664 counts, export equals HistogramLogProcessor -start 5 -end 20; Escape clears", async ({ page }) => {
    await openEmpty(page);
    const log = join(HDR, `${V2}.hlog`);
    await loadFiles(page, [log]);
    await expect(page.getByTestId("timeline")).toBeVisible();
    await page.getByTestId("range-start").fill("5");
    await page.getByTestId("range-end").fill("20");
    await page.getByTestId("range-end").press("Enter");
    await page.waitForTimeout(50);
    await idle(page);
    await expect(countCell(page, V2)).toHaveAttribute("data-count", "11664");
    await expect(page.getByTestId("timeline-window")).toBeVisible();
    // The series keeps its whole count; the table describes the window.
    await expect(page.locator(`[data-testid=series][data-name='${V2}']`)).toHaveAttribute("data-count", "48761");
    const download = page.waitForEvent("download");
    await page.locator(`[data-testid=series][data-name='${V2}'] [data-testid=export-hgrm]`).click();
    const text = readFileSync(await (await download).path(), "utf8");
    expect(text).toContain("Total count    =        11664]");
    const ref = javaProcessor(["-i", log, "-outputValueUnitRatio", "1000000", "-start", "5", "-end", "20"]);
    if (ref !== null) expect(text).toBe(ref);
    await page.screenshot({ path: "screens/timeline-window.png", fullPage: true });
    // Escape (outside a form field) opens the window again.
    await page.locator("h1").click();
    await page.keyboard.press("Escape");
    await page.waitForTimeout(50);
    await idle(page);
    await expect(countCell(page, V2)).toHaveAttribute("data-count", "48761");
    await expect(page.getByTestId("range-start")).toHaveValue("");
  });

  test("brushing the timeline selects a window; the table matches the intervals in it", async ({ page }) => {
    await openEmpty(page);
    const log = join(HDR, `${V2}.hlog`);
    await loadFiles(page, [log]);
    const box = (await page.getByTestId("timeline").boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForTimeout(50);
    await idle(page);
    const a = Number(await page.getByTestId("range-start").inputValue());
    const b = Number(await page.getByTestId("range-end").inputValue());
    expect(b).toBeGreaterThan(a + 5);
    const expected = referenceCount(log, a, b);
    expect(expected).toBeGreaterThan(0);
    await expect(countCell(page, V2)).toHaveAttribute("data-count", String(expected));
    // Hover names the interval's time, max and count.
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await expect(page.getByTestId("timeline-hover")).toContainText("max");
    await page.getByTestId("range-clear").click();
    await page.waitForTimeout(50);
    await idle(page);
    await expect(countCell(page, V2)).toHaveAttribute("data-count", "48761");
  });
});

test("saturation: an overloaded run is flagged, a healthy run with stalls is not", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  const over = join(dir, "overloaded_13k.hlog");
  const ok = join(dir, "stalls_4k.hlog");
  writeFileSync(over, writeHlog(simulateQueue({ rate: 13000, seconds: 30, medianServiceSec: 80e-6, sigma: 0.5, stalls: [], seed: 1 })));
  writeFileSync(
    ok,
    writeHlog(
      simulateQueue({
        rate: 4000,
        seconds: 30,
        medianServiceSec: 80e-6,
        sigma: 0.5,
        stalls: [
          { at: 8, duration: 0.3 },
          { at: 21, duration: 0.4 },
        ],
        seed: 2,
      }),
    ),
  );
  await loadFiles(page, [over, ok]);
  const warnings = page.locator("[data-testid=warning][data-kind=saturation]");
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toHaveAttribute("data-series", "overloaded_13k");
  await expect(warnings).toContainText("past its capacity");
  await page.getByTestId("timeline-lanes").check();
  await page.getByTestId("timeline-p50").check();
  await page.waitForTimeout(50);
  await idle(page);
  await page.screenshot({ path: "screens/saturation.png", fullPage: true });
});

test("the timeline zooms with the wheel, pans with shift+wheel, and zooms out", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const tl = page.getByTestId("timeline");
  // Below the demo's banner it may start under the fold: the wheel must land on it.
  await tl.scrollIntoViewIfNeeded();
  const box = (await tl.boundingBox())!;
  // The span drawn (ticks fall on whole steps, so a pan by a tenth of the span may keep them).
  const ticks = async () => `${await tl.getAttribute("data-domain-start")}..${await tl.getAttribute("data-domain-end")}`;
  const before = await ticks();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -100);
  await page.waitForTimeout(50);
  await idle(page);
  const zoomed = await ticks();
  expect(zoomed).not.toBe(before);
  await expect(page.getByTestId("timeline-zoom-out")).toBeVisible();
  await page.keyboard.down("Shift");
  await page.mouse.wheel(0, 100);
  await page.keyboard.up("Shift");
  await page.waitForTimeout(50);
  await idle(page);
  expect(await ticks()).not.toBe(zoomed);
  await page.getByTestId("timeline-zoom-out").click();
  await page.waitForTimeout(50);
  await idle(page);
  expect(await ticks()).toBe(before);
});
