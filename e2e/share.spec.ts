import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { simulateQueue } from "../tests/support/queue-sim";
import { writeHlog } from "../tests/support/hlog-fixture";
import { cell, idle, loadFiles, openEmpty, slideTo } from "./helpers";

test("Copy Markdown: a paste-ready table with the requirement and verdicts, on the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("./");
  await idle(page);
  await page.getByTestId("copy-markdown").click();
  const out = page.getByTestId("markdown-output");
  await expect(out).toBeVisible();
  const md = await out.inputValue();
  const lines = md.split("\n");
  expect(lines).toContain("| Series | p50 (ms) | p90 (ms) | p99 (ms) | p99.9 (ms) | p99.99 (ms) | max (ms) | count | verdict |");
  // Each row's numbers equal the table's (display unit ms; data-raw in ns).
  const maxRaw = Number(await cell(page, "sysA_2k.response", "100").getAttribute("data-raw"));
  const row = lines.find((l) => l.startsWith("| sysA_2k.response |"))!;
  expect(row).toContain(`**${Number((maxRaw / 1e6).toFixed(1))}**`);
  expect(row).toContain("✅ pass");
  expect(lines.find((l) => l.startsWith("| sysA_8k.response |"))).toContain("❌ fails at p99");
  expect(md).toContain("Requirement: `p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms`");
  expect(md).toContain("sysB carries at least 4.0× the throughput");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(md);
});

test("chart exports: SVG and PNG of the plot as drawn, CSV of its points", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  const actions = page.locator(".chart-actions").first();
  const svgDl = page.waitForEvent("download");
  await actions.getByTestId("export-svg").click();
  const svg = readFileSync(await (await svgDl).path(), "utf8");
  expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain("p99 ≤ 40 ms"); // requirement line label
  expect(svg).toContain("sysB_8k.response"); // legend
  expect(svg).toContain("Latency (ms)");
  const pngDl = page.waitForEvent("download");
  await actions.getByTestId("export-png").click();
  const png = readFileSync(await (await pngDl).path());
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  const width = png.readUInt32BE(16);
  const onScreen = Number(await page.locator("[data-testid=percentile-plot]").first().getAttribute("width"));
  expect(width).toBe(onScreen * 2);
  const csvDl = page.waitForEvent("download");
  await actions.getByTestId("export-csv").click();
  const csv = readFileSync(await (await csvDl).path(), "utf8").split("\n");
  expect(csv[0]).toBe("series,percentile_from,percentile_to,value_ms,count_at_or_below");
  const last = csv.filter((l) => l.startsWith("sysA_2k.response,")).pop()!;
  const maxRaw = Number(await cell(page, "sysA_2k.response", "100").getAttribute("data-raw"));
  expect(Number(last.split(",")[3])).toBeCloseTo(maxRaw / 1e6, 9);
  expect(last.split(",")[2]).toBe("100");
});

test("presentation mode: headline, spectra, max over time; arrows step, Escape leaves", async ({ page }) => {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("present").click();
  const p = page.getByTestId("presentation");
  await expect(p).toBeVisible();
  await expect(page.getByTestId("slide").getByTestId("headline")).toContainText(/^sysB_8k\.response .+ sysA_8k\.response at p/);
  await page.screenshot({ path: "screens/present-1.png" });
  await slideTo(page, 1);
  await expect(p).toHaveAttribute("data-slide", "1");
  await expect(p.locator("[data-testid=percentile-plot]")).toBeVisible();
  await page.screenshot({ path: "screens/present-2.png" });
  await slideTo(page, 2);
  await expect(p).toHaveAttribute("data-slide", "2");
  await expect(p.locator("[data-testid=timeline]")).toBeVisible();
  await page.screenshot({ path: "screens/present-3.png" });
  await page.getByTestId("theme").evaluate(() => undefined);
  await page.keyboard.press("Escape");
  await expect(p).toHaveCount(0);
  await page.getByTestId("theme").check();
  await page.getByTestId("present").click();
  await slideTo(page, 1);
  await page.screenshot({ path: "screens/present-dark.png" });
  await page.keyboard.press("Escape");
  await expect(p).toHaveCount(0);
  // Escape that leaves the presentation leaves the time window as it was (it used to reach
  // the page too, which opens the window again).
  await page.getByTestId("range-start").fill("2");
  await page.getByTestId("range-end").fill("5");
  await page.getByTestId("range-end").press("Enter");
  await idle(page);
  await page.getByTestId("present").click();
  await expect(p).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(p).toHaveCount(0);
  await idle(page);
  await expect(page.getByTestId("range-start")).toHaveValue("2");
  await expect(page.getByTestId("range-end")).toHaveValue("5");
});

