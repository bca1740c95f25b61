// The live view against a real `serve` (the built page in dist/ and log files the test writes
// while the page watches). A row's count must follow the file's complete intervals, never a
// partial line, never an interval twice: through a reload of the tab, a restart of the server,
// a truncated file and a burst of lines.
import { appendFileSync, mkdtempSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { build } from "hdr-histogram-js";
import { writeHlog } from "../tests/support/hlog-fixture";
import { startServer, type Serving } from "../src/cli/serve";
import { idle, openEmpty } from "./helpers";

const PAGE = path.resolve(import.meta.dirname, "../dist");
/** Values per interval: the count a row shows is this times the intervals read. */
const PER = 100;

/** Interval lines i0…i1-1 of one log (1 s each, 100 values of 1–2 ms; interval k in `slow` holds one of 50 ms). */
function intervals(i0: number, i1: number, slow: number[] = []): { header: string; lines: string[] } {
  const ivs = [];
  for (let i = 0; i < i1; i++) {
    const h = build({ bitBucketSize: 64, numberOfSignificantValueDigits: 3 });
    for (let k = 0; k < PER; k++) h.recordValue(1_000_000 + ((i * 7919 + k * 104_729) % 1_000_000));
    if (slow.includes(i)) h.recordValue(50_000_000);
    ivs.push({ start: i, length: 1, histogram: h });
  }
  const all = writeHlog(ivs).split("\n").slice(0, -1);
  const first = all.findIndex((l) => /^[0-9]/.test(l));
  return { header: all.slice(0, first).join("\n") + "\n", lines: all.slice(first + i0).map((l) => l + "\n") };
}

/** The whole log text of intervals 0…n-1 (slow ones as given). */
function logOf(n: number, slow: number[] = []): string {
  const { header, lines } = intervals(0, n, slow);
  return header + lines.join("");
}

function row(page: Page, source: string) {
  return page.locator(`[data-testid=series][data-source="${source}"]`);
}

let servers: Serving[] = [];
test.afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});

async function serve(paths: string[], port = 0): Promise<Serving> {
  const s = await startServer({ paths, host: "127.0.0.1", port, pageDir: PAGE, pollMs: 100, quietMs: 2000 });
  servers.push(s);
  return s;
}

test("appended intervals reach every view; a partial line waits; pause holds them; screenshots", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "run.hlog");
  const { header, lines } = intervals(0, 60, [30]);
  writeFileSync(file, header + lines.slice(0, 20).join(""));
  const s = await serve([dir]);
  await page.goto(s.url);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER), { timeout: 15_000 });
  const badge = page.getByTestId("live");
  await expect(badge).toHaveAttribute("data-live", "true");
  const u1 = Number(await badge.getAttribute("data-updated"));
  expect(u1).toBeGreaterThan(0);
  // No demo in a served page: only the followed file.
  await expect(page.getByTestId("series")).toHaveCount(1);

  // Half a line: nothing changes until its newline.
  appendFileSync(file, lines[20]!.slice(0, 30));
  await page.waitForTimeout(800);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER));
  appendFileSync(file, lines[20]!.slice(30) + lines.slice(21, 40).join(""));
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(40 * PER + 1), { timeout: 15_000 });
  await expect.poll(async () => Number(await badge.getAttribute("data-updated")), { timeout: 15_000 }).toBeGreaterThan(u1);
  // The run so far and its last window (the whole run's last 60 s) follow, drawn with the rows:
  // both hold the 50 ms value of interval 31.
  const spectra = page.getByTestId("live-spectra").locator("figure");
  await expect(spectra.nth(1).locator("figcaption")).toHaveText("The last window (0–40 s)");
  await expect(spectra.nth(0)).toContainText(/max 50(\.[0-9]+)? ms/);
  await expect(spectra.nth(1)).toContainText(/max 50(\.[0-9]+)? ms/);

  // The requirement fails from interval 31 on, and the moment is marked.
  await page.getByTestId("requirement-input").fill("max<=10ms");
  await page.getByTestId("requirement-input").press("Enter");
  await idle(page);
  await expect(page.getByTestId("series-verdict")).toHaveClass(/fail/);
  // Interval 31 (30–31 s) holds the 50 ms value: the run so far fails with the intervals up to 31 s.
  await expect(page.getByTestId("live-first-failure")).toHaveAttribute("data-at", "31");

  // Time windows follow too: 10 s windows over 40 s, the worst one the 30–40 s window.
  await page.getByTestId("window-length").fill("10s");
  await page.getByTestId("window-length").press("Enter");
  await idle(page);
  const windows = page.getByTestId("window-verdict");
  await expect(windows).toHaveAttribute("data-windows", "4");
  await expect(windows).toHaveAttribute("data-worst-start", "30");

  // Paused: lines wait; resumed: they are drawn.
  await page.getByTestId("live-pause").click();
  await expect(badge).toHaveAttribute("data-live", "false");
  appendFileSync(file, lines.slice(40, 50).join(""));
  await page.waitForTimeout(800);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(40 * PER + 1));
  await page.getByTestId("live-resume").click();
  await expect(badge).toHaveAttribute("data-live", "true");
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(50 * PER + 1), { timeout: 15_000 });
  await expect(windows).toHaveAttribute("data-windows", "5");

  // The last minute on the time axis.
  await page.getByTestId("live-follow").selectOption("1");
  appendFileSync(file, lines.slice(50, 60).join(""));
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(60 * PER + 1), { timeout: 15_000 });
  await idle(page);
  await expect(spectra.nth(1).locator("figcaption")).toHaveText("The last window (0–60 s)");
  // The heatmap, asked only while on screen, shows the run to its end once scrolled to.
  const heatmap = page.getByTestId("heatmap");
  await heatmap.scrollIntoViewIfNeeded();
  await expect(heatmap).toHaveAttribute("data-domain-end", "60", { timeout: 5_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await page.screenshot({ path: "/tmp/live-view.png", fullPage: true });
});

