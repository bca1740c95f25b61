// The page's first screen (the demo's, on the page as it opens) does not share its fetches and
// cores with what it does not need: the helper workers start after it. A page opened without
// the demo starts them at once, for a log chosen as soon as it is ready.
import { expect, test, type Page } from "@playwright/test";
import { idle } from "./helpers";

interface Made {
  name: string;
  series: number;
}

/** Records each worker the page makes, with the number of series on screen at that moment. */
async function recordWorkers(page: Page): Promise<() => Promise<Made[]>> {
  await page.addInitScript(() => {
    const made: { name: string; series: number }[] = [];
    (window as unknown as { __made: typeof made }).__made = made;
    const Base = window.Worker;
    window.Worker = class extends Base {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        made.push({ name: options?.name ?? "", series: document.querySelectorAll("[data-testid=series]").length });
      }
    };
  });
  return () => page.evaluate(() => (window as unknown as { __made: Made[] }).__made);
}

test("on the page as it opens, the engine worker starts at once and the helpers once the demo is on screen", async ({ page }) => {
  const made = await recordWorkers(page);
  await page.goto("./");
  await idle(page);
  test.skip((await page.evaluate(() => navigator.hardwareConcurrency)) < 2, "one core: no helper workers");
  await expect(page.getByTestId("series")).toHaveCount(6);
  await expect.poll(async () => (await made()).filter((w) => w.name === "helper").length).toBeGreaterThan(0);
  const all = await made();
  expect(all.find((w) => w.name === "engine")?.series).toBe(0);
  for (const h of all.filter((w) => w.name === "helper")) expect(h.series, "a helper started before the demo's series were shown").toBe(6);
});

test("without the demo, the helpers start with the engine worker", async ({ page }) => {
  const made = await recordWorkers(page);
  await page.goto("./?demo=0");
  await idle(page);
  test.skip((await page.evaluate(() => navigator.hardwareConcurrency)) < 2, "one core: no helper workers");
  const all = await made();
  expect(all.filter((w) => w.name === "helper").length).toBeGreaterThan(0);
  for (const w of all.filter((x) => x.name === "engine" || x.name === "helper")) expect(w.series).toBe(0);
});