test("share link: reopens the same view in a new browser context from the link alone, with the same percentiles", async ({ page, browser }) => {
  await page.goto("./");
  await idle(page);
  await page.getByTestId("unit-select").selectOption("us");
  await page.locator("[data-testid=series][data-name='sysB_4k.response']").click(); // hide one
  await idle(page);
  await page.getByTestId("share-link").click();
  const url = await page.getByTestId("share-url").inputValue();
  expect(url).toContain("#s=");
  expect(url.length).toBeLessThanOrEqual(16 * 1024);
  await expect(page.getByTestId("share-note")).toContainText("at most 1 % high");
  const names = ["sysA_2k.response", "sysB_2k.response", "sysA_8k.response", "sysB_8k.response"];
  const before = new Map<string, number>();
  for (const n of names) for (const p of ["50", "99", "99.9", "100"]) before.set(`${n}@${p}`, Number(await cell(page, n, p).getAttribute("data-raw")));
  const verdicts = await page
    .locator("[data-testid=series]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-verdict")}:${e.getAttribute("data-visible")}`));

  const other = await browser.newContext({ offline: false });
  const p2 = await other.newPage();
  // Served from the same preview server; the data comes from the fragment only.
  await p2.goto(url.replace(/^https?:\/\/[^/]+\//, `http://127.0.0.1:${process.env.E2E_PORT || 4173}/`));
  await idle(p2);
  await expect(p2.getByTestId("series")).toHaveCount(6);
  await expect(p2.getByTestId("unit-select")).toHaveValue("us");
  await expect(p2.getByTestId("requirement-input")).toHaveValue("p50<=1ms, p99<=40ms, p99.9<=150ms, max<=200ms");
  await expect(p2.locator("[data-testid=series][data-name='sysB_4k.response']")).toHaveAttribute("data-visible", "false");
  // The numbers its author's page showed, carried in the link (its histograms, rounded upward, draw the curves).
  for (const n of names) for (const p of ["50", "99", "99.9", "100"]) expect(Number(await cell(p2, n, p).getAttribute("data-raw")), `${n} p${p}`).toBe(before.get(`${n}@${p}`));
  const after = await p2
    .locator("[data-testid=series]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-name")}:${e.getAttribute("data-verdict")}:${e.getAttribute("data-visible")}`));
  expect(after).toEqual(verdicts);
  await expect(p2.getByTestId("timeline")).toBeVisible();
  await p2.screenshot({ path: "screens/shared-view.png", fullPage: true });
  await other.close();
});

test("a broken share link says what is wrong and the page still works", async ({ page }) => {
  await page.goto("./#s=2.not-a-real-link");
  await idle(page);
  await expect(page.locator("[data-testid=load-error][data-file='share link']")).toBeVisible();
  await expect(page.getByTestId("app")).toBeVisible();
});

const PORT = process.env.E2E_PORT || 4173;
const OWN = `http://127.0.0.1:${PORT}/demo/sysA_2k.response.hlog`;

test("#src= links load remote logs after consent; refused or unreachable ones say why", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => asked.push(r.url()));
  await page.goto("./#src=" + encodeURIComponent(OWN) + "&src=javascript:alert(1)&src=" + encodeURIComponent("http://127.0.0.1:9/nothing.hlog"));
  await idle(page);
  // Another origin (another port of the same host): the page asks first, naming it.
  const ask = page.getByTestId("src-consent");
  await expect(ask).toBeVisible();
  await expect(ask).toHaveAttribute("data-hosts", "127.0.0.1:9");
  await expect(ask).toContainText("This link loads data from 127.0.0.1:9. Load?");
  await page.getByTestId("src-consent-load").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("series")).toHaveAttribute("data-name", "sysA_2k.response");
  await expect(page.getByTestId("series")).toHaveAttribute("data-count", "120000");
  await expect(page.locator("[data-testid=load-error][data-file='javascript:alert(1)']")).toContainText("only http and https");
  await expect(page.locator("[data-testid=load-error][data-file='http://127.0.0.1:9/nothing.hlog']")).toContainText(/unreachable|CORS/);
  // The engine worker's fetches are seen here (what the test below relies on to see none).
  expect(asked).toContain("http://127.0.0.1:9/nothing.hlog");
});

