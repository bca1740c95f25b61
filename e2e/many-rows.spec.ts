// Many series at once: the series list and the table add their rows a slice per frame, and a
// series hidden with the timeline on screen has its lines redrawn in a task after the frame
// (src/ui/hooks/use-in-slices.ts, src/charts/timeline). data-busy must not turn false before all of
// it is on the page.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { writeDayLog } from "../tests/support/day-log";
import { idle } from "./helpers";

const logs = (n: number) => {
  const dir = mkdtempSync(join(tmpdir(), "hdr-rows-"));
  return Array.from(
    { length: n },
    (_, i) => writeDayLog(join(dir, `svc-${String(i + 1).padStart(3, "0")}.hlog`), { intervals: 60, seed: 9100 + i, startMs: Date.UTC(2026, 10, 1, 9) }).path,
  );
};

/** At each turn of data-busy to false, a microtask after the commit that set it: rows listed, rows in the table, and the timeline canvas' pixels (a checksum). */
async function watchBusy(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: { series: number; rows: number; ink: number }[]; __ink: () => number };
    w.__seen = [];
    w.__ink = () => {
      const c = document.querySelector<HTMLCanvasElement>(".timeline canvas");
      if (!c) return -1;
      const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let h = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i + 3]! > 0) h = (h * 31 + px[i]! + 7 * px[i + 1]! + 13 * px[i + 2]! + i) % 1_000_000_007;
      return h;
    };
    const app = document.querySelector("[data-testid=app]")!;
    new MutationObserver(() => {
      if (app.getAttribute("data-busy") !== "false") return;
      w.__seen.push({
        series: document.querySelectorAll("[data-testid=series]").length,
        rows: document.querySelectorAll("[data-testid=percentile-table] tbody tr").length,
        ink: w.__ink(),
      });
    }).observe(app, { attributes: true, attributeFilter: ["data-busy"] });
  });
}

test("45 logs dropped at once: whenever data-busy turns false, every series row and table row is there", async ({ page }) => {
  test.setTimeout(120_000);
  const files = logs(45);
  await page.goto("./?demo=0");
  await idle(page);
  await watchBusy(page);
  await page.getByTestId("file-input").setInputFiles(files);
  await expect(page.getByTestId("series")).toHaveCount(45, { timeout: 60_000 });
  await idle(page);
  await page.waitForTimeout(500);
  const seen = await page.evaluate(() => (window as unknown as { __seen: { series: number; rows: number }[] }).__seen);
  const loaded = seen.filter((s) => s.series > 0);
  expect(loaded.length).toBeGreaterThan(0);
  for (const s of loaded) expect(s).toMatchObject({ series: 45, rows: 45 });
});

test("hiding and showing a series with the timeline on screen: the canvas is redrawn before data-busy turns false", async ({ page }) => {
  test.setTimeout(120_000);
  const files = logs(30);
  await page.goto("./?demo=0");
  await idle(page);
  await page.getByTestId("file-input").setInputFiles(files);
  await expect(page.getByTestId("series")).toHaveCount(30, { timeout: 60_000 });
  await idle(page);
  await page.waitForTimeout(500);
  await expect(page.getByTestId("timeline")).toBeInViewport();
  const ink = () => page.evaluate(() => (window as unknown as { __ink: () => number }).__ink());
  await watchBusy(page);
  // From each click on, every frame for half a second: the canvas whenever data-busy is false.
  await page.evaluate(() => {
    const w = window as unknown as { __seen: { ink: number }[]; __ink: () => number };
    window.addEventListener(
      "click",
      () => {
        let frames = 30;
        const look = () => {
          if (document.querySelector("[data-testid=app]")!.getAttribute("data-busy") === "false") w.__seen.push({ ink: w.__ink() });
          if (--frames > 0) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      },
      { capture: true },
    );
  });
  const seenSince = async () => page.evaluate(() => (window as unknown as { __seen: { ink: number }[] }).__seen.splice(0).map((s) => s.ink));
  const before = await ink();
  for (const end of ["hidden", "shown"]) {
    await page.getByTestId("series-toggle").nth(2).click();
    await expect(page.getByTestId("legend-item")).toHaveCount(end === "hidden" ? 29 : 30);
    await idle(page);
    await page.waitForTimeout(800);
    const now = await ink();
    // The hidden series' line leaves the canvas, and comes back as it was.
    if (end === "hidden") expect(now).not.toBe(before);
    else expect(now).toBe(before);
    // Whenever the page said it was not busy, the canvas was as it ends up.
    const seen = await seenSince();
    expect(seen.length).toBeGreaterThan(0);
    for (const x of seen) expect(x, `${end}: ${seen.join(" ")} / ${now} / before ${before}`).toBe(now);
  }
});
