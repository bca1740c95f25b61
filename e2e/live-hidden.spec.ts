// A followed JMeter CSV's series are made again from its reader with every new line: a series
// hidden in the page stays hidden as lines arrive (the same id), while the other is drawn.
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServer, type Serving } from "../src/cli/serve";

const PAGE = path.resolve(import.meta.dirname, "../dist");

let server: Serving | null = null;
test.afterEach(async () => {
  await server?.close();
  server = null;
});

test("a hidden series of a followed JMeter CSV stays hidden, with the same id, as lines are appended", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-hidden-"));
  const file = path.join(dir, "results.jtl");
  const line = (i: number) => `${1_700_000_000_000 + i * 100},${10 + (i % 50)},${i % 2 ? "login" : "search"},true\n`;
  writeFileSync(file, "timeStamp,elapsed,label,success\n" + Array.from({ length: 40 }, (_, i) => line(i)).join(""));
  server = await startServer({ paths: [dir], host: "127.0.0.1", port: 0, pageDir: PAGE, pollMs: 100, quietMs: 2000 });
  await page.goto(server.url);
  const login = page.locator('[data-testid=series][data-tag="login"]');
  const search = page.locator('[data-testid=series][data-tag="search"]');
  await expect(login).toHaveAttribute("data-count", "20", { timeout: 15_000 });
  const id = await login.getAttribute("data-id");
  await login.getByTestId("series-toggle").click();
  await expect(login).toHaveAttribute("data-visible", "false");
  const loginName = (await login.getAttribute("data-name"))!;
  const searchName = (await search.getAttribute("data-name"))!;
  const legendOf = (name: string) => page.locator(`[data-testid=plot-legend] [data-testid=legend-item][data-series="${name}"]`);

  for (const upTo of [60, 80, 100]) {
    appendFileSync(file, Array.from({ length: 20 }, (_, i) => line(upTo - 20 + i)).join(""));
    await expect(login).toHaveAttribute("data-count", String(upTo / 2), { timeout: 15_000 });
    await expect(search).toHaveAttribute("data-count", String(upTo / 2));
    await expect(login).toHaveAttribute("data-id", id!);
    await expect(login).toHaveAttribute("data-visible", "false");
    await expect(search).toHaveAttribute("data-visible", "true");
    // Every spectrum drawn after the new lines (the live panel's two, the main one) leaves it out.
    await expect(legendOf(searchName)).toHaveCount(3);
    await expect(legendOf(loginName)).toHaveCount(0);
  }
  await page.screenshot({ path: "/tmp/live-hidden.png", fullPage: true });
});