test("#src= links fetch nothing from other hosts before consent; Cancel fetches only the page's own", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => asked.push(r.url()));
  const foreign = ["http://127.0.0.1:9/a.hlog", "https://logs.example.invalid/b.hlog"];
  await page.goto("./#" + [OWN, ...foreign].map((u) => "src=" + encodeURIComponent(u)).join("&"));
  await idle(page);
  const ask = page.getByTestId("src-consent");
  await expect(ask).toContainText("This link loads data from 127.0.0.1:9 and logs.example.invalid. Load?");
  await expect(page.getByTestId("src-consent-load")).toBeVisible();
  await expect(page.getByTestId("src-consent-cancel")).toBeVisible();
  await page.screenshot({ path: "screens/src-consent.png" });
  await page.waitForTimeout(500); // time for a fetch that should not happen
  // Not even the page's own log: nothing of the link is fetched before the answer.
  expect(asked.filter((u) => u.includes("127.0.0.1:9") || u.includes("example.invalid") || u.endsWith("sysA_2k.response.hlog"))).toEqual([]);
  await page.getByTestId("src-consent-cancel").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(ask).toHaveCount(0);
  expect(asked.filter((u) => u.includes("127.0.0.1:9") || u.includes("example.invalid"))).toEqual([]);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("series")).toHaveAttribute("data-name", "sysA_2k.response");
  for (const u of foreign) await expect(page.locator(`[data-testid=load-error][data-file='${u}']`)).toContainText("not fetched: loading from");
});

test("#src= links to the page's own origin load without a question", async ({ page }) => {
  await page.goto("./#src=" + encodeURIComponent(OWN));
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("series")).toHaveAttribute("data-count", "120000");
  await expect(page.getByTestId("src-consent")).toHaveCount(0);
});

test("reloading keeps the loaded files and the view; Start over returns to the demo", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  const f = join(dir, "kept_3k.hlog");
  writeFileSync(f, writeHlog(simulateQueue({ rate: 3000, seconds: 10, medianServiceSec: 1e-4, sigma: 0.5, stalls: [], seed: 8 })));
  await loadFiles(page, [f]);
  // A bad file does not enter the session.
  const bad = join(dir, "bad.txt");
  writeFileSync(bad, "not a log at all\n");
  await loadFiles(page, [bad]);
  await page.getByTestId("unit-select").selectOption("us");
  await page.getByTestId("requirement-input").fill("p99<=2ms");
  await page.getByTestId("requirement-input").press("Enter");
  await idle(page);
  const p99 = await cell(page, "kept_3k", "99").getAttribute("data-raw");
  await page.waitForTimeout(400); // the view is saved 200 ms after it settles
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(1);
  await expect(page.getByTestId("series")).toHaveAttribute("data-name", "kept_3k");
  await expect(cell(page, "kept_3k", "99")).toHaveAttribute("data-raw", p99!);
  await expect(page.getByTestId("unit-select")).toHaveValue("us");
  await expect(page.getByTestId("requirement-input")).toHaveValue("p99<=2ms");
  await expect(page.getByTestId("load-error")).toHaveCount(0);
  // The CO correction's expected interval is kept too, and its corrected copy comes back.
  await page.getByTestId("co-interval").fill("1ms");
  await page.getByTestId("co-interval").press("Enter");
  await page.waitForTimeout(50);
  await idle(page);
  await expect(page.locator("[data-testid=series][data-corrected=true]")).toHaveCount(1);
  const corrected = await cell(page, "kept_3k (CO-corrected, 1 ms)", "99.9").getAttribute("data-raw");
  await page.waitForTimeout(400);
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("co-interval")).toHaveValue("1ms");
  await expect(page.locator("[data-testid=series][data-corrected=true]")).toHaveCount(1);
  await expect(cell(page, "kept_3k (CO-corrected, 1 ms)", "99.9")).toHaveAttribute("data-raw", corrected!);
  // Edits of a series (its throughput, its recorded unit) come back too.
  const row = page.locator("[data-testid=series][data-name='kept_3k']");
  await row.getByTestId("edit-identity").click();
  await row.getByTestId("identity-throughput").fill("5k");
  await row.getByTestId("identity-throughput").press("Enter");
  await page.waitForTimeout(50);
  await idle(page);
  await row.getByTestId("series-unit").selectOption("us");
  await page.waitForTimeout(50);
  await idle(page);
  await expect(row).toHaveAttribute("data-throughput", "5000");
  await expect(row).toHaveAttribute("data-unit", "us");
  await page.waitForTimeout(400);
  await page.reload();
  await idle(page);
  const again = page.locator("[data-testid=series][data-name='kept_3k']");
  await expect(again).toHaveAttribute("data-throughput", "5000");
  await expect(again).toHaveAttribute("data-unit", "us");
  await page.getByTestId("start-over").click();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(6);
});