test("the tab reloaded follows again; the server restarted: the page catches up, no interval twice", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "run.hlog");
  const { header, lines } = intervals(0, 40);
  writeFileSync(file, header + lines.slice(0, 10).join(""));
  const s1 = await serve([dir]);
  await page.goto(s1.url);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(10 * PER), { timeout: 15_000 });
  await page.reload();
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(10 * PER), { timeout: 15_000 });
  await expect(page.getByTestId("series")).toHaveCount(1);

  // Restarted on the same port while lines are written: the page reconnects and catches up.
  const port = Number(new URL(s1.url).port);
  await s1.close();
  servers = servers.filter((x) => x !== s1);
  appendFileSync(file, lines.slice(10, 25).join(""));
  await page.waitForTimeout(500);
  await serve([dir], port);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(25 * PER), { timeout: 15_000 });
  appendFileSync(file, lines.slice(25, 40).join(""));
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(40 * PER), { timeout: 15_000 });
  await page.waitForTimeout(600);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(40 * PER));
  await expect(page.getByTestId("series")).toHaveCount(1);
});

test("a truncated file starts a new run: a new series, the earlier kept apart; a burst of 10,000 lines; a deleted file is said", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "run.hlog");
  writeFileSync(file, logOf(15));
  const samples = path.join(dir, "lat.txt");
  writeFileSync(samples, "");
  const s = await serve([dir]);
  await page.goto(s.url);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(15 * PER), { timeout: 15_000 });

  // Plain samples, 10,000 lines at once.
  appendFileSync(samples, Array.from({ length: 10_000 }, (_, i) => `${1 + (i % 1000) / 1000}\n`).join(""));
  await expect(row(page, "lat.txt")).toHaveAttribute("data-count", "10000", { timeout: 15_000 });

  // A new file in the followed folder becomes a series.
  writeFileSync(path.join(dir, "later.hlog"), logOf(3));
  await expect(row(page, "later.hlog")).toHaveAttribute("data-count", String(3 * PER), { timeout: 15_000 });
  await expect(page.getByTestId("live-notes")).toContainText("later.hlog: a new file in a followed folder");

  // The run restarted: the file truncated and written again.
  truncateSync(file, 0);
  writeFileSync(file, logOf(4));
  await expect(page.getByTestId("series")).toHaveCount(4, { timeout: 15_000 });
  const counts = await page.locator("[data-testid=series][data-source='run.hlog']").evaluateAll((els) => els.map((e) => e.getAttribute("data-count")).sort());
  expect(counts).toEqual([String(15 * PER), String(4 * PER)].sort());
  await expect(page.getByTestId("live-notes")).toContainText("truncated: a new run starts");
  await expect(page.getByTestId("live-notes")).toContainText("no new interval for", { timeout: 15_000 });

  // Deleted: said, and what was read stays on screen.
  unlinkSync(samples);
  await expect(page.getByTestId("live-notes")).toContainText("lat.txt was deleted", { timeout: 15_000 });
  await expect(row(page, "lat.txt")).toHaveAttribute("data-count", "10000");
});

