// The heatmap's lanes share one latency axis when their ranges overlap, as the deck's slide does:
// sysA's stalls reach past 100 ms, sysB stays in single milliseconds, and on the page both lanes
// carry the same latency labels at the same heights, so a row of B compares with the row of A
// beside it.
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { idle, loadFiles, openEmpty, slideTo } from "./helpers";

const demo = resolve(import.meta.dirname, "..", "public", "demo");

test("two series' lanes on one latency axis: the same labels at the same heights, said in the caption; the presentation's slide the same", async ({ page }) => {
  await openEmpty(page);
  await loadFiles(page, [join(demo, "sysA_2k.response.hlog"), join(demo, "sysB_2k.response.hlog")]);
  await page.getByTestId("heatmap-series").selectOption("*");
  await idle(page);
  const hm = page.getByTestId("heatmap").first();
  await expect(hm).toHaveAttribute("data-lanes", "2");
  await expect(hm).toHaveAttribute("data-shared-axis", "true");
  await expect(page.getByTestId("heatmap-caption")).toContainText("all on one latency axis");

  // Each lane's latency labels, with their heights within the lane.
  const axes = await hm.locator("g.y-axis").evaluateAll((gs) =>
    gs.map((g) => {
      const line = g.querySelector("line")!;
      const top = Number(line.getAttribute("y1"));
      const bottom = Number(line.getAttribute("y2"));
      return [...g.querySelectorAll(":scope > text")].map((t) => [t.textContent, Math.round(((bottom - Number(t.getAttribute("y"))) / (bottom - top)) * 1000) / 1000]);
    }),
  );
  expect(axes).toHaveLength(2);
  expect(axes[0]!.length).toBeGreaterThan(2);
  expect(axes[1]).toEqual(axes[0]);
  // sysA's stalls reach past 100 ms: the shared axis goes there for sysB's lane too.
  expect(axes[1]!.map((t) => t[0])).toContain("100");

  // The pointer reads the engine's own cells: at the top of sysB's lane, above all of sysB's
  // values, there is nothing; low in the lane, its cell's range and count.
  const lanes = await hm.locator("g.y-axis > line").evaluateAll((ls) => ls.map((l) => [Number(l.getAttribute("y1")), Number(l.getAttribute("y2"))] as const));
  await hm.scrollIntoViewIfNeeded();
  const box = (await hm.boundingBox())!;
  const [bTop, bBottom] = lanes[1]!;
  await page.mouse.move(box.x + box.width / 2, box.y + bTop + 3);
  await expect(page.getByTestId("heatmap-hover")).toContainText(/sysB.*above [\d.,]+ (ms|µs): no values/s);
  await page.mouse.move(box.x + box.width / 2, box.y + bBottom - (bBottom - bTop) * 0.15);
  await expect(page.getByTestId("heatmap-hover")).toContainText(/sysB.*[\d.,]+ (ms|µs): [\d,]+ values/s);
  await page.mouse.move(0, 0);

  await page.locator(".time-panel").scrollIntoViewIfNeeded();
  await page.locator(".time-panel").screenshot({ path: "/tmp/heatmap-shared-axis.png" });

  // The presentation's heatmap slide draws the same lanes on the same axis.
  await page.getByTestId("present").click();
  const deck = page.getByTestId("presentation");
  await slideTo(page, "present-heatmap");
  await expect(deck.getByTestId("heatmap")).toHaveAttribute("data-shared-axis", "true");
});
