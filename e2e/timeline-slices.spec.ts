// Many series on the timeline: their lines are drawn over several tasks (see drawSlices in
// src/charts/timeline), and the page must not say it is ready before the last one is drawn.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { writeDayLog } from "../tests/support/day-log";
import { idle } from "./helpers";

test("30 logs of 300 intervals: the timeline's canvas is whole whenever data-busy turns false", async ({ page }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "hdr-slices-"));
  // 30 × 300 points: several slices of the timeline's drawing.
  const files = Array.from({ length: 30 }, (_, i) => writeDayLog(join(dir, `node-${i + 1}.hlog`), { intervals: 300, seed: 7000 + i, startMs: Date.UTC(2026, 10, 1, 9) }).path);
  await page.goto("./?demo=0");
  await idle(page);
  // At each turn of data-busy to false (a microtask after the commit that set it, before any
  // later task could draw more), how much of the timeline's canvas is painted.
  await page.evaluate(() => {
    const w = window as unknown as { __inked: number[] };
    w.__inked = [];
    const app = document.querySelector("[data-testid=app]")!;
    new MutationObserver(() => {
      if (app.getAttribute("data-busy") !== "false") return;
      const c = document.querySelector<HTMLCanvasElement>(".timeline canvas");
      if (!c) return;
      const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) inked++;
      w.__inked.push(inked);
    }).observe(app, { attributes: true, attributeFilter: ["data-busy"] });
  });
  await page.getByTestId("file-input").setInputFiles(files);
  await expect(page.getByTestId("series")).toHaveCount(30, { timeout: 60_000 });
  await idle(page);
  await page.waitForTimeout(1000);
  const final = await page.evaluate(() => {
    const c = document.querySelector<HTMLCanvasElement>(".timeline canvas")!;
    const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) inked++;
    return inked;
  });
  const seen = await page.evaluate(() => (window as unknown as { __inked: number[] }).__inked);
  expect(final).toBeGreaterThan(10_000);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.at(-1)).toBe(final);
});