test("plain samples alone (no times): the live panel's run so far and last window follow them too", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const samples = path.join(dir, "lat.txt");
  writeFileSync(samples, Array.from({ length: 100 }, (_, i) => `${1 + (i % 10) / 10}\n`).join(""));
  const s = await serve([dir]);
  await page.goto(s.url);
  await expect(row(page, "lat.txt")).toHaveAttribute("data-count", "100", { timeout: 15_000 });
  appendFileSync(samples, Array.from({ length: 50 }, () => "7.5\n").join(""));
  await expect(row(page, "lat.txt")).toHaveAttribute("data-count", "150", { timeout: 15_000 });
  // Both live spectra draw the series, and its max is the one appended.
  const spectra = page.getByTestId("live-spectra").locator("figure");
  for (const k of [0, 1]) {
    await expect(spectra.nth(k).locator("path[data-series]")).toHaveCount(1);
    await expect(spectra.nth(k)).toContainText(/max 7\.5/);
  }
});

test("lines appended to a series on screen leave data-busy alone; a new file's first lines raise it until drawn", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "run.hlog");
  const { header, lines } = intervals(0, 30);
  writeFileSync(file, header + lines.slice(0, 10).join(""));
  const s = await serve([dir]);
  await page.goto(s.url);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(10 * PER), { timeout: 15_000 });
  await idle(page);
  // Every value data-busy takes from here on.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __busy: string[] }).__busy = seen;
    const app = document.querySelector("[data-testid=app]")!;
    new MutationObserver(() => seen.push(app.getAttribute("data-busy") ?? "")).observe(app, { attributes: true, attributeFilter: ["data-busy"] });
  });
  const busy = () => page.evaluate(() => (window as unknown as { __busy: string[] }).__busy);
  for (let k = 10; k < 20; k += 2) {
    appendFileSync(file, lines.slice(k, k + 2).join(""));
    await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String((k + 2) * PER), { timeout: 15_000 });
  }
  expect(await busy()).toEqual([]);
  // A new file in the followed folder: busy while its series is made and drawn, then idle.
  writeFileSync(path.join(dir, "second.hlog"), header + lines.slice(0, 5).join(""));
  await expect(row(page, "second.hlog")).toHaveAttribute("data-count", String(5 * PER), { timeout: 15_000 });
  await idle(page);
  expect(await busy()).toContain("true");
  expect((await busy()).at(-1)).toBe("false");
});

test("a followed JMeter CSV keeps the configuration set in the page as lines are appended", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "results.jtl");
  const line = (i: number) => `${1_700_000_000_000 + i * 100},${10 + (i % 50)},login,true\n`;
  writeFileSync(file, "timeStamp,elapsed,label,success\n" + Array.from({ length: 30 }, (_, i) => line(i)).join(""));
  const s = await serve([dir]);
  await page.goto(s.url);
  const r = row(page, "results.jtl");
  await expect(r).toHaveAttribute("data-count", "30", { timeout: 15_000 });
  await r.getByTestId("edit-identity").click();
  await r.getByTestId("identity-config").fill("canary");
  await r.getByTestId("identity-config").press("Enter");
  await expect(r).toHaveAttribute("data-config", "canary");
  // The reader's series are made again with every new line: what was set stays.
  appendFileSync(file, Array.from({ length: 20 }, (_, i) => line(30 + i)).join(""));
  await expect(r).toHaveAttribute("data-count", "50", { timeout: 15_000 });
  await expect(r).toHaveAttribute("data-config", "canary");
});

test("Follow a file… (the page alone): appended lines drawn, a partial line waits, a truncated file a new run", async ({ page }) => {
  const { header, lines } = intervals(0, 30);
  // The File System Access API's picker, standing in for the person's choice: the file's
  // content is what the test last wrote to window.__text.
  await page.addInitScript(() => {
    const w = window as unknown as { __text: string; showOpenFilePicker: () => Promise<unknown[]> };
    w.__text = "";
    w.showOpenFilePicker = async () => [{ name: "run.hlog", getFile: async () => new File([w.__text], "run.hlog") }];
  });
  await openEmpty(page);
  const write = (text: string) => page.evaluate((t) => ((window as unknown as { __text: string }).__text = t), text);
  await write(header + lines.slice(0, 10).join(""));
  await page.getByTestId("follow-file").click();
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(10 * PER), { timeout: 15_000 });
  await expect(page.getByTestId("live")).toHaveAttribute("data-live", "true");
  await write(header + lines.slice(0, 20).join("") + lines[20]!.slice(0, 25));
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER), { timeout: 15_000 });
  await page.waitForTimeout(1500);
  await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER));
  await write(header + lines.slice(0, 2).join(""));
  await expect(page.getByTestId("series")).toHaveCount(2, { timeout: 15_000 });
  const counts = await page.locator("[data-testid=series][data-source='run.hlog']").evaluateAll((els) => els.map((e) => e.getAttribute("data-count")));
  expect(counts.sort()).toEqual([String(20 * PER), String(2 * PER)].sort());
});

/**
 * A plain file server on another port of this host, as a log host would be: Range requests
 * answered with 206 (or 416 past the end), ETag and If-None-Match, and CORS for the page.
 * `ranges: false` stands for a server that ignores Range and sends the whole file.
 */