test("merges and removals are kept across a reload: merges made again with the same counts and percentiles, hidden or removed as left", async ({ page }) => {
  await openEmpty(page);
  const dir = mkdtempSync(join(tmpdir(), "hdr-e2e-"));
  const files = [1, 2, 3].map((k) => {
    const f = join(dir, `node${k}.hlog`);
    writeFileSync(f, writeHlog(simulateQueue({ rate: 1000 * k, seconds: 8, medianServiceSec: 1e-4 * k, sigma: 0.5, stalls: [], seed: 20 + k })));
    return f;
  });
  await loadFiles(page, files);
  const row = (name: string) => page.locator(`[data-testid=series][data-name="${name}"]`);
  const count = async (name: string) => Number(await row(name).getAttribute("data-count"));
  const merge = async (names: string[]) => {
    for (const n of names) await row(n).getByTestId("series-select").check();
    await page.getByTestId("merge").click();
    await page.waitForTimeout(50);
    await idle(page);
  };
  // A merge, then a merge of that merge with the third file.
  await merge(["node1", "node2"]);
  const first = (await page.locator("[data-testid=series][data-name^='merged:']").getAttribute("data-name"))!;
  await merge([first, "node3"]);
  const second = (await page.locator(`[data-testid=series][data-name^='merged:']:not([data-name="${first}"])`).getAttribute("data-name"))!;
  const total = (await count("node1")) + (await count("node2")) + (await count("node3"));
  expect(await count(second)).toBe(total);
  const p999 = await cell(page, second, "99.9").getAttribute("data-raw");
  // The first merge removed, the second hidden.
  await row(first).getByTestId("remove-series").click();
  await page.waitForTimeout(50);
  await idle(page);
  await row(second).getByTestId("series-toggle").click();
  await expect(row(second)).toHaveAttribute("data-visible", "false");
  // A loaded series removed after a merge was made from it: gone after the reload too, and
  // the merge made from it still there.
  await row("node2").getByTestId("remove-series").click();
  await page.waitForTimeout(50);
  await idle(page);
  await page.waitForTimeout(400); // the view is saved 200 ms after it settles
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(3);
  await expect(row(first)).toHaveCount(0);
  await expect(row("node2")).toHaveCount(0);
  await expect(row(second)).toHaveAttribute("data-count", String(total));
  await expect(row(second)).toHaveAttribute("data-visible", "false");
  await row(second).getByTestId("series-toggle").click();
  await page.waitForTimeout(50);
  await idle(page);
  await expect(cell(page, second, "99.9")).toHaveAttribute("data-raw", p999!);
  // Removed, it stays removed.
  await row(second).getByTestId("remove-series").click();
  await page.waitForTimeout(50);
  await idle(page);
  await page.waitForTimeout(400);
  await page.reload();
  await idle(page);
  await expect(page.getByTestId("series")).toHaveCount(2);
  await expect(row("node1")).toHaveCount(1);
  await expect(row("node3")).toHaveCount(1);
});