async function fileServer(file: string, ranges = true): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const srv: Server = createServer((req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "range, if-none-match",
      "access-control-expose-headers": "etag, content-range",
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const body = readFileSync(file);
    const etag = `"${body.length}-${body.subarray(0, 64).toString("hex").slice(0, 16)}"`;
    asked.push(String(req.headers.range ?? ""));
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { ...cors, etag });
      res.end();
      return;
    }
    const m = ranges ? /^bytes=(\d+)-$/.exec(String(req.headers.range ?? "")) : null;
    if (m) {
      const from = Number(m[1]);
      if (from >= body.length) {
        res.writeHead(416, { ...cors, "content-range": `bytes */${body.length}` });
        res.end();
        return;
      }
      res.writeHead(206, { ...cors, etag, "content-range": `bytes ${from}-${body.length - 1}/${body.length}`, "content-length": body.length - from });
      res.end(body.subarray(from));
      return;
    }
    res.writeHead(200, { ...cors, etag, "content-length": body.length });
    res.end(body);
  });
  await new Promise<void>((res) => srv.listen(0, "127.0.0.1", res));
  const port = (srv.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/logs/run.hlog`, asked, close: () => new Promise((res) => srv.close(() => res())) };
}

for (const ranges of [true, false]) {
  test(`#src=…&follow=1 follows the link's log with Range requests (${ranges ? "206" : "a server that ignores Range"}): appended, partial line waits, truncated a new run`, async ({
    page,
  }) => {
    const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
    const file = path.join(dir, "run.hlog");
    const { header, lines } = intervals(0, 30);
    writeFileSync(file, header + lines.slice(0, 10).join(""));
    const host = await fileServer(file, ranges);
    try {
      await page.goto("./#src=" + encodeURIComponent(host.url) + "&follow=1");
      // Another origin: asked first, as any #src= link; nothing fetched before the answer.
      await expect(page.getByTestId("src-consent")).toBeVisible();
      expect(host.asked).toEqual([]);
      await page.getByTestId("src-consent-load").click();
      await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(10 * PER), { timeout: 15_000 });
      await expect(page.getByTestId("live")).toHaveAttribute("data-live", "true");
      await expect(page.getByTestId("series")).toHaveCount(1);

      appendFileSync(file, lines.slice(10, 20).join("") + lines[20]!.slice(0, 25));
      await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER), { timeout: 15_000 });
      await page.waitForTimeout(1500);
      await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(20 * PER));
      appendFileSync(file, lines[20]!.slice(25) + lines.slice(21, 25).join(""));
      await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(25 * PER), { timeout: 15_000 });
      // The requests after the first named a range from near the end read (or the server ignored it).
      expect(host.asked[0]).toBe("");
      expect(host.asked.slice(1).every((r) => /^bytes=\d+-$/.test(r) && Number(/\d+/.exec(r)![0]) > 0)).toBe(true);

      // Truncated and written again: a new run, said, the earlier one kept apart.
      writeFileSync(file, header + lines.slice(0, 3).join(""));
      await expect(page.getByTestId("series")).toHaveCount(2, { timeout: 15_000 });
      const counts = await page.locator("[data-testid=series][data-source='run.hlog']").evaluateAll((els) => els.map((e) => e.getAttribute("data-count")));
      expect(counts.sort()).toEqual([String(25 * PER), String(3 * PER)].sort());
      await expect(page.getByTestId("live-notes")).toContainText("run.hlog was truncated: a new run starts");
    } finally {
      await host.close();
    }
  });
}

test("the Follow control of a #src= link's page reads the log again and follows it", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "live-e2e-"));
  const file = path.join(dir, "run.hlog");
  const { header, lines } = intervals(0, 20);
  writeFileSync(file, header + lines.slice(0, 5).join(""));
  const host = await fileServer(file);
  try {
    await page.goto("./#src=" + encodeURIComponent(host.url));
    await page.getByTestId("src-consent-load").click();
    await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(5 * PER), { timeout: 15_000 });
    await expect(page.getByTestId("live")).toHaveCount(0);
    appendFileSync(file, lines.slice(5, 8).join(""));
    await page.getByTestId("follow-src").click();
    await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(8 * PER), { timeout: 15_000 });
    await expect(page.getByTestId("series")).toHaveCount(1);
    await expect(page.getByTestId("follow-src")).toHaveCount(0);
    appendFileSync(file, lines.slice(8, 12).join(""));
    await expect(row(page, "run.hlog")).toHaveAttribute("data-count", String(12 * PER), { timeout: 15_000 });
    await idle(page);
    await page.screenshot({ path: "/tmp/live-src.png", fullPage: true });
  } finally {
    await host.close();
  }
});
